/**
 * Output kept on disk until it is asked for (issue 50: a build's memory that stays flat as the
 * site grows). `site build` hands every page to the spill as it is rendered, and the siblings as
 * they are compressed: what the build holds of them is where their bytes are, and every later
 * stage (links, search index, the plugins' `buildEnd`, the write) reads a file back when it needs
 * it and lets it go. Before, a cold build held every page and both its siblings until the atomic
 * switch: 10,000 posts took 2.8 times the memory of 1,000.
 *
 * The spill is one file, unlinked as soon as it is open where the system allows it (its space is
 * freed when the process ends, however it ends), written through a buffer and read back with
 * positioned reads: from the page cache, a page of 15 KB is read and decoded in microseconds.
 * `SpilledFiles` is a Map of output files whose values live there: code that gets a file gets
 * its contents, as from any `OutputFiles`.
 */
import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where one value is in a spill. */
export class SpillRef {
  constructor(
    readonly spill: Spill,
    readonly offset: number,
    readonly length: number,
    /** Given as a string (read back as one), else bytes. */
    readonly text: boolean,
  ) {}
}

/** Closes a spill no one can read any more (a build's files let go), where `close` was not called. */
const finalizer = new FinalizationRegistry<{ fd: number; path?: string }>(({ fd, path }) => {
  try {
    closeSync(fd);
    if (path) {
      namedSpills.delete(path);
      unlinkSync(path);
    }
  } catch {
    // Closed or gone already.
  }
});

/** Spills whose file keeps its name while open (Windows): removed as the process exits, if not before. */
const namedSpills = new Map<string, number>();
process.on('exit', () => {
  for (const [path, fd] of namedSpills) {
    try {
      closeSync(fd);
      unlinkSync(path);
    } catch {
      // Closed or gone already.
    }
  }
});

/** Values smaller than this stay in memory: a positioned read costs more than they do. */
const inlineBelow = 1024;
/** Bytes gathered before one write to the file. */
const bufferSize = 1 << 22;

/** A file of values, written as they come and read back by reference. */
export interface Spill {
  /** Writes a value; its reference reads it back. */
  put(data: string | Uint8Array): SpillRef;
  /** The value of a reference: a new string, or new bytes the caller may keep. */
  read(ref: SpillRef): string | Uint8Array;
  /** The bytes of a reference, in a buffer that the next read of this spill reuses: for using at once (compressing, writing). */
  readBytes(ref: SpillRef): Uint8Array;
  /** Where a reference's bytes are in the file, for a reader on another thread (the buffer written first). */
  locate(ref: SpillRef): { fd: number; offset: number; length: number };
  /** Bytes written so far. */
  readonly size: number;
  /** Ends it: its file is removed, and a reference read later throws. */
  close(): void;
}

/**
 * Opens a spill in `folder` (the output folder's parent, beside the staging folder of the write),
 * or the system's temporary folder when `folder` cannot take a file.
 */
export function openSpill(folder?: string): Spill {
  const name = `.site-spill-${process.pid}-${randomBytes(4).toString('hex')}`;
  let path = folder ? join(folder, name) : join(tmpdir(), name);
  let fd: number;
  try {
    fd = openSync(path, 'wx+', 0o600);
  } catch (error) {
    if (!folder) throw error;
    path = join(tmpdir(), name);
    fd = openSync(path, 'wx+', 0o600);
  }
  // Gone from the folder at once where the system keeps an open file without its name (not Windows).
  let named = true;
  try {
    unlinkSync(path);
    named = false;
  } catch {
    // Removed at close, or as the process exits.
    namedSpills.set(path, fd);
  }
  const buffer = Buffer.allocUnsafeSlow(bufferSize);
  let buffered = 0;
  /** Bytes on disk; the buffer's follow them. */
  let flushed = 0;
  let scratch = Buffer.allocUnsafeSlow(64 * 1024);
  let open = true;

  const flush = () => {
    let done = 0;
    while (done < buffered) done += writeSync(fd, buffer, done, buffered - done, flushed + done);
    flushed += buffered;
    buffered = 0;
  };
  const writeAll = (bytes: Uint8Array) => {
    let done = 0;
    while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done, flushed + done);
    flushed += bytes.length;
  };

  const spill: Spill = {
    put(data) {
      if (!open) throw new Error('the spill was closed');
      const text = typeof data === 'string';
      const length = text ? Buffer.byteLength(data) : data.byteLength;
      if (buffered + length > bufferSize) flush();
      const offset = flushed + buffered;
      if (length > bufferSize) writeAll(text ? Buffer.from(data) : data);
      else if (text) buffered += buffer.write(data, buffered, 'utf8');
      else {
        buffer.set(data, buffered);
        buffered += length;
      }
      return new SpillRef(spill, offset, length, text);
    },
    read(ref) {
      const bytes = spill.readBytes(ref);
      return ref.text
        ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')
        : Buffer.from(bytes);
    },
    readBytes(ref) {
      if (!open) throw new Error('the spill was closed');
      if (ref.offset >= flushed) return buffer.subarray(ref.offset - flushed, ref.offset - flushed + ref.length);
      if (scratch.length < ref.length) scratch = Buffer.allocUnsafeSlow(Math.max(ref.length, scratch.length * 2));
      let done = 0;
      while (done < ref.length) {
        const read = readSync(fd, scratch, done, ref.length - done, ref.offset + done);
        if (read === 0) throw new Error('the spill ended before a value it holds');
        done += read;
      }
      return scratch.subarray(0, ref.length);
    },
    locate(ref) {
      if (!open) throw new Error('the spill was closed');
      if (ref.offset + ref.length > flushed) flush();
      return { fd, offset: ref.offset, length: ref.length };
    },
    get size() {
      return flushed + buffered;
    },
    close() {
      if (!open) return;
      open = false;
      finalizer.unregister(spill);
      closeSync(fd);
      if (named) {
        namedSpills.delete(path);
        unlinkSync(path);
      }
    },
  };
  finalizer.register(spill, { fd, ...(named ? { path } : {}) }, spill);
  return spill;
}

type Stored = string | Uint8Array | SpillRef;

/**
 * Output files whose values of 1 KB or more are in a spill: `get` and the iterators read them back
 * (a new string or buffer each time), `set` writes them. Keys, `has`, `delete` and `size` are
 * the Map's. `clone` copies the references, not the bytes; `copyFiles` (output-files.ts) uses it.
 */
export class SpilledFiles extends Map<string, string | Uint8Array> {
  readonly spill: Spill;

  constructor(spill: Spill, from?: Iterable<readonly [string, string | Uint8Array]>) {
    // Filled after `spill` is set: Map's constructor would call `set` before it is.
    super();
    this.spill = spill;
    if (from) for (const [path, data] of from) this.set(path, data);
  }

  override get(path: string): string | Uint8Array | undefined {
    const stored = super.get(path) as Stored | undefined;
    return stored instanceof SpillRef ? stored.spill.read(stored) : stored;
  }

  override set(path: string, data: string | Uint8Array): this {
    const length = typeof data === 'string' ? data.length : data.byteLength;
    return super.set(path, length < inlineBelow ? data : (this.spill.put(data) as never));
  }

  /** Puts a value already in a spill (a page the render stage wrote there) without reading it. */
  setRef(path: string, ref: SpillRef): this {
    return super.set(path, ref as never);
  }

  /** Where a file is kept: its reference, or its contents when they are small. */
  stored(path: string): Stored | undefined {
    return super.get(path) as Stored | undefined;
  }

  /** The bytes of a file for using at once (see `Spill.readBytes`): what a write or a compression needs. */
  bytesOf(path: string): Uint8Array | undefined {
    const stored = this.stored(path);
    if (stored === undefined) return undefined;
    if (stored instanceof SpillRef) return stored.spill.readBytes(stored);
    return typeof stored === 'string' ? Buffer.from(stored) : stored;
  }

  /** The same files, the references shared. */
  clone(): SpilledFiles {
    const copy = new SpilledFiles(this.spill);
    for (const [path, stored] of super.entries()) copy.setStored(path, stored as Stored);
    return copy;
  }

  /** Puts what another map of the same kind stores (its reference or small contents). */
  setStored(path: string, stored: Stored): this {
    return super.set(path, stored as never);
  }

  override *entries(): MapIterator<[string, string | Uint8Array]> {
    for (const path of super.keys()) yield [path, this.get(path)!];
  }

  override *values(): MapIterator<string | Uint8Array> {
    for (const path of super.keys()) yield this.get(path)!;
  }

  override [Symbol.iterator](): MapIterator<[string, string | Uint8Array]> {
    return this.entries();
  }

  override forEach(
    callback: (value: string | Uint8Array, key: string, map: Map<string, string | Uint8Array>) => void,
    thisArg?: unknown,
  ): void {
    for (const [path, data] of this.entries()) callback.call(thisArg, data, path, this);
  }
}

const refKey = Symbol('spilled html');

/**
 * A page's render with its HTML in `spill`: `html` reads it back each time it is asked for, and
 * `spilledHtmlOf` gives its reference, so the build's files take it without reading it.
 */
export function spillHtml<T extends { html: string }>(spill: Spill, page: T): T {
  const ref = spill.put(page.html);
  const { html: _html, ...rest } = page;
  const spilled = { ...rest, [refKey]: ref };
  Object.defineProperty(spilled, 'html', { get: () => spill.read(ref), enumerable: true });
  return spilled as unknown as T;
}

/** The reference of a render's spilled HTML (`spillHtml`), undefined for a render held in memory. */
export function spilledHtmlOf(page: object): SpillRef | undefined {
  return (page as { [refKey]?: SpillRef })[refKey];
}
