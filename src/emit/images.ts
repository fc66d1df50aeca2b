/**
 * Makes the variants of the entries' images and of the images of Markdown bodies (content/image-variants.ts
 * names them) with sharp: each resized (upright, as its EXIF orientation says, metadata dropped)
 * and encoded, or taken from the build cache, where a variant is kept by the hash of its original,
 * its width and format and sharp's version: a warm build encodes none. A GIF is published as it is.
 */
import { availableParallelism } from 'node:os';
import { readFile } from 'node:fs/promises';
import { hashParts, installedVersion, openDiskCache, type DiskCache } from '../cache/disk-cache.js';
import type { EntryImage, ImageFile } from '../content/images.js';
import { imageVariants, type ImageVariant } from '../content/image-variants.js';

/** Raise when the encoding settings below change. */
const encoding = 1;

/** Options of `createImageVariants`. */
export interface ImageVariantOptions {
  /** Where variants are kept; false encodes every one. Default: the build cache's "images" namespace. */
  cache?: DiskCache | false;
  /** Variants of an earlier run, by file (named by the original's hash, so one found here is taken as it is). */
  reuse?: ReadonlyMap<string, Uint8Array>;
}

/** What a variant is made from: an image file by its path, with its hash, type and size. */
export type VariantSource = Pick<EntryImage, 'path' | 'hash' | 'width' | 'height'> & { type: ImageFile['type'] };

/** Every variant of every image, by output file; `made` counts those encoded now. */
export async function createImageVariants(
  images: Iterable<VariantSource>,
  options: ImageVariantOptions = {},
): Promise<{ files: Map<string, Uint8Array>; made: number }> {
  const cache = options.cache === false ? undefined : (options.cache ?? openDiskCache('images'));
  const files = new Map<string, Uint8Array>();
  const missing: { image: VariantSource; variant: ImageVariant; key?: string }[] = [];
  const copies: { image: VariantSource; variant: ImageVariant }[] = [];
  const seen = new Set<string>();
  for (const image of images) {
    if (seen.has(image.hash)) continue;
    seen.add(image.hash);
    for (const variant of imageVariants(image)) {
      if (variant.format === 'gif') {
        const earlier = options.reuse?.get(variant.file);
        if (earlier) files.set(variant.file, earlier);
        else copies.push({ image, variant });
        continue;
      }
      const key = cache && hashParts(`images ${encoding} sharp@${installedVersion('sharp')}`, image.hash, variant.file);
      const data = options.reuse?.get(variant.file) ?? (key ? cache!.readSync(key) : undefined);
      if (data) files.set(variant.file, data);
      else missing.push({ image, variant, key });
    }
  }
  if (missing.length) {
    const { default: sharp } = await import('sharp');
    const originals = new Map<string, Promise<Buffer>>();
    let next = 0;
    // sharp encodes on libuv's threads: a few variants at once keep every core busy.
    const lane = async () => {
      while (next < missing.length) {
        const { image, variant, key } = missing[next++]!;
        let original = originals.get(image.path);
        if (!original) originals.set(image.path, (original = readFile(image.path)));
        const resized = sharp(await original)
          .rotate()
          .resize({ width: variant.width, withoutEnlargement: true });
        const encoded =
          variant.format === 'avif' ? resized.avif({ quality: 55, effort: 3 }) : resized.webp({ quality: 80 });
        const data = new Uint8Array(await encoded.toBuffer());
        files.set(variant.file, data);
        if (key) void cache!.write(key, data);
      }
    };
    await Promise.all(Array.from({ length: Math.min(missing.length, availableParallelism() + 1) }, lane));
  }
  // Read again, not cached: the file is its own copy.
  await Promise.all(
    copies.map(async ({ image, variant }) => files.set(variant.file, new Uint8Array(await readFile(image.path)))),
  );
  await cache?.settled();
  return { files: new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))), made: missing.length };
}
