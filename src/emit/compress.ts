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

/**
 * The `.br` and `.gz` siblings of every compressible file. A sibling that is not smaller than its
 * file is left out (a server then sends the file as it is), and so is one whose name the output
 * already uses. Synchronous on purpose: for many small files it costs half the CPU time of
 * zlib's thread-pool API, and the build has nothing else to do meanwhile.
 */
export function compressFiles(files: OutputFiles, options: CompressOptions = {}): OutputFiles {
  const textQuality = options.brotliQuality ?? defaultQuality.text;
  const scriptQuality = options.scriptBrotliQuality ?? defaultQuality.script;
  const level = options.gzipLevel ?? 9;
  const siblings: OutputFiles = new Map();
  const add = (path: string, out: Uint8Array, size: number) => {
    if (out.length < size && !files.has(path)) siblings.set(path, out);
  };
  const { cache } = options;
  for (const [path, contents] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const extension = extname(path);
    if (!compressibleExtensions.includes(extension)) continue;
    const data = typeof contents === 'string' ? Buffer.from(contents) : contents;
    const quality = scriptExtensions.includes(extension) ? scriptQuality : textQuality;
    const key = cache && hashParts('compress', process.versions.zlib ?? '', process.versions.brotli ?? '', `brotli ${quality} gzip ${level}`, data);
    const cached = key ? decodeSiblings(cache.readSync(key)) : undefined;
    const br = cached?.br ?? brotliText(data, quality);
    const gz = cached?.gz ?? exact(gzipSync(data, { level }));
    if (key && !cached) void cache.write(key, encodeSiblings(br, gz));
    add(`${path}.br`, br, data.length);
    add(`${path}.gz`, gz, data.length);
  }
  return siblings;
}

function brotliText(data: Uint8Array, quality: number): Buffer {
  return exact(brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: data.length, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } }));
}

/**
 * One compressed form of a text file that has no sibling (a site built with
 * `output.precompress: false`), with the build's settings for its kind; undefined when the file
 * is not compressible or would not get smaller.
 */
export function compressText(path: string, data: Uint8Array, coding: (typeof precompressedCodings)[number]['coding']): Buffer | undefined {
  const extension = extname(path);
  if (!compressibleExtensions.includes(extension)) return undefined;
  const out = coding === 'br' ? brotliText(data, scriptExtensions.includes(extension) ? defaultQuality.script : defaultQuality.text) : exact(gzipSync(data, { level: 9 }));
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

function decodeSiblings(entry: Buffer | undefined): { br: Uint8Array; gz: Uint8Array } | undefined {
  if (!entry || entry.length < 4) return undefined;
  const length = entry.readUInt32BE(0);
  if (4 + length > entry.length) return undefined;
  return { br: entry.subarray(4, 4 + length), gz: entry.subarray(4 + length) };
}
