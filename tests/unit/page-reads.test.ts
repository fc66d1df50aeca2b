import { deserialize, serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { packReads, pageReadsOf, patchReads, unpackReads } from '../../src/cache/page-reads';

/** A seeded generator, so a failure can be run again. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

/** Pages like a site's: groups of neighbours reading a shared set, each with a few reads of its own (some repeated, unsorted). */
function samplePages(seed: number): Map<string, number[]> {
  const next = random(seed);
  const pages = new Map<string, number[]>();
  for (let group = 0; group < 6; group++) {
    const shared = Array.from({ length: Math.floor(next() * 300) }, () => Math.floor(next() * 5000));
    const size = Math.floor(next() * 40);
    for (let page = 0; page < size; page++) {
      const own = Array.from({ length: Math.floor(next() * 8) }, () => Math.floor(next() * 5000));
      pages.set(`g${group}/p${page}/index.html`, [...own, ...shared.filter(() => next() > 0.02), ...own.slice(0, 2)]);
    }
  }
  pages.set('empty/index.html', []);
  return pages;
}

const sortedUnique = (reads: readonly number[]) => [...new Set(reads)].sort((a, b) => a - b);

describe('page reads, packed', () => {
  it.each([1, 2, 3, 4, 5])('gives back every page’s reads, and the pages that read given inputs (seed %i)', (seed) => {
    const pages = samplePages(seed);
    const packed = deserialize(serialize(packReads(pageReadsOf(pages)))) as ReturnType<typeof packReads>;
    const unpacked = unpackReads(packed);
    expect(unpacked.size).toBe(pages.size);
    expect([...unpacked.entries()]).toEqual([...pages].map(([file, reads]) => [file, sortedUnique(reads)]));
    for (const file of pages.keys()) expect(unpacked.has(file)).toBe(true);
    expect(unpacked.has('missing/index.html')).toBe(false);
    const next = random(seed + 100);
    for (let trial = 0; trial < 20; trial++) {
      const stale = new Set(Array.from({ length: 1 + Math.floor(next() * 4) }, () => Math.floor(next() * 5000)));
      const expected = new Set(
        [...pages].filter(([, reads]) => reads.some((read) => stale.has(read))).map(([file]) => file),
      );
      expect(unpacked.reading(stale)).toEqual(expected);
      expect(pageReadsOf(pages).reading(stale)).toEqual(expected);
    }
    expect(unpacked.reading(new Set())).toEqual(new Set());
  });

  it('stores neighbours that read nearly the same inputs in a fraction of their reads', () => {
    const shared = Array.from({ length: 2000 }, (_, index) => index * 3);
    const pages = new Map(
      Array.from({ length: 500 }, (_, page) => [`blog/post-${page}/index.html`, [...shared, 10_000 + page]] as const),
    );
    const { deltas } = packReads(pageReadsOf(pages));
    // 2,001 reads for the first page, then 4 numbers for each next one (counts, one added, one removed).
    expect(deltas.length).toBe(2 + 2001 + 499 * 4);
  });
});

describe('page reads, patched', () => {
  /** A packed form read back, as a build reads its folder's state. */
  const readBack = (pages: Map<string, number[]>) =>
    unpackReads(deserialize(serialize(packReads(pageReadsOf(pages)))) as ReturnType<typeof packReads>);

  it.each([1, 2, 3])('gives what packing every page again gives, with the chain stored as it was (seed %i)', (seed) => {
    const pages = samplePages(seed);
    const files = [...pages.keys()];
    const earlier = readBack(pages);
    // Two pages rendered again with other reads, one gone, one new; then a second build on top.
    const rendered = new Map([
      [files[3]!, [7, 1, 7, 4999]],
      [files[10]!, []],
      ['new/index.html', [42, 3]],
    ]);
    const gone = [files[5]!];
    const patched = patchReads(earlier, rendered, gone)!;
    expect(patched).toBeDefined();
    const expected = new Map(pages);
    for (const file of gone) expected.delete(file);
    for (const [file, reads] of rendered) expected.set(file, reads);
    const asMap = (reads: ReturnType<typeof unpackReads>) => new Map(reads.entries());
    const sortedMap = (map: Map<string, number[]>) =>
      new Map([...map].map(([file, reads]) => [file, sortedUnique(reads)]));
    // Patched, then stored and read back: the same reads as the whole map packed again.
    const stored = unpackReads(deserialize(serialize(patched.packed)) as ReturnType<typeof packReads>);
    for (const reads of [patched, stored]) {
      expect(asMap(reads)).toEqual(sortedMap(expected));
      expect(reads.size).toBe(expected.size);
      expect(new Set(reads.files())).toEqual(new Set(expected.keys()));
      for (const file of expected.keys()) expect(reads.has(file)).toBe(true);
      expect(reads.has(gone[0]!)).toBe(false);
      for (const stale of [new Set([7]), new Set([42, 4999]), new Set([1, 2, 3])]) {
        const readers = new Set(
          [...expected].filter(([, list]) => list.some((read) => stale.has(read))).map(([f]) => f),
        );
        expect(reads.reading(stale)).toEqual(readers);
      }
    }
    // Not packed again: the chain's differences are the ones stored, only the three pages are beside it.
    expect(patched.packed!.deltas).toBe(earlier.packed!.deltas);
    expect(patched.packed!.patched!.files.sort()).toEqual([files[3]!, files[10]!, 'new/index.html'].sort());
    expect(patched.packed!.gone).toEqual(gone);

    // A second patch on the one read back: the gone page comes back, the new one goes.
    const again = patchReads(stored, new Map([[gone[0]!, [9]]]), ['new/index.html'])!;
    expected.set(gone[0]!, [9]);
    expected.delete('new/index.html');
    expect(asMap(again)).toEqual(sortedMap(expected));
    expect(again.packed!.gone ?? []).toEqual([]);
  });

  it('packs every page again once a quarter of them is patched or gone', () => {
    const pages = new Map(Array.from({ length: 20 }, (_, page) => [`p${page}/index.html`, [page, 100]] as const));
    const earlier = readBack(new Map([...pages].map(([file, reads]) => [file, [...reads]])));
    expect(patchReads(earlier, new Map([['p1/index.html', [3]]]), ['p2/index.html'])).toBeDefined();
    expect(
      patchReads(earlier, new Map([['p1/index.html', [3]]]), [
        'p2/index.html',
        'p3/index.html',
        'p4/index.html',
        'p5/index.html',
      ]),
    ).toBeUndefined();
    // Reads made in memory (a first build's) are not patched.
    expect(patchReads(pageReadsOf(pages), new Map(), [])).toBeUndefined();
  });
});

describe('a render state, stored and read back', () => {
  it('gives back every list as it was', async () => {
    const { mkdtemp, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { readRenderState, writeRenderState } = await import('../../src/cache/render-state');
    const cache = await mkdtemp(join(tmpdir(), 'render-state-'));
    const previous = process.env.SITE_CACHE_DIR;
    process.env.SITE_CACHE_DIR = cache;
    try {
      const pages = samplePages(7);
      const state = {
        global: 'g',
        routes: 'r',
        inputs: 'i',
        keys: ['entry:blog/a:en ["title"]', 'page:/ ["route","path"]', 'messages:no', 'with\nnewline'],
        prints: ['p1', 'p2', 'p3', 'p4'],
        pages: pageReadsOf(pages),
        stamps: new Map([
          ['index.html', { size: 10, mtimeMs: 1764220000123.456 }],
          ['blog/a/index.html.br', { size: 0, mtimeMs: 1 }],
        ]),
        folders: new Map([
          ['', 5],
          ['blog/a', 6],
        ]),
      };
      await writeRenderState('/some/output', state);
      const read = readRenderState('/some/output')!;
      expect(read).toMatchObject({
        global: 'g',
        routes: 'r',
        inputs: 'i',
        stamps: state.stamps,
        folders: state.folders,
      });
      expect(read.keys).toEqual(state.keys);
      expect(read.prints).toEqual(state.prints);
      expect([...read.pages.entries()]).toEqual([...pages].map(([file, reads]) => [file, sortedUnique(reads)]));
      const empty = {
        ...state,
        keys: [],
        prints: [],
        pages: pageReadsOf(new Map()),
        stamps: new Map(),
        folders: new Map(),
      };
      await writeRenderState('/some/output', empty);
      expect(readRenderState('/some/output')).toMatchObject({
        keys: [],
        prints: [],
        stamps: new Map(),
        folders: new Map(),
      });
    } finally {
      if (previous === undefined) delete process.env.SITE_CACHE_DIR;
      else process.env.SITE_CACHE_DIR = previous;
      await rm(cache, { recursive: true, force: true });
    }
  });
});
