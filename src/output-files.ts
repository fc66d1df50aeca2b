/** The files a build makes, as the pipeline's stages pass them on to the writer. */
import { SpilledFiles, type SpillRef } from './spill.js';

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

/** What `files` keeps of a file: for spilled files its reference (or small contents), not read back. */
export function storedOf(files: OutputFiles, path: string): string | Uint8Array | SpillRef | undefined {
  return files instanceof SpilledFiles ? files.stored(path) : files.get(path);
}

/** Puts the files of `from` into `into`: spilled ones of the same spill by where they are, not read back. */
export function putFiles(into: OutputFiles, from: ReadonlyMap<string, string | Uint8Array>): void {
  if (into instanceof SpilledFiles && from instanceof SpilledFiles && from.spill === into.spill) {
    for (const path of from.keys()) into.setStored(path, from.stored(path)!);
  } else {
    for (const [path, data] of from) into.set(path, data);
  }
}

/** The files of `first`, then those of `second` (a path in both takes the second's), as a new map. */
export function mergeFiles(first: OutputFiles, second: OutputFiles): OutputFiles {
  const merged = copyFiles(first);
  putFiles(merged, second);
  return merged;
}

/** Whether two contents of a file are the same bytes (a string as its UTF-8). */
export function sameContents(a: string | Uint8Array, b: string | Uint8Array): boolean {
  if (a === b) return true;
  if (typeof a === 'string' && typeof b === 'string') return false;
  const bytes = (contents: string | Uint8Array) =>
    typeof contents === 'string'
      ? Buffer.from(contents)
      : Buffer.from(contents.buffer, contents.byteOffset, contents.byteLength);
  return bytes(a).equals(bytes(b));
}
