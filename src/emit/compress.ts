/**
 * Precompressed siblings of the text files of a build ("x.html" → "x.html.br", "x.html.gz"), so
 * `site serve` (and any host that looks for them) sends compressed bytes without compressing
 * on every request. Brotli and gzip are deterministic for the same input and settings, so the
 * siblings are byte-identical between two builds.
 */
import { extname } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { hashParts, type DiskCache } from '../cache/disk-cache.js';
import type { OutputFiles } from '../output-files.js';
import { createWorkerPool, defaultPoolSize } from '../parallel/pool.js';
import { noProgress, type Progress } from '../progress.js';

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
  data: string | Uint8Array;
  /** Brotli quality. */
  quality: number;
  /** gzip level. */
  level: number;
}

/** Both siblings of one file. */
export interface Siblings {
  br: Uint8Array;
  gz: Uint8Array;
}

/** The siblings of one file: what the workers of lib/compress-worker.js run, and the main thread. */
export function compressItem({ data, quality, level }: CompressItem): Siblings {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  return { br: brotliText(bytes, quality), gz: exact(gzipSync(bytes, { level })) };
}

/** The compressible files of a build, in path order, with their siblings where the cache has them (`cached`) or they were made ahead (`ahead`). */
interface CompressPlan {
  entries: { path: string; size: number; key?: string; cached?: Siblings; ahead?: Siblings; item: CompressItem }[];
  cache?: DiskCache;
}

/** The settings of a file by its path, or undefined for a file that gets no siblings. */
function itemOf(path: string, data: string | Uint8Array, options: CompressOptions): CompressItem | undefined {
  const extension = extname(path);
  if (!compressibleExtensions.includes(extension)) return undefined;
  const quality = scriptExtensions.includes(extension)
    ? (options.scriptBrotliQuality ?? defaultQuality.script)
    : (options.brotliQuality ?? defaultQuality.text);
  return { data, quality, level: options.gzipLevel ?? 9 };
}

function planCompression(files: OutputFiles, options: CompressOptions): CompressPlan {
  const { cache } = options;
  const made = options.ahead?.take();
  const entries: CompressPlan['entries'] = [];
  for (const [path, contents] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const item = itemOf(path, contents, options);
    if (!item) continue;
    const key =
      cache &&
      hashParts(
        'compress',
        process.versions.zlib ?? '',
        process.versions.brotli ?? '',
        `brotli ${item.quality} window fitted gzip ${item.level}`,
        contents,
      );
    const cached = key ? decodeSiblings(cache.readSync(key)) : undefined;
    const early = cached ? undefined : made?.get(contents);
    const ahead = early && early.quality === item.quality && early.level === item.level ? early.siblings : undefined;
    const size = typeof contents === 'string' ? Buffer.byteLength(contents) : contents.length;
    entries.push({ path, size, key, cached, ahead, item });
  }
  return { entries, cache };
}

/** The plan's misses, to compute. */
function misses(plan: CompressPlan): CompressItem[] {
  return plan.entries.filter((entry) => !entry.cached && !entry.ahead).map((entry) => entry.item);
}

/** Siblings made while the build still works, for the write to take (`CompressOptions.ahead`). */
export interface CompressAhead {
  /** Queues files (output path → contents) to compress, in turns that leave this thread to the build's other work. */
  add(files: Iterable<readonly [string, string | Uint8Array]>): void;
  /** Stops, and gives what was made, by the contents it was made from. */
  take(): ReadonlyMap<string | Uint8Array, AheadSiblings>;
}

/** Siblings made ahead, with the settings they were made with. */
export interface AheadSiblings {
  quality: number;
  level: number;
  siblings: Siblings;
}

/** How long one turn of `compressAhead` keeps this thread before it lets the build's other work run. */
const aheadTurnMs = 8;

/**
 * Compresses files before the write asks for them, on this thread, in turns of `aheadTurnMs`
 * between which the event loop runs: `site build` gives it the pages as soon as they are rendered,
 * while the social images' workers still draw (the demo site's main thread waited 1.5 s for its
 * 97 cards, then compressed for 0.5 s). Whatever is not made when the write starts is made there.
 */
export function compressAhead(options: CompressOptions = {}): CompressAhead {
  const queue: (readonly [string, string | Uint8Array])[] = [];
  const made = new Map<string | Uint8Array, AheadSiblings>();
  let next = 0;
  let running = false;
  let stopped = false;
  const turns = async () => {
    running = true;
    while (!stopped && next < queue.length) {
      const until = performance.now() + aheadTurnMs;
      while (!stopped && next < queue.length && performance.now() < until) {
        const [path, data] = queue[next++]!;
        const item = itemOf(path, data, options);
        if (item && !made.has(data))
          made.set(data, { quality: item.quality, level: item.level, siblings: compressItem(item) });
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    running = false;
  };
  return {
    add(files) {
      if (stopped) return;
      // One at a time: a site's pages as the arguments of one call would pass the engine's limit.
      for (const file of files) queue.push(file);
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
 * The siblings of the plan, `made` being those of its misses in order. A sibling that is not
 * smaller than its file is left out (a server then sends the file as it is), and so is one whose
 * name the output already uses.
 */
function assemble(files: OutputFiles, plan: CompressPlan, made: readonly Siblings[]): OutputFiles {
  const siblings: OutputFiles = new Map();
  const add = (path: string, out: Uint8Array, size: number) => {
    if (out.length < size && !files.has(path)) siblings.set(path, out);
  };
  let next = 0;
  for (const { path, size, key, cached, ahead } of plan.entries) {
    const { br, gz } = cached ?? ahead ?? made[next++]!;
    if (key && !cached) void plan.cache!.write(key, encodeSiblings(br, gz));
    add(`${path}.br`, br, size);
    add(`${path}.gz`, gz, size);
  }
  return siblings;
}

/**
 * The `.br` and `.gz` siblings of every compressible file, on this thread. Synchronous on
 * purpose: for many small files it costs half the CPU time of zlib's thread-pool API. For the
 * output of a build see `compressFilesShared`.
 */
export function compressFiles(files: OutputFiles, options: CompressOptions = {}): OutputFiles {
  const plan = planCompression(files, options);
  return assemble(files, plan, misses(plan).map(compressItem));
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
 * 12,000 pages of the real site with 1,000 posts: about 10 s of compression on one core.
 */
export async function compressFilesShared(
  files: OutputFiles,
  options: CompressOptions & { workers?: number; poolFrom?: number; progress?: Progress } = {},
): Promise<{ siblings: OutputFiles; workers: number }> {
  const plan = planCompression(files, options);
  const items = misses(plan);
  const size = options.workers ?? defaultPoolSize();
  const bytes = items.reduce((sum, item) => sum + item.data.length, 0);
  const progress = (options.progress ?? noProgress).begin('compress', items.length, 'files');
  // Characters for a page: close enough to bytes for a threshold.
  if (size <= 0 || bytes < (options.poolFrom ?? compressPoolThreshold)) {
    try {
      const made = items.map((item) => {
        const siblings = compressItem(item);
        progress.tick();
        return siblings;
      });
      return { siblings: assemble(files, plan, made), workers: 0 };
    } finally {
      progress.end();
    }
  }
  const pool = createWorkerPool(size, 'compress-worker.js');
  try {
    const made = await pool.run<CompressItem, Siblings>({
      kind: 'compress',
      items,
      chunkSize: 16,
      local: (chunk) => chunk.map(compressItem),
      onChunk: (count) => progress.tick(count),
    });
    return { siblings: assemble(files, plan, made), workers: size };
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
