/**
 * Writing one file whole or not at all: the engine's only way of doing it (issue 47), for the
 * admin's saves, the path lock, the caches, the bundled templates and the build's journal.
 *
 * The bytes go to a temporary file in the target's own folder (a rename is atomic only within one
 * file system), are flushed to the disk, and the temporary file is renamed over the target; then
 * the folder is flushed too, so that the new entry survives a power cut. A crash therefore leaves
 * the old bytes or the new ones, never a mix or an empty file. A file that is replaced keeps its
 * mode (the rename would otherwise give it the temporary file's); a new one gets the usual mode
 * under the umask, as `fs.writeFile` gives it. Caches and build output, where a lost write only
 * costs time, skip both flushes with `durable: false`: a build writes tens of thousands of them.
 *
 * The temporary name starts with a dot and ends in `.tmp`, so the build (which skips dot-files)
 * and the dev watcher (which skips `.tmp` files) never see a half-written file, and it holds the
 * process id and random digits, so two processes writing the same file never share one.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fchmodSync,
  fsyncSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
  writevSync,
} from 'node:fs';
import { mkdir, open, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** What a file is written from: text (as UTF-8), bytes, or bytes in parts written in order. */
export type FileData = string | Uint8Array | readonly Uint8Array[];

/** Options of `writeFileAtomic` and `writeFileAtomicSync`. */
export interface AtomicWriteOptions {
  /**
   * Flush the file and its folder to the disk before and after the rename (default true). False
   * only where losing the write to a power cut costs nothing but time: caches, build output.
   */
  durable?: boolean;
}

/** Parts handed to one `writev` call: the systems' limit (IOV_MAX) is 1,024. */
const partsPerWrite = 1000;

/** Writes `file` atomically (see the top of this module); its folder is made when missing. */
export async function writeFileAtomic(file: string, data: FileData, options: AtomicWriteOptions = {}): Promise<void> {
  const durable = options.durable ?? true;
  const mode = await stat(file).then(
    (info) => info.mode & 0o7777,
    () => undefined,
  );
  const temporary = temporaryName(file);
  const handle = await open(temporary, 'wx').catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
    await mkdir(dirname(file), { recursive: true });
    return open(temporary, 'wx');
  });
  try {
    try {
      await writeData(handle, data);
      if (mode !== undefined) await handle.chmod(mode);
      if (durable) await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  if (durable) await syncFolder(dirname(file));
}

/** `writeFileAtomic` for the few callers that cannot wait (the build's journal, a hash kept while a build starts). */
export function writeFileAtomicSync(file: string, data: FileData, options: AtomicWriteOptions = {}): void {
  const durable = options.durable ?? true;
  let mode: number | undefined;
  try {
    mode = statSync(file).mode & 0o7777;
  } catch {
    // A new file: it gets the mode of a file created under the umask.
  }
  const temporary = temporaryName(file);
  let descriptor: number;
  try {
    descriptor = openSync(temporary, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(dirname(file), { recursive: true });
    descriptor = openSync(temporary, 'wx');
  }
  try {
    try {
      writeDataSync(descriptor, data);
      if (mode !== undefined) fchmodSync(descriptor, mode);
      if (durable) fsyncSync(descriptor);
    } finally {
      closeSync(descriptor);
    }
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  if (durable) syncFolderSync(dirname(file));
}

function temporaryName(file: string): string {
  return join(dirname(file), `.${basename(file)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
}

async function writeData(handle: FileHandle, data: FileData): Promise<void> {
  if (typeof data === 'string' || data instanceof Uint8Array) return handle.writeFile(data);
  for (let start = 0; start < data.length; start += partsPerWrite)
    await handle.writev(data.slice(start, start + partsPerWrite));
}

function writeDataSync(descriptor: number, data: FileData): void {
  if (typeof data === 'string' || data instanceof Uint8Array) {
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    for (let done = 0; done < bytes.byteLength;) done += writeSync(descriptor, bytes, done);
    return;
  }
  for (let start = 0; start < data.length; start += partsPerWrite)
    writevSync(descriptor, data.slice(start, start + partsPerWrite));
}

/** Flushes a folder's entries; systems that cannot open a folder (Windows) flush them with the rename. */
async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r').catch(() => undefined);
  if (!handle) return;
  try {
    await handle.sync().catch(() => undefined);
  } finally {
    await handle.close();
  }
}

function syncFolderSync(folder: string): void {
  let descriptor: number;
  try {
    descriptor = openSync(folder, 'r');
  } catch {
    return;
  }
  try {
    fsyncSync(descriptor);
  } catch {
    // As in syncFolder: the rename stands either way.
  } finally {
    closeSync(descriptor);
  }
}
