/**
 * The site `site serve --admin` serves, kept up to date in the same process: an incremental
 * pipeline (the one `site dev` uses) built once at start; after each save it renders only what the
 * change affects and writes just the files the run changed (with fresh .br/.gz siblings) into the
 * served folder, each atomically (temp file, rename), and removes the ones it no longer makes: a
 * visitor gets a file's old or new bytes, never a mix. A failed rebuild writes nothing: the
 * served site stays as it was, and the errors go back to the admin.
 *
 * Publishing takes the folder's build lock (a `site build` into the same folder waits its turn,
 * and a publish during a build is refused and tried again with the next save, nothing lost), and
 * forgets the read-sets the last `site build` persisted there, whose file stamps it changes: the
 * next `site build` into the folder renders every page instead of refusing to update it.
 */
import { precompressOf } from '../targets/index.js';
import type { ResolvedConfig } from '../config/load.js';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { compressFiles, precompressedCodings } from '../emit/compress.js';
import type { OutputFiles } from '../output-files.js';
import { writeFileAtomic } from './atomic-file.js';
import { removeRenderState } from '../cache/render-state.js';
import { collectSiteErrors, SiteErrors } from '../errors.js';
import { lockOutputFolder } from '../emit/write.js';
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
  /** Rebuilds after a change of `file` (or of several) and swaps the changed files into the served folder. */
  rebuild(file: string | readonly string[]): Promise<SaveOutcome>;
  readonly config: ResolvedConfig | undefined;
  /** The last good build (the preview renders from it). */
  readonly lastBuild: Build | undefined;
  dispose(): Promise<void>;
}

/** Creates the live site of `options.config`, served from `options.dir`. */
export function createLiveSite(options: LiveSiteOptions): LiveSite {
  const pipeline = createPipeline({ config: options.config, incremental: true, workers: 1, esbuild: 'contexts', today: options.today });
  let writing: Promise<unknown> = Promise.resolve();
  // Changed and removed files a refused publish left for the next one.
  const unpublished = { changed: new Set<string>(), removed: new Set<string>() };
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
      const outcome = await pipeline.run((typeof file === 'string' ? [file] : file).map((path) => ({ path })));
      if (!outcome.ok) {
        const errors = outcome.errors.map(describeError);
        if (outcome.crash !== undefined) errors.push({ code: 'RENDER_FAILED', message: String((outcome.crash as Error)?.message ?? outcome.crash), field: null, line: null, column: null, hint: '', file: null });
        return { rebuilt: true, ok: false, errors };
      }
      const files = pipeline.files!;
      const config = pipeline.config!;
      for (const path of outcome.changed) {
        unpublished.changed.add(path);
        unpublished.removed.delete(path);
      }
      for (const path of outcome.removed) {
        unpublished.removed.add(path);
        unpublished.changed.delete(path);
      }
      if (unpublished.changed.size || unpublished.removed.size) {
        // One write at a time, in the order of the runs.
        const next = writing.then(async () => {
          const changed = [...unpublished.changed];
          const removed = [...unpublished.removed];
          await publishChanges(options.dir, files, changed, removed, precompressOf(config));
          for (const path of changed) unpublished.changed.delete(path);
          for (const path of removed) unpublished.removed.delete(path);
        });
        writing = next.catch(() => undefined);
        try {
          await next;
        } catch (error) {
          const errors = collectSiteErrors(error);
          if (!errors) throw error;
          return { rebuilt: true, ok: false, errors: errors.map(describeError) };
        }
      }
      return { rebuilt: true, ok: true, ms: Math.round(performance.now() - started) };
    },
    dispose: () => pipeline.dispose(),
  };
}

/**
 * Writes the changed files of a run into the served folder and removes the removed ones, with
 * their precompressed siblings: a sibling is made again for a changed file, or removed when the
 * file no longer gets one (the server then compresses it itself).
 */
async function publishChanges(dir: string, files: OutputFiles, changed: readonly string[], removed: readonly string[], precompress: boolean): Promise<void> {
  const release = lockOutputFolder(dir);
  try {
    await removeRenderState(dir);
    await writeChanges(dir, files, changed, removed, precompress);
  } finally {
    release();
  }
}

async function writeChanges(dir: string, files: OutputFiles, changed: readonly string[], removed: readonly string[], precompress: boolean): Promise<void> {
  const written: OutputFiles = new Map(changed.filter((path) => files.has(path)).map((path) => [path, files.get(path)!]));
  const siblings = precompress ? compressFiles(written) : new Map<string, string | Uint8Array>();
  for (const [path, data] of [...written, ...siblings]) await writeFileAtomic(join(dir, path), data);
  const siblingsOf = (path: string) => precompressedCodings.map(({ extension }) => `${path}${extension}`);
  const gone = [...removed.flatMap((path) => [path, ...siblingsOf(path)]), ...[...written.keys()].flatMap(siblingsOf).filter((sibling) => !siblings.has(sibling))];
  for (const path of gone) await rm(join(dir, path), { force: true });
}
