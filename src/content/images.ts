/**
 * The image of an entry: the file its front matter's `image` names in the entry's folder, checked
 * by its bytes (PNG, JPEG, WebP or AVIF; never SVG, which can carry script), with its size and
 * the hash of its bytes, from which the build names its variants (image-variants.ts). `readImageFile`
 * is the check itself, which the images of Markdown bodies go through too (markdown-images.ts).
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { hashParts, installedVersion, type DiskCache } from '../cache/disk-cache.js';
import { readImageSidecar, type FocusPoint } from './image-sidecar.js';

/** The image types an entry may use, by their media type. */
export const imageMediaTypes = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp', avif: 'image/avif' } as const;
export type ImageType = keyof typeof imageMediaTypes;

/** The largest image accepted (the admin's upload limit, and the build's). */
export const maxImageBytes = 5 * 1024 * 1024;

/** An entry's image, as the build and the templates use it. */
export interface EntryImage {
  /** The file name in the entry's folder, as the front matter gives it. */
  name: string;
  /** The file, absolute. */
  path: string;
  /** The first 16 hex digits of the SHA-256 of its bytes: its variants are named by it. */
  hash: string;
  type: ImageType;
  width: number;
  height: number;
  /** The text alternative: `imageAlt` in the same front matter, else the image's sidecar's in the entry's language. */
  alt: string;
  /** The point a crop keeps in view (the sidecar's `focus`), as fractions; absent: the centre. */
  focus?: FocusPoint;
}

/** The type of an image from its first bytes (its magic number), or undefined when it is none of the four. */
export function sniffImageType(bytes: Uint8Array): ImageType | undefined {
  const ascii = (from: number, to: number) => Buffer.from(bytes.subarray(from, to)).toString('latin1');
  if (bytes.length >= 8 && bytes[0] === 0x89 && ascii(1, 4) === 'PNG' && bytes[4] === 0x0d && bytes[5] === 0x0a && bytes[6] === 0x1a && bytes[7] === 0x0a) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  // ISO BMFF: a box "ftyp" whose major brand (or a compatible one) is an AVIF brand.
  if (bytes.length >= 16 && ascii(4, 8) === 'ftyp') {
    const size = Math.min(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).readUInt32BE(0), bytes.length);
    for (let at = 8; at + 4 <= size; at += at === 8 ? 8 : 4) if (/^avi[fs]$/.test(ascii(at, at + 4))) return 'avif';
  }
  return undefined;
}

/** Whether bytes are a GIF (accepted in Markdown bodies only, published as they are: content/markdown-images.ts). */
export function isGif(bytes: Uint8Array): boolean {
  return bytes.length >= 6 && /^GIF8[79]a$/.test(Buffer.from(bytes.subarray(0, 6)).toString('latin1'));
}

/** An image file read and checked by its bytes. */
export interface ImageFile {
  /** The first 16 hex digits of the SHA-256 of its bytes. */
  hash: string;
  type: ImageType | 'gif';
  /** The upright size, as its EXIF orientation shows it. */
  width: number;
  height: number;
}

/** Why an image file cannot be used: there is no such file (or it cannot be read), or its bytes are not an accepted image. */
export interface ImageFileProblem {
  reason: 'missing' | 'invalid';
  message: string;
  hint: string;
}

/**
 * Reads the image `name` at `path` and checks it by its bytes: at most 5 MB, a PNG, JPEG, WebP or
 * AVIF (or a GIF with `gif`) that sharp can read; the messages name it by `name`.
 */
export async function readImageFile(path: string, name: string, options: { gif?: boolean } = {}): Promise<ImageFile | ImageFileProblem> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch {
    return { reason: 'missing', message: `no file "${name}" in the entry's folder`, hint: `Put the image next to this file, or upload it in the admin's editor.` };
  }
  if (bytes.length > maxImageBytes) return { reason: 'invalid', message: `"${name}" is ${(bytes.length / 1024 / 1024).toFixed(1)} MB, over the 5 MB limit`, hint: 'Export it smaller (2,400 px wide is plenty): the build makes the sizes pages need.' };
  const type = sniffImageType(bytes) ?? (options.gif && isGif(bytes) ? 'gif' : undefined);
  if (!type) return { reason: 'invalid', message: `"${name}" is not a PNG, JPEG, WebP${options.gif ? ', AVIF or GIF' : ' or AVIF'} image`, hint: 'Use a photo or illustration in one of those formats; SVG is not accepted because it can carry script.' };
  const digest = createHash('sha256').update(bytes).digest('hex');
  const size = await uprightSize(bytes, digest);
  if (!size) return { reason: 'invalid', message: `"${name}" could not be read as an image`, hint: 'Export the image again; the file may be cut short.' };
  return { hash: digest.slice(0, 16), type, ...size };
}

let sizes: DiskCache | undefined;

/**
 * Where the sizes of images are kept between builds: the build cache's `image-sizes` namespace,
 * or nowhere (`--no-cache`, or no build running). The build's runtime sets it when it starts.
 */
export function keepImageSizesIn(cache: DiskCache | undefined): void {
  sizes = cache;
}

/**
 * The upright size of an image, read by sharp or taken from the build cache by the hash of its
 * bytes: a page copy's images (and an entry's that its snapshot did not keep) are read at every
 * build, and importing sharp alone takes 170 to 460 ms on this 2-core machine.
 */
async function uprightSize(bytes: Uint8Array, digest: string): Promise<{ width: number; height: number } | undefined> {
  const key = hashParts(`image size 1 sharp@${installedVersion('sharp')}`, digest);
  const known = /^(\d+) (\d+)$/.exec(sizes?.readSync(key)?.toString('latin1') ?? '');
  if (known) return { width: Number(known[1]), height: Number(known[2]) };
  const { default: sharp } = await import('sharp');
  const metadata = await sharp(bytes).metadata().catch(() => undefined);
  // A camera's JPEG may be stored sideways with an EXIF orientation: the size is the upright one.
  const upright = (metadata?.orientation ?? 1) < 5;
  const width = upright ? metadata?.width : metadata?.height;
  const height = upright ? metadata?.height : metadata?.width;
  if (!width || !height) return undefined;
  void sizes?.write(key, `${width} ${height}`);
  return { width, height };
}

/** A problem with an entry's image, for the front matter's `field`. */
export interface ImageProblem {
  field: 'image' | 'imageAlt';
  message: string;
  hint: string;
}

/**
 * Reads and checks the image `name` of the entry folder `folder`, with its sidecar
 * (content/image-sidecar.ts); `alt` is the front matter's text alternative, which wins over the
 * sidecar's in `locale`.
 */
export async function readEntryImage(folder: string, name: string, alt: string | undefined, locale: string): Promise<EntryImage | ImageProblem> {
  const path = join(folder, name);
  const sidecar = await readImageSidecar(path);
  if ('errors' in sidecar) {
    const [first] = sidecar.errors;
    // Reported at the entry's `image:`, naming the sidecar's own line and column.
    const place = `${relative(process.cwd(), first!.file ?? path)}${first!.line ? `:${first!.line}:${first!.column ?? 1}` : ''}`;
    return { field: 'image', message: `its sidecar ${place} is invalid: ${first!.field ? `${first!.field}: ` : ''}${first!.message}`, hint: 'Fix the file, or save the image\'s alt text and focal point again in the admin\'s media library.' };
  }
  const text = alt?.trim() || sidecar.alt[locale];
  if (!text) return { field: 'imageAlt', message: 'an entry with an image needs imageAlt, its text alternative', hint: 'Describe what the image shows in one sentence, in the language of this file (or give the image alt text in this language in the admin\'s media library).' };
  const file = await readImageFile(path, name);
  if ('reason' in file) return { field: 'image', message: file.message, hint: file.hint };
  // Never a GIF: readImageFile accepts one only when asked.
  return { name, path, hash: file.hash, type: file.type as ImageType, width: file.width, height: file.height, alt: text, ...(sidecar.focus ? { focus: sidecar.focus } : {}) };
}
