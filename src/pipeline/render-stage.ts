/**
 * Stage 5: rendering. With nothing known of the last build, or when the config, templates, islands
 * or stylesheet changed, every page is rendered; otherwise only the pages whose recorded reads
 * (their read-sets, see `RenderDependency`) touch an input that differs, and the pages that are
 * new. The last build is known in memory (`planFromBuild`, `site dev`) or from what it persisted
 * beside the output folder (written-output.ts). Pages go to the worker pool when there are enough
 * of them to pay for it.
 */
import type { ResolvedConfig } from '../config/load.js';
import { SiteError } from '../errors.js';
import type { IslandBundle } from '../islands/bundle.js';
import type { RenderSetup } from '../parallel/worker.js';
import type { PageOutput, PageRenderer, RenderedPage } from '../render/render-pages.js';
import { templatesFileOf } from '../render/templates.js';
import type { TemplateSet } from '../render/types.js';
import { createSiteRenderer, renderInputOf, type Post } from './content-api.js';
import { diffInputs, type RenderedInputs } from './diff.js';
import type { Runtime } from './runtime.js';

/** One rendered page: its HTML, the scripts it loads, and what its render read when tracked. */
export type PageRender = RenderedPage;

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
  /** What of the islands pages depend on (see `islandsKeyOf`). */
  islandsKey: string;
  stylesheet: string;
  /** The posts in the order the site lists them. */
  postList: readonly Post[];
}

/** What the render stage needs of the last good build. */
export interface RenderedBefore extends RenderedInputs {
  config: ResolvedConfig;
  templates: TemplateSet;
  islandsKey: string;
  stylesheet: string;
  renders: PageRenders;
}

/** Which pages a run renders. */
export interface RenderPlan {
  /** Indexes into the pages. */
  indexes: number[];
  /** Whether every page is rendered because nothing is known of the last build, or what every page depends on changed. */
  all: boolean;
  /** The render dependencies that differ from the last build (none when nothing is known of it). */
  changed: Set<string>;
}

/** The outcome of the render stage. */
export interface RenderedPages {
  /** Page file → its render, for the pages rendered in this run. */
  rendered: Map<string, PageRender>;
  errors: SiteError[];
}

/** What of the islands every page depends on: the URLs of their entries and of the files those load. */
export function islandsKeyOf(islands: IslandBundle): string {
  return JSON.stringify([islands.entries, islands.graph]);
}

/** Every page. */
export function planAll(input: RenderStageInput): RenderPlan {
  return { indexes: input.pageSet.pages.map((_, index) => index), all: true, changed: new Set() };
}

/**
 * From the last good build in memory: every page when the config, templates, islands or
 * stylesheet changed; else the pages that read something that differs, and the new ones.
 */
export function planFromBuild(input: RenderStageInput, before: RenderedBefore): RenderPlan {
  const changed = diffInputs(before, input, before.renders.readers.keys());
  if (before.config !== input.config || before.templates !== input.templates || before.islandsKey !== input.islandsKey || before.stylesheet !== input.stylesheet) {
    return { ...planAll(input), changed };
  }
  const readers = new Set<string>();
  for (const key of changed) for (const file of before.renders.readers.get(key) ?? []) readers.add(file);
  const { pageSet } = input;
  const indexes = pageSet === before.pageSet
    ? [...readers].flatMap((file) => pageSet.indexOf.get(file) ?? [])
    : pageSet.pages.flatMap((page, index) => (readers.has(page.file) || !before.renders.byFile.has(page.file) ? [index] : []));
  return { indexes, all: false, changed };
}

/** Where the reads of each page go instead of onto its render (see written-output.ts). */
export interface ReadSink {
  add(file: string, reads: Iterable<string>): void;
}

/**
 * Renders the pages of the plan. With `track`, each page comes with what its render read, or hands
 * it to `reads`: there, as indexes into one list, a site's reads take a fraction of the memory.
 */
export async function renderPages(input: RenderStageInput, plan: RenderPlan, options: { runtime: Runtime; track: boolean; reads?: ReadSink }): Promise<RenderedPages> {
  const { pageSet } = input;
  const renderInput = renderInputOf({ ...input, pages: pageSet.pages, posts: input.postList });
  const islands = { entries: input.islands.entries, graph: input.islands.graph };
  let renderer: PageRenderer | undefined;
  const here = () => (renderer ??= createSiteRenderer(renderInput, input.templates, islands, options.track));
  const rendered = new Map<string, PageRender>();
  const keep = (file: string, page: PageRender) => {
    if (options.reads && page.reads) {
      options.reads.add(file, page.reads);
      rendered.set(file, { html: page.html, scripts: page.scripts });
    } else {
      rendered.set(file, page);
    }
  };
  const errors: SiteError[] = [];
  const templatesFile = templatesFileOf(input.templates);
  const place = await options.runtime.renderPool(plan.indexes.length, templatesFile);
  if (place) {
    const outputs = await place.pool.run<number, PageOutput>({
      kind: 'render',
      setup: { input: renderInput, templatesFile: templatesFile!, islands, track: options.track } satisfies RenderSetup,
      items: plan.indexes,
      chunkSize: 16,
      local: place.local ? (chunk) => here().render(chunk) : undefined,
    });
    outputs.forEach((output, at) => {
      if ('error' in output) errors.push(new SiteError(output.error));
      else keep(pageSet.pages[plan.indexes[at]!]!.file, output);
    });
  } else {
    // Here, a SiteError keeps its cause (the template's exception, for --verbose).
    for (const index of plan.indexes) {
      try {
        keep(pageSet.pages[index]!.file, here().renderOne(index));
      } catch (error) {
        if (!(error instanceof SiteError)) throw error;
        errors.push(error);
      }
    }
  }
  return { rendered, errors };
}
