/**
 * The variants of an entry's image and the markup data for them: AVIF and WebP at a few widths,
 * never wider than the original, named by the hash of the original's bytes (so a new image gets
 * new URLs, and `/assets/` may be cached for good). Pure: the templates name the variants with it,
 * the Markdown of a post writes its images' `<picture>` with it (markdown-images.ts), and the build
 * makes exactly those files (emit/images.ts).
 *
 * An image with a focal point (its sidecar's `focus`) is cropped around it wherever CSS crops it
 * (`object-fit: cover`): the picture's `className` for its `<img>` names the point in 5 % steps,
 * classes of one fixed stylesheet of the engine's (render/images.ts `focusStylesheet`), since the
 * CSP allows no inline style.
 */
import type { EntryImage, ImageFile } from './images.js';
import type { FocusPoint } from './image-sidecar.js';

/** The widths made of every image (those wider than the original are left out; the original's width stands in). */
export const imageWidths = [480, 960, 1440] as const;

/** The formats made, best first: a browser takes the first it knows. */
export const imageFormats = [
  { format: 'avif', type: 'image/avif' },
  { format: 'webp', type: 'image/webp' },
] as const;
export type ImageFormat = (typeof imageFormats)[number]['format'];

/** One variant file: an encoded copy, or a GIF as it is (`gif`). */
export interface ImageVariant {
  file: string;
  format: ImageFormat | 'gif';
  width: number;
  height: number;
}

/** The widths of an image's variants. */
export function variantWidths(image: Pick<EntryImage, 'width'>): number[] {
  const widths: number[] = imageWidths.filter((width) => width < image.width);
  if (widths.length < imageWidths.length) widths.push(image.width);
  return widths;
}

/**
 * Every variant file of an image. A GIF (a Markdown body's, which may be animated) is published as
 * it is, under its hash: AVIF and WebP copies would drop its frames or grow it.
 */
export function imageVariants(image: Pick<EntryImage, 'hash' | 'width' | 'height'> & { type?: ImageFile['type'] }): ImageVariant[] {
  if (image.type === 'gif') return [{ file: `assets/images/${image.hash}.gif`, format: 'gif', width: image.width, height: image.height }];
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
  /** For the `<img>` of an image with a focal point: the classes that place it (`focusStylesheet`). */
  className?: string;
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
  return { sources, src: `/${fallback.file}`, width: image.width, height: image.height, alt: image.alt, ...(image.focus ? { className: focusClassOf(image.focus) } : {}) };
}

/**
 * The markup of an image of a Markdown body (markdown-images.ts): a `<picture>` of the same
 * variants as a cover's, or a GIF's own file, with its size (nothing shifts while it loads), loaded
 * lazily and decoded off the main thread. `sizes` says the image is never shown wider than it is,
 * so a narrow image is not fetched at the viewport's width. Written as rehype-stringify writes the
 * rest of the body (`/>`), attribute values escaped.
 */
export function markdownImageHtml(image: Pick<ImageFile, 'hash' | 'type' | 'width' | 'height'>, alt: string, title?: string): string {
  const size = `width="${image.width}" height="${image.height}"`;
  const text = `alt="${escapeAttribute(alt)}"${title === undefined ? '' : ` title="${escapeAttribute(title)}"`}`;
  const lazy = 'loading="lazy" decoding="async"';
  if (image.type === 'gif') return `<img src="/${imageVariants(image)[0]!.file}" ${text} ${size} ${lazy} />`;
  const picture = pictureOf({ ...image, type: image.type, name: '', path: '', alt });
  const sizes = `(min-width: ${image.width}px) ${image.width}px, 100vw`;
  const sources = picture.sources.map((source) => `<source type="${source.type}" srcset="${source.srcset}" sizes="${sizes}" />`).join('');
  return `<picture>${sources}<img src="${picture.src}" ${text} ${size} ${lazy} /></picture>`;
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The step of the focus classes, in percent. */
const focusStep = 5;
/** Every position a focus class names, in percent: 0, 5, … 100. */
export const focusSteps = Array.from({ length: 100 / focusStep + 1 }, (_, index) => index * focusStep);
const percent = (fraction: number) => Math.round((fraction * 100) / focusStep) * focusStep;

/** The classes of an `<img>` cropped around `focus`: `focus focus-x-35 focus-y-20`. */
export function focusClassOf(focus: FocusPoint): string {
  return `focus focus-x-${percent(focus.x)} focus-y-${percent(focus.y)}`;
}
