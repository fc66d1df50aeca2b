/**
 * `site build` and `site check`: one run of the pipeline (src/pipeline/), whose stages are timed.
 * Markdown and esbuild outputs come from the disk cache when their inputs are unchanged; Markdown
 * misses and page rendering are spread over a worker pool when there is enough of them to pay for it.
 */
import type { ResolvedConfig } from './config/load.js';
import type { OutputFiles } from './output-files.js';
import { SiteErrors, throwIfAny, type SiteError } from './errors.js';
import type { IslandRuntime } from './islands/bundle.js';
import { byCollection, type Entry, type Page } from './pipeline/content-api.js';
import { createPipeline } from './pipeline/pipeline.js';

/** Options of `buildSite`. */
export interface BuildOptions {
  /** Path of site.config.yaml. */
  config: string;
  /** Include entries marked as drafts. */
  drafts?: boolean;
  /** Include entries dated after today (scheduled). */
  future?: boolean;
  /** Today as an ISO date (default: from the clock); tests fix it. */
  today?: () => string;
  /** The client runtime of the islands (default preact/compat). */
  islandRuntime?: IslandRuntime;
  /**
   * Worker threads for Markdown and rendering. By default one per core besides the main thread,
   * used only when the work is large enough to pay for starting them; 0 never uses workers; a
   * positive number always uses that many and leaves all chunks to them (to test them).
   */
  workers?: number;
  /** Read and write the disk cache (Markdown, esbuild outputs); default true. */
  cache?: boolean;
  /** Called with the config as soon as it is loaded, before any other work; throw to stop the build. */
  checkConfig?(config: ResolvedConfig): void;
}

/** What a build computed and what it took from the cache. */
export interface BuildStats {
  markdownParsed: number;
  markdownCached: number;
  /** esbuild steps (templates, stylesheet, islands) answered by the cache. */
  esbuildCached: number;
  pagesRendered: number;
  /** Worker threads started (0 when everything ran on the main thread). */
  workers: number;
}

/** What a build produced, in memory. */
export interface BuildResult {
  config: ResolvedConfig;
  pages: Page[];
  /** The entries of each collection, newest first. */
  entries: Record<string, Entry[]>;
  files: OutputFiles;
  /** Milliseconds per stage. */
  timings: Record<string, number>;
  /** For each page URL, the JavaScript files it loads. */
  scripts: Map<string, string[]>;
  stats: BuildStats;
  /** Problems that did not stop the build. */
  warnings: SiteError[];
}

/** Runs the whole pipeline once, in memory; throws SiteError(s) describing every problem found. */
export async function buildSite(options: BuildOptions): Promise<BuildResult> {
  const pipeline = createPipeline(options);
  try {
    const outcome = await pipeline.run();
    if (!outcome.ok) {
      if (outcome.crash !== undefined) throw outcome.crash;
      throwIfAny(outcome.errors);
      throw new SiteErrors(outcome.errors);
    }
    const build = pipeline.lastBuild!;
    const scripts = new Map<string, string[]>();
    for (const page of build.pageSet.pages) {
      const pageScripts = build.renders.byFile.get(page.file)!.scripts;
      if (pageScripts.length) scripts.set(page.url, pageScripts);
    }
    return {
      config: build.config,
      pages: build.pageSet.pages,
      entries: byCollection(build.config, build.entryList),
      files: build.files,
      timings: outcome.timings,
      scripts,
      stats: { ...pipeline.stats(), pagesRendered: outcome.rendered },
      warnings: outcome.warnings,
    };
  } finally {
    await pipeline.dispose();
  }
}
