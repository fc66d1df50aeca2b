/**
 * The generator as a library: `build`, `check`, `dev` and `serve` do what the commands of the same
 * names do, files written, servers started and lines logged included; the CLI (cli.ts) is a thin
 * shell that parses arguments into these options, passes the terminal logger, and waits for a
 * signal to close a server. Bad input throws `SiteErrors` (each error with code, file, line,
 * field and hint); the caller decides what to print.
 *
 *   import { build } from 'typed-site';
 *   const report = await build({ config: 'site.config.yaml', logger: silentLogger });
 */
import { dirname, relative, resolve } from 'node:path';
import { buildSite } from './build.js';
import { checkExternalLinks, type ExternalCheckOptions } from './pipeline/external-links.js';
import type { SiteError } from './errors.js';
import type { Progress } from './progress.js';
import { logCrash, logErrors, logInfo, logInfos, logResult, logWarning, logWarnings } from './logger.js';
import { loadConfig } from './config/load.js';
import { deploySettings } from './config/deploy.js';
import type { HostTarget } from './config/schema.js';
import { precompressedCodings } from './emit/compress.js';
import { createNotifier } from './notify/notifier.js';
import { serverLimits, startServer } from './serve/server.js';
import { describeRebuild } from './dev/report.js';
import { startDevServer, type DevServer } from './dev/server.js';
import type { ImportReport } from './store/legacy-import.js';
import { fixedStoreSource, followingStoreSource, openSiteStore } from './store/source.js';
import { describeHealthChange, type StoreHealthChange } from './store/health.js';
import { checkDevAdminHost, createDevAdmin, createServeAdmin, siteOf } from './admin/mount.js';
import { createLiveSite, followingConfig } from './admin/live-site.js';
import { describeScheduled, type ScheduledTranslation } from './content/schedule.js';
import type { SaveOutcome } from './admin/posts-api.js';

/** Where the commands report: the terminal for the CLI, anything for a program. */
export interface Logger {
  /** What a command did ("built 120 pages …", "site dev at …"): stdout in the CLI. */
  result(message: string): void;
  /** Progress and notes: stderr in the CLI. */
  info(message: string): void;
  /** A problem that did not stop the command. */
  warn(message: string): void;
  /** Diagnostics that did not stop the command (warnings), or notes on it (infos, verbose only). */
  diagnostics(kind: 'warning' | 'info', diagnostics: readonly SiteError[]): void;
  /** What stopped a rebuild of `dev` (which keeps running): diagnostics, or an unexpected error. */
  failed(errors: readonly SiteError[] | undefined, crash: unknown): void;
}

/** The CLI's logger: results to stdout, the rest to stderr, colour on a terminal. */
export function terminalLogger(options: { verbose?: boolean } = {}): Logger {
  return {
    result: logResult,
    info: logInfo,
    warn: logWarning,
    diagnostics: (kind, diagnostics) => (kind === 'warning' ? logWarnings(diagnostics) : logInfos(diagnostics)),
    failed(errors, crash) {
      if (errors?.length) logErrors(errors, options);
      if (crash !== undefined) logCrash(crash, options);
    },
  };
}

/** A logger that drops everything (the returned reports and thrown errors still say it all). */
export const silentLogger: Logger = { result() {}, info() {}, warn() {}, diagnostics() {}, failed() {} };

/** What every command reads. */
export interface CommonOptions {
  /** Path of site.config.yaml, relative to the working folder (default "site.config.yaml"). */
  config?: string;
  /** Where lines go (default: the terminal, as the CLI prints them). */
  logger?: Logger;
  /** The time of each stage and notes on the build, as `--verbose` prints them. */
  verbose?: boolean;
}

export interface BuildOptions extends CommonOptions {
  /** Output folder (default: output.dir of the config, dist). */
  out?: string;
  drafts?: boolean;
  future?: boolean;
  /** Worker threads (default: one per extra core when the site is large enough; 0 for none). */
  workers?: number;
  /** Read and write the build cache (default true). */
  cache?: boolean;
  /** Write .br and .gz siblings where output.precompress (or the target) says so (default true). */
  precompress?: boolean;
  /** Draw social images where output.socialImages says so (default true). */
  socialImages?: boolean;
  /** The origin pages name instead of site.origin (else SITE_ORIGIN). */
  origin?: string;
  /** The path the site is published under instead of site.base (else SITE_BASE). */
  base?: string;
  /** The host the output is for (default: output.target of the config). */
  target?: HostTarget;
  /** Environment variables read for SITE_ORIGIN, SITE_BASE and the host's preview settings (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Tests of interrupted builds: called after each step of the switch to the new output. */
  afterStep?: (step: number) => void;
  /** Where a long build's stages count how far they are (`site build`: `createTerminalProgress`; default: nowhere). */
  progress?: Progress;
}

/** What a build did. */
export interface BuildReport {
  /** The absolute path of the output folder. */
  outDir: string;
  /** Each page: its URL path, locale and file in the output. */
  pages: { path: string; locale: string; file: string }[];
  /** How many files the output holds besides the pages (before precompressed siblings). */
  otherFiles: number;
  warnings: readonly SiteError[];
  ms: number;
}

/** Builds the site into its output folder, as `site build` does. */
export async function build(options: BuildOptions = {}): Promise<BuildReport> {
  const logger = options.logger ?? terminalLogger(options);
  const started = performance.now();
  const deploy = deploySettings(options.env ?? process.env, options.origin, options.base);
  const result = await buildSite({
    config: options.config ?? 'site.config.yaml',
    drafts: Boolean(options.drafts),
    future: Boolean(options.future),
    workers: options.workers,
    cache: options.cache !== false,
    deploy,
    target: options.target,
    socialImages: options.socialImages === false ? false : undefined,
    progress: options.progress,
    publish: {
      to: 'folder',
      folder: options.out,
      precompress: options.precompress,
      afterStep: options.afterStep,
      log: { info: (message) => logger.info(message), warn: (message) => logger.warn(message) },
    },
  });
  logger.diagnostics('warning', result.warnings);
  if (options.verbose) logger.diagnostics('info', result.infos);
  if (deploy.origin) logger.info(`pages name ${deploy.origin} (from ${deploy.originFrom}) instead of site.origin`);
  if (deploy.base !== undefined)
    logger.info(`pages live under ${deploy.base || '/'} (from ${deploy.baseFrom}) instead of site.base`);
  if (deploy.preview) logger.info('a preview: every page is noindex and robots.txt disallows all');
  const { folder, written } = result.output!;
  const outDir = resolve(folder!);
  const ms = Math.round(performance.now() - started);
  const locales = result.config.localeIds
    .map((locale) => {
      const pages = result.pages.filter((page) => page.locale === locale);
      const aliases = pages.filter((page) => page.alias).length;
      return `${pages.length} ${locale}${aliases ? `, of which ${aliases} ${aliases === 1 ? 'alias' : 'aliases'}` : ''}`;
    })
    .join('; ');
  const pageFiles = new Set(result.pages.map((page) => page.file));
  // Files left as written count too (a kept social image), but for the pages' precompressed siblings.
  const isPageSibling = (path: string) =>
    precompressedCodings.some(
      (coding) => path.endsWith(coding.extension) && pageFiles.has(path.slice(0, -coding.extension.length)),
    );
  const otherFiles = [...result.files.keys(), ...result.kept.keys()].filter(
    (path) => !pageFiles.has(path) && !isPageSibling(path),
  ).length;
  logger.result(
    `built ${result.pages.length} pages (${locales}) and ${otherFiles} other files into ${relative(process.cwd(), outDir) || '.'} in ${ms} ms`,
  );
  // The next post to go live by itself, so whoever publishes knows when to build again (the GitHub Pages workflow builds daily).
  const [next] = result.scheduled;
  if (next)
    logger.info(
      `next scheduled post: ${describeScheduled(next, result.config.site.timeZone)}${result.scheduled.length > 1 ? ` (${result.scheduled.length - 1} more after it)` : ''}`,
    );
  if (options.verbose && written) {
    const { stats } = result;
    const stages = Object.entries(result.timings).map(([stage, time]) => `${stage} ${time} ms`);
    const search = result.output?.search;
    logger.info(
      `${stages.join(' · ')}\nmarkdown ${stats.markdownParsed} parsed, ${stats.markdownCached} cached · entries kept ${stats.entriesKept} · page set ${stats.pageSetKept ? 'kept' : 'expanded'} · esbuild steps cached ${stats.esbuildCached} · ${stats.pagesRendered} pages rendered · ${stats.workers} worker threads · social images ${stats.socialImagesDrawn} drawn of ${stats.socialImages} · image variants ${stats.imageVariantsMade} encoded of ${stats.imageVariants}\nwrote ${written.written} of ${written.files} files (siblings included), removed ${written.removed}${written.compressWorkers ? ` · precompression shared with ${written.compressWorkers} worker thread${written.compressWorkers === 1 ? '' : 's'}` : ''}${search ? `\nsearch index: ${search.indexed} of ${search.pages} pages indexed again` : ''}`,
    );
  }
  return {
    outDir,
    pages: result.pages.map((page) => ({ path: page.path, locale: page.locale, file: page.file })),
    otherFiles,
    warnings: result.warnings,
    ms,
  };
}

export interface CheckOptions extends CommonOptions {
  drafts?: boolean;
  future?: boolean;
  /** Ask every web address the posts and page copy link to as well (`--external`); true for the defaults, or how. */
  external?: boolean | ExternalCheckOptions;
}

/** What a check found: how many pages, and the warnings (errors are thrown). */
export interface CheckReport {
  pages: number;
  /** With `external`: the web addresses asked, and those the day's cache answered. */
  external?: { asked: number; cached: number };
  warnings: readonly SiteError[];
  ms: number;
}

/** Validates config, content and templates without writing anything, as `site check` does. */
export async function check(options: CheckOptions = {}): Promise<CheckReport> {
  const logger = options.logger ?? terminalLogger(options);
  const started = performance.now();
  const result = await buildSite({
    config: options.config ?? 'site.config.yaml',
    drafts: Boolean(options.drafts),
    future: Boolean(options.future),
    socialImages: false,
  });
  const external = options.external
    ? await checkExternalLinks(result.webLinks(), options.external === true ? {} : options.external)
    : undefined;
  const warnings = [...result.warnings, ...(external?.warnings ?? [])];
  logger.diagnostics('warning', warnings);
  if (options.verbose) logger.diagnostics('info', result.infos);
  const ms = Math.round(performance.now() - started);
  const asked = external
    ? `, ${external.asked + external.cached} web addresses (${external.cached} from the day's cache)`
    : '';
  logger.result(`ok: ${result.pages.length} pages${asked} checked in ${ms} ms`);
  return {
    pages: result.pages.length,
    warnings,
    ms,
    ...(external ? { external: { asked: external.asked, cached: external.cached } } : {}),
  };
}

export interface DevOptions extends CommonOptions {
  /** The port to try first; the next free one when it is taken (default 4321; 0 for any). */
  port?: number;
  /** Default 127.0.0.1; the admin refuses a host other than loopback. */
  host?: string;
  drafts?: boolean;
  future?: boolean;
  /** The admin (sign-in link, editors) (default true). */
  admin?: boolean;
}

/** A running `dev`: its address, the admin's one-time sign-in link, and how to stop it. */
export interface DevHandle {
  /** The site's home as `site dev` prints it: "http://127.0.0.1:4321/", site.base included. */
  url: string;
  /** A link that signs in to the admin once, within 10 minutes (undefined without the admin). */
  signInUrl?: string;
  close(): Promise<void>;
}

/** Builds the site in memory, serves it, and rebuilds and reloads on every change, as `site dev` does. */
export async function dev(options: DevOptions = {}): Promise<DevHandle> {
  const logger = options.logger ?? terminalLogger(options);
  const configPath = options.config ?? 'site.config.yaml';
  const host = options.host ?? '127.0.0.1';
  const adminOn = options.admin !== false;
  if (adminOn) checkDevAdminHost(host);
  let server: DevServer | undefined;
  // One store for the endpoints and the admin: the database of the last good build's config.
  const store = followingStoreSource(() => server?.builder.config, {
    imported: (report, database) => logger.info(describeImport(report, database)),
    health: logStoreHealth(logger),
  });
  // One notifier for the endpoints and the inbox's retry, as in `site serve` (a message arrives once a build is good).
  const notifier = createNotifier({ config: () => server!.builder.config!, store, log: logger });
  // A save writes the file; the watcher then rebuilds and reloads the open pages.
  const admin = adminOn
    ? createDevAdmin({
        projectRoot: dirname(resolve(configPath)),
        store,
        site: siteOf(() => server?.builder),
        inbox: { store, notifier },
      })
    : undefined;
  // Warnings are printed when they first appear, not again after every rebuild that still has them.
  let warned = new Set<string>();
  server = await startDevServer({
    admin,
    store,
    notifier,
    config: configPath,
    port: options.port ?? 4321,
    host,
    drafts: Boolean(options.drafts),
    future: Boolean(options.future),
    reporter: {
      portInUse: (port, next) => logger.warn(`port ${port} is in use, trying ${next}`),
      built(changes, outcome) {
        logger.info(describeRebuild(changes, outcome, process.cwd()));
        logger.diagnostics(
          'warning',
          outcome.warnings.filter((warning) => !warned.has(`${warning.code} ${warning.format()}`)),
        );
        warned = new Set(outcome.warnings.map((warning) => `${warning.code} ${warning.format()}`));
        if (options.verbose && outcome.ok) logger.diagnostics('info', outcome.infos);
        if (options.verbose && outcome.ok)
          logger.info(
            Object.entries(outcome.timings)
              .map(([stage, time]) => `${stage} ${time} ms`)
              .join(' · '),
          );
        if (!outcome.ok) logger.failed(outcome.errors, outcome.crash);
      },
      watchError: (error) => logger.warn(`watcher: ${error instanceof Error ? error.message : String(error)}`),
    },
  });
  const url = `${server.url}${server.builder.config?.site.base ?? ''}/`;
  logger.result(`site dev at ${url}`);
  // The link is the key to the admin: it goes to the logger only, good for one sign-in within 10 minutes.
  const signInUrl = admin && `${url}auth/?token=${admin.tokens.issue()}`;
  if (signInUrl) logger.result(`admin: sign in at ${signInUrl} (one use, within 10 minutes)`);
  const running = server;
  return {
    url,
    signInUrl,
    async close() {
      await running.close();
      await store.close();
    },
  };
}

export interface ServeOptions extends CommonOptions {
  /** The built site (default: output.dir of the config, dist). */
  dir?: string;
  /** Default 4322; 0 for any free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Behind a reverse proxy: the client address and scheme come from X-Forwarded-For and -Proto. */
  trustProxy?: boolean;
  /** Also serve the admin for the accounts of `site admin add-user`. */
  admin?: boolean;
  /** The path the site was built for, when not site.base (else SITE_BASE). */
  base?: string;
  env?: NodeJS.ProcessEnv;
}

/** A running `serve`: its address and how to stop it. */
export interface ServeHandle {
  /** The site's home as `site serve` prints it: "http://127.0.0.1:4322/", site.base included. */
  url: string;
  /** Stops taking requests, lets open ones finish (up to the grace period) and closes the admin. */
  close(): Promise<void>;
}

/** Serves a built site with its form endpoints (and the admin), as `site serve` does. */
export async function serve(options: ServeOptions = {}): Promise<ServeHandle> {
  const logger = options.logger ?? terminalLogger(options);
  const configPath = options.config ?? 'site.config.yaml';
  const deploy = deploySettings(options.env ?? process.env, undefined, options.base);
  const config = await loadConfig(configPath, { deploy });
  const dir = options.dir === undefined ? config.dirs.output : resolve(options.dir);
  const trustProxy = Boolean(options.trustProxy);
  // With the admin, the site is also built in memory, so that a save re-renders only what it affects.
  const live = options.admin
    ? createLiveSite({
        config: configPath,
        dir,
        // Built as `site build` builds it in this environment, so a save publishes the same files.
        deploy,
        log: { info: (message) => logger.info(message), warn: (message) => logger.warn(message) },
        scheduledRebuild: (appearing, outcome) =>
          (outcome.rebuilt && outcome.ok ? logger.info : logger.warn)(describeScheduledRebuild(appearing, outcome)),
        configFollowed: (outcome) =>
          (outcome.rebuilt && outcome.ok ? logger.info : logger.warn)(describeConfigFollowed(configPath, outcome)),
      })
    : undefined;
  // One store for the process, opened (migrations applied, old JSON-lines files imported) before the first request.
  const store = fixedStoreSource(
    await openSiteStore(config, {
      imported: (report, database) => logger.info(describeImport(report, database)),
      health: logStoreHealth(logger),
    }),
  );
  // One notifier for the endpoints and the inbox's retry, following the config each save rebuilds from.
  const notifier = createNotifier({ config: () => live?.config ?? config, store, log: logger });
  let running: Awaited<ReturnType<typeof startServer>>;
  let admin: ReturnType<typeof createServeAdmin> | undefined;
  try {
    const published = await live?.start();
    if (published)
      logger.info(
        `published ${published} file${published === 1 ? '' : 's'} that ${relative(process.cwd(), dir) || '.'} did not have as the sources build them (a save not published before the last stop, or a build of older sources)`,
      );
    // Another server on the project folder may save the settings: each request first follows the config file.
    admin =
      live &&
      followingConfig(
        createServeAdmin({
          projectRoot: config.root,
          store,
          origin: config.site.origin,
          trustProxy,
          site: live,
          inbox: { store, notifier },
        }),
        live,
      );
    // The booking API follows the config each save rebuilds the pages from (slot length, hours, booking.url).
    const currentConfig = live && (() => live.config);
    running = await startServer({
      config,
      currentConfig,
      dir,
      port: options.port ?? 4322,
      host: options.host ?? '127.0.0.1',
      trustProxy,
      admin,
      store,
      log: logger,
      notifier,
    });
  } catch (error) {
    await live?.dispose();
    await store.close();
    throw error;
  }
  const url = `${running.url}/`;
  logger.result(`serving ${relative(process.cwd(), dir) || '.'} at ${url}`);
  if (admin) {
    // Where to sign in, and, before the first account exists, how to make it (accounts are made
    // on the command line only: no page of a public server may create one).
    const accounts = await store
      .get()
      .then((opened) => opened.listAccounts())
      .catch(() => undefined);
    logger.result(
      `admin: sign in at ${url}auth/${accounts?.length === 0 ? ' (no account yet: add the first with `npx site admin add-user <email> --role admin`, then sign in)' : ''}`,
    );
  }
  return {
    url,
    async close() {
      logger.info(`stopping: open requests may finish for ${serverLimits.shutdownGraceMs / 1000} s`);
      await running.close();
      await live?.dispose();
      await store.close();
      if (admin && options.verbose)
        logger.info(
          `sign-in: at most ${admin.signInLimits.peakHashing} password check${admin.signInLimits.peakHashing === 1 ? '' : 's'} ran at once`,
        );
    },
  };
}

/** A rebuild for posts whose day came, in one line: what went live, or why the served site stays as it was. */
function describeScheduledRebuild(appearing: readonly ScheduledTranslation[], outcome: SaveOutcome): string {
  const posts = appearing.map((post) => `"${post.title}" (${post.collection}/${post.slug}, ${post.locale})`).join(', ');
  if (outcome.rebuilt && outcome.ok) return `scheduled post${appearing.length === 1 ? '' : 's'} went live: ${posts}`;
  const errors = rebuildErrors(outcome);
  return `scheduled post${appearing.length === 1 ? '' : 's'} ${posts} did not go live: the site does not build (${errors}); the served site stays as it was until a save builds it`;
}

/** The errors of a rebuild that failed, in one line. */
function rebuildErrors(outcome: SaveOutcome): string {
  return outcome.rebuilt && !outcome.ok
    ? outcome.errors
        .map((error) =>
          `${error.code} ${error.file ?? ''}${error.line ? `:${error.line}` : ''} ${error.message}`.replace(/ +/g, ' '),
        )
        .join('; ')
    : '';
}

/** A rebuild with a config file changed on disk (another server's settings save), in one line. */
function describeConfigFollowed(configPath: string, outcome: SaveOutcome): string {
  if (outcome.rebuilt && outcome.ok)
    return `${configPath} changed on disk (a save by another server?): the site was rebuilt with it`;
  const errors = rebuildErrors(outcome);
  return `${configPath} changed on disk, but the site does not build with it (${errors}); the served site and its config stay as they were`;
}

/** Says in the log when the store starts answering 503 and why (a warning), and when it answers again. */
function logStoreHealth(logger: Logger): (change: StoreHealthChange, database: string) => void {
  return (change, database) =>
    (change.state === 'failing' ? logger.warn : logger.info)(describeHealthChange(change, database));
}

/** What the first start imported from the JSON-lines files of an earlier version, in one line. */
function describeImport(report: ImportReport, database: string): string {
  const { counts } = report;
  const skipped = report.skipped
    ? `; ${report.skipped} unreadable line${report.skipped === 1 ? '' : 's'} left in the old files`
    : '';
  return `imported into ${database}: ${counts.contacts} contact messages, ${counts.bookings} bookings, ${counts.accounts} accounts, ${counts.audit} audit entries${skipped}; the old files were renamed aside (${report.renamed.map(([, to]) => to).join(', ')})`;
}
