/**
 * The site `site serve --admin` serves, kept up to date in the same process: an incremental
 * pipeline (the one `site dev` uses) built once at start; after each save it renders only what the
 * change affects and writes just the files the run changed (with fresh .br/.gz siblings) into the
 * served folder, each atomically (temp file, rename), and removes the ones it no longer makes: a
 * visitor gets a file's old or new bytes, never a mix; then the lock of published paths, as
 * `site build` writes it (a slug changed in the admin keeps its old URL, a 301 the server answers
 * at once). A failed rebuild writes nothing: the served site stays as it was, and the errors go
 * back to the admin.
 *
 * Publishing takes the folder's build lock (a `site build` into the same folder waits its turn,
 * and a publish during a build is refused and tried again with the next save, nothing lost), and
 * forgets the read-sets the last `site build` persisted there, whose file stamps it changes: the
 * next `site build` into the folder renders every page instead of refusing to update it.
 *
 * A scheduled post goes live on its day by itself: after each good build one timer is set for the
 * instant the next one appears (schedule-timer.ts), and the site is rebuilt then, as after a save.
 *
 * The config file may be changed by another server on the same project folder (a settings save
 * there): `follow` compares its stamp (inode, size, times: a save replaces the file) with the one
 * the last run loaded and, when it moved, rebuilds with it, so the config this server answers from
 * is the file's. `followingConfig` has the admin mount call it before every request.
 */
import { precompressOf } from '../targets/index.js';
import type { ResolvedConfig } from '../config/load.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readFile, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { compressFiles, precompressedCodings } from '../emit/compress.js';
import type { OutputFiles } from '../output-files.js';
import { writeFileAtomic } from './atomic-file.js';
import { writePathLock } from '../config/path-lock.js';
import { removeRenderState } from '../cache/render-state.js';
import { collectSiteErrors, SiteErrors } from '../errors.js';
import { lockOutputFolder } from '../emit/write.js';
import { createPipeline } from '../pipeline/pipeline.js';
import type { Build } from '../pipeline/result-stage.js';
import { describeError, type SaveOutcome } from './posts-api.js';
import { todayIn, type ScheduledTranslation } from '../content/schedule.js';
import { createScheduleTimer, systemClock, type Clock } from './schedule-timer.js';

/** Options of `createLiveSite`. */
export interface LiveSiteOptions {
  /** Path of site.config.yaml. */
  config: string;
  /** The served folder (written by `site build`). */
  dir: string;
  /** The time, which says which posts are due, and the timer of the next one (tests move a fake one on). */
  clock?: Clock;
  /** Told when the day of scheduled posts came and the site was rebuilt for them, and how that went. */
  scheduledRebuild?(appearing: ScheduledTranslation[], outcome: SaveOutcome): void;
  /** Told when the config file changed on disk without a save here (another server's) and the site was rebuilt with it, and how that went. */
  configFollowed?(outcome: SaveOutcome): void;
}

/** The live site. */
export interface LiveSite {
  /**
   * Builds the site in memory (the state the next save starts from), and publishes the files whose
   * bytes differ from the served folder's; returns how many. Throws when the site does not build.
   */
  start(): Promise<number>;
  /** Rebuilds after a change of `file` (or of several) and swaps the changed files into the served folder. */
  rebuild(file: string | readonly string[]): Promise<SaveOutcome>;
  /** Rebuilds with the config file when it changed since a run last loaded it (another server on the folder saved it); at once otherwise. */
  follow(): Promise<void>;
  readonly config: ResolvedConfig | undefined;
  /** The last good build (the preview renders from it). */
  readonly lastBuild: Build | undefined;
  dispose(): Promise<void>;
}

/** Creates the live site of `options.config`, served from `options.dir`. */
export function createLiveSite(options: LiveSiteOptions): LiveSite {
  const clock = options.clock ?? systemClock;
  const pipeline = createPipeline({ config: options.config, incremental: true, workers: 1, esbuild: 'contexts', today: (timeZone) => todayIn(timeZone, clock.now()) });
  const timer = createScheduleTimer(clock, {
    schedule: () => pipeline.lastBuild && { scheduled: pipeline.lastBuild.scheduled, timeZone: pipeline.lastBuild.config.site.timeZone },
    async due(appearing) {
      const outcome = await site.rebuild([]);
      options.scheduledRebuild?.(appearing, outcome);
      return outcome.rebuilt && outcome.ok;
    },
  });
  let writing: Promise<unknown> = Promise.resolve();
  // Output paths changed or removed by a run and not yet published, each with the number of the
  // last run that touched it. A write publishes them from the newest build (never from the build of
  // the run that queued it: two saves at once would publish the older bytes of the later one), and
  // forgets only the paths no run touched again meanwhile.
  const unpublished = new Map<string, number>();
  let runs = 0;
  const configFile = resolve(options.config);
  // The config file's stamp when a run last read it (taken before the run: a change made while it
  // runs then shows as a new stamp, and the next follow reads the file again).
  let loadedStamp: string | undefined;
  let following: Promise<void> | undefined;

  /** Publishes every unpublished path from the newest good build. */
  async function publish(): Promise<void> {
    const files = pipeline.files!;
    const config = pipeline.config!;
    const batch = new Map(unpublished);
    const paths = [...batch.keys()].sort();
    await publishChanges(options.dir, files, paths.filter((path) => files.has(path)), paths.filter((path) => !files.has(path)), precompressOf(config));
    // Once the pages are out, as `site build` does: a changed slug's old path is kept (and redirects).
    await writePathLock(config);
    for (const [path, run] of batch) if (unpublished.get(path) === run) unpublished.delete(path);
  }

  const site: LiveSite = {
    get config() {
      return pipeline.config;
    },
    get lastBuild() {
      return pipeline.lastBuild;
    },
    async start() {
      loadedStamp = await stampOf(configFile);
      const outcome = await pipeline.run();
      if (!outcome.ok) {
        if (outcome.crash !== undefined) throw outcome.crash;
        throw new SiteErrors(outcome.errors);
      }
      // What a save before the last stop built but never published (or a folder built from older
      // sources) is published now: the served folder starts as the sources say.
      const differing = await differingFiles(options.dir, pipeline.files!);
      for (const path of differing) unpublished.set(path, runs);
      if (unpublished.size) {
        writing = publish();
        await writing;
      } else await writePathLock(pipeline.config!);
      timer.arm();
      return differing.length;
    },
    async rebuild(file) {
      const started = performance.now();
      const paths = typeof file === 'string' ? [file] : [...file];
      // A config another server saved since is read with this run too.
      const stamp = await stampOf(configFile);
      if (stamp !== loadedStamp && !paths.includes(configFile)) paths.push(configFile);
      loadedStamp = stamp;
      const outcome = await pipeline.run(paths.map((path) => ({ path })));
      if (!outcome.ok) {
        const errors = outcome.errors.map(describeError);
        if (outcome.crash !== undefined) errors.push({ code: 'RENDER_FAILED', message: String((outcome.crash as Error)?.message ?? outcome.crash), field: null, line: null, column: null, hint: '', file: null });
        return { rebuilt: true, ok: false, errors };
      }
      const run = ++runs;
      timer.arm();
      for (const path of [...outcome.changed, ...outcome.removed]) unpublished.set(path, run);
      if (unpublished.size) {
        // One write at a time, in the order of the runs.
        const next = writing.then(publish);
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
    async follow() {
      if (!pipeline.lastBuild || (await stampOf(configFile)) === loadedStamp) return;
      // One rebuild for the requests that find the file moved at once.
      following ??= site.rebuild([]).then((outcome) => options.configFollowed?.(outcome)).finally(() => (following = undefined));
      await following;
    },
    async dispose() {
      await timer.close();
      await pipeline.dispose();
    },
  };
  return site;
}

/** A file's stamp: inode, size and times (an atomic save replaces the inode), or "missing". */
async function stampOf(file: string): Promise<string> {
  const info = await stat(file).catch(() => undefined);
  return info ? `${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}` : 'missing';
}

/**
 * The admin mount of `site serve --admin` with the live site following its config file before
 * each request. The server asks the admin's step before the contact and booking endpoints and the
 * static files (src/serve/server.ts), so they, too, answer from the config the file holds now.
 */
export function followingConfig<Mount extends { handle(request: IncomingMessage, response: ServerResponse): Promise<boolean> }>(mount: Mount, site: Pick<LiveSite, 'follow'>): Mount {
  return {
    ...mount,
    async handle(request, response) {
      await site.follow();
      return mount.handle(request, response);
    },
  };
}

/** The files of a build whose bytes differ from (or are missing in) the served folder. */
async function differingFiles(dir: string, files: OutputFiles): Promise<string[]> {
  const differing: string[] = [];
  for (const [path, data] of files) {
    const onDisk = await readFile(join(dir, path)).catch(() => undefined);
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    if (!onDisk || !onDisk.equals(bytes)) differing.push(path);
  }
  return differing;
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
