/**
 * The builder of `site dev`: an incremental pipeline (src/pipeline/) kept alive between changes.
 * Each change reloads only the inputs the changed files feed and re-renders only the pages whose
 * recorded reads touch something that differs; the files are the ones `buildSite` returns for the
 * same input, byte for byte. Templates, islands and CSS go through kept esbuild contexts. When a
 * change touches many pages, the pages open in a browser are rendered first and the others when
 * they are asked for (`file`) or in the background (`renderPending`).
 */
import type { SiteError } from '../errors.js';
import type { ResolvedConfig } from '../config/load.js';
import type { OutputFiles } from '../output-files.js';
import type { IslandRuntime } from '../islands/bundle.js';
import type { WatchedPaths } from '../pipeline/changes.js';
import type { Build } from '../pipeline/result-stage.js';
import { writePathLock } from '../config/path-lock.js';
import { createPipeline, type FileChange, type RunFailure, type RunOptions, type RunOutcome, type RunSuccess } from '../pipeline/pipeline.js';

export type { FileChange, RunOptions };

/** Options of `createDevBuilder`. */
export interface DevBuilderOptions {
  /** Path of site.config.yaml. */
  config: string;
  drafts?: boolean;
  /** Include entries dated after today. */
  future?: boolean;
  islandRuntime?: IslandRuntime;
}

/** What a successful rebuild did. */
export type RebuildSuccess = RunSuccess;

/** A rebuild that found problems; the last good build stays in place. */
export type RebuildFailure = RunFailure;

/** The outcome of a rebuild. */
export type RebuildOutcome = RunOutcome;

/** The incremental builder. */
export interface DevBuilder {
  /** The files of the last good build (what `site build` writes), undefined before the first; renders every deferred page first. */
  readonly files: OutputFiles | undefined;
  /** One file of the last good build, rendered first when it is a deferred page (its errors go to `failed`). */
  file(path: string, failed?: (errors: SiteError[]) => void): string | Uint8Array | undefined;
  /** Renders up to `limit` deferred pages; returns the errors of those that failed. */
  renderPending(limit: number): SiteError[];
  /** How many pages are deferred. */
  readonly pending: number;
  /** The config of the last good build. */
  readonly config: ResolvedConfig | undefined;
  /** The last good build (the admin's preview renders from it). */
  readonly lastBuild: Build | undefined;
  /** The config file and the folders to watch (defaults until a config has loaded). */
  watched(): WatchedPaths;
  /**
   * Reloads what the changed files feed and re-renders what that affects; with none, builds what is
   * not built yet. A good build writes the lock of published paths (config/path-lock.ts).
   */
  rebuild(changes?: readonly FileChange[], options?: RunOptions): Promise<RebuildOutcome>;
  dispose(): Promise<void>;
}

/** Creates an incremental builder for the site of `options.config`. */
export function createDevBuilder(options: DevBuilderOptions): DevBuilder {
  // One forced worker: Markdown is parsed there, never on the server's event loop.
  // No social images: no one shares a page of the dev server, and drawing them would slow every start.
  const pipeline = createPipeline({ ...options, incremental: true, workers: 1, esbuild: 'contexts', socialImages: false });
  return {
    get files() {
      return pipeline.files;
    },
    get config() {
      return pipeline.config;
    },
    file(path, failed) {
      const { errors } = pipeline.renderPending({ files: [path] });
      if (errors.length) failed?.(errors);
      return pipeline.lastBuild?.files.get(path);
    },
    renderPending: (limit) => pipeline.renderPending({ limit }).errors,
    get pending() {
      return pipeline.pending;
    },
    get lastBuild() {
      return pipeline.lastBuild;
    },
    watched: () => pipeline.watched(),
    async rebuild(changes, runOptions) {
      const outcome = await pipeline.run(changes, runOptions);
      // As after `site build`: a slug or localized path changed while dev runs keeps its old URL.
      if (outcome.ok) await writePathLock(pipeline.config!);
      return outcome;
    },
    dispose: () => pipeline.dispose(),
  };
}
