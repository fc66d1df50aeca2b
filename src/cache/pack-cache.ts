/**
 * A namespace of the build cache kept as one pack file per scope (an output folder, say) instead of
 * one file per entry: for the precompressed siblings of every page, tens of thousands of entries
 * that are all read or written together. The pack is read whole; `settled` writes a new one (under
 * a temporary name, then renamed) holding exactly the entries this build used, when that differs
 * from the pack it read, so entries no build uses any more drop out. Packs untouched for a month
 * are removed.
 */
import { readFileSync } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { cacheRoot, hashParts, type DiskCache } from './disk-cache.js';

const magic = 'site-pack 1\n';
/** Buffers per `writev` call (the system takes at most 1,024). */
const buffersPerWrite = 1000;
const maxAge = 30 * 24 * 3600 * 1000;

/** Opens the pack of `scope` in a namespace such as "compress". */
export function openPackCache(namespace: string, scope: string, root: string = cacheRoot()): DiskCache {
  const dir = join(root, namespace);
  const file = join(dir, `${hashParts(scope).slice(0, 24)}.pack`);
  const stored = readPack(file);
  const used = new Map<string, readonly Uint8Array[]>();
  let added = 0;
  return {
    dir,
    readSync(key) {
      const entry = stored.get(key);
      if (entry) used.set(key, [entry]);
      return entry;
    },
    write(key, data) {
      used.set(key, typeof data === 'string' ? [Buffer.from(data)] : data instanceof Uint8Array ? [data] : data);
      added++;
      return Promise.resolve();
    },
    async settled() {
      if (added === 0 && used.size === stored.size) return;
      added = 0;
      await writePack(file, used).catch(() => undefined);
      await prune(dir, file).catch(() => undefined);
    },
  };
}

/** The entries of a pack: key → bytes (views into the file's buffer). Empty when unreadable. */
function readPack(file: string): Map<string, Buffer> {
  const entries = new Map<string, Buffer>();
  let data: Buffer;
  try {
    data = readFileSync(file);
  } catch {
    return entries;
  }
  try {
    if (data.subarray(0, magic.length).toString('latin1') !== magic) return entries;
    const newline = data.indexOf(10, magic.length);
    const index = JSON.parse(data.subarray(magic.length, newline).toString('utf8')) as [string, number][];
    let offset = newline + 1;
    for (const [key, length] of index) {
      if (offset + length > data.length) return new Map();
      entries.set(key, data.subarray(offset, offset + length));
      offset += length;
    }
  } catch {
    return new Map();
  }
  return entries;
}

async function writePack(file: string, entries: ReadonlyMap<string, readonly Uint8Array[]>): Promise<void> {
  const keys = [...entries.keys()].sort();
  const index = keys.map((key): [string, number] => [key, entries.get(key)!.reduce((sum, part) => sum + part.byteLength, 0)]);
  const buffers: Uint8Array[] = [Buffer.from(`${magic}${JSON.stringify(index)}\n`), ...keys.flatMap((key) => entries.get(key)!)];
  await mkdir(join(file, '..'), { recursive: true });
  const temporary = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  try {
    const handle = await open(temporary, 'w');
    try {
      for (let start = 0; start < buffers.length; start += buffersPerWrite) await handle.writev(buffers.slice(start, start + buffersPerWrite));
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** Removes the namespace's other packs that no build has written for a month. */
async function prune(dir: string, keep: string): Promise<void> {
  const now = Date.now();
  for (const name of await readdir(dir)) {
    const path = join(dir, name);
    if (path === keep || !name.endsWith('.pack')) continue;
    if (now - (await stat(path)).mtimeMs > maxAge) await rm(path, { force: true });
  }
}
