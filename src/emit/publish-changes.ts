/**
 * Publishing into a folder that is being served (`site serve --admin`): only the files whose bytes
 * changed are written, each atomically (src/atomic-write.ts: a temp file beside it, then a rename), with fresh .br/.gz siblings, and the files no longer made are removed with theirs. A visitor gets a file's old or
 * new bytes, never a mix. The folder's build lock is held meanwhile (a `site build` into it waits
 * its turn; a publish during a build is refused with OUTPUT_BUSY), and the read-sets the last
 * `site build` persisted there are forgotten, since the file stamps they record change: the next
 * `site build` into the folder renders every page instead of refusing to update it.
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../atomic-write.js';
import { removeRenderState } from '../cache/render-state.js';
import { SiteError } from '../errors.js';
import type { OutputFiles } from '../output-files.js';
import { compressFiles, precompressedCodings } from './compress.js';
import { lockOutputFolder } from './write.js';

/** The files to write into a served folder, and those to remove from it. */
export interface FolderChanges {
  changed: string[];
  removed: string[];
}

/** The files of `files` whose bytes differ from (or are missing in) the folder `dir`. */
export async function differingFiles(dir: string, files: OutputFiles): Promise<string[]> {
  const differing: string[] = [];
  for (const [path, data] of files) {
    const onDisk = await readFile(join(dir, path)).catch(() => undefined);
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    if (!onDisk || !onDisk.equals(bytes)) differing.push(path);
  }
  return differing;
}

/**
 * Writes the changed files of `files` into `dir` and removes the removed ones, with their
 * precompressed siblings: a sibling is made again for a changed file, or removed when the file no
 * longer gets one (the server then compresses it itself). Throws OUTPUT_BUSY while a build writes
 * the folder, and EMIT_FAILED when a file cannot be written.
 */
export async function publishChanges(
  dir: string,
  files: OutputFiles,
  changes: FolderChanges,
  options: { precompress: boolean },
): Promise<void> {
  const release = lockOutputFolder(dir);
  try {
    await removeRenderState(dir);
    await writeChanges(dir, files, changes, options);
  } catch (error) {
    if (error instanceof SiteError) throw error;
    throw new SiteError({
      code: 'EMIT_FAILED',
      message: `cannot publish into ${dir}: ${(error as Error).message}`,
      hint: "Check the folder's permissions and free space; the next save publishes every file not published yet.",
      cause: error,
    });
  } finally {
    release();
  }
}

async function writeChanges(
  dir: string,
  files: OutputFiles,
  { changed, removed }: FolderChanges,
  { precompress }: { precompress: boolean },
): Promise<void> {
  const written: OutputFiles = new Map(
    changed.filter((path) => files.has(path)).map((path) => [path, files.get(path)!]),
  );
  const siblings = precompress ? compressFiles(written) : new Map<string, string | Uint8Array>();
  for (const [path, data] of [...written, ...siblings]) await writeFileAtomic(join(dir, path), data);
  const siblingsOf = (path: string) => precompressedCodings.map(({ extension }) => `${path}${extension}`);
  const gone = [
    ...removed.flatMap((path) => [path, ...siblingsOf(path)]),
    ...[...written.keys()].flatMap(siblingsOf).filter((sibling) => !siblings.has(sibling)),
  ];
  for (const path of gone) await rm(join(dir, path), { force: true });
}
