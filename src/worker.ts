/**
 * A worker thread of the build's pool (parallel/pool.ts), built into lib/worker.js: renders
 * Markdown documents, or pages of a build from the render input it was set up with (the
 * templates are imported from their bundled module in the cache).
 */
import { pathToFileURL } from 'node:url';
import { noMarkdownPlugins, renderMarkdownDocument, type MarkdownPlugins } from './content/markdown.js';
import { createPageRenderer, type IslandScripts } from './render/render-pages.js';
import type { RenderInput } from './render/render.js';
import type { TemplateSet } from './render/types.js';
import type { JobKind } from './parallel/protocol.js';
import { serveJobs, type JobHandler } from './parallel/serve-jobs.js';

/** The setup of a render job. */
export interface RenderSetup {
  input: Omit<RenderInput, 'templates' | 'track'>;
  /** The bundled templates module (see loadTemplates). */
  templatesFile: string;
  islands: IslandScripts;
  /** Return with each page what its render read. */
  track?: boolean;
}

async function createHandler(kind: JobKind, setup: unknown): Promise<JobHandler> {
  if (kind === 'markdown') {
    // The configured remark and rehype plugins are imported here, in the thread that renders.
    const plugins = (setup as MarkdownPlugins | undefined) ?? noMarkdownPlugins;
    return async (items) => {
      const out = [];
      for (const text of items as string[]) out.push(await renderMarkdownDocument(text, plugins));
      return out;
    };
  }
  if (kind !== 'render') throw new Error(`lib/worker.js does not run ${kind} jobs`);
  const { input, templatesFile, islands, track } = setup as RenderSetup;
  const templates = (await import(pathToFileURL(templatesFile).href)) as TemplateSet;
  const renderer = createPageRenderer({ ...input, templates }, islands, { track });
  return (items) => renderer.render(items as number[]);
}

serveJobs(createHandler);
