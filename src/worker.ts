/**
 * A worker thread of the build's pool (parallel/pool.ts), built into lib/worker.js: renders
 * Markdown documents, or pages of a build from the render input it was set up with (the
 * templates are imported from their bundled module in the cache).
 */
import { pathToFileURL } from 'node:url';
import { parentPort } from 'node:worker_threads';
import { renderMarkdownDocument } from './content/markdown.js';
import { createPageRenderer, type IslandScripts } from './render/render-pages.js';
import type { RenderInput } from './render/render.js';
import type { TemplateSet } from './render/types.js';
import type { WorkerReply, WorkerRequest } from './parallel/protocol.js';

/** The setup of a render job. */
export interface RenderSetup {
  input: Omit<RenderInput, 'templates' | 'track'>;
  /** The bundled templates module (see loadTemplates). */
  templatesFile: string;
  islands: IslandScripts;
  /** Return with each page what its render read. */
  track?: boolean;
}

type Handler = (items: unknown[]) => unknown[] | Promise<unknown[]>;

const port = parentPort!;
const handlers = new Map<number, Promise<Handler>>();

async function createHandler(kind: string, setup: unknown): Promise<Handler> {
  if (kind === 'markdown') {
    return async (items) => {
      const out = [];
      for (const text of items as string[]) out.push(await renderMarkdownDocument(text));
      return out;
    };
  }
  const { input, templatesFile, islands, track } = setup as RenderSetup;
  const templates = (await import(pathToFileURL(templatesFile).href)) as TemplateSet;
  const renderer = createPageRenderer({ ...input, templates }, islands, { track });
  return (items) => renderer.render(items as number[]);
}

port.on('message', (message: WorkerRequest) => {
  if (message.type === 'setup') {
    const handler = createHandler(message.kind, message.setup);
    handler.catch(() => undefined);
    handlers.set(message.job, handler);
  } else if (message.type === 'end') {
    handlers.delete(message.job);
  } else {
    const { job, chunk, items } = message;
    void (async () => {
      let reply: WorkerReply;
      try {
        const handler = await handlers.get(job);
        if (!handler) throw new Error(`no setup for job ${job}`);
        reply = { type: 'result', job, chunk, results: await handler(items) };
      } catch (error) {
        reply = { type: 'error', job, chunk, message: error instanceof Error ? error.message : String(error), stack: error instanceof Error ? error.stack : undefined };
      }
      port.postMessage(reply);
    })();
  }
});
