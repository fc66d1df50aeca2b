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
 *
 * Such a build adds a few entries to a large pack (a one-post edit of 1,000 posts: 20 siblings to
 * a pack of 150 MB). They go to the pack's tail, a second pack beside it (`<name>.tail.pack`) whose
 * entries come before the main pack's, written whole while it stays small; once it would pass a
 * sixteenth of the main pack, both are written as one. The tail is removed before the main pack
 * is written, so a build killed in between loses entries (misses, made again) and never reads an
 * older value over a newer one.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
import { readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { cacheRoot, hashParts, type DiskCache } from './disk-cache.js';

const magic = 'site-pack 2\n';
const firstMagic = 'site-pack 1\n';
const maxAge = 30 * 24 * 3600 * 1000;
const spoolAge = 24 * 3600 * 1000;
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
    for (const key of tail.keys()) if (main.placeOf(key) === undefined) size++;
    return (pack = { main, tail, size });
  };
  // Where each entry this build used is: in the pack or the tail it read, or in the spool (the
  // next pack or tail, written as the entries come: none is held in memory until the build ends).
  const used = new Map<string, Place>();
  let spool: Spool | undefined;
  let added = 0;
  return {
    dir,
    readSync(key) {
      const { main, tail } = stored();
      const inTail = tail.placeOf(key);
      const entry = inTail ? tail.read(key) : main.read(key);
      if (entry) used.set(key, inTail ? { in: 'tail', ...inTail } : { in: 'main', ...main.placeOf(key)! });
      return entry;
    },
    write(key, data) {
      spool ??= openSpool(file);
      used.set(key, {
        in: 'spool',
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
        const { main, tail } = current;
        const spooled = [...used].filter(([, place]) => place.in === 'spool');
        const addedBytes = spooled.reduce((sum, [, place]) => sum + place.length, 0);
        // (A tail needs its pack: with none yet, the entries make the pack.)
        const toTail = keepUnused && main.size > 0 && tail.bytes + addedBytes <= Math.max(tailFloor, main.bytes / 16);
        // The tail: what this build wrote, then the old tail's other entries. The pack: every entry
        // used, then (keeping the unused) the tail's others and the pack's others.
        const entries = new Map<string, Place>(toTail ? spooled : used);
        const sources: [StoredPack, Place['in']][] = toTail
          ? [[tail, 'tail']]
          : keepUnused
            ? [
                [tail, 'tail'],
                [main, 'main'],
              ]
            : [];
        for (const [source, name] of sources)
          for (const key of source.keys())
            if (!entries.has(key)) entries.set(key, { in: name, ...source.placeOf(key)! });
        for (const [key, place] of entries)
          if (place.in !== 'spool')
            entries.set(key, { in: 'spool', ...next.append([(place.in === 'main' ? main : tail).slice(place)]) });
        const index = [...entries]
          .map(([key, { offset, length }]): [string, number, number] => [key, offset, length])
          .sort(([a], [b]) => (a < b ? -1 : 1));
        if (!toTail) await rm(tailFile, { force: true }).catch(() => undefined);
        const done = await next.finish(index, toTail ? tailFile : file);
        // A later settle starts from the files as they are now.
        const nowIn: Place['in'] = toTail ? 'tail' : 'main';
        for (const [key, place] of used) {
          const moved = entries.get(key);
          if (!done) used.delete(key);
          else if (moved) used.set(key, { ...moved, in: nowIn });
          else if (place.in === 'tail' && !toTail) used.delete(key);
        }
        await prune(dir, file).catch(() => undefined);
      } finally {
        await next?.discard();
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

/** Whether a build of `scope` left a pack in `namespace`: one stat, to guess whether a build will be cold. */
export function packExists(namespace: string, scope: string, root: string = cacheRoot()): boolean {
  return existsSync(packFile(namespace, scope, root));
}

/** Where an entry's bytes are: in the pack or the tail read, or in the spool of the next one. */
interface Place {
  in: 'main' | 'tail' | 'spool';
  offset: number;
  length: number;
}

/** A pack on disk: its index, and its entries read on demand. */
interface StoredPack {
  readonly size: number;
  /** The bytes of its entries. */
  readonly bytes: number;
  keys(): Iterable<string>;
  read(key: string): Buffer | undefined;
  placeOf(key: string): { offset: number; length: number } | undefined;
  /** The bytes at a place of this pack. */
  slice(place: { offset: number; length: number }): Buffer;
  close(): void;
}

const emptyPack: StoredPack = {
  size: 0,
  bytes: 0,
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
    let bytes = 0;
    for (const [, length] of entries.values()) bytes += length;
    return {
      size: entries.size,
      bytes,
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
  /** Writes an entry's parts at the end (gathered, then written a megabyte at a time), and says where they are. */
  append(parts: readonly Uint8Array[]): { offset: number; length: number };
  /** Writes the index and puts the spool in `target`'s place (the pack or its tail); false when a write failed. */
  finish(index: readonly [string, number, number][], target: string): Promise<boolean>;
  /** Removes the spool when it did not become the pack. */
  discard(): Promise<void>;
}

/** The length of a pack's last line: the index's offset in 15 digits and a newline. */
const trailerLength = 16;

/** Bytes a spool gathers before it writes them. */
const spoolBuffer = 1 << 20;

/**
 * The spool writes its entries a megabyte at a time, synchronously: asynchronous writes hold their
 * bytes until this thread hears they are done, and a build busy in a synchronous loop (the write
 * stage compressing 40,000 siblings) held every entry written meanwhile (the real site with 1,000
 * posts: 240 MB of buffers at the end of a cold build).
 */
function openSpool(file: string): Spool {
  const temporary = join(dirname(file), `.${basename(file)}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  let descriptor: number | undefined;
  let failed = false;
  let finished = false;
  // Bytes appended so far; those of `buffer` follow the ones written.
  let size = 0;
  let written = 0;
  const buffer = Buffer.allocUnsafeSlow(spoolBuffer);
  let buffered = 0;
  const writeOut = (bytes: Uint8Array) => {
    if (descriptor === undefined || failed) return;
    try {
      for (let done = 0; done < bytes.byteLength;)
        done += writeSync(descriptor, bytes, done, bytes.byteLength - done, written + done);
    } catch {
      failed = true;
    }
  };
  const flush = () => {
    writeOut(buffer.subarray(0, buffered));
    written += buffered;
    buffered = 0;
  };
  try {
    mkdirSync(dirname(file), { recursive: true });
    descriptor = openSync(temporary, 'wx');
  } catch {
    failed = true;
  }
  const add = (parts: readonly Uint8Array[]) => {
    for (const part of parts) {
      if (buffered + part.byteLength > spoolBuffer) flush();
      if (part.byteLength >= spoolBuffer) {
        writeOut(part);
        written += part.byteLength;
      } else {
        buffer.set(part, buffered);
        buffered += part.byteLength;
      }
      size += part.byteLength;
    }
  };
  add([Buffer.from(magic)]);
  return {
    append(parts) {
      const offset = size;
      add(parts);
      return { offset, length: size - offset };
    },
    async finish(index, target) {
      const indexAt = size;
      add([Buffer.from(`${JSON.stringify(index)}\n${String(indexAt).padStart(trailerLength - 1, '0')}\n`)]);
      flush();
      if (failed || descriptor === undefined) return false;
      try {
        closeSync(descriptor);
        descriptor = undefined;
        await rename(temporary, target);
        finished = true;
      } catch {
        return false;
      }
      return true;
    },
    async discard() {
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
    if (path === keep || path === tailOf(keep) || age === undefined) continue;
    if (now - (await stat(path)).mtimeMs > age) await rm(path, { force: true });
  }
}
