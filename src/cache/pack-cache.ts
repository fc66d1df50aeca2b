/**
 * A namespace of the build cache kept as one pack file per scope (an output folder, say) instead of
 * one file per entry: for the precompressed siblings of every page, tens of thousands of entries
 * that are all read or written together. Its index is read first, then each entry asked for;
 * `settled` writes a new one (atomically, atomic-write.ts) holding exactly the entries
 * this build used, when that differs from the pack it read, so entries no build uses any more drop
 * out; a build that does not ask for everything it still needs (it left some output files as they
 * were) keeps the others too. Packs untouched for a month are removed.
 */
import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../atomic-write.js';
import { cacheRoot, hashParts, type DiskCache } from './disk-cache.js';

const magic = 'site-pack 1\n';
const maxAge = 30 * 24 * 3600 * 1000;

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
  // Only the index is read at first, and each entry when asked for: a build that asks for a few
  // (it left most output files as they were) reads a few.
  let pack: StoredPack | undefined;
  const stored = () => (pack ??= openPack(file));
  const used = new Map<string, readonly Uint8Array[]>();
  let added = 0;
  return {
    dir,
    readSync(key) {
      const entry = stored().read(key);
      if (entry) used.set(key, [entry]);
      return entry;
    },
    write(key, data) {
      used.set(key, typeof data === 'string' ? [Buffer.from(data)] : data instanceof Uint8Array ? [data] : data);
      added++;
      return Promise.resolve();
    },
    async settled() {
      const current = stored();
      const keepUnused = typeof options.keepUnused === 'function' ? options.keepUnused() : options.keepUnused;
      try {
        if (added === 0 && (keepUnused || used.size === current.size)) return;
        added = 0;
        const entries = keepUnused ? new Map([...current.readAll(), ...used]) : used;
        await writePack(file, entries).catch(() => undefined);
        await prune(dir, file).catch(() => undefined);
      } finally {
        current.close();
        pack = undefined;
      }
    },
  };
}

/** Where the pack of `scope` in `namespace` is kept. */
function packFile(namespace: string, scope: string, root: string): string {
  return join(root, namespace, `${hashParts(scope).slice(0, 24)}.pack`);
}

/** Whether a build of `scope` left a pack in `namespace`: one stat, to guess whether a build will be cold. */
export function packExists(namespace: string, scope: string, root: string = cacheRoot()): boolean {
  return existsSync(packFile(namespace, scope, root));
}

/** A pack on disk: its index, and its entries read on demand. */
interface StoredPack {
  readonly size: number;
  read(key: string): Buffer | undefined;
  /** Every entry, as key and bytes. */
  readAll(): Map<string, readonly Uint8Array[]>;
  close(): void;
}

const emptyPack: StoredPack = { size: 0, read: () => undefined, readAll: () => new Map(), close: () => undefined };

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
  const index = keys.map((key): [string, number] => [
    key,
    entries.get(key)!.reduce((sum, part) => sum + part.byteLength, 0),
  ]);
  const buffers: Uint8Array[] = [
    Buffer.from(`${magic}${JSON.stringify(index)}\n`),
    ...keys.flatMap((key) => entries.get(key)!),
  ];
  await writeFileAtomic(file, buffers, { durable: false });
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
