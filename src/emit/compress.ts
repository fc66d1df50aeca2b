/**
 * Precompressed siblings of the text files of a build ("x.html" → "x.html.br", "x.html.gz"), so
 * `site serve` (and any host that looks for them) sends compressed bytes without compressing
 * on every request. Brotli and gzip are deterministic for the same input and settings, so the
 * siblings are byte-identical between two builds.
 */
import { readSync } from 'node:fs';
import { extname } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { hashParts, type DiskCache } from '../cache/disk-cache.js';
import { sameContents, storedOf, type OutputFiles } from '../output-files.js';
import { createWorkerPool, defaultPoolSize } from '../parallel/pool.js';
import { noProgress, type Progress } from '../progress.js';
import { SpilledFiles, SpillRef, type Spill } from '../spill.js';

/** Extensions whose files get `.br` and `.gz` siblings. */
export const compressibleExtensions: readonly string[] = ['.html', '.css', '.js', '.xml', '.svg', '.txt', '.json'];

/** The coding of each sibling extension, in order of preference. */
export const precompressedCodings = [
  { coding: 'br', extension: '.br' },
  { coding: 'gzip', extension: '.gz' },
] as const;

/** Options of `compressFiles`. */
export interface CompressOptions {
  /** Brotli quality 0–11 of pages and the other text files (default 8). */
  brotliQuality?: number;
  /** Brotli quality 0–11 of CSS and JavaScript (default 11). */
  scriptBrotliQuality?: number;
  /** gzip level 1–9 (default 9). */
  gzipLevel?: number;
  /**
   * Siblings made before, by the hash of the file and the settings: a rebuild compresses only the
   * files that changed (default: none).
   */
  cache?: DiskCache;
  /** Siblings made while the build still worked (`compressAhead`): a file's are taken when its contents and settings are the same. */
  ahead?: CompressAhead;
}

/**
 * Default brotli qualities, measured on the demo site (210 text files, 2.6 MB): quality 11 takes
 * 2.4 s of CPU and gives 26.6% of the input, quality 10 1.1 s for 27.3%, quality 9 1.0 s for
 * 29.4%, quality 8 75 ms for 29.4%. So pages, whose number grows with the content, get quality
 * 8; CSS and JavaScript, a handful of files that every page loads and browsers cache for good,
 * get 11 (55 ms). gzip 9 costs 30 ms.
 */
const defaultQuality = { text: 8, script: 11 } as const;
const scriptExtensions: readonly string[] = ['.css', '.js'];

/** One file to compress, as the pool's workers get it. */
export interface CompressItem {
  /** The file's contents (a page stays a string until it is compressed, so a build never holds every page twice). */
  data?: string | Uint8Array;
  /** Or where they are in a spill's file (spill.ts), which a worker reads itself. */
  at?: SpilledBytes;
  /** Brotli quality. */
  quality: number;
  /** gzip level. */
  level: number;
}

/** Bytes in a spill's file, readable from any thread of the process. */
export interface SpilledBytes {
  fd: number;
  offset: number;
  length: number;
}

/** Both siblings of one file. */
export interface Siblings {
  br: Uint8Array;
  gz: Uint8Array;
}

/** The siblings of one file: what the workers of lib/compress-worker.js run, and the main thread. */
export function compressItem({ data, at, quality, level }: CompressItem): Siblings {
  const bytes = at ? readSpilled(at) : typeof data === 'string' ? Buffer.from(data) : data!;
  return { br: brotliText(bytes, quality), gz: exact(gzipSync(bytes, { level })) };
}

function readSpilled({ fd, offset, length }: SpilledBytes): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  for (let done = 0; done < length;) {
    const read = readSync(fd, bytes, done, length - done, offset + done);
    if (read === 0) throw new Error('a spilled file ended early');
    done += read;
  }
  return bytes;
}

/** The settings of a file by its path, or undefined for a file that gets no siblings. */
function itemOf(path: string, options: CompressOptions): { quality: number; level: number } | undefined {
  const extension = extname(path);
  if (!compressibleExtensions.includes(extension)) return undefined;
  const quality = scriptExtensions.includes(extension)
    ? (options.scriptBrotliQuality ?? defaultQuality.script)
    : (options.brotliQuality ?? defaultQuality.text);
  return { quality, level: options.gzipLevel ?? 9 };
}

/** What a file's siblings are made of: its contents held here, or its place in a spill. */
type Stored = string | Uint8Array | SpillRef;

/** Siblings held here, or written to a spill. */
type HeldSiblings = Siblings | { br: SpillRef; gz: SpillRef };

/** A compressible file, in path order, and its siblings once they are known. */
interface Compressed {
  path: string;
  size: number;
  key?: string;
  held?: HeldSiblings;
  /** What to compress, while its siblings are to make. */
  item?: CompressItem;
}

/**
 * The siblings of the files that a build compresses: those the cache or `ahead` has are known at
 * once, and the misses are returned, to compute. With a spill, the siblings go there as they are
 * known (and the result is a `SpilledFiles`), and a miss names its file's place in it.
 */
interface Compression {
  misses: Compressed[];
  /** Keeps a miss's siblings (and puts them in the cache), as they are made. */
  made(miss: Compressed, siblings: Siblings): void;
  /** The siblings, in path order. */
  out(): OutputFiles;
}

/** The key of a file's siblings in the cache. */
function cacheKeyOf(item: CompressItem, contents: string | Uint8Array): string {
  return hashParts(
    'compress',
    process.versions.zlib ?? '',
    process.versions.brotli ?? '',
    `brotli ${item.quality} window fitted gzip ${item.level}`,
    contents,
  );
}

function planCompression(files: OutputFiles, options: CompressOptions & { spill?: Spill }): Compression {
  const { cache, spill } = options;
  const ahead = options.ahead?.take();
  // What was compressed ahead from contents held here, by path: the output may hold the same
  // contents in another form by the time of the write (a built script put in the spill).
  const aheadByPath = new Map<string, readonly [string | Uint8Array, AheadSiblings]>();
  for (const [source, early] of ahead ?? [])
    if (early.path !== undefined && !(source instanceof SpillRef)) aheadByPath.set(early.path, [source, early]);
  const hold = ({ br, gz }: Siblings): HeldSiblings => (spill ? { br: spill.put(br), gz: spill.put(gz) } : { br, gz });
  const bytesOf = (sibling: Uint8Array | SpillRef) =>
    sibling instanceof SpillRef ? (sibling.spill.read(sibling) as Uint8Array) : sibling;
  const entries: Compressed[] = [];
  for (const path of [...files.keys()].sort()) {
    const stored = storedOf(files, path)!;
    const item = itemOf(path, options);
    if (!item) continue;
    const spilled = stored instanceof SpillRef ? stored : undefined;
    // For the key only: a spilled file's bytes are read again when it is compressed.
    const contents = spilled ? spilled.spill.readBytes(spilled) : (stored as string | Uint8Array);
    const key = cache && cacheKeyOf(item, contents);
    const size = spilled
      ? spilled.length
      : typeof contents === 'string'
        ? Buffer.byteLength(contents)
        : contents.length;
    const cached = key ? decodeSiblings(cache!.readSync(key)) : undefined;
    if (cached) {
      entries.push({ path, size, held: hold(cached) });
      continue;
    }
    const byPath = aheadByPath.get(path);
    const early = ahead?.get(stored) ?? (byPath && sameContents(byPath[0], contents) ? byPath[1] : undefined);
    if (early && early.quality === item.quality && early.level === item.level) {
      if (key) void cache!.write(key, encodeSiblings(bytesOf(early.siblings.br), bytesOf(early.siblings.gz)));
      entries.push({ path, size, held: early.siblings });
      continue;
    }
    const data = spilled ? { at: spilled.spill.locate(spilled) } : { data: contents };
    entries.push({ path, size, key, item: { ...item, ...data } });
  }
  return {
    misses: entries.filter((entry) => entry.item),
    made(miss, siblings) {
      if (miss.key) void cache!.write(miss.key, encodeSiblings(siblings.br, siblings.gz));
      miss.held = hold(siblings);
      miss.item = undefined;
    },
    out() {
      const out: OutputFiles = spill ? new SpilledFiles(spill) : new Map();
      // A sibling that is not smaller than its file is left out (a server then sends the file as it is), and so is one whose name the output already uses.
      const add = (path: string, sibling: Uint8Array | SpillRef, size: number) => {
        if (sibling.length >= size || files.has(path)) return;
        if (sibling instanceof SpillRef) (out as SpilledFiles).setRef(path, sibling);
        else out.set(path, sibling);
      };
      for (const { path, size, held } of entries) {
        add(`${path}.br`, held!.br, size);
        add(`${path}.gz`, held!.gz, size);
      }
      return out;
    },
  };
}

/** Siblings made while the build still works, for the write to take (`CompressOptions.ahead`). */
export interface CompressAhead {
  /**
   * Queues files (output path → contents, or their reference in a spill) to compress, in turns
   * that leave this thread to the build's other work. The iterable is read as the turns come: a
   * spilled page is read back when it is compressed.
   */
  add(files: Iterable<readonly [string, Stored]>): void;
  /** Stops, and gives what was made, by the contents (or spill reference) it was made from. */
  take(): ReadonlyMap<Stored, AheadSiblings>;
}

/** Siblings made ahead, with the settings they were made with. */
export interface AheadSiblings {
  /** The output path they were made for. */
  path?: string;
  quality: number;
  level: number;
  siblings: HeldSiblings;
}

/** How long one turn of `compressAhead` keeps this thread before it lets the build's other work run. */
const aheadTurnMs = 8;

/**
 * Compresses files before the write asks for them, on this thread, in turns of `aheadTurnMs`
 * between which the event loop runs: `site build` gives it the pages as soon as they are rendered,
 * while the social images' workers still draw (the demo site's main thread waited 1.5 s for its
 * 97 cards, then compressed for 0.5 s). Whatever is not made when the write starts is made there.
 * With a spill, the siblings made go there.
 */
export function compressAhead(options: CompressOptions & { spill?: Spill } = {}): CompressAhead {
  const queue: Iterator<readonly [string, Stored]>[] = [];
  const made = new Map<Stored, AheadSiblings>();
  let running = false;
  let stopped = false;
  const next = (): readonly [string, Stored] | undefined => {
    while (queue.length) {
      const step = queue[0]!.next();
      if (!step.done) return step.value;
      queue.shift();
    }
    return undefined;
  };
  const turns = async () => {
    running = true;
    for (let file = next(); !stopped && file; file = next()) {
      const until = performance.now() + aheadTurnMs;
      for (; !stopped && file; file = performance.now() < until ? next() : undefined) {
        const [path, stored] = file;
        const item = itemOf(path, options);
        if (!item || made.has(stored)) continue;
        const data = stored instanceof SpillRef ? stored.spill.readBytes(stored) : stored;
        const { br, gz } = compressItem({ ...item, data });
        const { spill } = options;
        made.set(stored, { ...item, path, siblings: spill ? { br: spill.put(br), gz: spill.put(gz) } : { br, gz } });
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    running = false;
  };
  return {
    add(files) {
      if (stopped) return;
      queue.push(files[Symbol.iterator]());
      if (!running) void turns();
    },
    take() {
      stopped = true;
      queue.length = 0;
      return made;
    },
  };
}

/**
 * The `.br` and `.gz` siblings of every compressible file, on this thread. Synchronous on
 * purpose: for many small files it costs half the CPU time of zlib's thread-pool API. For the
 * output of a build see `compressFilesShared`.
 */
export function compressFiles(files: OutputFiles, options: CompressOptions = {}): OutputFiles {
  const plan = planCompression(files, options);
  for (const miss of plan.misses) plan.made(miss, compressItem(miss.item!));
  return plan.out();
}

/**
 * Uncompressed bytes from which `compressFilesShared` shares the work with worker threads: about
 * 4 s of brotli and gzip on one core of the development machine. Below it the memory a worker
 * costs outweighs the time it saves. Each thread that compresses keeps what the C allocator
 * retains of brotli's encoders (which allocate megabytes per file) and zlib's garbage, and a
 * worker adds an isolate: compressing the 1,000-post benchmark's output (1,008 files, 10.5 MB)
 * raised the peak resident memory by 69 MB on this thread alone and by 110 MB with one worker,
 * and the write, not the Markdown, became the peak of a cold build (295 MB against 253 MB in
 * paired runs, docs/performance.md), for about 0.3 s less of wall time on two cores.
 */
export const compressPoolThreshold = 64 * 1024 * 1024;

/**
 * `compressFiles` for the output of a build: past `poolFrom` bytes to compress (default
 * `compressPoolThreshold`), the files are shared out between this thread and `workers` threads
 * of lib/compress-worker.js (by default one fewer than the cores), each compressing whole files
 * with the same settings, so the siblings are the same bytes whoever made them. Measured on the
 * 12,000 pages of the real site with 1,000 posts: about 10 s of compression on one core. With a
 * spill (`files` a `SpilledFiles`), the workers read the files from it and the siblings go there
 * as they come.
 */
export async function compressFilesShared(
  files: OutputFiles,
  options: CompressOptions & { workers?: number; poolFrom?: number; progress?: Progress } = {},
): Promise<{ siblings: OutputFiles; workers: number }> {
  const spill = files instanceof SpilledFiles ? files.spill : undefined;
  const plan = planCompression(files, { ...options, spill });
  const { misses } = plan;
  const size = options.workers ?? defaultPoolSize();
  const bytes = misses.reduce((sum, miss) => sum + miss.size, 0);
  const progress = (options.progress ?? noProgress).begin('compress', misses.length, 'files');
  if (size <= 0 || bytes < (options.poolFrom ?? compressPoolThreshold)) {
    try {
      for (const miss of misses) {
        plan.made(miss, compressItem(miss.item!));
        progress.tick();
      }
      return { siblings: plan.out(), workers: 0 };
    } finally {
      progress.end();
    }
  }
  const pool = createWorkerPool(size, 'compress-worker.js');
  try {
    await pool.run<CompressItem, Siblings>({
      kind: 'compress',
      items: misses.map((miss) => miss.item!),
      chunkSize: 16,
      local: (chunk) => chunk.map(compressItem),
      onChunk: (count) => progress.tick(count),
      onResults: (first, results) =>
        results.forEach((siblings, offset) => plan.made(misses[first + offset]!, siblings)),
      keepResults: false,
    });
    return { siblings: plan.out(), workers: size };
  } finally {
    progress.end();
    await pool.close();
  }
}

function brotliText(data: Uint8Array, quality: number): Buffer {
  const params = {
    [constants.BROTLI_PARAM_QUALITY]: quality,
    [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    [constants.BROTLI_PARAM_LGWIN]: windowBits(data.length),
  };
  return exact(brotliCompressSync(data, { params }));
}

/**
 * The brotli window for a file of `size` bytes: the smallest that holds it, at most the default
 * (22 bits, 4 MB). The encoder sizes its ring buffer and hash tables by the window, and sets them
 * up for every file: a 10 KB page compressed in a 4 MB window took 27% longer, left the C
 * allocator 23-26 MB more, and was 0.04% larger (the 1,000-post bench corpus's pages at quality 8:
 * 322 ms, 3,367,639 bytes and 36 MB against 234 ms, 3,366,302 bytes and 13 MB).
 */
function windowBits(size: number): number {
  return Math.min(
    constants.BROTLI_DEFAULT_WINDOW,
    Math.max(constants.BROTLI_MIN_WINDOW_BITS, Math.ceil(Math.log2(size + 1))),
  );
}

/**
 * One compressed form of a text file that has no sibling (a site built with
 * `output.precompress: false`), with the build's settings for its kind; undefined when the file
 * is not compressible or would not get smaller.
 */
export function compressText(
  path: string,
  data: Uint8Array,
  coding: (typeof precompressedCodings)[number]['coding'],
): Buffer | undefined {
  const extension = extname(path);
  if (!compressibleExtensions.includes(extension)) return undefined;
  const out =
    coding === 'br'
      ? brotliText(data, scriptExtensions.includes(extension) ? defaultQuality.script : defaultQuality.text)
      : exact(gzipSync(data, { level: 9 }));
  return out.length < data.length ? out : undefined;
}

/**
 * A copy the size of its bytes: zlib's synchronous output is a view of its whole output chunk, so
 * keeping the views of 4,000 pages' siblings kept 130 MB of chunks alive for 25 MB of bytes.
 */
function exact(buffer: Buffer): Buffer {
  return buffer.byteLength * 2 < buffer.buffer.byteLength ? Buffer.from(buffer) : buffer;
}

/** A cache entry: the length of the brotli sibling (4 bytes, big-endian), then both siblings (in parts, not copied). */
function encodeSiblings(br: Uint8Array, gz: Uint8Array): Uint8Array[] {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(br.length);
  return [head, br, gz];
}

function decodeSiblings(entry: Buffer | undefined): Siblings | undefined {
  if (!entry || entry.length < 4) return undefined;
  const length = entry.readUInt32BE(0);
  if (4 + length > entry.length) return undefined;
  return { br: entry.subarray(4, 4 + length), gz: entry.subarray(4 + length) };
}
