/**
 * A worker thread that compresses (emit/compress.ts: compressFilesShared), built into
 * lib/compress-worker.js. It loads zlib and nothing of the page stages, so it answers its first
 * chunk 50 ms after it starts, where lib/worker.js (React, the Markdown renderer) takes 0.3 s.
 */
import { compressItem, type CompressItem } from './emit/compress.js';
import type { JobKind } from './parallel/protocol.js';
import { serveJobs } from './parallel/serve-jobs.js';

serveJobs(async (kind: JobKind) => {
  if (kind !== 'compress') throw new Error(`lib/compress-worker.js does not run ${kind} jobs`);
  // Copies of their own size: a posted view would carry the whole buffer it is cut from.
  return (items) =>
    (items as CompressItem[])
      .map(compressItem)
      .map(({ br, gz }) => ({ br: new Uint8Array(br), gz: new Uint8Array(gz) }));
});
