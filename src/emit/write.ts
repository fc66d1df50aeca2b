/**
 * Writes the site atomically: everything goes to a fresh folder beside the output folder, which
 * is then swapped into place, so a failed build never leaves a half-written or emptied `dist/`.
 */
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Output files: path relative to the output folder → contents. */
export type OutputFiles = Map<string, string | Uint8Array>;

/** Writes all files with bounded concurrency, then swaps the folder in. */
export async function writeSite(outDir: string, files: OutputFiles, concurrency = 32): Promise<void> {
  const parent = dirname(outDir);
  const staging = join(parent, `.${basename(outDir)}.staging-${process.pid}`);
  const retired = join(parent, `.${basename(outDir)}.old-${process.pid}`);
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  try {
    const entries = [...files.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
    const folders = new Set(entries.map(([path]) => dirname(join(staging, path))));
    for (const folder of [...folders].sort()) await mkdir(folder, { recursive: true });
    let next = 0;
    const worker = async () => {
      while (next < entries.length) {
        const [path, data] = entries[next++]!;
        await writeFile(join(staging, path), data);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, entries.length) }, worker));
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
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}
