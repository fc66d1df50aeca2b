import { once } from 'node:events';
import { setFlagsFromString } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { workerHeapSized } from '../../src/parallel/pool';

/**
 * A worker that keeps little alive but passes much through its old generation (arrays that outlive
 * two young collections, then go: as the card worker's layouts do while sharp draws), and says how
 * many full collections it made.
 */
const churn = `
const { PerformanceObserver, constants } = require('node:perf_hooks');
const { parentPort } = require('node:worker_threads');
let major = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if (entry.detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR) major++;
}).observe({ entryTypes: ['gc'] });
(async () => {
  const ring = new Array(64);
  for (let round = 0; round < 640; round++) {
    ring[round % 64] = Array.from({ length: 4000 }, (_, index) => ({ index, round }));
    if (round % 8 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  await new Promise((resolve) => setTimeout(resolve, 20));
  parentPort.postMessage(major);
})();
`;

async function fullCollections(worker: Worker): Promise<number> {
  const [major] = (await once(worker, 'message')) as [number];
  await worker.terminate();
  return major;
}

describe('worker heaps', () => {
  it('lets the workers made while sized pass more through before they collect their whole heap, and the next ones size themselves', async () => {
    // As a one-shot command's heaps grow (bin/site.js); put back for the other tests of this process.
    setFlagsFromString('--heap-growing-percent=50');
    try {
      const sized = workerHeapSized(64);
      // A process given the flag keeps it: then there is nothing to size.
      if (!sized) return;
      const big = new Worker(churn, { eval: true });
      await once(big, 'online');
      sized.restore();
      const own = new Worker(churn, { eval: true });
      const [inBig, inOwn] = await Promise.all([fullCollections(big), fullCollections(own)]);
      expect(inBig).toBeLessThan(inOwn);
    } finally {
      setFlagsFromString('--heap-growing-percent=0');
    }
  });
});
