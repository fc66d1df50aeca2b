/**
 * The `site` command: build | check | dev | serve. Exit codes: 0 success, 1 a problem with the
 * site's input (config, content, templates), 2 a usage error.
 */
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { buildSite } from './build.js';
import { writeSite } from './emit/write.js';
import { collectSiteErrors } from './errors.js';
import { logCrash, logErrors, logInfo, logResult } from './logger.js';
import { loadConfig } from './config/load.js';
import { formatJsonSchema } from './config/schema.js';
import { generatorRoot } from './render/templates.js';
import { startServer } from './serve/server.js';

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
    .option('--verbose', 'print stack traces of internal errors')
    .showHelpAfterError('(run site --help for usage)')
    .exitOverride()
    .configureOutput({ writeOut: (text) => process.stdout.write(text), writeErr: (text) => process.stderr.write(text) });

  const run = (action: (options: GlobalOptions & Record<string, unknown>) => Promise<void>) =>
    async (_options: unknown, command: Command) => {
      const options = command.optsWithGlobals() as GlobalOptions & Record<string, unknown>;
      try {
        await action(options);
      } catch (error) {
        const errors = collectSiteErrors(error);
        if (errors) logErrors(errors, options);
        else logCrash(error, options);
        exitCode = 1;
      }
    };

  program
    .command('build')
    .description('build the site into the output folder')
    .option('-o, --out <dir>', 'output folder', 'dist')
    .option('--drafts', 'include blog posts marked as drafts')
    .action(run(async (options) => {
      const started = performance.now();
      const result = await buildSite({ config: options.config, drafts: Boolean(options.drafts) });
      const outDir = resolve(String(options.out));
      await writeSite(outDir, result.files);
      const ms = Math.round(performance.now() - started);
      const locales = result.config.localeIds.map((locale) => `${result.pages.filter((page) => page.locale === locale).length} ${locale}`).join(', ');
      logResult(`built ${result.pages.length} pages (${locales}) and ${result.files.size - result.pages.length} other files into ${relative(process.cwd(), outDir) || '.'} in ${ms} ms`);
      if (options.verbose) logInfo(Object.entries(result.timings).map(([stage, time]) => `${stage} ${time} ms`).join(' · '));
    }));

  program
    .command('check')
    .description('validate config, content and templates without writing anything')
    .option('--drafts', 'include blog posts marked as drafts')
    .action(run(async (options) => {
      const started = performance.now();
      const result = await buildSite({ config: options.config, drafts: Boolean(options.drafts) });
      logResult(`ok: ${result.pages.length} pages checked in ${Math.round(performance.now() - started)} ms`);
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
    .option('-d, --dir <dir>', 'built site folder', 'dist')
    .option('-p, --port <port>', 'port', parsePort, 4322)
    .option('--host <host>', 'host to listen on', '127.0.0.1')
    .action(run(async (options) => {
      const config = await loadConfig(options.config);
      const { server, url } = await startServer({ config, dir: resolve(String(options.dir)), port: Number(options.port), host: String(options.host) });
      logResult(`serving ${relative(process.cwd(), resolve(String(options.dir))) || '.'} at ${url}/`);
      await waitForShutdown(() => new Promise<void>((done) => server.close(() => done())));
    }));

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

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InvalidArgumentError('use a port number between 0 and 65535');
  return port;
}

/** Resolves after SIGINT or SIGTERM, once `close` has finished. */
function waitForShutdown(close: () => Promise<void>): Promise<void> {
  return new Promise((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      close().then(done, done);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
