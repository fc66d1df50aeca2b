import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCorpus, realSiteBlogFiles } from '../../scripts/bench-corpus';
import { buildSite } from '../../src/build';
import { markdownPoolThreshold } from '../../src/content/markdown-cache';
import type { OutputFiles } from '../../src/output-files';
import { createTempSite, type TempSite } from '../helpers/fixture-site';

const bytes = (data: string | Uint8Array) =>
  typeof data === 'string' ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset, data.byteLength);

/** The paths whose bytes differ between two outputs, or that only one has. */
function differences(actual: OutputFiles, expected: OutputFiles): string[] {
  const paths = new Set([...actual.keys(), ...expected.keys()]);
  return [...paths]
    .filter(
      (path) =>
        !actual.has(path) || !expected.has(path) || !bytes(actual.get(path)!).equals(bytes(expected.get(path)!)),
    )
    .sort();
}

// More posts than the first batch of Markdown: the loader reads that many folders, sends their
// Markdown, and reads the rest while the worker parses it (pipeline/inputs-stage.ts).
const count = markdownPoolThreshold + 30;
let site: TempSite;

beforeAll(async () => {
  // No social images: the cards of 230 posts are not what this test is about.
  site = await createTempSite({
    editConfig: (text) => text.replace(/^output:\n/m, 'output:\n  socialImages: false\n'),
  });
  await rm(join(site.dir, 'content', 'blog'), { recursive: true, force: true });
  const files = realSiteBlogFiles(
    createCorpus(count, { categories: ['circularity', 'saas', 'retail', 'repairer-stories'], seed: 11, bodySize: 600 }),
    [],
  );
  for (const [path, text] of files) {
    await mkdir(dirname(join(site.dir, path)), { recursive: true });
    await writeFile(join(site.dir, path), text);
  }
});

afterAll(async () => {
  await site?.cleanup();
});

describe(`a cold build of ${count} posts, their Markdown sent in batches as the folders are read`, () => {
  it('gives the same bytes on a worker as on the main thread alone', async () => {
    const alone = await buildSite({ config: site.config, cache: false, workers: 0 });
    const worker = await buildSite({ config: site.config, cache: false, workers: 1 });
    // Every post, and the Markdown pages of the site, parsed once.
    expect(alone.stats.markdownParsed).toBeGreaterThan(count);
    expect(worker.stats.markdownParsed).toBe(alone.stats.markdownParsed);
    expect(worker.stats.workers).toBeGreaterThanOrEqual(1);
    const postPages = [...worker.files.keys()].filter((path) => /^blog\/post-\d+\/index\.html$/.test(path));
    expect(postPages).toHaveLength(count);
    expect(String(worker.files.get(postPages.at(-1)!))).toMatch(/<h2[^>]*>/);
    expect(differences(worker.files, alone.files)).toEqual([]);
  }, 120_000);
});
