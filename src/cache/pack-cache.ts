/**
 * A namespace of the build cache kept as one pack file per scope (an output folder, say) instead of
 * one file per entry: for the precompressed siblings of every page, tens of thousands of entries
 * that are all read or written together. Its index is read first, then each entry asked for.
 * The entries a build writes go to the next pack as they come (a temporary file beside it, not
 * held in memory: at 10,000 posts the Markdown, entry and sibling packs were 220 MB); `settled`
 * adds the entries used from the pack read, the index, and renames it into place, so the pack
 * holds exactly the entries this build used when that differs from the pack it read, and entries
 * no build uses any more drop out; a build that does not ask for everything it still needs (it
 * left some output files as they were) keeps the others too. Packs untouched for a month are
 * removed.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readSync, write } from 'node:fs';
import { readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { cacheRoot, hashParts, type DiskCache } from './disk-cache.js';

const magic = 'site-pack 2\n';
const firstMagic = 'site-pack 1\n';
const maxAge = 30 * 24 * 3600 * 1000;
const spoolAge = 24 * 3600 * 1000;

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
  // Where each entry this build used is: in the pack it read, or in the spool (the next pack,
  // written as the entries come: none is held in memory until the build ends).
  const used = new Map<string, Place>();
  let spool: Spool | undefined;
  let added = 0;
  return {
    dir,
    readSync(key) {
      const current = stored();
      const entry = current.read(key);
      if (entry) used.set(key, { spooled: false, ...current.placeOf(key)! });
      return entry;
    },
    write(key, data) {
      spool ??= openSpool(file);
      used.set(key, {
        spooled: true,
        ...spool.append(typeof data === 'string' ? [Buffer.from(data)] : data instanceof Uint8Array ? [data] : data),
      });
      added++;
      return Promise.resolve();
    },
    async settled() {
      const current = stored();
      const keepUnused = typeof options.keepUnused === 'function' ? options.keepUnused() : options.keepUnused;
      let next = spool;
      spool = undefined;
      try {
        if (added === 0 && (keepUnused || used.size === current.size)) return;
        added = 0;
        next ??= openSpool(file);
        // The entries taken from the pack read follow the spooled ones, then the index.
        const kept = keepUnused ? [...current.keys()].filter((key) => !used.has(key)) : [];
        for (const [key, place] of [
          ...used,
          ...kept.map((key): [string, Place] => [key, { spooled: false, ...current.placeOf(key)! }]),
        ]) {
          if (!place.spooled) used.set(key, { spooled: true, ...next.append([current.slice(place)]) });
        }
        const index = [...used]
          .map(([key, { offset, length }]): [string, number, number] => [key, offset, length])
          .sort(([a], [b]) => (a < b ? -1 : 1));
        if (await next.finish(index)) for (const [key, place] of used) used.set(key, { ...place, spooled: false });
        else used.clear();
        await prune(dir, file).catch(() => undefined);
      } finally {
        await next?.discard();
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

/** Where an entry's bytes are: in the pack read, or in the spool of the next one. */
interface Place {
  spooled: boolean;
  offset: number;
  length: number;
}

/** A pack on disk: its index, and its entries read on demand. */
interface StoredPack {
  readonly size: number;
  keys(): Iterable<string>;
  read(key: string): Buffer | undefined;
  placeOf(key: string): { offset: number; length: number } | undefined;
  /** The bytes at a place of this pack. */
  slice(place: { offset: number; length: number }): Buffer;
  close(): void;
}

const emptyPack: StoredPack = {
  size: 0,
  keys: () => [],
  read: () => undefined,
  placeOf: () => undefined,
  slice: () => Buffer.alloc(0),
  close: () => undefined,
};

/**
 * Opens a pack and reads its index; an unreadable or damaged pack is empty. A pack is the magic
 * line, the entries' bytes, and the index as a line of JSON (`[key, offset, length]`, sorted by
 * key) followed by a line of the index's offset in 15 digits. A pack of the first version has the
 * index (`[key, length]`) on the line after the magic, the entries after it in its order.
 */
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
    const entries = new Map<string, [number, number]>();
    let end = 0;
    const magicRead = readAt(0, Math.min(fileSize, magic.length)).toString('latin1');
    if (magicRead === magic && fileSize >= magic.length + trailerLength) {
      const indexAt = Number(readAt(fileSize - trailerLength, trailerLength).toString('latin1'));
      if (!Number.isInteger(indexAt) || indexAt < magic.length || indexAt > fileSize - trailerLength)
        throw new Error('not a pack');
      const index = JSON.parse(readAt(indexAt, fileSize - trailerLength - indexAt).toString('utf8')) as [
        string,
        number,
        number,
      ][];
      for (const [key, offset, length] of index) {
        if (offset < magic.length || offset + length > indexAt) throw new Error('short pack');
        entries.set(key, [offset, length]);
      }
      end = indexAt;
    } else if (magicRead === firstMagic) {
      // The index is the first line after the magic; read it in growing steps.
      let head = Buffer.alloc(0);
      let newline = -1;
      for (let step = 64 * 1024; newline < 0 && head.length < fileSize; step *= 2) {
        head = readAt(0, Math.min(fileSize, head.length + step));
        newline = head.indexOf(10, firstMagic.length);
      }
      if (newline < 0) throw new Error('not a pack');
      const index = JSON.parse(head.subarray(firstMagic.length, newline).toString('utf8')) as [string, number][];
      end = newline + 1;
      for (const [key, length] of index) {
        entries.set(key, [end, length]);
        end += length;
      }
      if (end > fileSize) throw new Error('short pack');
    } else throw new Error('not a pack');
    // Past a few dozen entries, one read of them all is faster (12,000 entries: 56 ms against 110).
    let reads = 0;
    let data: Buffer | undefined;
    const slice = ({ offset, length }: { offset: number; length: number }) =>
      ++reads > 64 ? (data ??= readAt(0, end)).subarray(offset, offset + length) : readAt(offset, length);
    return {
      size: entries.size,
      keys: () => entries.keys(),
      read(key) {
        const place = entries.get(key);
        if (!place) return undefined;
        try {
          return slice({ offset: place[0], length: place[1] });
        } catch {
          return undefined;
        }
      },
      placeOf(key) {
        const place = entries.get(key);
        return place && { offset: place[0], length: place[1] };
      },
      slice,
      close,
    };
  } catch {
    close();
    return emptyPack;
  }
}

/** The next pack, written as its entries come, in a temporary file beside the pack. */
interface Spool {
  /** Writes an entry's parts at the end (without waiting), and says where they are. */
  append(parts: readonly Uint8Array[]): { offset: number; length: number };
  /** Writes the index and puts the spool in the pack's place; false when a write failed. */
  finish(index: readonly [string, number, number][]): Promise<boolean>;
  /** Removes the spool when it did not become the pack. */
  discard(): Promise<void>;
}

/** The length of a pack's last line: the index's offset in 15 digits and a newline. */
const trailerLength = 16;

function openSpool(file: string): Spool {
  const temporary = join(dirname(file), `.${basename(file)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  let descriptor: number | undefined;
  let failed = false;
  let finished = false;
  let size = 0;
  // The writes under way; those past a few hundred are folded into `earlier`.
  const writes: Promise<void>[] = [];
  let earlier = Promise.resolve();
  const writeAt = (bytes: Uint8Array, position: number) =>
    new Promise<void>((done) => {
      if (descriptor === undefined) return done();
      write(descriptor, bytes, 0, bytes.byteLength, position, (error) => {
        if (error) failed = true;
        done();
      });
    });
  try {
    mkdirSync(dirname(file), { recursive: true });
    descriptor = openSync(temporary, 'wx');
  } catch {
    failed = true;
  }
  const add = (parts: readonly Uint8Array[]) => {
    for (const part of parts) {
      if (part.byteLength) writes.push(writeAt(part, size));
      size += part.byteLength;
    }
    if (writes.length > 256) earlier = Promise.all([earlier, ...writes.splice(0)]).then(() => undefined);
  };
  add([Buffer.from(magic)]);
  return {
    append(parts) {
      const offset = size;
      add(parts);
      return { offset, length: size - offset };
    },
    async finish(index) {
      const indexAt = size;
      add([Buffer.from(`${JSON.stringify(index)}\n${String(indexAt).padStart(trailerLength - 1, '0')}\n`)]);
      await Promise.all([earlier, ...writes.splice(0)]);
      if (failed || descriptor === undefined) return false;
      try {
        closeSync(descriptor);
        descriptor = undefined;
        await rename(temporary, file);
        finished = true;
      } catch {
        return false;
      }
      return true;
    },
    async discard() {
      await Promise.all([earlier, ...writes.splice(0)]);
      if (descriptor !== undefined) closeSync(descriptor);
      descriptor = undefined;
      if (!finished) await rm(temporary, { force: true }).catch(() => undefined);
    },
  };
}

/** Removes the namespace's other packs that no build has written for a month, and spools left for a day. */
async function prune(dir: string, keep: string): Promise<void> {
  const now = Date.now();
  for (const name of await readdir(dir)) {
    const path = join(dir, name);
    // A spool left by a build that was stopped is removed after a day.
    const age = name.endsWith('.pack') ? maxAge : name.endsWith('.tmp') ? spoolAge : undefined;
    if (path === keep || age === undefined) continue;
    if (now - (await stat(path)).mtimeMs > age) await rm(path, { force: true });
  }
}
