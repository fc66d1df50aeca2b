/**
 * Stage 5: rendering. With no build before, or when the config, templates, islands or stylesheet
 * changed, every page is rendered; otherwise only the pages whose recorded reads (their read-sets,
 * see `RenderDependency`) touch an input that differs, and the pages that are new. Tracked renders
 * run here, on the main thread; untracked ones (a build that runs once) go to the worker pool when
 * there are enough of them to pay for it.
 */
import type { ResolvedConfig } from '../config/load.js';
import { SiteError } from '../errors.js';
import type { IslandBundle } from '../islands/bundle.js';
import type { RenderSetup } from '../worker.js';
import type { PageOutput } from '../render/render-pages.js';
import { templatesFileOf } from '../render/templates.js';
import type { TemplateSet } from '../render/types.js';
import { createSiteRenderer, renderInputOf, type Entry } from './content-api.js';
import { diffInputs, type RenderedInputs } from './diff.js';
import type { Runtime } from './runtime.js';

/** One rendered page. */
export interface PageRender {
  html: string;
  /** The JavaScript files it loads. */
  scripts: string[];
  /** What its render read, when tracked. */
  reads?: Set<string>;
}

/** The renders of a build: each page's, and for each read, the page files whose render made it. */
export interface PageRenders {
  byFile: Map<string, PageRender>;
  readers: Map<string, Set<string>>;
}

/** What rendering reads. */
export interface RenderStageInput extends RenderedInputs {
  config: ResolvedConfig;
  templates: TemplateSet;
  islands: IslandBundle;
  stylesheet: string;
  /** The entries in the order the site lists them. */
  entryList: readonly Entry[];
}

/** What the render stage needs of the last good build. */
export interface RenderedBefore extends RenderedInputs {
  config: ResolvedConfig;
  templates: TemplateSet;
  islandsKey: string;
  stylesheet: string;
  renders: PageRenders;
}

/** The outcome of the render stage. */
export interface RenderedPages {
  /** Page file → its render, for the pages rendered in this run. */
  rendered: Map<string, PageRender>;
  /** Whether every page was rendered. */
  all: boolean;
  /** The render dependencies that differ from the last build (none without one). */
  changed: Set<string>;
  islandsKey: string;
  errors: SiteError[];
}

/** Renders the pages that need it; `track` records each page's reads for the next run. */
export async function renderPages(input: RenderStageInput, before: RenderedBefore | undefined, options: { runtime: Runtime; track: boolean }): Promise<RenderedPages> {
  const { pageSet } = input;
  const islandsKey = JSON.stringify([input.islands.entries, input.islands.graph]);
  const changed = before ? diffInputs(before, input, before.renders.readers.keys()) : new Set<string>();
  const all = !before || before.config !== input.config || before.templates !== input.templates || before.islandsKey !== islandsKey || before.stylesheet !== input.stylesheet;
  const indexes = !before || all ? pageSet.pages.map((_, index) => index) : affectedPages(before, input, changed);
  const render = options.track ? renderTracked : renderUntracked;
  const { rendered, errors } = await render(input, indexes, options.runtime);
  return { rendered, all, changed, islandsKey, errors };
}

/** The indexes of the pages that read something in `changed`, and of the pages that are new. */
function affectedPages(before: RenderedBefore, input: RenderStageInput, changed: ReadonlySet<string>): number[] {
  const readers = new Set<string>();
  for (const key of changed) for (const file of before.renders.readers.get(key) ?? []) readers.add(file);
  const { pageSet } = input;
  if (pageSet === before.pageSet) return [...readers].flatMap((file) => pageSet.indexOf.get(file) ?? []);
  return pageSet.pages.flatMap((page, index) => (readers.has(page.file) || !before.renders.byFile.has(page.file) ? [index] : []));
}

type Renders = { rendered: Map<string, PageRender>; errors: SiteError[] };

/** Renders here, one page at a time, recording what each read. */
async function renderTracked(input: RenderStageInput, indexes: readonly number[]): Promise<Renders> {
  let reads = new Set<string>();
  const renderer = createSiteRenderer(renderInputOf({ ...input, pages: input.pageSet.pages, entries: input.entryList }), input.templates, input.islands, (dependency) => reads.add(dependency));
  return renderEach(input, indexes, (index) => {
    reads = new Set([`page:${input.pageSet.pages[index]!.url}`]);
    return { ...renderer.renderOne(index), reads };
  });
}

/** Renders on the pool when the runtime gives one, else here. */
async function renderUntracked(input: RenderStageInput, indexes: readonly number[], runtime: Runtime): Promise<Renders> {
  const renderInput = renderInputOf({ ...input, pages: input.pageSet.pages, entries: input.entryList });
  const islands = { entries: input.islands.entries, graph: input.islands.graph };
  let renderer: ReturnType<typeof createSiteRenderer> | undefined;
  const here = () => (renderer ??= createSiteRenderer(renderInput, input.templates, islands));
  const templatesFile = templatesFileOf(input.templates);
  const place = await runtime.renderPool(indexes.length, templatesFile);
  if (!place) return renderEach(input, indexes, (index) => here().renderOne(index));
  const outputs = await place.pool.run<number, PageOutput>({
    kind: 'render',
    setup: { input: renderInput, templatesFile: templatesFile!, islands } satisfies RenderSetup,
    items: indexes,
    chunkSize: 16,
    local: place.local ? (chunk) => here().render(chunk) : undefined,
  });
  const rendered = new Map<string, PageRender>();
  const errors: SiteError[] = [];
  outputs.forEach((output, at) => {
    if ('error' in output) errors.push(new SiteError(output.error));
    else rendered.set(input.pageSet.pages[indexes[at]!]!.file, output);
  });
  return { rendered, errors };
}

function renderEach(input: RenderStageInput, indexes: readonly number[], render: (index: number) => PageRender): Renders {
  const rendered = new Map<string, PageRender>();
  const errors: SiteError[] = [];
  for (const index of indexes) {
    try {
      rendered.set(input.pageSet.pages[index]!.file, render(index));
    } catch (error) {
      if (!(error instanceof SiteError)) throw error;
      errors.push(error);
    }
  }
  return { rendered, errors };
}
