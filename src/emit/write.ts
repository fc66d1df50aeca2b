/**
 * Writes the site atomically: everything goes to a fresh folder beside the output folder, which
 * is then swapped into place, so a failed build never leaves a half-written or emptied `dist/`.
 * The text files get precompressed `.br` and `.gz` siblings on the way (see compress.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { openDiskCache } from '../cache/disk-cache.js';
import { compressFiles, type CompressOptions } from './compress.js';

/** Output files: path relative to the output folder → contents. */
export type OutputFiles = Map<string, string | Uint8Array>;

/** Options of `writeSite`. */
export interface WriteOptions {
  /**
   * Files written at once (default 1). One means synchronous writes: measured on 4,000 pages with
   * their siblings (4,000 folders, 12,000 files) on tmpfs, 85 ms against 390-590 ms for 32 async
   * writes at a time, and a fifth of the CPU, since each async write is three trips through the
   * thread pool. On a disk that throttles writeback, every way takes as long.
   */
  concurrency?: number;
  /** Precompressed siblings: settings, or false for none (default: brotli 11 and gzip 9). */
  compress?: CompressOptions | false;
  /** Take the siblings of unchanged files from the build cache (default true). */
  cache?: boolean;
}

/** Adds the precompressed siblings, writes all files with bounded concurrency, then swaps the folder in. */
export async function writeSite(outDir: string, siteFiles: OutputFiles, options: WriteOptions = {}): Promise<void> {
  const concurrency = options.concurrency ?? 1;
  const cache = options.cache === false ? undefined : openDiskCache('compress');
  const files: OutputFiles = options.compress === false ? siteFiles : new Map([...siteFiles, ...compressFiles(siteFiles, { cache, ...options.compress })]);
  const parent = dirname(outDir);
  const staging = join(parent, `.${basename(outDir)}.staging-${process.pid}`);
  const retired = join(parent, `.${basename(outDir)}.old-${process.pid}`);
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  try {
    const entries = [...files.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
    const folders = new Set(entries.map(([path]) => dirname(join(staging, path))));
    if (concurrency <= 1) {
      for (const folder of [...folders].sort()) mkdirSync(folder, { recursive: true });
      for (const [path, data] of entries) writeFileSync(join(staging, path), data);
    } else {
      for (const folder of [...folders].sort()) await mkdir(folder, { recursive: true });
      let next = 0;
      const worker = async () => {
        while (next < entries.length) {
          const [path, data] = entries[next++]!;
          await writeFile(join(staging, path), data);
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, entries.length) }, worker));
    }
    await rm(retired, { recursive: true, force: true });
    let hadPrevious = true;
    try {
      await rename(outDir, retired);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      hadPrevious = false;
    }
    await rename(staging, outDir);
    if (hadPrevious) await rm(retired, { recursive: true, force: true });
    await cache?.settled();
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}
