/**
 * `npm run bench -- [--posts 1000] [--peers] [--runs 1] [--skip-real | --only-real | --scale [--real-posts 1000]] [--keep] [--tmp <dir>]`
 *
 * Generates a seeded synthetic corpus (about 6 KB of Markdown per post, with headings, lists, a
 * blockquote, a fenced code block and a GFM table) in a temp folder and builds it as whole
 * `node bin/site.js build` processes, so start-up counts:
 *
 * - the fixture site (bench/fixture: one locale, one layout, one page per post plus an index):
 *   cold (empty cache) and warm (cache kept), both writing what the peers write (no .br/.gz
 *   siblings, `--no-precompress`) and as by default; again with nothing changed (output and cache
 *   kept), twice (a build into a new folder records each page as reading every input, so both
 *   render none); a one-post rebuild (one post edited, only it parsed and only what the edit
 *   affects rendered: after an untimed first edit, which renders every page to record what each
 *   reads) as a process, and in-process (a warm build session in this process, as `site dev`
 *   keeps one);
 * - with --peers, the same corpus and layout with Eleventy and Astro (installed into bench/peers on
 *   first use) and Hugo (skipped when `hugo` is not installed), and the ratios measured in this run;
 * - the demo site (the repository's own content): cold, again with nothing changed (output and
 *   cache kept), and save-to-live in `site serve --admin`;
 * - the real site (every route, both locales) with the same number of synthetic posts, cold, warm,
 *   rebuilt with nothing changed, twice, a one-post edit (`site build`, after an untimed first
 *   edit; its stages and how many pages the search index took again in the note, and the index
 *   checked to hold the edited text), and save-to-live in `site serve --admin`, search included
 *   (`--only-real`: these rows alone);
 * - with --scale, only the cold builds of the table at scale (issue 50): the fixture site (default
 *   output and pages only) with Eleventy and Hugo (--peers) in alternating rounds, then the real
 *   site with `--real-posts` posts (default 1000, 0 or --skip-real for none), cold with its social
 *   images. Every run ends with that table in Markdown, the 1-minute load average as each build
 *   began beside its figures (the machine is shared).
 *
 * Prints pages, seconds, pages/s and peak RSS (from /usr/bin/time when present, else reported by
 * the CLI under SITE_REPORT_RSS=1). With --runs N each build runs N times and the median counts:
 * the fixture's cold and warm builds and the peers' in N alternating rounds (each of them once a
 * round, in a fixed order), the other rows N times in a row. Every timed run but the rebuilds
 * starts without an output folder, for every generator alike; what it clears is moved aside
 * untimed and deleted only at the end (see clearAway). `site` keeps its cache in the temp folder
 * (SITE_CACHE_DIR), so "cold" means an empty cache.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createDevBuilder } from '../src/dev/rebuild.js';
import { logInfo, logResult } from '../src/logger.js';
import { measureSaveToLive, searchIndexHolds } from './bench-save.js';
import {
  astroFiles,
  createCorpus,
  eleventyFiles,
  hugoFiles,
  realSiteBlogFiles,
  siteFixtureFiles,
  type ProjectFiles,
} from './bench-corpus.js';

// This file runs bundled as lib/scripts/bench.js (built by scripts/build-lib.js).
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const timeBinary = '/usr/bin/time';
const categories = ['circularity', 'saas', 'retail', 'repairer-stories'];

/** One measured build. */
interface Measurement {
  label: string;
  pages: number;
  ms: number;
  rssKb?: number;
  note?: string;
  /** The machine's load average over the last minute as the run began (other work on a shared machine). */
  load?: number;
}

/** What a finished child process reported. */
interface ProcessResult {
  ms: number;
  rssKb?: number;
  stdout: string;
  stderr: string;
  code: number;
}

/** Runs a command, timing it from spawn to exit and reading its peak RSS. */
async function runProcess(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<ProcessResult> {
  const useTime = existsSync(timeBinary);
  const rssFile = join(options.cwd, `.rss-${process.pid}`);
  const [file, argv] = useTime ? [timeBinary, ['-f', '%M', '-o', rssFile, command, ...args]] : [command, [...args]];
  const env = { ...process.env, ...options.env, ...(useTime ? {} : { SITE_REPORT_RSS: '1' }) };
  const started = performance.now();
  const child = spawn(file, argv, { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  const code = await new Promise<number>((done) => child.on('close', (exitCode) => done(exitCode ?? 1)));
  const ms = performance.now() - started;
  let rssKb: number | undefined;
  if (useTime) {
    rssKb = Number((await readFile(rssFile, 'utf8').catch(() => '')).trim().split('\n').at(-1)) || undefined;
    await rm(rssFile, { force: true });
  } else {
    const match = /peak RSS (\d+) KB/.exec(stderr);
    rssKb = match ? Number(match[1]) : undefined;
  }
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}\n${stderr}`);
  return { ms, rssKb, stdout, stderr, code };
}

/** Runs `measure` `runs` times and keeps the run with the median time. */
async function median(runs: number, measure: () => Promise<Measurement>): Promise<Measurement> {
  return (await rounds(runs, [measure]))[0]!;
}

/**
 * Runs `measures` in `runs` rounds, each of them once a round in order, and keeps each one's run
 * with the median time (its note and RSS with it): a slow spell of the machine then falls on all
 * of them rather than on the runs of one.
 */
async function rounds(runs: number, measures: readonly (() => Promise<Measurement>)[]): Promise<Measurement[]> {
  const results = measures.map((): Measurement[] => []);
  for (let round = 0; round < runs; round++) {
    for (const [index, measure] of measures.entries()) {
      const load = loadavg()[0];
      results[index]!.push({ load, ...(await measure()) });
    }
  }
  return results.map((measured) => measured.sort((a, b) => a.ms - b.ms)[Math.floor((measured.length - 1) / 2)]!);
}

/**
 * Clears `path` (when it exists) for a timed run by moving it into `<work>/trash/<n>`: one rename
 * on the same file system, untimed; main deletes the trash at the very end. Deleting would slow
 * the run after it: the root file system of the benchmark machine is ext4 without a journal,
 * where the inode allocator skips the inodes freed in the last 60 s (up to 6 min while their
 * inode-table block is dirty) one by one on every allocation (`recently_deleted()` called from
 * `find_inode_bit()` in fs/ext4/ialloc.c), so a process that creates N files right after N files
 * were deleted pays for O(N²) checks. Measured: the write stage of the cold default 1000-post
 * build took 3.5 s right after `rm -rf dist cache` and 0.6 s after moving them aside, and `perf
 * record` put 32% of the process in `find_get_block_common` under `recently_deleted`. It would
 * penalise whichever generator writes more files, and it is the harness's cleanup, not the
 * generator's work.
 */
async function clearAway(work: string, path: string): Promise<void> {
  if (!existsSync(path)) return;
  const trash = join(work, 'trash');
  await mkdir(trash, { recursive: true });
  await rename(path, join(trash, String((await readdir(trash)).length)));
}

/**
 * How fast the disk creates files right now: 1,000 folders with three small files each (what the
 * fixture's default output looks like), written synchronously, in milliseconds. On a clean disk
 * of the benchmark machine this takes 60-80 ms; when it takes far longer, files were deleted on
 * this file system in the last minutes (see clearAway), and every build that writes many files
 * is slowed alike: wait, and run again.
 */
async function fileSystemCheck(work: string): Promise<number> {
  const dir = join(work, 'fs-check');
  const data = Buffer.alloc(4096, 97);
  const started = performance.now();
  mkdirSync(dir);
  for (let folder = 0; folder < 1000; folder++) {
    const path = join(dir, String(folder));
    mkdirSync(path);
    for (const name of ['index.html', 'index.html.br', 'index.html.gz']) writeFileSync(join(path, name), data);
  }
  const ms = performance.now() - started;
  await clearAway(work, dir);
  return ms;
}

async function fileSystemNote(work: string): Promise<string> {
  return `file system: 3,000 files in 1,000 folders created in ${Math.round(await fileSystemCheck(work))} ms (60-80 ms on a clean disk of the benchmark machine; far more: files were deleted there minutes ago, see clearAway)\n`;
}

async function writeProject(dir: string, files: ProjectFiles): Promise<void> {
  const folders = new Set([...files.keys()].map((path) => dirname(join(dir, path))));
  for (const folder of [...folders].sort()) await mkdir(folder, { recursive: true });
  const entries = [...files.entries()];
  let next = 0;
  const worker = async () => {
    while (next < entries.length) {
      const [path, text] = entries[next++]!;
      await writeFile(join(dir, path), text);
    }
  };
  await Promise.all(Array.from({ length: 32 }, worker));
}

async function countHtml(dir: string): Promise<number> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith('.html')).length;
}

/** The site config of a temp copy: the original text with its templates and public folders pinned. */
function pinFolders(configText: string, templates: string, publicDir: string): string {
  const paths = `paths:\n  templates: ${JSON.stringify(templates)}\n  public: ${JSON.stringify(publicDir)}\n\n`;
  return configText.replace(/^site:/m, `${paths}site:`);
}

/**
 * A `site build` as a process; `cacheDir` is this benchmark's own cache (SITE_CACHE_DIR). The
 * output folder is cleared away first (untimed) unless `keepOutput`, as a rebuild in place would.
 */
async function siteBuild(
  work: string,
  siteDir: string,
  cacheDir: string,
  options: { keepOutput?: boolean; args?: readonly string[] } = {},
) {
  if (!options.keepOutput) await clearAway(work, join(siteDir, 'dist'));
  // lib/ was built before the benchmark started (scripts/run.js): each build runs as an installed package's does, without the checkout's check of it.
  return runProcess(
    process.execPath,
    [join(root, 'bin', 'site.js'), 'build', '--out', 'dist', '--verbose', ...(options.args ?? [])],
    { cwd: siteDir, env: { SITE_CACHE_DIR: cacheDir, SITE_LIB_FRESH: '1' } },
  );
}

/** The flag that makes `site` write what Eleventy and Hugo write: pages, no .br/.gz siblings. */
const likePeers = ['--no-precompress', '--no-social-images'];

function pagesOf(stdout: string): number {
  return Number(/built (\d+) pages/.exec(stdout)?.[1] ?? 0);
}

/** The stage timings and Markdown counts the CLI prints under --verbose. */
function detailOf(stderr: string): string {
  const lines = stderr.trim().split('\n');
  const last = (prefix: string) => lines.filter((line) => line.startsWith(prefix)).at(-1);
  return [lines.filter((line) => / ms( ·|$)/.test(line)).at(-1), last('markdown '), last('wrote ')]
    .filter(Boolean)
    .join('\n    ');
}

function formatTable(title: string, rows: readonly Measurement[]): string {
  const header = ['', 'pages', 'seconds', 'pages/s', 'peak RSS'];
  const body = rows.map((row) => [
    row.label,
    String(row.pages),
    (row.ms / 1000).toFixed(3),
    row.pages ? String(Math.round(row.pages / (row.ms / 1000))) : '',
    row.rssKb ? `${Math.round(row.rssKb / 1024)} MB` : 'n/a',
  ]);
  const widths = header.map((cell, index) => Math.max(cell.length, ...body.map((row) => row[index]!.length)));
  const line = (cells: readonly string[]) =>
    cells.map((cell, index) => (index === 0 ? cell.padEnd(widths[index]!) : cell.padStart(widths[index]!))).join('   ');
  const notes = rows.filter((row) => row.note).map((row) => `  ${row.label}: ${row.note}`);
  return [title, line(header), ...body.map(line), ...notes, ''].join('\n');
}

async function editPost(file: string): Promise<void> {
  const text = await readFile(file, 'utf8');
  await writeFile(file, `${text}\nEdited at run ${Date.now()}: one more paragraph, so one post changes.\n`);
}

/** How a measured build runs: from an empty cache, into the kept output, with flags, after a step. */
interface BuildRun {
  cold?: boolean;
  keepOutput?: boolean;
  args?: readonly string[];
  before?: () => Promise<void>;
}

/** One site build of `siteDir` as a process, measured. */
async function measureBuildOnce(
  work: string,
  siteDir: string,
  cacheDir: string,
  label: string,
  options: BuildRun,
): Promise<Measurement> {
  if (options.cold) await clearAway(work, cacheDir);
  await options.before?.();
  const result = await siteBuild(work, siteDir, cacheDir, options);
  return { label, pages: pagesOf(result.stdout), ms: result.ms, rssKb: result.rssKb, note: detailOf(result.stderr) };
}

/** The median of `runs` site builds of `siteDir` as processes. */
function measureBuild(
  runs: number,
  work: string,
  siteDir: string,
  cacheDir: string,
  label: string,
  options: BuildRun,
): Promise<Measurement> {
  return median(runs, () => measureBuildOnce(work, siteDir, cacheDir, label, options));
}

/** The fixture site with the corpus's posts, in `<work>/site`, and the folder of its cache. */
async function writeFixtureSite(
  work: string,
  posts: ReturnType<typeof createCorpus>,
): Promise<{ siteDir: string; cacheDir: string }> {
  const siteDir = join(work, 'site');
  const cacheDir = join(work, 'cache');
  const fixture = join(root, 'bench', 'fixture');
  await mkdir(siteDir, { recursive: true });
  await cp(join(fixture, 'content'), join(siteDir, 'content'), { recursive: true });
  await writeFile(
    join(siteDir, 'site.config.yaml'),
    pinFolders(
      await readFile(join(fixture, 'site.config.yaml'), 'utf8'),
      join(fixture, 'templates'),
      join(fixture, 'public'),
    ),
  );
  await writeProject(siteDir, siteFixtureFiles(posts));
  return { siteDir, cacheDir };
}

/**
 * The fixture site's rows and, with `withPeers`, the peers'. The cold and warm builds and the
 * peers run in alternating rounds, each warm build right after the cold one that filled its
 * cache; the one-post rebuilds follow, into the output and cache the last round left.
 */
async function benchFixture(
  work: string,
  posts: ReturnType<typeof createCorpus>,
  runs: number,
  withPeers: boolean,
): Promise<{ site: Measurement[]; peers: Measurement[] }> {
  const { siteDir, cacheDir } = await writeFixtureSite(work, posts);
  const once = (label: string, options: BuildRun) => () => measureBuildOnce(work, siteDir, cacheDir, label, options);
  // A second checkout: a fresh copy of the project (no dist/) at a path of its own, with a copy of
  // the cache the first one left where it sits beside the project, as a CI runner restores it
  // (actions/cache) or a teammate copies it. The cache knows a site by its path from the cache.
  let checkouts = 0;
  const secondCheckout = async (): Promise<Measurement> => {
    const copy = join(work, `checkout-${++checkouts}`);
    await cp(siteDir, join(copy, 'site'), { recursive: true, filter: (path) => path !== join(siteDir, 'dist') });
    await cp(cacheDir, join(copy, 'cache'), { recursive: true });
    return measureBuildOnce(
      work,
      join(copy, 'site'),
      join(copy, 'cache'),
      "site second checkout, first one's cache",
      {},
    );
  };
  const measured = await rounds(runs, [
    once('site cold, as peers (no .br/.gz)', { cold: true, args: likePeers }),
    once('site warm, as peers (no .br/.gz)', { args: likePeers }),
    once('site cold (default: .br/.gz too)', { cold: true }),
    once('site warm (default: .br/.gz too)', {}),
    secondCheckout,
    ...(withPeers ? await peerRuns(work, posts) : []),
  ]);
  const site = measured.slice(0, 5);
  const measure = (label: string, options: BuildRun) => measureBuild(runs, work, siteDir, cacheDir, label, options);
  // What a repeated `site build` costs: the build into a new folder recorded each page as
  // reading every input, so neither renders a page.
  site.push(await measure('site again, nothing changed (dist kept)', { keepOutput: true }));
  site.push(await measure('site again, nothing changed (read-sets kept)', { keepOutput: true }));
  // The first edit after that renders every page, tracked, to record what each reads: untimed.
  const edited = join(siteDir, 'content', 'blog', posts[Math.floor(posts.length / 2)]!.slug, 'en.md');
  await measureBuildOnce(work, siteDir, cacheDir, 'site first edit (untimed)', {
    keepOutput: true,
    before: () => editPost(edited),
  });
  site.push(
    await measure('site one-post rebuild (process, read-sets kept)', {
      keepOutput: true,
      before: () => editPost(edited),
    }),
  );
  site.push(await inProcessRebuild(siteDir, cacheDir, edited, runs));
  return { site, peers: measured.slice(5) };
}

/**
 * The incremental builder of `site dev` in this process: a first build, then one post edited and
 * rebuilt (the first edit also loads the unified stack, so the median of several edits counts).
 */
async function inProcessRebuild(siteDir: string, cacheDir: string, edited: string, runs: number): Promise<Measurement> {
  const previous = { cwd: process.cwd(), cache: process.env.SITE_CACHE_DIR };
  process.chdir(siteDir);
  process.env.SITE_CACHE_DIR = cacheDir;
  const builder = createDevBuilder({ config: 'site.config.yaml' });
  try {
    const first = await builder.rebuild();
    if (!first.ok)
      throw new Error(`the first in-process build failed: ${first.errors.map((error) => error.format()).join('\n')}`);
    return await median(Math.max(runs, 5), async () => {
      await editPost(edited);
      const started = performance.now();
      const outcome = await builder.rebuild([{ path: edited }]);
      const ms = performance.now() - started;
      if (!outcome.ok)
        throw new Error(`an in-process rebuild failed: ${outcome.errors.map((error) => error.format()).join('\n')}`);
      return {
        label: 'site one-post rebuild (in-process)',
        pages: outcome.rendered,
        ms,
        note: `site dev's incremental builder: reloaded ${outcome.reloaded.join(', ') || 'nothing'}; ${outcome.rendered} of ${outcome.pages} pages rendered; ${outcome.changed.length} files changed`,
      };
    });
  } finally {
    await builder.dispose();
    process.chdir(previous.cwd);
    if (previous.cache === undefined) delete process.env.SITE_CACHE_DIR;
    else process.env.SITE_CACHE_DIR = previous.cache;
  }
}

function versionOf(command: string, args: string[]): string | undefined {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/**
 * Eleventy and Astro live in bench/peers/, a package of its own, so the project's install neither
 * carries them nor warns about their peer dependencies; they are installed there the first time
 * they are needed. Returns that node_modules folder.
 */
function installPeers(): string {
  const modules = join(root, 'bench', 'peers', 'node_modules');
  if (!existsSync(join(modules, '@11ty', 'eleventy')) || !existsSync(join(modules, 'astro'))) {
    logInfo('installing Eleventy and Astro into bench/peers (once)…');
    const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], {
      cwd: dirname(modules),
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (result.status !== 0) throw new Error('npm ci in bench/peers failed');
  }
  return modules;
}

const versionIn = async (packageDir: string) =>
  JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')).version as string;

/**
 * One build each of Eleventy, Astro and Hugo, as a round runs them, with their projects written.
 * Astro's project links bench/peers/node_modules (its config and pages import `astro`); every
 * Astro run starts without its output, data store (.astro/) and cache, so it builds cold.
 */
async function peerRuns(
  work: string,
  posts: ReturnType<typeof createCorpus>,
  options: { astro: boolean } = { astro: true },
): Promise<(() => Promise<Measurement>)[]> {
  const modules = installPeers();
  const eleventyDir = join(work, 'eleventy');
  await writeProject(eleventyDir, eleventyFiles(posts));
  const eleventy = join(modules, '@11ty', 'eleventy');
  const eleventyVersion = await versionIn(eleventy);
  const measures = [
    async (): Promise<Measurement> => {
      await clearAway(work, join(eleventyDir, '_site'));
      const result = await runProcess(
        process.execPath,
        [join(eleventy, 'cmd.cjs'), '--config=eleventy.config.mjs', '--quiet'],
        { cwd: eleventyDir },
      );
      return {
        label: `eleventy ${eleventyVersion}`,
        pages: await countHtml(join(eleventyDir, '_site')),
        ms: result.ms,
        rssKb: result.rssKb,
      };
    },
  ];
  if (options.astro) {
    const astroDir = join(work, 'astro');
    await writeProject(astroDir, astroFiles(posts));
    await symlink(modules, join(astroDir, 'node_modules'), 'dir');
    const astro = join(modules, 'astro');
    const astroVersion = await versionIn(astro);
    measures.push(async (): Promise<Measurement> => {
      for (const folder of ['dist', '.astro', 'cache']) await clearAway(work, join(astroDir, folder));
      const result = await runProcess(process.execPath, [join(astro, 'astro.js'), 'build', '--silent'], {
        cwd: astroDir,
        env: { ASTRO_TELEMETRY_DISABLED: '1' },
      });
      return {
        label: `astro ${astroVersion}`,
        pages: await countHtml(join(astroDir, 'dist')),
        ms: result.ms,
        rssKb: result.rssKb,
      };
    });
  }

  const hugoVersion = versionOf('hugo', ['version']);
  if (!hugoVersion) {
    logInfo('hugo is not installed: skipping it (apt-get install hugo)');
    return measures;
  }
  const hugoDir = join(work, 'hugo');
  await writeProject(hugoDir, hugoFiles(posts));
  measures.push(async () => {
    await clearAway(work, join(hugoDir, 'public'));
    await clearAway(work, join(hugoDir, 'resources'));
    const result = await runProcess(
      'hugo',
      ['--quiet', '--source', hugoDir, '--destination', join(hugoDir, 'public')],
      { cwd: hugoDir },
    );
    return {
      label: `hugo ${/v[\d.]+/.exec(hugoVersion)?.[0] ?? ''}`,
      pages: await countHtml(join(hugoDir, 'public')),
      ms: result.ms,
      rssKb: result.rssKb,
    };
  });
  return measures;
}

/**
 * A copy of the repository's site in `siteDir`: its content, its config with the templates and
 * public folders pinned, and a link to its node_modules, where the config names package files
 * (output.preloadFonts) that a copy without it would report as missing.
 */
async function copyRepositorySite(siteDir: string): Promise<void> {
  await mkdir(siteDir, { recursive: true });
  await cp(join(root, 'content'), join(siteDir, 'content'), { recursive: true });
  await writeFile(
    join(siteDir, 'site.config.yaml'),
    pinFolders(await readFile(join(root, 'site.config.yaml'), 'utf8'), join(root, 'templates'), join(root, 'public')),
  );
  await symlink(join(root, 'node_modules'), join(siteDir, 'node_modules'), 'dir');
}

/**
 * The repository's site in `<work>/real` with `count` synthetic posts in place of its blog (in
 * English and Norwegian, 1 in 10 English only), and the folder of its cache.
 */
async function writeRealSite(
  work: string,
  count: number,
): Promise<{ siteDir: string; cacheDir: string; english: ReturnType<typeof createCorpus> }> {
  const siteDir = join(work, 'real');
  const cacheDir = join(work, 'real-cache');
  await copyRepositorySite(siteDir);
  await clearAway(work, join(siteDir, 'content', 'blog'));
  const english = createCorpus(count, { categories, seed: 1 });
  const norwegian = createCorpus(count, { categories, seed: 2 });
  await writeProject(siteDir, realSiteBlogFiles(english, norwegian));
  return { siteDir, cacheDir, english };
}

async function benchRealSite(work: string, count: number, runs: number): Promise<Measurement[]> {
  const { siteDir, cacheDir, english } = await writeRealSite(work, count);
  const measure = (label: string, options: BuildRun) => measureBuild(runs, work, siteDir, cacheDir, label, options);
  return [
    await measure('real site cold, no social images', { cold: true, args: ['--no-social-images'] }),
    await measure('real site cold (default: social images drawn)', { cold: true }),
    await measure('real site warm (social images from the cache)', {}),
    await measure('real site rebuild, nothing changed (dist kept)', { keepOutput: true }),
    await measure('real site rebuild again, nothing changed (read-sets kept)', { keepOutput: true }),
    ...(await realSiteEdit(work, siteDir, cacheDir, english, runs)),
    await saveToLive(siteDir, cacheDir, `real site save-to-live (site serve --admin, ${count} posts)`, runs),
  ];
}

/**
 * One post's body edited and the real site built again as a process (`site build`), after an
 * untimed first edit that renders every page to record what each reads. The row's note has the
 * stages (`--verbose`) and the pages indexed again; the search index must hold the edited text.
 */
async function realSiteEdit(
  work: string,
  siteDir: string,
  cacheDir: string,
  posts: ReturnType<typeof createCorpus>,
  runs: number,
): Promise<Measurement[]> {
  const edited = join(siteDir, 'content', 'blog', posts[Math.floor(posts.length / 2)]!.slug, 'en.md');
  await measureBuildOnce(work, siteDir, cacheDir, 'real site first edit (untimed)', {
    keepOutput: true,
    before: () => editPost(edited),
  });
  const row = await measureBuild(runs, work, siteDir, cacheDir, 'real site one-post edit (site build)', {
    keepOutput: true,
    before: () => editPost(edited),
  });
  const marker = /Edited at run (\d+)/g;
  const last = [...(await readFile(edited, 'utf8')).matchAll(marker)].at(-1)?.[1];
  if (!last || !(await searchIndexHolds(join(siteDir, 'dist', 'pagefind'), last)))
    throw new Error('the search index does not hold the edited text');
  return [{ ...row, note: `${row.note ?? ''}\n    the search index holds the edited text` }];
}

/** Save-to-live of `site serve --admin` on a copy of a site, with the bench's cache folder. */
async function saveToLive(siteDir: string, cacheDir: string, label: string, runs: number): Promise<Measurement> {
  const previous = process.env.SITE_CACHE_DIR;
  process.env.SITE_CACHE_DIR = cacheDir;
  try {
    const { ms, pages, note } = await measureSaveToLive(siteDir, Math.max(runs, 5));
    return { label, pages, ms, note };
  } finally {
    if (previous === undefined) delete process.env.SITE_CACHE_DIR;
    else process.env.SITE_CACHE_DIR = previous;
  }
}

/**
 * The demo site (the repository's own content) built as a whole process, cold and again with
 * nothing changed, then save-to-live on it (which edits a post, so it comes last).
 */
async function benchDemo(work: string, runs: number): Promise<Measurement[]> {
  const siteDir = join(work, 'demo');
  const cacheDir = join(work, 'demo-cache');
  await copyRepositorySite(siteDir);
  return [
    await measureBuild(runs, work, siteDir, cacheDir, 'demo site cold (default output)', { cold: true }),
    await measureBuild(runs, work, siteDir, cacheDir, 'demo site again, nothing changed (dist and cache kept)', {
      keepOutput: true,
    }),
    await saveToLive(siteDir, cacheDir, 'demo site save-to-live (site serve --admin)', runs),
  ];
}

/** The rows of the table at scale: one per corpus size, and the real site's. */
interface ScaleRows {
  posts: number;
  /** The fixture site cold, default output (.br/.gz too) and pages only (as the peers write). */
  cold?: Measurement;
  pagesOnly?: Measurement;
  eleventy?: Measurement;
  hugo?: Measurement;
  /** The real site cold with its social images, and its number of synthetic posts. */
  real?: Measurement;
  realPosts?: number;
}

/**
 * The table at scale (`--scale`): the fixture site cold, default output and pages only, with
 * Eleventy and Hugo (with `withPeers`) in alternating rounds, then the real site cold (social
 * images drawn) with `realCount` posts (none with `realCount` 0). Astro is left out: at 1000
 * posts it takes four times Eleventy's time and three times its memory.
 */
async function benchScale(
  work: string,
  posts: ReturnType<typeof createCorpus>,
  runs: number,
  withPeers: boolean,
  realCount: number,
): Promise<ScaleRows> {
  const { siteDir, cacheDir } = await writeFixtureSite(work, posts);
  const once = (label: string, options: BuildRun) => () => measureBuildOnce(work, siteDir, cacheDir, label, options);
  logInfo(
    `building the fixture site cold${withPeers ? ', with Eleventy and Hugo,' : ''} in ${runs} alternating round(s)…`,
  );
  const [cold, pagesOnly, ...peers] = await rounds(runs, [
    once('site cold (default: .br/.gz too)', { cold: true }),
    once('site cold, as peers (no .br/.gz)', { cold: true, args: likePeers }),
    ...(withPeers ? await peerRuns(work, posts, { astro: false }) : []),
  ]);
  const rows: ScaleRows = {
    posts: posts.length,
    cold,
    pagesOnly,
    eleventy: peers.find((row) => row.label.startsWith('eleventy')),
    hugo: peers.find((row) => row.label.startsWith('hugo')),
  };
  logResult(formatTable(`fixture site at scale (${posts.length} posts + index)`, [cold!, pagesOnly!, ...peers]));
  if (realCount > 0) {
    logInfo(`building the real site cold with ${realCount} posts…`);
    logResult(await fileSystemNote(work));
    const real = await writeRealSite(work, realCount);
    rows.real = await measureBuild(
      runs,
      work,
      real.siteDir,
      real.cacheDir,
      'real site cold (default: social images drawn)',
      {
        cold: true,
      },
    );
    rows.realPosts = realCount;
    logResult(formatTable(`real site (every route, en + no, ${realCount} synthetic posts)`, [rows.real]));
  }
  return rows;
}

/** The table at scale as Markdown (docs/performance.md): seconds and peak RSS, and the load each run began under. */
function formatScaleTable(rows: ScaleRows): string {
  const cell = (row: Measurement | undefined) =>
    row
      ? `${(row.ms / 1000).toFixed(1)} s, ${row.rssKb ? `${Math.round(row.rssKb / 1024)} MB` : 'RSS n/a'} (load ${row.load?.toFixed(1) ?? 'n/a'})`
      : '';
  const eleventy = rows.eleventy?.label ?? 'eleventy';
  const hugo = rows.hugo?.label ?? 'hugo';
  const lines = [
    `| posts | pages | site cold, default output | site cold, pages only | ${eleventy} | ${hugo} |`,
    '|---|---|---|---|---|---|',
  ];
  if (rows.cold)
    lines.push(
      `| ${rows.posts} (bench fixture) | ${rows.cold.pages} | ${cell(rows.cold)} | ${cell(rows.pagesOnly)} | ${cell(rows.eleventy)} | ${cell(rows.hugo)} |`,
    );
  if (rows.real)
    lines.push(`| ${rows.realPosts} on the real site (en + no) | ${rows.real.pages} | ${cell(rows.real)} | | | |`);
  return `at scale (cold: output and cache cleared; seconds, peak RSS, 1-minute load average as the run began on ${availableParallelism()} cores):\n${lines.join('\n')}\n`;
}

function ratio(a: Measurement | undefined, b: Measurement | undefined): string {
  return a && b ? `${(a.ms / b.ms).toFixed(2)}×` : 'n/a';
}

/** The fixture site (with the peers when asked) and the demo site. */
async function benchSmallSites(
  work: string,
  posts: ReturnType<typeof createCorpus>,
  count: number,
  runs: number,
  withPeers: boolean,
): Promise<ScaleRows> {
  logInfo(
    `building the fixture site${withPeers ? ', with Eleventy, Astro and Hugo,' : ''} in ${runs} alternating round(s)…`,
  );
  const { site: fixture, peers } = await benchFixture(work, posts, runs, withPeers);
  logResult(
    formatTable(`fixture site (bench/fixture: 1 locale, 1 layout, ${count} posts + index)`, [...fixture, ...peers]),
  );
  if (peers.length) {
    const [cold, warm, defaultCold, defaultWarm, checkout, , again] = fixture;
    const eleventy = peers.find((row) => row.label.startsWith('eleventy'));
    const hugo = peers.find((row) => row.label.startsWith('hugo'));
    const astro = peers.find((row) => row.label.startsWith('astro'));
    const memory = (a: Measurement | undefined) =>
      a?.rssKb && eleventy?.rssKb ? `${(a.rssKb / eleventy.rssKb).toFixed(2)}×` : 'n/a';
    logResult(
      [
        'ratios (same run; below 1 means site is faster):',
        '  as peers (same files written):',
        `    site cold / eleventy: ${ratio(cold, eleventy)}    site warm / eleventy: ${ratio(warm, eleventy)}`,
        `    site cold / hugo:     ${ratio(cold, hugo)}    site warm / hugo:     ${ratio(warm, hugo)}`,
        `    site cold / astro:    ${ratio(cold, astro)}    site warm / astro:    ${ratio(warm, astro)}`,
        `    peak RSS site cold / eleventy: ${memory(cold)}`,
        '  default (three times the files: pages and their .br/.gz):',
        `    site cold / eleventy: ${ratio(defaultCold, eleventy)}    site warm / eleventy: ${ratio(defaultWarm, eleventy)}`,
        `    site cold / hugo:     ${ratio(defaultCold, hugo)}    site warm / hugo:     ${ratio(defaultWarm, hugo)}`,
        `    site cold / astro:    ${ratio(defaultCold, astro)}    site warm / astro:    ${ratio(defaultWarm, astro)}`,
        `    peak RSS site cold / eleventy: ${memory(defaultCold)}`,
        `  second checkout with the first one's cache / warm (default output): ${ratio(checkout, defaultWarm)}`,
        '  again with nothing changed (dist, cache and read-sets kept):',
        `    site again / eleventy: ${ratio(again, eleventy)}    site again / hugo:     ${ratio(again, hugo)}    site again / astro: ${ratio(again, astro)}`,
        '',
      ].join('\n'),
    );
  }
  logInfo('building the demo site and saving a post in site serve --admin…');
  logResult(formatTable("demo site (the repository's content)", await benchDemo(work, runs)));
  return {
    posts: count,
    cold: fixture[2],
    pagesOnly: fixture[0],
    eleventy: peers.find((row) => row.label.startsWith('eleventy')),
    hugo: peers.find((row) => row.label.startsWith('hugo')),
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      posts: { type: 'string', default: '1000' },
      runs: { type: 'string', default: '1' },
      peers: { type: 'boolean', default: false },
      'skip-real': { type: 'boolean', default: false },
      'only-real': { type: 'boolean', default: false },
      scale: { type: 'boolean', default: false },
      'real-posts': { type: 'string', default: '1000' },
      keep: { type: 'boolean', default: false },
      tmp: { type: 'string', default: tmpdir() },
    },
  });
  const count = Number(values.posts);
  const runs = Number(values.runs);
  const realCount = Number(values['real-posts']);
  if (
    !Number.isInteger(count) ||
    count < 1 ||
    !Number.isInteger(runs) ||
    runs < 1 ||
    !Number.isInteger(realCount) ||
    realCount < 0
  ) {
    logInfo(
      'usage: npm run bench -- [--posts 1000] [--runs 1] [--peers] [--skip-real | --only-real | --scale [--real-posts 1000]] [--keep] [--tmp <dir>]',
    );
    process.exitCode = 2;
    return;
  }
  await mkdir(values.tmp, { recursive: true });
  const work = await mkdtemp(join(values.tmp, 'site-bench-'));
  try {
    const posts = createCorpus(count, { categories, seed: 1 });
    const size = posts.reduce((sum, post) => sum + post.body.length, 0) / posts.length;
    logResult(
      `corpus: ${count} posts, ${(size / 1024).toFixed(1)} KB of Markdown each on average (seed 1); ${availableParallelism()} cores, Node ${process.versions.node}; median of ${runs} run(s); in ${work}`,
    );
    logResult(await fileSystemNote(work));

    if (values.scale) {
      const rows = await benchScale(work, posts, runs, values.peers, values['skip-real'] ? 0 : realCount);
      logResult(formatScaleTable(rows));
      return;
    }
    const rows: ScaleRows = values['only-real']
      ? { posts: count }
      : await benchSmallSites(work, posts, count, runs, values.peers);
    if (!values['skip-real']) {
      logInfo('building the real site…');
      logResult(await fileSystemNote(work));
      const real = await benchRealSite(work, count, runs);
      logResult(formatTable(`real site (every route, en + no, ${count} synthetic posts, 1 in 10 English only)`, real));
      rows.real = real[1];
      rows.realPosts = count;
    }
    logResult(formatScaleTable(rows));
  } finally {
    // The trash goes also with --keep: it holds only what the runs cleared away (see clearAway).
    await rm(values.keep ? join(work, 'trash') : work, { recursive: true, force: true });
    if (values.keep) logInfo(`kept ${work}`);
  }
}

await main();
