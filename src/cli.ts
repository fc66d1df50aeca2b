/**
 * The `site` command: build | check | dev | serve | init | admin | schema. A thin shell over the
 * library (api.ts): it parses arguments, prints to the terminal and waits for a signal to stop a
 * server. Exit codes: 0 success, 1 a problem with the site's input (config, content, templates),
 * 2 a usage error.
 */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { build, check, dev, serve, terminalLogger } from './api.js';
import { collectSiteErrors, exitCodeOf, SiteError, SiteErrors } from './errors.js';
import { createTerminalProgress, logCrash, logErrors, logInfo, logResult, logWarning, logWarnings } from './logger.js';
import { formatJsonSchema, hostTargets, type HostTarget } from './config/schema.js';
import { generatorRoot } from './cache/disk-cache.js';
import { openBrowser } from './dev/open-browser.js';
import { addAdminCommand } from './admin/commands.js';
import { addDbCommand } from './store/commands.js';
import { initProject } from './init.js';
import { hooksAbandoned } from './config/plugin-hooks.js';

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
    .configureOutput({
      writeOut: (text) => process.stdout.write(text),
      writeErr: (text) => process.stderr.write(text),
    });

  const run =
    (action: (options: GlobalOptions & Record<string, unknown>, command: Command) => Promise<void>) =>
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
    .option(
      '--workers <count>',
      'worker threads for Markdown, rendering, social images and precompression (default: one per extra core, when the site is large enough; 0 for none)',
      parseCount,
    )
    .option('--no-cache', 'neither read nor write the build cache (node_modules/.cache/site, or SITE_CACHE_DIR)')
    .option('--no-precompress', 'write no .br and .gz siblings, whatever output.precompress in the config says')
    .option(
      '--no-social-images',
      'draw no social images and name none (og:image), whatever output.socialImages in the config says',
    )
    .option('--origin <url>', 'the origin pages name instead of site.origin (a preview deploy; also SITE_ORIGIN)')
    .option(
      '--base <path>',
      'the path the site is published under instead of site.base, such as /my-site ("/" for the root; also SITE_BASE)',
    )
    .addOption(
      new Option(
        '--target <host>',
        'the host the output is for: its headers, redirects, 404 rules and form functions (default: output.target of the config, node)',
      ).choices(hostTargets),
    )
    .option('--quiet', 'print no progress on a long build (its problems and summary are printed still)')
    .action(
      run(async (options) => {
        await build({
          progress: options.quiet ? undefined : createTerminalProgress(),
          config: options.config,
          logger: terminalLogger(options),
          verbose: options.verbose,
          out: options.out === undefined ? undefined : String(options.out),
          drafts: Boolean(options.drafts),
          future: Boolean(options.future),
          workers: options.workers === undefined ? undefined : Number(options.workers),
          cache: options.cache !== false,
          precompress: options.precompress !== false,
          socialImages: options.socialImages !== false,
          origin: options.origin === undefined ? undefined : String(options.origin),
          base: options.base === undefined ? undefined : String(options.base),
          target: options.target as HostTarget | undefined,
          afterStep: killHook(),
        });
        // For benchmarks on machines without /usr/bin/time: the peak resident set size of this process.
        if (process.env.SITE_REPORT_RSS === '1') logInfo(`peak RSS ${process.resourceUsage().maxRSS} KB`);
      }),
    );

  program
    .command('check')
    .description('validate config, content and templates without writing anything')
    .option('--drafts', 'include blog posts marked as drafts')
    .option('--future', 'include posts dated after today')
    .option('--external', 'also ask every web address the posts and page copy link to (answers kept for a day)')
    .action(
      run(async (options) => {
        await check({
          config: options.config,
          logger: terminalLogger(options),
          verbose: options.verbose,
          drafts: Boolean(options.drafts),
          future: Boolean(options.future),
          external: Boolean(options.external),
        });
      }),
    );

  program
    .command('dev')
    .description('build the site in memory, serve it, and rebuild and reload the browser on every change')
    .option('-p, --port <port>', 'port (the next free one when it is taken)', parsePort, 4321)
    .option('--host <host>', 'host to listen on', '127.0.0.1')
    .option('--open', 'open the site in the default browser')
    .option('--drafts', 'include blog posts marked as drafts')
    .option('--future', 'include posts dated after today')
    .option('--no-admin', 'no admin (sign-in link, blog editor); needed to listen on a non-loopback --host')
    .action(
      run(async (options) => {
        const shutdown = shutdownSignal();
        try {
          const running = await dev({
            config: options.config,
            logger: terminalLogger(options),
            verbose: options.verbose,
            port: Number(options.port),
            host: String(options.host),
            drafts: Boolean(options.drafts),
            future: Boolean(options.future),
            admin: options.admin !== false,
          });
          const first = running.signInUrl ?? running.url;
          if (options.open && !(await openBrowser(first))) logWarning(`could not open a browser; visit ${first}`);
          await shutdown.signalled;
          await running.close();
        } finally {
          shutdown.release();
        }
      }),
    );

  program
    .command('schema')
    .description('write the JSON Schema of site.config.yaml (for editor validation and completion)')
    .option('-o, --out <file>', 'where to write it', 'schema/site.config.schema.json')
    .action(
      run(async (options) => {
        const out = resolve(String(options.out));
        await mkdir(dirname(out), { recursive: true });
        await writeFile(out, formatJsonSchema());
        logResult(`wrote ${relative(process.cwd(), out)}`);
      }),
    );

  program
    .command('serve')
    .description('serve a built site with the contact API, as in production')
    .option('-d, --dir <dir>', 'built site folder (default: output.dir of the config, dist)')
    .option('-p, --port <port>', 'port', parsePort, 4322)
    .option('--host <host>', 'host to listen on', '127.0.0.1')
    .option(
      '--trust-proxy',
      'behind a reverse proxy: take the client address and scheme from X-Forwarded-For and X-Forwarded-Proto',
    )
    .option('--admin', 'also serve the admin (/auth, /admin/blog) for the accounts of `site admin add-user`')
    .option(
      '--base <path>',
      'the path the site was built for, when not site.base (see site build --base; also SITE_BASE)',
    )
    .action(
      run(async (options) => {
        const shutdown = shutdownSignal();
        try {
          const running = await serve({
            config: options.config,
            logger: terminalLogger(options),
            verbose: options.verbose,
            dir: options.dir === undefined ? undefined : String(options.dir),
            port: Number(options.port),
            host: String(options.host),
            trustProxy: Boolean(options.trustProxy),
            admin: Boolean(options.admin),
            base: options.base === undefined ? undefined : String(options.base),
          });
          await shutdown.signalled;
          await running.close();
        } finally {
          shutdown.release();
        }
      }),
    );

  program
    .command('init')
    .description('make a new site from the starter: home, about, contact, a blog with two posts, 404, a README')
    .argument('[dir]', 'folder of the new site (missing or empty)', '.')
    .option('--locales <codes>', 'languages, the default first, such as en,no', 'en')
    .option('--booking', 'add a page to book meetings (the built-in booking) and its config')
    .action(
      run(async (options, command) => {
        const dir = String(command.args[0] ?? '.');
        const locales = String(options.locales)
          .split(',')
          .map((code) => code.trim().toLowerCase())
          .filter(Boolean);
        const made = await initProject({ dir, locales, booking: options.booking === true });
        const where = relative(process.cwd(), made.dir) || '.';
        logResult(`made a site in ${where} (${made.files.length} files, ${made.locales.join(', ')}); next:`);
        // From a tarball or a checkout, the starter installs the generator from there: say so.
        const from =
          made.dependency.source === 'registry'
            ? ''
            : `      (installs ${made.name} from ${made.dependency.spec}, the ${made.dependency.source} this ran from)`;
        logResult(`${where === '.' ? '' : `  cd ${where}\n`}  npm install${from}\n  npm run dev`);
        if (made.locales.some((locale) => locale !== 'en'))
          logInfo(
            `the copy of ${made.locales.filter((locale) => locale !== 'en').join(', ')} is the English text, to translate: content/**/<code>.yaml and .md`,
          );
      }),
    );

  addAdminCommand(program, run);
  addDbCommand(program, run);

  // A command that ends without finishing (the event loop empty while it still waits on a promise
  // nothing will settle, or process.exit called under it) must not end in silence, or with 0.
  const unfinished = () => {
    const name = ['site', ...argv.slice(2, 3)].join(' ');
    logErrors(
      [
        new SiteError({
          code: 'UNFINISHED',
          message: `${name} ended before it finished: nothing was left to run while it still waited, or the process was ended under it`,
        }),
      ],
      {},
    );
    process.exitCode = 1;
  };
  process.once('exit', unfinished);
  try {
    await program.parseAsync([...argv]);
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.exitCode === 0 || error.code === 'commander.helpDisplayed' || error.code === 'commander.version'
        ? 0
        : 2;
    }
    throw error;
  } finally {
    process.off('exit', unfinished);
  }
  if (argv.length <= 2) {
    program.outputHelp();
    return 2;
  }
  // A plugin hook given up after its time budget lives on, and what it waits for (a socket, a
  // timer) would hold the process open after the error was printed: the command ends here, once
  // its output is written, with the exit code it reported.
  if (hooksAbandoned()) {
    await Promise.all(
      [process.stdout, process.stderr].map((stream) => new Promise<void>((done) => stream.write('', () => done()))),
    );
    process.exit(exitCode);
  }
  return exitCode;
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
  if (!Number.isInteger(count) || count < 0 || count > 64)
    throw new InvalidArgumentError('use a whole number from 0 to 64');
  return count;
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new InvalidArgumentError('use a port number between 0 and 65535');
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
