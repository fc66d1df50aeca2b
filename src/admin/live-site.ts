/**
 * The site `site serve --admin` serves, kept up to date in the same process: an incremental
 * pipeline (the one `site dev` uses) built once at start; after each save it renders only what the
 * change affects, and its output stages (pipeline/output-stage.ts, the ones `site build` runs)
 * make the final files as `site build` does (placed for the host, the search index, the plugins'
 * `buildEnd`) and swap just those that changed into the served folder (emit/publish-changes.ts):
 * each atomically, with fresh .br/.gz siblings, under the folder's build lock; then the lock of
 * published paths (a slug changed in the admin keeps its old URL, a 301 the server answers at
 * once). The served folder is what `site build` would write from the same sources. A failed
 * rebuild writes nothing: the served site stays as it was, and the errors go back to the admin. A
 * publish refused while a `site build` writes the folder fails the save, and the next one
 * publishes what it left, nothing lost.
 *
 * A scheduled post goes live on its day by itself: after each good build one timer is set for the
 * instant the next one appears (schedule-timer.ts), and the site is rebuilt then, as after a save.
 *
 * The config file may be changed by another server on the same project folder (a settings save
 * there): `follow` compares its stamp (inode, size, times: a save replaces the file) with the one
 * the last run loaded and, when it moved, rebuilds with it, so the config this server answers from
 * is the file's. `followingConfig` has the admin mount call it before every request.
 */
import type { ResolvedConfig } from '../config/load.js';
import type { DeploySettings } from '../config/deploy.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { SiteErrors } from '../errors.js';
import { createPipeline } from '../pipeline/pipeline.js';
import type { PluginLog } from '../pipeline/output-stage.js';
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
  /** Where the site is published when not at `site.origin` (SITE_ORIGIN, SITE_BASE), as `site build` is told. */
  deploy?: DeploySettings;
  /** Where the plugins' `buildEnd` hooks log (default: nowhere). */
  log?: PluginLog;
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
   * bytes differ from the served folder's; returns how many. Throws when the site does not build
   * or cannot be published.
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
  const pipeline = createPipeline({
    config: options.config,
    deploy: options.deploy,
    incremental: true,
    workers: 1,
    esbuild: 'contexts',
    today: (timeZone) => todayIn(timeZone, clock.now()),
    publish: { to: 'served', folder: options.dir, log: options.log },
  });
  const timer = createScheduleTimer(clock, {
    schedule: () =>
      pipeline.lastBuild && {
        scheduled: pipeline.lastBuild.scheduled,
        timeZone: pipeline.lastBuild.config.site.timeZone,
      },
    async due(appearing) {
      const outcome = await site.rebuild([]);
      options.scheduledRebuild?.(appearing, outcome);
      return outcome.rebuilt && outcome.ok;
    },
  });
  const configFile = resolve(options.config);
  // The config file's stamp when a run last read it (taken before the run: a change made while it
  // runs then shows as a new stamp, and the next follow reads the file again).
  let loadedStamp: string | undefined;
  let following: Promise<void> | undefined;

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
      timer.arm();
      // What a save before the last stop built but never published (or a folder built from older
      // sources) was published by this first run: the served folder starts as the sources say.
      return outcome.output?.published?.changed.length ?? 0;
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
        if (outcome.crash !== undefined)
          errors.push({
            code: 'RENDER_FAILED',
            message: String((outcome.crash as Error)?.message ?? outcome.crash),
            field: null,
            line: null,
            column: null,
            hint: '',
            file: null,
          });
        return { rebuilt: true, ok: false, errors };
      }
      timer.arm();
      return { rebuilt: true, ok: true, ms: Math.round(performance.now() - started) };
    },
    async follow() {
      if (!pipeline.lastBuild || (await stampOf(configFile)) === loadedStamp) return;
      // One rebuild for the requests that find the file moved at once.
      following ??= site
        .rebuild([])
        .then((outcome) => options.configFollowed?.(outcome))
        .finally(() => (following = undefined));
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
export function followingConfig<
  Mount extends { handle(request: IncomingMessage, response: ServerResponse): Promise<boolean> },
>(mount: Mount, site: Pick<LiveSite, 'follow'>): Mount {
  return {
    ...mount,
    async handle(request, response) {
      await site.follow();
      return mount.handle(request, response);
    },
  };
}
