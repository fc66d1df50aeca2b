/**
 * The variants of an entry's image and the markup data for them: AVIF and WebP at a few widths,
 * never wider than the original, named by the hash of the original's bytes (so a new image gets
 * new URLs, and `/assets/` may be cached for good). Pure: the templates name the variants with it,
 * and the build makes exactly those files (emit/images.ts).
 */
import type { EntryImage } from '../content/images.js';

/** The widths made of every image (those wider than the original are left out; the original's width stands in). */
export const imageWidths = [480, 960, 1440] as const;

/** The formats made, best first: a browser takes the first it knows. */
export const imageFormats = [
  { format: 'avif', type: 'image/avif' },
  { format: 'webp', type: 'image/webp' },
] as const;
export type ImageFormat = (typeof imageFormats)[number]['format'];

/** One variant file. */
export interface ImageVariant {
  file: string;
  format: ImageFormat;
  width: number;
  height: number;
}

/** The widths of an image's variants. */
export function variantWidths(image: Pick<EntryImage, 'width'>): number[] {
  const widths: number[] = imageWidths.filter((width) => width < image.width);
  if (widths.length < imageWidths.length) widths.push(image.width);
  return widths;
}

/** Every variant file of an image. */
export function imageVariants(image: Pick<EntryImage, 'hash' | 'width' | 'height'>): ImageVariant[] {
  return imageFormats.flatMap(({ format }) =>
    variantWidths(image).map((width) => ({ file: `assets/images/${image.hash}-${width}.${format}`, format, width, height: Math.round((image.height * width) / image.width) })),
  );
}

/** What a `<picture>` needs: a source per format with its srcset, and the fallback `<img>`. */
export interface Picture {
  sources: { type: string; srcset: string }[];
  src: string;
  width: number;
  height: number;
  alt: string;
}

/** The picture of an image; the fallback `<img>` is its WebP variant of 960 px (or the nearest below). */
export function pictureOf(image: EntryImage): Picture {
  const variants = imageVariants(image);
  const sources = imageFormats.map(({ format, type }) => ({
    type,
    srcset: variants
      .filter((variant) => variant.format === format)
      .map((variant) => `/${variant.file} ${variant.width}w`)
      .join(', '),
  }));
  const fallback = variants.filter((variant) => variant.format === 'webp').find((variant) => variant.width >= 960) ?? variants.filter((variant) => variant.format === 'webp').at(-1)!;
  return { sources, src: `/${fallback.file}`, width: image.width, height: image.height, alt: image.alt };
}
