/**
 * A namespace of the build cache kept as one pack file per scope (an output folder, say) instead of
 * one file per entry: for the precompressed siblings of every page, tens of thousands of entries
 * that are all read or written together. Its index is read first, then each entry asked for;
 * `settled` writes a new one (atomically, atomic-write.ts) holding exactly the entries
 * this build used, when that differs from the pack it read, so entries no build uses any more drop
 * out; a build that does not ask for everything it still needs (it left some output files as they
 * were) keeps the others too. Packs untouched for a month are removed.
 *
 * Such a build adds a few entries to a large pack (a one-post edit of 1,000 posts: 20 siblings to
 * a pack of 150 MB). They go to the pack's tail, a second pack beside it (`<name>.tail.pack`) whose
 * entries come before the main pack's, rewritten whole while it stays small; once it would pass a
 * sixteenth of the main pack, both are written as one. The tail is removed before the main pack
 * is written, so a build killed in between loses entries (misses, built again) and never reads an
 * older value over a newer one.
 */
import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../atomic-write.js';
import { cacheRoot, hashParts, type DiskCache } from './disk-cache.js';

const magic = 'site-pack 1\n';
const maxAge = 30 * 24 * 3600 * 1000;
/** A tail up to this size is always kept as one (below it, rewriting the main pack is cheap anyway). */
const tailFloor = 1024 * 1024;

/**
 * Opens the pack of `scope` in a namespace such as "compress"; with `keepUnused` (or when it says
 * so as the pack is settled), no entry drops out.
 */
export function openPackCache(
  namespace: string,
  scope: string,
  root: string = cacheRoot(),
  options: { keepUnused?: boolean | (() => boolean) } = {},
): DiskCache {
  const dir = join(root, namespace);
  const file = packFile(namespace, scope, root);
  const tailFile = tailOf(file);
  // Only the indexes are read at first, and each entry when asked for: a build that asks for a few
  // (it left most output files as they were) reads a few.
  let pack: { main: StoredPack; tail: StoredPack; size: number } | undefined;
  const stored = () => {
    if (pack) return pack;
    const main = openPack(file);
    const tail = openPack(tailFile);
    let size = main.size;
    for (const key of tail.keys()) if (!main.has(key)) size++;
    return (pack = { main, tail, size });
  };
  const used = new Map<string, readonly Uint8Array[]>();
  // The entries this build wrote, which the packs may not have.
  const added = new Map<string, readonly Uint8Array[]>();
  return {
    dir,
    readSync(key) {
      const { main, tail } = stored();
      const entry = tail.read(key) ?? main.read(key);
      if (entry) used.set(key, [entry]);
      return entry;
    },
    write(key, data) {
      const parts = typeof data === 'string' ? [Buffer.from(data)] : data instanceof Uint8Array ? [data] : data;
      used.set(key, parts);
      added.set(key, parts);
      return Promise.resolve();
    },
    async settled() {
      const current = stored();
      const keepUnused = typeof options.keepUnused === 'function' ? options.keepUnused() : options.keepUnused;
      try {
        if (added.size === 0 && (keepUnused || used.size === current.size)) return;
        const { main, tail } = current;
        const addedBytes = [...added.values()].reduce((sum, parts) => sum + bytesOf(parts), 0);
        if (keepUnused && tail.bytes + addedBytes <= Math.max(tailFloor, main.bytes / 16)) {
          await writePack(tailFile, new Map([...tail.readAll(), ...added])).catch(() => undefined);
        } else {
          const entries = keepUnused ? new Map([...main.readAll(), ...tail.readAll(), ...used]) : used;
          await rm(tailFile, { force: true }).catch(() => undefined);
          await writePack(file, entries).catch(() => undefined);
        }
        added.clear();
        await prune(dir, file).catch(() => undefined);
      } finally {
        current.main.close();
        current.tail.close();
        pack = undefined;
      }
    },
  };
}

/** Where the pack of `scope` in `namespace` is kept. */
function packFile(namespace: string, scope: string, root: string): string {
  return join(root, namespace, `${hashParts(scope).slice(0, 24)}.pack`);
}

/** The tail of a pack: the entries added since the pack was written whole. */
function tailOf(file: string): string {
  return file.replace(/\.pack$/, '.tail.pack');
}

function bytesOf(parts: readonly Uint8Array[]): number {
  return parts.reduce((sum, part) => sum + part.byteLength, 0);
}

/** Whether a build of `scope` left a pack in `namespace`: one stat, to guess whether a build will be cold. */
export function packExists(namespace: string, scope: string, root: string = cacheRoot()): boolean {
  return existsSync(packFile(namespace, scope, root));
}

/** A pack on disk: its index, and its entries read on demand. */
interface StoredPack {
  readonly size: number;
  /** The bytes of its entries. */
  readonly bytes: number;
  has(key: string): boolean;
  keys(): Iterable<string>;
  read(key: string): Buffer | undefined;
  /** Every entry, as key and bytes. */
  readAll(): Map<string, readonly Uint8Array[]>;
  close(): void;
}

const emptyPack: StoredPack = {
  size: 0,
  bytes: 0,
  has: () => false,
  keys: () => [],
  read: () => undefined,
  readAll: () => new Map(),
  close: () => undefined,
};

/** Opens a pack and reads its index; an unreadable or damaged pack is empty. */
function openPack(file: string): StoredPack {
  let descriptor: number;
  try {
    descriptor = openSync(file, 'r');
  } catch {
    return emptyPack;
  }
  const close = () => closeSync(descriptor);
  try {
    const fileSize = fstatSync(descriptor).size;
    const readAt = (offset: number, length: number) => {
      const buffer = Buffer.allocUnsafe(length);
      let done = 0;
      while (done < length) {
        const count = readSync(descriptor, buffer, done, length - done, offset + done);
        if (count === 0) throw new Error('short pack');
        done += count;
      }
      return buffer;
    };
    // The index is the first line after the magic; read it in growing steps.
    let head = Buffer.alloc(0);
    let newline = -1;
    for (let step = 64 * 1024; newline < 0 && head.length < fileSize; step *= 2) {
      head = readAt(0, Math.min(fileSize, head.length + step));
      newline = head.indexOf(10, magic.length);
    }
    if (head.subarray(0, magic.length).toString('latin1') !== magic || newline < 0) throw new Error('not a pack');
    const index = JSON.parse(head.subarray(magic.length, newline).toString('utf8')) as [string, number][];
    const entries = new Map<string, [number, number]>();
    let offset = newline + 1;
    for (const [key, length] of index) {
      entries.set(key, [offset, length]);
      offset += length;
    }
    if (offset > fileSize) throw new Error('short pack');
    // Past a few dozen entries, one read of them all is faster (12,000 entries: 56 ms against 110).
    let reads = 0;
    let data: Buffer | undefined;
    const readData = () => (data ??= readAt(0, offset));
    return {
      size: entries.size,
      bytes: offset - newline - 1,
      has: (key) => entries.has(key),
      keys: () => entries.keys(),
      read(key) {
        const place = entries.get(key);
        if (!place) return undefined;
        try {
          return ++reads > 64 ? readData().subarray(place[0], place[0] + place[1]) : readAt(place[0], place[1]);
        } catch {
          return undefined;
        }
      },
      readAll() {
        const all = readData();
        return new Map([...entries].map(([key, [start, length]]) => [key, [all.subarray(start, start + length)]]));
      },
      close,
    };
  } catch {
    close();
    return emptyPack;
  }
}

async function writePack(file: string, entries: ReadonlyMap<string, readonly Uint8Array[]>): Promise<void> {
  const keys = [...entries.keys()].sort();
  const index = keys.map((key): [string, number] => [key, bytesOf(entries.get(key)!)]);
  const buffers: Uint8Array[] = [
    Buffer.from(`${magic}${JSON.stringify(index)}\n`),
    ...keys.flatMap((key) => entries.get(key)!),
  ];
  await writeFileAtomic(file, buffers, { durable: false });
}

/** Removes the namespace's other packs (and tails) that no build has written for a month. */
async function prune(dir: string, keep: string): Promise<void> {
  const now = Date.now();
  for (const name of await readdir(dir)) {
    const path = join(dir, name);
    if (path === keep || path === tailOf(keep) || !name.endsWith('.pack')) continue;
    if (now - (await stat(path)).mtimeMs > maxAge) await rm(path, { force: true });
  }
}
