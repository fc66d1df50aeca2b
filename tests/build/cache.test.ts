import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCorpus, realSiteBlogFiles } from '../../scripts/bench-corpus';
import { buildSite, type BuildResult } from '../../src/build';
import type { OutputFiles } from '../../src/output-files';
import { collectSiteErrors } from '../../src/errors';
import { createTempSite, type TempSite } from '../helpers/fixture-site';
import { outputRoot } from '../helpers/paths';

const categories = ['circularity', 'saas', 'retail', 'repairer-stories'];
let site: TempSite;
let cacheDir: string;

const bytes = (data: string | Uint8Array) =>
  typeof data === 'string' ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset, data.byteLength);

/** Every path of `expected` with the same bytes in `actual`, and no other path. */
function expectSameFiles(actual: OutputFiles, expected: OutputFiles, label: string) {
  expect([...actual.keys()].sort(), label).toEqual([...expected.keys()].sort());
  const different = [...expected]
    .filter(([path, data]) => !bytes(actual.get(path)!).equals(bytes(data)))
    .map(([path]) => path);
  expect(different, label).toEqual([]);
}

async function emptyCache() {
  await rm(cacheDir, { recursive: true, force: true });
}

const build = (workers: number): Promise<BuildResult> => buildSite({ config: site.config, workers });

beforeAll(async () => {
  site = await createTempSite({ editConfig: (text) => text.replace('  pageSize: 6', '  pageSize: 4') });
  await rm(join(site.dir, 'content', 'blog'), { recursive: true, force: true });
  const files = realSiteBlogFiles(
    createCorpus(24, { categories, seed: 7, bodySize: 2500 }),
    createCorpus(24, { categories, seed: 8, bodySize: 2500 }),
  );
  for (const [path, text] of files) {
    await mkdir(dirname(join(site.dir, path)), { recursive: true });
    await writeFile(join(site.dir, path), text);
  }
  await mkdir(outputRoot, { recursive: true });
  cacheDir = await mkdtemp(join(outputRoot, 'cache-'));
  process.env.SITE_CACHE_DIR = cacheDir;
});

afterAll(async () => {
  delete process.env.SITE_CACHE_DIR;
  await rm(cacheDir, { recursive: true, force: true });
  await site.cleanup();
});

describe('the build cache and the worker pool (24 synthetic posts in two locales)', () => {
  let cold: BuildResult;

  it('parses every document on a cold build and none on a warm one, with the same output', async () => {
    await emptyCache();
    cold = await build(0);
    expect(cold.stats.markdownCached).toBe(0);
    // 24 English and 21 Norwegian posts (every tenth is English only), plus the Markdown pages.
    expect(cold.stats.markdownParsed).toBeGreaterThanOrEqual(45);
    expect(cold.stats.esbuildCached).toBe(0);

    const warm = await build(0);
    expect(warm.stats.markdownParsed).toBe(0);
    expect(warm.stats.markdownCached).toBe(cold.stats.markdownParsed);
    // The templates, the stylesheet, the site's islands and the admin's (bundled apart).
    expect(warm.stats.esbuildCached).toBe(4);
    expectSameFiles(warm.files, cold.files, 'warm');
  });

  it('renders the same bytes with the worker pool forced on, cold and warm', async () => {
    await emptyCache();
    const parallelCold = await build(2);
    // Two for the Markdown and pages, two for the social images.
    expect(parallelCold.stats.workers).toBe(4);
    expect(parallelCold.stats.markdownParsed).toBe(cold.stats.markdownParsed);
    expectSameFiles(parallelCold.files, cold.files, 'parallel cold');

    const parallelWarm = await build(2);
    expect(parallelWarm.stats.markdownParsed).toBe(0);
    expectSameFiles(parallelWarm.files, cold.files, 'parallel warm');
  });

  it('parses only the edited post on the next build', async () => {
    await build(0);
    const file = join(site.dir, 'content', 'blog', 'post-00005', 'en.md');
    await writeFile(file, `${await readFile(file, 'utf8')}\nOne more paragraph.\n`);
    const rebuilt = await build(0);
    expect(rebuilt.stats.markdownParsed).toBe(1);
    expect(String(rebuilt.files.get('blog/post-00005/index.html'))).toContain('<p>One more paragraph.</p>');
  });

  it('still reports invalid front matter with its position once the cache is warm', async () => {
    const broken = join(site.dir, 'content', 'blog', 'post-00003', 'en.md');
    const text = await readFile(broken, 'utf8');
    await writeFile(broken, text.replace(/^category: .*$/m, 'category: "nonsense"'));
    try {
      const errors = await build(2).then(
        () => [],
        (error: unknown) => collectSiteErrors(error) ?? [],
      );
      expect(errors.map((error) => error.format())).toEqual([
        expect.stringMatching(/post-00003\/en\.md:5:11 {2}category {2}must be one of/),
      ]);
    } finally {
      await writeFile(broken, text);
    }
  });
});
