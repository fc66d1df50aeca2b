/**
 * The site `site serve --admin` serves, kept up to date in the same process: an incremental
 * pipeline (the one `site dev` uses) built once at start; after each save it renders only what the
 * change affects and writes the result into the served folder through the build's own writer,
 * which rewrites only the files whose bytes changed (and their .br/.gz siblings) and switches
 * them in atomically. A failed rebuild writes nothing: the served site stays as it was, and the
 * errors go back to the admin.
 */
import type { ResolvedConfig } from '../config/load.js';
import { writeSite } from '../emit/write.js';
import { SiteErrors } from '../errors.js';
import { createPipeline } from '../pipeline/pipeline.js';
import type { Build } from '../pipeline/result-stage.js';
import { describeError, type SaveOutcome } from './posts-api.js';

/** Options of `createLiveSite`. */
export interface LiveSiteOptions {
  /** Path of site.config.yaml. */
  config: string;
  /** The served folder (written by `site build`). */
  dir: string;
  /** Today's ISO date for scheduled posts (tests fix it). */
  today?: () => string;
}

/** The live site. */
export interface LiveSite {
  /** Builds the site in memory (the state the next save starts from); throws when it does not build. */
  start(): Promise<void>;
  /** Rebuilds after a change of `file` and swaps the changed files into the served folder. */
  rebuild(file: string): Promise<SaveOutcome>;
  readonly config: ResolvedConfig | undefined;
  /** The last good build (the preview renders from it). */
  readonly lastBuild: Build | undefined;
  dispose(): Promise<void>;
}

/** Creates the live site of `options.config`, served from `options.dir`. */
export function createLiveSite(options: LiveSiteOptions): LiveSite {
  const pipeline = createPipeline({ config: options.config, incremental: true, workers: 1, esbuild: 'contexts', today: options.today });
  let writing: Promise<unknown> = Promise.resolve();
  return {
    get config() {
      return pipeline.config;
    },
    get lastBuild() {
      return pipeline.lastBuild;
    },
    async start() {
      const outcome = await pipeline.run();
      if (!outcome.ok) {
        if (outcome.crash !== undefined) throw outcome.crash;
        throw new SiteErrors(outcome.errors);
      }
    },
    async rebuild(file) {
      const started = performance.now();
      const outcome = await pipeline.run([{ path: file }]);
      if (!outcome.ok) {
        const errors = outcome.errors.map(describeError);
        if (outcome.crash !== undefined) errors.push({ code: 'RENDER_FAILED', message: String((outcome.crash as Error)?.message ?? outcome.crash), field: null, line: null, column: null, hint: '', file: null });
        return { rebuilt: true, ok: false, errors };
      }
      const files = pipeline.files!;
      const config = pipeline.config!;
      if (outcome.changed.length || outcome.removed.length) {
        // One write at a time; each one writes the whole last good build, so the last one wins with the newest state.
        const next = writing.then(() => writeSite(options.dir, files, { compress: config.output.precompress ? {} : false }));
        writing = next.catch(() => undefined);
        await next;
      }
      return { rebuilt: true, ok: true, ms: Math.round(performance.now() - started) };
    },
    dispose: () => pipeline.dispose(),
  };
}
