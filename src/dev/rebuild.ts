/**
 * The builder of `site dev`: an incremental pipeline (src/pipeline/) kept alive between changes.
 * Each change reloads only the inputs the changed files feed and re-renders only the pages whose
 * recorded reads touch something that differs; the files are the ones `buildSite` returns for the
 * same input, byte for byte. Templates, islands and CSS go through kept esbuild contexts. When a
 * change touches many pages, the pages open in a browser are rendered first and the others when
 * they are asked for (`file`) or in the background (`renderPending`). The output stages run as
 * for `site build` but for the write and the plugins' `buildEnd`: the lock of published paths after
 * each good run, and the search index when a file of it is first asked for (`served`).
 */
import { collectSiteErrors, type SiteError } from '../errors.js';
import type { ResolvedConfig } from '../config/load.js';
import type { OutputFiles } from '../output-files.js';
import type { IslandRuntime } from '../islands/bundle.js';
import type { WatchedPaths } from '../pipeline/changes.js';
import type { Build } from '../pipeline/result-stage.js';
import { searchIndexFolder } from '../url-paths.js';
import { staticFolderOf } from '../targets/index.js';
import {
  createPipeline,
  type FileChange,
  type RunFailure,
  type RunOptions,
  type RunOutcome,
  type RunSuccess,
} from '../pipeline/pipeline.js';

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
  /**
   * One file of the site as served: the build's own (as `file`), or one the output stages add, as
   * `site build` writes it: the search index, made when first asked for after a build (every
   * deferred page rendered first; a failure goes to `failed`).
   */
  served(path: string, failed?: (errors: SiteError[]) => void): Promise<string | Uint8Array | undefined>;
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
  const pipeline = createPipeline({
    ...options,
    incremental: true,
    workers: 1,
    esbuild: 'contexts',
    socialImages: false,
    publish: { to: 'memory' },
  });
  const builder: DevBuilder = {
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
    async served(path, failed) {
      const own = builder.file(path, failed);
      const config = pipeline.config;
      // The build's files are the output's but for what the output stages add: the search index.
      if (own !== undefined || !config?.search.enabled || !path.startsWith(`${searchIndexFolder}/`)) return own;
      try {
        return (await pipeline.output())?.get(staticFolderOf(config) + path);
      } catch (error) {
        const errors = collectSiteErrors(error);
        if (!errors) throw error;
        failed?.(errors);
        return undefined;
      }
    },
    renderPending: (limit) => pipeline.renderPending({ limit }).errors,
    get pending() {
      return pipeline.pending;
    },
    get lastBuild() {
      return pipeline.lastBuild;
    },
    watched: () => pipeline.watched(),
    // As after `site build`: a slug or localized path changed while dev runs keeps its old URL (the pipeline's output stage).
    rebuild: (changes, runOptions) => pipeline.run(changes, runOptions),
    dispose: () => pipeline.dispose(),
  };
  return builder;
}
