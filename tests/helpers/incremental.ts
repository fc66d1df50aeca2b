/**
 * What the tests of `site build` into an earlier build share (tests/build/incremental-*.test.ts):
 * builds of a site by the CLI with a cache of their own, the oracle (every file the same as a cold
 * build with no cache writes), and the waits that let a file's stat be trusted.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect } from 'vitest';
import { outputRoot, repoRoot } from './paths';
import { createTempSite, type TempSite } from './fixture-site';
import { listFiles } from './site-files';
import { settleMs } from '../../src/pipeline/entry-snapshots';

export const run = promisify(execFile);
export const slug = 'why-repair-beats-recycling';
/** Sets a file's modification time back to `mtimeNs`, to the nanosecond, as `touch -d` does. */
export async function putBack(file: string, mtimeNs: bigint) {
  const seconds = mtimeNs / 1_000_000_000n;
  await run('touch', ['-m', '-d', `@${seconds}.${String(mtimeNs - seconds * 1_000_000_000n).padStart(9, '0')}`, file]);
}
/** Files changed less than `settleMs` ago are not trusted by their stat: wait until they are older. */
export const settle = () => new Promise((done) => setTimeout(done, settleMs + 100));

/** Builds of the site in `site()` with a cache of their own, and the oracle: the same files as a cold build. */
export function builds(site: () => string) {
  let cacheDir: string;
  beforeAll(async () => {
    await mkdir(outputRoot, { recursive: true });
    cacheDir = await mkdtemp(join(outputRoot, 'cache-'));
  });
  afterAll(() => rm(cacheDir, { recursive: true, force: true }));

  /** A verbose build into `out`: how many pages it rendered and how many files it wrote. */
  const build = async (...args: string[]) => {
    const { stdout, stderr } = await run('node', [join(repoRoot, 'bin', 'site.js'), 'build', '--verbose', ...args], {
      cwd: site(),
      env: { ...process.env, SITE_CACHE_DIR: cacheDir },
    });
    const rendered = Number(/(\d+) pages rendered/.exec(stderr)?.[1]);
    const written = Number(/wrote (\d+) of/.exec(stderr)?.[1]);
    const pages = Number(/built (\d+) pages/.exec(stdout)?.[1]);
    const kept = Number(/entries kept (\d+)/.exec(stderr)?.[1]);
    const pageSet = /page set (kept|expanded)/.exec(stderr)?.[1];
    const warnings = stderr.split('\n').filter((line) => line.startsWith('warning'));
    const search = /search index: (\d+) of (\d+) pages indexed again/.exec(stderr);
    const indexed = search ? { indexed: Number(search[1]), searchable: Number(search[2]) } : undefined;
    return { rendered, written, pages, kept, pageSet, warnings, indexed };
  };

  /** Every file of `out` is the same as in a cold build without the cache, and there are no others. */
  const expectSameAsCold = async () => {
    const dir = site();
    await rm(join(dir, 'cold'), { recursive: true, force: true });
    await build('--out', 'cold', '--no-cache');
    const files = await listFiles(join(dir, 'cold'));
    expect(await listFiles(join(dir, 'out'))).toEqual(files);
    const different: string[] = [];
    for (const file of files) {
      const [a, b] = await Promise.all([readFile(join(dir, 'out', file)), readFile(join(dir, 'cold', file))]);
      if (!a.equals(b)) different.push(file);
    }
    expect(different).toEqual([]);
  };

  const edit = async (path: string, from: string | RegExp, to: string) => {
    const text = await readFile(path, 'utf8');
    expect(text.replace(from, to)).not.toBe(text);
    await writeFile(path, text.replace(from, to));
  };
  return { build, expectSameAsCold, edit };
}

/**
 * A copy of the real site with its templates and public/ copied too (so a test can edit them), and
 * its builds (see `builds`); `entries` is how many entry folders it has, `outputOf` its output's files.
 */
export function editableSite() {
  const temp = {} as TempSite;
  beforeAll(async () => {
    Object.assign(
      temp,
      await createTempSite({
        editConfig: (text) =>
          text.replace(/^  templates: .*$/m, '  templates: templates').replace(/^  public: .*$/m, '  public: public'),
      }),
    );
    await cp(join(repoRoot, 'templates'), join(temp.dir, 'templates'), { recursive: true });
    await cp(join(repoRoot, 'public'), join(temp.dir, 'public'), { recursive: true });
  });
  afterAll(() => temp.cleanup?.());
  const outputOf = async () => {
    const dir = join(temp.dir, 'out');
    return new Map(
      await Promise.all((await listFiles(dir)).map(async (file) => [file, await readFile(join(dir, file))] as const)),
    );
  };
  return { temp, ...builds(() => temp.dir), entries: 9, outputOf };
}
