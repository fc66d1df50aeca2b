/**
 * The `site` command: build | check | dev | serve. Exit codes: 0 success, 1 a problem with the
 * site's input (config, content, templates), 2 a usage error.
 */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { buildSite } from './build.js';
import { checkOutputFolder, type OutputGuard } from './emit/output-folder.js';
import { writeSite } from './emit/write.js';
import { collectSiteErrors, exitCodeOf, SiteErrors } from './errors.js';
import { logCrash, logErrors, logInfo, logInfos, logResult, logWarning, logWarnings } from './logger.js';
import { loadConfig, type ResolvedConfig } from './config/load.js';
import { deploySettings } from './config/deploy.js';
import { formatJsonSchema, hostTargets, type HostTarget } from './config/schema.js';
import { placeOutput, precompressOf, staticFolderOf } from './targets/index.js';
import { runBuildEnd } from './plugins/build-end.js';
import { generatorRoot } from './cache/disk-cache.js';
import { serverLimits, startServer } from './serve/server.js';
import { openBrowser } from './dev/open-browser.js';
import { describeRebuild } from './dev/report.js';
import { startDevServer } from './dev/server.js';
import { addAdminCommand } from './admin/commands.js';
import { adminStateFolder } from './state-paths.js';
import { checkDevAdminHost, createDevAdmin, createServeAdmin, siteOf } from './admin/mount.js';
import { createLiveSite } from './admin/live-site.js';

interface GlobalOptions {
  config: string;
  verbose?: boolean;
}

/** Runs the CLI with `process.argv`-style arguments and returns the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const { version } = JSON.parse(readFileSync(join(generatorRoot(), 'package.json'), 'utf8')) as { version: string };
  let exitCode = 0;
  const program = new Command()
    .name('site')
    .description('A typed, config-driven static site generator.')
    .version(version, '-v, --version')
    .option('-c, --config <file>', 'site config file', 'site.config.yaml')
    .option('--verbose', 'print stack traces of internal errors, the time of each stage and notes on the build')
    .showHelpAfterError('(run site --help for usage)')
    .exitOverride()
    .configureOutput({ writeOut: (text) => process.stdout.write(text), writeErr: (text) => process.stderr.write(text) });

  const run = (action: (options: GlobalOptions & Record<string, unknown>, command: Command) => Promise<void>) =>
    async (...args: unknown[]) => {
      // Commander passes the positional arguments first, then the options, then the command.
      const command = args.at(-1) as Command;
      const options = command.optsWithGlobals() as GlobalOptions & Record<string, unknown>;
      try {
        await action(options, command);
      } catch (error) {
        const errors = collectSiteErrors(error);
        if (error instanceof SiteErrors) logWarnings(error.warnings);
        if (errors) logErrors(errors, options);
        else logCrash(error, options);
        exitCode = errors ? exitCodeOf(errors) : 1;
      }
    };

  program
    .command('build')
    .description('build the site into the output folder')
    .option('-o, --out <dir>', 'output folder (default: output.dir of the config, dist)')
    .option('--drafts', 'include blog posts marked as drafts')
    .option('--future', 'include posts dated after today (scheduled posts appear on their day otherwise)')
    .option('--workers <count>', 'worker threads for Markdown, rendering and precompression (default: one per extra core, when the site is large enough; 0 for none)', parseCount)
    .option('--no-cache', 'neither read nor write the build cache (node_modules/.cache/site, or SITE_CACHE_DIR)')
    .option('--no-precompress', 'write no .br and .gz siblings, whatever output.precompress in the config says')
    .option('--no-social-images', 'draw no social images and name none (og:image), whatever output.socialImages in the config says')
    .option('--origin <url>', 'the origin pages name instead of site.origin (a preview deploy; also SITE_ORIGIN)')
    .option('--base <path>', 'the path the site is published under instead of site.base, such as /mendwise ("/" for the root; also SITE_BASE)')
    .addOption(new Option('--target <host>', 'the host the output is for: its headers, redirects, 404 rules and form functions (default: output.target of the config, node)').choices(hostTargets))
    .action(run(async (options) => {
      const started = performance.now();
      const deploy = deploySettings(process.env, options.origin === undefined ? undefined : String(options.origin), options.base === undefined ? undefined : String(options.base));
      const workers = options.workers === undefined ? undefined : Number(options.workers);
      let out = options.out === undefined ? undefined : String(options.out);
      const precompress = (config: ResolvedConfig) => options.precompress !== false && precompressOf(config);
      const result = await buildSite({
        config: options.config,
        drafts: Boolean(options.drafts),
        future: Boolean(options.future),
        workers,
        cache: options.cache !== false,
        deploy,
        target: options.target as HostTarget | undefined,
        socialImages: options.socialImages === false ? false : undefined,
        // Before any work: an output folder that holds the project (or anything not made by a
        // build) is refused, since the writer replaces everything in it.
        checkConfig: (config) => {
          out ??= relative(process.cwd(), config.dirs.output) || config.dirs.output;
          const unsafe = checkOutputFolder(out, outputGuard(config));
          if (unsafe) throw unsafe;
        },
        // Set by checkConfig above, which runs first.
        // A target that moves the pages into a folder of the output (Vercel's static/) renders them all.
        output: (config) => (staticFolderOf(config) ? undefined : { folder: out!, settings: JSON.stringify({ precompress: precompress(config) }) }),
      });
      logWarnings(result.warnings);
      if (options.verbose) logInfos(result.infos);
      if (deploy.origin) logInfo(`pages name ${deploy.origin} (from ${deploy.originFrom}) instead of site.origin`);
      if (deploy.base !== undefined) logInfo(`pages live under ${deploy.base || '/'} (from ${deploy.baseFrom}) instead of site.base`);
      if (deploy.preview) logInfo('a preview: every page is noindex and robots.txt disallows all');
      out ??= result.config.dirs.output;
      const outDir = resolve(out);
      const writing = performance.now();
      // The plugins' buildEnd hooks, before the switch: one that throws leaves the output as it was.
      const folder = staticFolderOf(result.config);
      const { files, kept } = await runBuildEnd({
        config: result.config,
        outputFolder: out,
        files: placeOutput(result.config, result.files),
        kept: result.kept,
        pages: result.pages.map((page) => ({ path: page.url, locale: page.locale, file: folder + page.file })),
        logger: { info: logInfo, warn: logWarning },
      });
      const written = await writeSite(out, files, {
        cache: options.cache !== false,
        compress: precompress(result.config) ? { workers } : false,
        afterStep: killHook(),
        kept,
        renderState: result.renderState,
      });
      const now = performance.now();
      const ms = Math.round(now - started);
      const locales = result.config.localeIds.map((locale) => {
        const pages = result.pages.filter((page) => page.locale === locale);
        const aliases = pages.filter((page) => page.alias).length;
        return `${pages.length} ${locale}${aliases ? `, of which ${aliases} ${aliases === 1 ? 'alias' : 'aliases'}` : ''}`;
      }).join('; ');
      const pageFiles = new Set(result.pages.map((page) => page.file));
      const others = [...result.files.keys()].filter((path) => !pageFiles.has(path)).length;
      logResult(`built ${result.pages.length} pages (${locales}) and ${others} other files into ${relative(process.cwd(), outDir) || '.'} in ${ms} ms`);
      if (options.verbose) {
        const { stats } = result;
        const stages = Object.entries({ ...result.timings, write: Math.round((now - writing) * 10) / 10 }).map(([stage, time]) => `${stage} ${time} ms`);
        logInfo(`${stages.join(' · ')}\nmarkdown ${stats.markdownParsed} parsed, ${stats.markdownCached} cached · esbuild steps cached ${stats.esbuildCached} · ${stats.pagesRendered} pages rendered · ${stats.workers} worker threads · social images ${stats.socialImagesDrawn} drawn of ${stats.socialImages} · image variants ${stats.imageVariantsMade} encoded of ${stats.imageVariants}\nwrote ${written.written} of ${written.files} files (siblings included), removed ${written.removed}${written.compressWorkers ? ` · precompression shared with ${written.compressWorkers} worker thread${written.compressWorkers === 1 ? '' : 's'}` : ''}`);
      }
      // For benchmarks on machines without /usr/bin/time: the peak resident set size of this process.
      if (process.env.SITE_REPORT_RSS === '1') logInfo(`peak RSS ${process.resourceUsage().maxRSS} KB`);
    }));

  program
    .command('check')
    .description('validate config, content and templates without writing anything')
    .option('--drafts', 'include blog posts marked as drafts')
    .option('--future', 'include posts dated after today')
    .action(run(async (options) => {
      const started = performance.now();
      const result = await buildSite({ config: options.config, drafts: Boolean(options.drafts), future: Boolean(options.future), socialImages: false });
      logWarnings(result.warnings);
      if (options.verbose) logInfos(result.infos);
      logResult(`ok: ${result.pages.length} pages checked in ${Math.round(performance.now() - started)} ms`);
    }));

  program
    .command('dev')
    .description('build the site in memory, serve it, and rebuild and reload the browser on every change')
    .option('-p, --port <port>', 'port (the next free one when it is taken)', parsePort, 4321)
    .option('--host <host>', 'host to listen on', '127.0.0.1')
    .option('--open', 'open the site in the default browser')
    .option('--drafts', 'include blog posts marked as drafts')
    .option('--future', 'include posts dated after today')
    .option('--no-admin', 'no admin (sign-in link, blog editor); needed to listen on a non-loopback --host')
    .action(run(async (options) => {
      const adminOn = options.admin !== false;
      if (adminOn) checkDevAdminHost(String(options.host));
      let dev: Awaited<ReturnType<typeof startDevServer>> | undefined;
      // A save writes the file; the watcher then rebuilds and reloads the open pages.
      const admin = adminOn ? createDevAdmin({ projectRoot: dirname(resolve(options.config)), site: siteOf(() => dev?.builder) }) : undefined;
      const shutdown = shutdownSignal();
      // Warnings are printed when they first appear, not again after every rebuild that still has them.
      let warned = new Set<string>();
      try {
        dev = await startDevServer({
          admin,
          config: options.config,
          port: Number(options.port),
          host: String(options.host),
          drafts: Boolean(options.drafts),
          future: Boolean(options.future),
          reporter: {
            portInUse: (port, next) => logWarning(`port ${port} is in use, trying ${next}`),
            built(changes, outcome) {
              logInfo(describeRebuild(changes, outcome, process.cwd()));
              logWarnings(outcome.warnings.filter((warning) => !warned.has(`${warning.code} ${warning.format()}`)));
              warned = new Set(outcome.warnings.map((warning) => `${warning.code} ${warning.format()}`));
              if (options.verbose && outcome.ok) logInfos(outcome.infos);
              if (options.verbose && outcome.ok) logInfo(Object.entries(outcome.timings).map(([stage, time]) => `${stage} ${time} ms`).join(' · '));
              if (!outcome.ok && outcome.errors.length) logErrors(outcome.errors, options);
              if (!outcome.ok && outcome.crash !== undefined) logCrash(outcome.crash, options);
            },
            watchError: (error) => logWarning(`watcher: ${error instanceof Error ? error.message : String(error)}`),
          },
        });
        const home = `${dev.url}${dev.builder.config?.site.base ?? ''}`;
        logResult(`site dev at ${home}/`);
        // The link is the key to the admin: it goes to the terminal only, good for one sign-in within 10 minutes.
        const signIn = admin && `${home}/auth/?token=${admin.tokens.issue()}`;
        if (signIn) logResult(`admin: sign in at ${signIn} (one use, within 10 minutes)`);
        const first = signIn ?? `${home}/`;
        if (options.open && !(await openBrowser(first))) logWarning(`could not open a browser; visit ${first}`);
        await shutdown.signalled;
        await dev.close();
      } finally {
        shutdown.release();
      }
    }));

  program
    .command('schema')
    .description('write the JSON Schema of site.config.yaml (for editor validation and completion)')
    .option('-o, --out <file>', 'where to write it', 'schema/site.config.schema.json')
    .action(run(async (options) => {
      const out = resolve(String(options.out));
      await mkdir(dirname(out), { recursive: true });
      await writeFile(out, formatJsonSchema());
      logResult(`wrote ${relative(process.cwd(), out)}`);
    }));

  program
    .command('serve')
    .description('serve a built site with the contact API, as in production')
    .option('-d, --dir <dir>', 'built site folder (default: output.dir of the config, dist)')
    .option('-p, --port <port>', 'port', parsePort, 4322)
    .option('--host <host>', 'host to listen on', '127.0.0.1')
    .option('--trust-proxy', 'behind a reverse proxy: take the client address and scheme from X-Forwarded-For and X-Forwarded-Proto')
    .option('--admin', 'also serve the admin (/auth, /admin/blog) for the accounts of `site admin add-user`')
    .option('--base <path>', 'the path the site was built for, when not site.base (see site build --base; also SITE_BASE)')
    .action(run(async (options) => {
      const config = await loadConfig(options.config, { deploy: deploySettings(process.env, undefined, options.base === undefined ? undefined : String(options.base)) });
      const dir = options.dir === undefined ? config.dirs.output : resolve(String(options.dir));
      const trustProxy = Boolean(options.trustProxy);
      // With the admin, the site is also built in memory, so that a save re-renders only what it affects.
      const live = options.admin ? createLiveSite({ config: options.config, dir }) : undefined;
      const published = await live?.start();
      if (published) logInfo(`published ${published} file${published === 1 ? '' : 's'} that ${relative(process.cwd(), dir) || '.'} did not have as the sources build them (a save not published before the last stop, or a build of older sources)`);
      const admin = live && createServeAdmin({ projectRoot: config.root, origin: config.site.origin, trustProxy, site: live });
      // The booking API follows the config each save rebuilds the pages from (slot length, hours, booking.url).
      const currentConfig = live && (() => live.config);
      const running = await startServer({ config, currentConfig, dir, port: Number(options.port), host: String(options.host), trustProxy, admin });
      logResult(`serving ${relative(process.cwd(), dir) || '.'} at ${running.url}/`);
      const shutdown = shutdownSignal();
      try {
        await shutdown.signalled;
        logInfo(`stopping: open requests may finish for ${serverLimits.shutdownGraceMs / 1000} s`);
        await running.close();
        await live?.dispose();
        if (admin && options.verbose) logInfo(`sign-in: at most ${admin.signInLimits.peakHashing} password check${admin.signInLimits.peakHashing === 1 ? '' : 's'} ran at once`);
      } finally {
        shutdown.release();
      }
    }));

  addAdminCommand(program, run);

  try {
    await program.parseAsync([...argv]);
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 || error.code === 'commander.helpDisplayed' || error.code === 'commander.version' ? 0 : 2;
    }
    throw error;
  }
  if (argv.length <= 2) {
    program.outputHelp();
    return 2;
  }
  return exitCode;
}

/** What an output folder must stay clear of: the project, the working directory, the folders the site reads and its stored data. */
function outputGuard(config: ResolvedConfig): OutputGuard {
  return {
    projectRoot: config.root,
    cwd: process.cwd(),
    sources: [
      { path: config.dirs.content, what: 'the content folder' },
      { path: config.dirs.templates, what: 'the templates folder' },
      { path: config.dirs.public, what: 'the public folder' },
      { path: config.dirs.data, what: 'the stored form submissions (contact.dataDir)' },
      { path: adminStateFolder(config.root), what: "the admin's accounts and audit log" },
    ],
  };
}

/**
 * For the tests of interrupted builds only: `SITE_TEST_KILL_AFTER_STEP=N` kills this process with
 * SIGKILL right after step N of the switch to the new output (see WriteOptions.afterStep).
 */
function killHook(): ((step: number) => void) | undefined {
  const at = Number(process.env.SITE_TEST_KILL_AFTER_STEP);
  if (!Number.isInteger(at) || at < 1) return undefined;
  return (step) => {
    if (step === at) process.kill(process.pid, 'SIGKILL');
  };
}

function parseCount(value: string): number {
  const count = Number(value);
  if (!Number.isInteger(count) || count < 0 || count > 64) throw new InvalidArgumentError('use a whole number from 0 to 64');
  return count;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InvalidArgumentError('use a port number between 0 and 65535');
  return port;
}

/** Resolves on the first SIGINT or SIGTERM; `release` stops listening (a second signal then ends the process). */
function shutdownSignal(): { signalled: Promise<void>; release(): void } {
  let release = () => {};
  const signalled = new Promise<void>((done) => {
    const stop = () => {
      release();
      done();
    };
    release = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  return { signalled, release: () => release() };
}

