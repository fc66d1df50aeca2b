import { describe, expect, it } from 'vitest';
import type { DiskCache } from '../../src/cache/disk-cache';
import { createMarkdownRenderer } from '../../src/content/markdown-cache';
import type { PoolJob, WorkerPool } from '../../src/parallel/pool';

/** A pool that answers each chunk in its own turn, its HTML the text in upper case, and logs what happens. */
function turnByTurnPool(log: string[]): WorkerPool {
  return {
    size: 1,
    start: () => undefined,
    close: async () => undefined,
    terminate: async () => undefined,
    submit: () => {
      throw new Error('the renderer gives its jobs with `run`');
    },
    async run<T, R>(job: PoolJob<T, R>) {
      const results: R[] = [];
      for (let first = 0; first < job.items.length; first += job.chunkSize) {
        await new Promise((resume) => setImmediate(resume));
        const chunk = job.items
          .slice(first, first + job.chunkSize)
          .map((text) => ({ words: 1, html: `<p>${String(text).toUpperCase()}</p>` }) as R);
        log.push(`chunk ${first}`);
        job.onResults?.(first, chunk);
        results.push(...chunk);
      }
      return results;
    },
  };
}

describe('the Markdown renderer with a pool', () => {
  it('tells each result and stores it in the cache as its chunk comes back, not when the call is done, and keeps none', async () => {
    const log: string[] = [];
    const cache: DiskCache = {
      dir: '',
      readSync: () => undefined,
      write: async (key) => void log.push(`stored ${key.slice(0, 4)}`),
      settled: async () => undefined,
    };
    const renderer = createMarkdownRenderer({ cache, pool: () => turnByTurnPool(log), poolThreshold: 0 });
    const texts = ['a', 'b', 'c', 'd', 'e', 'a'];
    const told: string[] = [];
    const results = await renderer.renderAll(texts, undefined, (index, result) =>
      told.push(`${index} ${'html' in result ? result.html : 'failed'}`),
    );
    // Told, not kept for the answer: a build of 10,000 posts does not hold every document's HTML.
    expect(results).toEqual([]);
    expect([...told].sort()).toEqual(texts.map((text, index) => `${index} <p>${text.toUpperCase()}</p>`).sort());
    // The repeated 'a' is rendered once and told at both its places, with the first chunk.
    expect(told.slice(0, 5)).toEqual(['0 <p>A</p>', '5 <p>A</p>', '1 <p>B</p>', '2 <p>C</p>', '3 <p>D</p>']);
    expect(told).toHaveLength(6);
    // The first chunk's four documents are stored before the second chunk is rendered.
    expect(log.indexOf('chunk 4')).toBe(5);
    expect(log.slice(0, 5).filter((line) => line.startsWith('stored'))).toHaveLength(4);
  });
});
