/** The files a build makes, as the pipeline's stages pass them on to the writer. */
import { SpilledFiles } from './spill.js';

/** Output files: path relative to the output folder → contents. */
export type OutputFiles = Map<string, string | Uint8Array>;

/**
 * A copy of `files` that a stage can add to (the search index, the plugins' `buildEnd`), each path
 * renamed by `rename` when given. Spilled files (spill.ts) stay where they are: the copy names them.
 */
export function copyFiles(files: OutputFiles, rename?: (path: string) => string): OutputFiles {
  if (files instanceof SpilledFiles) {
    if (!rename) return files.clone();
    const copy = new SpilledFiles(files.spill);
    for (const path of files.keys()) copy.setStored(rename(path), files.stored(path)!);
    return copy;
  }
  return rename ? new Map([...files].map(([path, data]) => [rename(path), data])) : new Map(files);
}

/** The files of `first`, then those of `second` (a path in both takes the second's), as a new map. */
export function mergeFiles(first: OutputFiles, second: OutputFiles): OutputFiles {
  const merged = copyFiles(first);
  if (merged instanceof SpilledFiles && second instanceof SpilledFiles && second.spill === merged.spill) {
    for (const path of second.keys()) merged.setStored(path, second.stored(path)!);
  } else {
    for (const [path, data] of second) merged.set(path, data);
  }
  return merged;
}
