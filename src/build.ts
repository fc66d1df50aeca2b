/**
 * `site build` and `site check`: one run of the pipeline (src/pipeline/), whose stages are timed;
 * `site build`'s run writes the output folder too (`BuildOptions.publish`).
 * Markdown and esbuild outputs come from the disk cache when their inputs are unchanged; Markdown
 * misses and page rendering are spread over a worker pool when there is enough of them to pay for it.
 */
import type { FileStamp, OutputRecord, RenderState } from './cache/render-state.js';
import type { ResolvedConfig } from './config/load.js';
import type { OutputFiles } from './output-files.js';
import type { OutputReport } from './pipeline/output-stage.js';
import { SiteErrors, type SiteError } from './errors.js';
import { byCollection, type Entry, type Page } from './pipeline/content-api.js';
import { createPipeline, type PipelineOptions } from './pipeline/pipeline.js';
import { placedWebLinks, type PlacedLink } from './pipeline/links-stage.js';
import type { ScheduledTranslation } from './content/schedule.js';

/** Options of `buildSite`: those of a pipeline that runs once (see `PipelineOptions`). */
export type BuildOptions = Omit<PipelineOptions, 'incremental' | 'esbuild'>;

/** What a build computed and what it took from the cache. */
export interface BuildStats {
  markdownParsed: number;
  markdownCached: number;
  /** Entry folders taken as an earlier build loaded them, their files unchanged. */
  entriesKept: number;
  /** Whether the pages were taken as an earlier build expanded them from the same config and entries. */
  pageSetKept: boolean;
  /** esbuild steps (templates, stylesheet, islands) answered by the cache. */
  esbuildCached: number;
  pagesRendered: number;
  /** Worker threads started (0 when everything ran on the main thread). */
  workers: number;
  /** Social images written, and how many of them were drawn rather than taken from the cache. */
  socialImages: number;
  socialImagesDrawn: number;
  /** Variants of the entries' images written, and how many were encoded rather than taken from the cache. */
  imageVariants: number;
  imageVariantsMade: number;
}

/** What a build produced, in memory. */
export interface BuildResult {
  config: ResolvedConfig;
  pages: Page[];
  /** The entries of each collection, newest first. */
  entries: Record<string, Entry[]>;
  /** The translations left out until their day (none with `future`), in the order they appear. */
  scheduled: ScheduledTranslation[];
  /** Every output file, but those in `kept`. */
  files: OutputFiles;
  /** Output files of an earlier build that are left as they are, with their stamps (for `writeSite`). */
  kept: Map<string, FileStamp>;
  /** What the pages were rendered from, to store with the written files (for `writeSite`). */
  renderState?: Omit<RenderState, 'stamps'>;
  /** What the output folder's last write recorded of it (for `writeSite`). */
  recorded?: OutputRecord;
  /** Milliseconds per stage. */
  timings: Record<string, number>;
  /** For each page URL rendered, the JavaScript files it loads. */
  scripts: Map<string, string[]>;
  stats: BuildStats;
  /** Problems that did not stop the build. */
  warnings: SiteError[];
  /** Notes on the build, for --verbose. */
  infos: SiteError[];
  /** What the output stages wrote (with `publish`). */
  output?: OutputReport;
  /** The web addresses the posts and the page copy link to, each where it is written (for `site check --external`). */
  webLinks(): PlacedLink[];
}

/**
 * Runs the whole pipeline once, in memory; throws SiteError(s) describing every error found (a
 * SiteErrors carries the warnings found on the way too).
 */
export async function buildSite(options: BuildOptions): Promise<BuildResult> {
  const pipeline = createPipeline(options);
  try {
    const outcome = await pipeline.run();
    if (!outcome.ok) {
      if (outcome.crash !== undefined) throw outcome.crash;
      if (outcome.errors.length === 1 && outcome.warnings.length === 0) throw outcome.errors[0];
      throw new SiteErrors(outcome.errors, outcome.warnings);
    }
    const build = pipeline.lastBuild!;
    const scripts = new Map<string, string[]>();
    for (const page of build.pageSet.pages) {
      const pageScripts = build.renders.byFile.get(page.file)?.scripts;
      if (pageScripts?.length) scripts.set(page.url, pageScripts);
    }
    return {
      config: build.config,
      pages: build.pageSet.pages,
      entries: byCollection(build.config, build.entryList),
      scheduled: build.scheduled,
      files: build.files,
      kept: build.kept,
      renderState: build.renderState,
      recorded: build.recorded,
      timings: outcome.timings,
      scripts,
      stats: { ...pipeline.stats(), pagesRendered: outcome.rendered },
      warnings: outcome.warnings,
      infos: outcome.infos,
      output: outcome.output,
      webLinks: () =>
        placedWebLinks({
          config: build.config,
          pages: build.pageSet.pages,
          entryList: build.entryList,
          contents: build.contents,
        }),
    };
  } finally {
    await pipeline.dispose();
  }
}
