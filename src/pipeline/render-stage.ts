/**
 * Stage 5: rendering. The plan says which pages (render-plan.ts, or written-output.ts for a build
 * into a folder an earlier build wrote); they are rendered here or on the worker pool when there
 * are enough of them to pay for it, with what each read when the next run needs it. In `site dev`
 * a run with many pages to render renders the open ones and defers the rest (`RenderOptions.defer`).
 */
import type { FileStamp, RenderState } from '../cache/render-state.js';
import { hashParts } from '../cache/disk-cache.js';
import { SiteError } from '../errors.js';
import type { RenderSetup } from '../worker.js';
import type { PageOutput, PageRenderer } from '../render/render-pages.js';
import { templatesFileOf } from '../render/templates.js';
import { createSiteRenderer, renderInputOf } from './content-api.js';
import {
  planAll,
  planFromBuild,
  type PageRender,
  type RenderedBefore,
  type RenderPlan,
  type RenderStageInput,
} from './render-plan.js';
import type { Runtime } from './runtime.js';
import { spillHtml, type Spill } from '../spill.js';
import type { OutputRecord } from '../cache/render-state.js';
import {
  createReadSets,
  firstRenderState,
  globalFingerprint,
  nextRenderState,
  planFromWritten,
  type WrittenOutput,
} from './written-output.js';

/** The outcome of the render stage. */
export interface RenderedPages {
  plan: RenderPlan;
  /** Page file → its render, for the pages rendered in this run. */
  rendered: Map<string, PageRender>;
  /** Output files an earlier build wrote that are left as they are, with their stamps. */
  kept: Map<string, FileStamp>;
  /** What to persist of the pages once the files are written (undefined: nothing new). */
  renderState?: Omit<RenderState, 'stamps'>;
  /** What the output folder's last write recorded of it (for `writeSite`). */
  recorded?: OutputRecord;
  /**
   * The fingerprint of everything the pages are made from (what every page depends on, and every
   * input a render may read), when it could be taken without reading the inputs (see `RenderState.inputs`).
   */
  fingerprint?: string;
  errors: SiteError[];
  /** Indexes of the pages of the plan left to render later, with `renderLater`. */
  deferred: number[];
  /** Renders one page of this run's input here, tracked; throws its SiteError. */
  renderLater?(index: number): PageRender;
  /** Where the pages' HTML went as they were rendered (`RenderOptions.spill`). */
  spill?: Spill;
}

/** A run with `defer` renders every page of its plan when there are at most this many. */
export const eagerPages = 64;

/** What the render stage knows of the last build, and how it runs. */
export interface RenderOptions {
  runtime: Runtime;
  /** The last good build in memory, in an incremental pipeline: its pages are rendered tracked. */
  previous?: RenderedBefore;
  incremental: boolean;
  /** The folder an earlier build wrote, for a build that is not incremental. */
  written?: WrittenOutput;
  /** `globalFingerprint` of the input and `written`, when the caller has it. */
  global?: string;
  /**
   * In an incremental pipeline with a build before: when more than `eagerPages` pages are to be
   * rendered, render only those whose files are in `first` (the pages open in a browser) and the
   * new ones (up to `eagerPages`: a new post's page has no earlier version to serve, and is the one
   * its author opens next), and defer the rest, which the caller renders on request or in the
   * background.
   */
  defer?: { first: ReadonlySet<string> };
  /**
   * A build that is not incremental: each page's HTML goes here as it is rendered, and is read
   * back when a later stage asks for it (spill.ts), so the build does not hold every page.
   */
  spill?: Spill;
}

/** Renders the pages that need it. */
export async function renderStage(input: RenderStageInput, options: RenderOptions): Promise<RenderedPages> {
  const { runtime, written, previous } = options;
  if (written) {
    const global = options.global ?? globalFingerprint(input, written);
    const plan = planFromWritten(input, written, global);
    const fingerprint = plan.inputs && hashParts(global, plan.inputs);
    if (!written.state && plan.inputs !== undefined) {
      // A first build into the folder renders untracked (tracking costs: 0.2 s of 1000 posts, three
      // times the render of the real site) and records each page as reading every input. Without
      // the inputs' fingerprint (an entry changed within `settleMs`) it tracks what each page reads.
      const { rendered, errors } = await renderPages(input, plan, { runtime, track: false, spill: options.spill });
      return {
        plan,
        rendered,
        kept: plan.kept,
        renderState: firstRenderState(input, plan.routes, plan.inputs, global),
        fingerprint,
        errors,
        deferred: [],
        spill: options.spill,
      };
    }
    // Seeded with the inputs the folder's state names, when the plan has their fingerprints and
    // pages are to be rendered (written-output.ts); a build that renders none needs no index of them.
    const reads = createReadSets(plan.prints.length && plan.indexes.length ? written.state!.keys : undefined);
    const { rendered, errors } = await renderPages(input, plan, { runtime, track: true, reads, spill: options.spill });
    return {
      plan,
      rendered,
      kept: plan.kept,
      renderState: nextRenderState(input, written, plan, reads, global),
      fingerprint,
      errors,
      deferred: [],
      spill: options.spill,
    };
  }
  const plan = previous ? planFromBuild(input, previous) : planAll(input);
  const first = options.defer?.first;
  if (!previous || !first || !options.incremental || plan.indexes.length <= eagerPages) {
    // A spill is for a build that is not incremental: a later run's pages would be read from it.
    const spill = options.incremental ? undefined : options.spill;
    const { rendered, errors } = await renderPages(input, plan, { runtime, track: options.incremental, spill });
    return { plan, rendered, kept: new Map(), errors, deferred: [], spill };
  }
  const { pages } = input.pageSet;
  const isNew = (file: string) => !previous.renders.byFile.has(file) && !previous.pending.has(file);
  const fresh = plan.indexes.filter((index) => isNew(pages[index]!.file)).slice(0, eagerPages);
  const eager = new Set([...plan.indexes.filter((index) => first.has(pages[index]!.file)), ...fresh]);
  const now = plan.indexes.filter((index) => eager.has(index));
  const deferred = plan.indexes.filter((index) => !eager.has(index));
  const { rendered, errors, renderer } = await renderPages(input, { ...plan, indexes: now }, { runtime, track: true });
  return { plan, rendered, kept: new Map(), errors, deferred, renderLater: (index) => renderer().renderOne(index) };
}

/**
 * Renders the pages of the plan. With `track`, each page comes with what its render read, or hands
 * it to `reads`: there, as indexes into one list, a site's reads take a fraction of the memory.
 */
async function renderPages(
  input: RenderStageInput,
  plan: RenderPlan,
  options: {
    runtime: Runtime;
    track: boolean;
    reads?: { add(file: string, reads: Iterable<string>): void };
    spill?: Spill;
  },
): Promise<{ rendered: Map<string, PageRender>; errors: SiteError[]; renderer: () => PageRenderer }> {
  const { pageSet } = input;
  const renderInput = renderInputOf({ ...input, pages: pageSet.pages, entries: input.entryList });
  const islands = { entries: input.islands.entries, graph: input.islands.graph };
  let renderer: PageRenderer | undefined;
  const here = () => (renderer ??= createSiteRenderer(renderInput, input.templates, islands, options.track));
  const rendered = new Map<string, PageRender>();
  const { spill } = options;
  const keep = (file: string, page: PageRender) => {
    if (options.reads && page.reads) {
      options.reads.add(file, page.reads);
      page = { html: page.html, scripts: page.scripts };
    }
    rendered.set(file, spill ? spillHtml(spill, page) : page);
  };
  const take = (at: number, output: PageOutput) => {
    if ('error' in output) errors.push(new SiteError(output.error));
    else keep(pageSet.pages[plan.indexes[at]!]!.file, output);
  };
  const errors: SiteError[] = [];
  const templatesFile = templatesFileOf(input.templates);
  const place = plan.indexes.length ? await options.runtime.renderPool(plan.indexes.length, templatesFile) : undefined;
  const progress = options.runtime.progress.begin('render', plan.indexes.length, 'pages');
  try {
    if (place) {
      const outputs = await place.pool.run<number, PageOutput>({
        kind: 'render',
        setup: {
          input: renderInput,
          templatesFile: templatesFile!,
          islands,
          track: options.track,
        } satisfies RenderSetup,
        items: plan.indexes,
        chunkSize: 16,
        local: place.local ? (chunk) => here().render(chunk) : undefined,
        onChunk: (count) => progress.tick(count),
        // Spilled as the chunks come back, in item order (a chunk ahead of its turn waits): the job keeps none.
        ...(spill && { onResults: inOrder(take), keepResults: false }),
      });
      if (!spill) outputs.forEach((output, at) => take(at, output));
    } else {
      // Here, a SiteError keeps its cause (the template's exception, for --verbose).
      for (const index of plan.indexes) {
        try {
          keep(pageSet.pages[index]!.file, here().renderOne(index));
        } catch (error) {
          if (!(error instanceof SiteError)) throw error;
          errors.push(error);
        }
        progress.tick();
      }
    }
  } finally {
    progress.end();
  }
  return { rendered, errors, renderer: here };
}

/** Hands each result to `take` in item order, as the chunks of a job come back in any order (`PoolJob.onResults`). */
function inOrder<R>(take: (at: number, result: R) => void): (first: number, results: R[]) => void {
  const waiting = new Map<number, R[]>();
  let next = 0;
  return (first, results) => {
    waiting.set(first, results);
    for (let chunk = waiting.get(next); chunk; chunk = waiting.get(next)) {
      waiting.delete(next);
      chunk.forEach((result, offset) => take(next + offset, result));
      next += chunk.length;
    }
  };
}
