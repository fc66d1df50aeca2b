import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, truncate } from 'node:fs/promises';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, type BuildResult } from '../../src/build';
import type { OutputFiles } from '../../src/output-files';
import { createTempSite, type TempSite } from '../helpers/fixture-site';
import { outputRoot, repoRoot } from '../helpers/paths';
import { listFiles } from '../helpers/site-files';

const run = promisify(execFile);

let site: TempSite;
let copies: string;

const bytes = (data: string | Uint8Array) =>
  typeof data === 'string' ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset, data.byteLength);

function expectSameFiles(actual: OutputFiles, expected: OutputFiles) {
  expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
  expect(
    [...expected].filter(([path, data]) => !bytes(actual.get(path)!).equals(bytes(data))).map(([path]) => path),
  ).toEqual([]);
}

/** Builds the project in `dir` with its own cache folder inside it (as node_modules/.cache is). */
async function buildIn(dir: string): Promise<BuildResult> {
  process.env.SITE_CACHE_DIR = join(dir, '.cache', 'site');
  return buildSite({ config: join(dir, 'site.config.yaml'), workers: 0 });
}

beforeAll(async () => {
  site = await createTempSite();
  copies = await mkdtemp(join(outputRoot, 'cache-travels-'));
});

afterAll(async () => {
  delete process.env.SITE_CACHE_DIR;
  await rm(copies, { recursive: true, force: true });
  await site.cleanup();
});

describe('a build cache copied with the project', () => {
  let cold: BuildResult;

  it('answers a build of the copy in another folder: nothing parsed or bundled again, same bytes', async () => {
    cold = await buildIn(site.dir);
    expect(cold.stats.markdownParsed).toBeGreaterThan(0);
    const copy = join(copies, 'second-checkout');
    await cp(site.dir, copy, { recursive: true });
    const moved = await buildIn(copy);
    expect(moved.stats.markdownParsed).toBe(0);
    expect(moved.stats.markdownCached).toBe(cold.stats.markdownParsed);
    // The templates, the stylesheet, the site's islands and the admin's (bundled apart).
    expect(moved.stats.esbuildCached).toBe(4);
    expectSameFiles(moved.files, cold.files);
  });

  it("keeps the entries of the copy by their files' bytes, but those that name the project's folder", async () => {
    /** `site build` in `dir` (its working folder, as a checkout's), with its cache inside. */
    const build = async (dir: string) => {
      const { stderr } = await run('node', [join(repoRoot, 'bin', 'site.js'), 'build', '--verbose', '--out', 'dist'], {
        cwd: dir,
        env: { ...process.env, SITE_CACHE_DIR: join(dir, '.cache', 'site') },
      });
      return {
        kept: Number(/entries kept (\d+)/.exec(stderr)?.[1]),
        parsed: Number(/markdown (\d+) parsed/.exec(stderr)?.[1]),
      };
    };
    const first = join(copies, 'entries-first');
    await cp(site.dir, first, { recursive: true });
    // Entry folders changed in the last two seconds are not kept (entry-snapshots.ts `settleMs`).
    await new Promise((done) => setTimeout(done, 2100));
    expect((await build(first)).kept).toBe(0);
    const here = await build(first);
    expect(here.kept).toBeGreaterThan(5);
    const copy = join(copies, 'entries-second');
    await cp(first, copy, { recursive: true });
    await new Promise((done) => setTimeout(done, 2100));
    const moved = await build(copy);
    // A post with an image names it by its absolute path: loaded again, from the copy's own file.
    const blog = join(copy, 'content', 'blog');
    const withImages = readdirSync(blog).filter((slug) =>
      readdirSync(join(blog, slug)).some((file) => /\.(jpe?g|png|webp)$/.test(file)),
    ).length;
    expect(withImages).toBeGreaterThan(0);
    expect(moved).toEqual({ kept: here.kept - withImages, parsed: 0 });
    const files = await listFiles(join(first, 'dist'));
    expect(await listFiles(join(copy, 'dist'))).toEqual(files);
    for (const file of files)
      expect((await readFile(join(copy, 'dist', file))).equals(await readFile(join(first, 'dist', file))), file).toBe(
        true,
      );
    // The snapshots took the copy's stamps: its next build keeps every entry.
    expect((await build(copy)).kept).toBe(here.kept);
  });

  it('keeps the pages expanded from the routes in a copy whose entries name no folder of the project', async () => {
    const build = async (dir: string) => {
      const { stderr } = await run('node', [join(repoRoot, 'bin', 'site.js'), 'build', '--verbose', '--out', 'dist'], {
        cwd: dir,
        env: { ...process.env, SITE_CACHE_DIR: join(dir, '.cache', 'site') },
      });
      return {
        kept: Number(/entries kept (\d+)/.exec(stderr)?.[1]),
        pageSet: /page set (kept|expanded)/.exec(stderr)?.[1],
      };
    };
    const first = join(copies, 'pages-first');
    await cp(site.dir, first, {
      recursive: true,
      filter: (path) => !path.startsWith(join(site.dir, '.cache')) && !path.startsWith(join(site.dir, 'dist')),
    });
    // The posts with an image name it by its absolute path: taken away, every entry travels.
    const blog = join(first, 'content', 'blog');
    for (const slug of readdirSync(blog))
      if (readdirSync(join(blog, slug)).some((file) => /\.(jpe?g|png|webp)$/.test(file)))
        await rm(join(blog, slug), { recursive: true });
    await new Promise((done) => setTimeout(done, 2100));
    expect(await build(first)).toMatchObject({ kept: 0, pageSet: 'expanded' });
    expect(await build(first)).toMatchObject({ pageSet: 'kept' });
    const copy = join(copies, 'pages-second');
    await cp(first, copy, { recursive: true });
    const moved = await build(copy);
    expect(moved.pageSet).toBe('kept');
    expect(moved.kept).toBeGreaterThan(0);
  });

  it('ignores truncated or damaged pack files: the build runs cold and gives the same bytes', async () => {
    const copy = join(copies, 'damaged');
    await cp(site.dir, copy, { recursive: true });
    const cache = join(copy, '.cache', 'site');
    const packs = (await readdir(cache, { recursive: true })).filter((file) => file.endsWith('.pack'));
    expect(packs.length).toBeGreaterThan(0);
    for (const pack of packs) await truncate(join(cache, pack), 40);
    const damaged = await buildIn(copy);
    expect(damaged.stats.markdownParsed).toBe(cold.stats.markdownParsed);
    expectSameFiles(damaged.files, cold.files);
  });

  it('keeps every page of a copy that has its dist/ too: `site build` there renders and writes nothing', async () => {
    const first = join(copies, 'first');
    await cp(site.dir, first, { recursive: true });
    const build = async (dir: string) => {
      const { stderr } = await run('node', [join(repoRoot, 'bin', 'site.js'), 'build', '--verbose', '--out', 'dist'], {
        cwd: dir,
        env: { ...process.env, SITE_CACHE_DIR: join(dir, '.cache', 'site') },
      });
      return {
        rendered: Number(/(\d+) pages rendered/.exec(stderr)?.[1]),
        written: Number(/wrote (\d+) of/.exec(stderr)?.[1]),
      };
    };
    // A first build into a new folder records what each page read (its entries, just copied, have
    // no snapshot yet); the second renders nothing.
    await build(first);
    expect((await build(first)).rendered).toBe(0);
    const second = join(copies, 'second');
    // `cp -a` keeps modification times to the nanosecond, as the written files' stamps need.
    await run('cp', ['-a', first, second]);
    expect(await build(second)).toEqual({ rendered: 0, written: 0 });
    const files = await listFiles(join(first, 'dist'));
    expect(await listFiles(join(second, 'dist'))).toEqual(files);
    for (const file of files)
      expect((await readFile(join(second, 'dist', file))).equals(await readFile(join(first, 'dist', file))), file).toBe(
        true,
      );
  });
});
