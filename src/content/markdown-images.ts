/**
 * The images of a Markdown body that are files beside it (`![A square](square.png)` in
 * content/blog/<slug>/en.md, or in a page's Markdown copy): the pipeline marks each one in the
 * HTML it makes (markdown.ts, LocalImageRef); here each file is read and checked by its bytes as a
 * cover is (content/images.ts; a GIF too, published as it is), and its marked `<img>` replaced with
 * the `<picture>` of its variants (image-variants.ts), which the build makes from the same records
 * (emit/images.ts). A missing file is `IMAGE_MISSING`, a file that is not an accepted image (or a
 * path out of the folder) `IMAGE_INVALID`, at the line and column where the path is written.
 */
import { join } from 'node:path';
import { SiteError } from '../errors.js';
import { markdownImageHtml } from './image-variants.js';
import { readImageFile, type ImageFile, type ImageFileProblem } from './images.js';
import type { LocalImageRef } from './markdown.js';

/** An image file of a Markdown body, checked. */
export interface MarkdownImage extends ImageFile {
  /** The file name in the document's folder. */
  name: string;
  /** The file, absolute. */
  path: string;
}

/** Where a document's body is: its file as reported (relative to the working directory) and the line its body starts on. */
export interface BodyPlace {
  file: string;
  bodyLine: number;
}

/**
 * One start tag with its attributes (a quoted value may hold "<!--image 0-->" or ">"), as
 * render/base-path.ts reads them: matched whole, so a marker is only ever found outside a tag.
 * Text cannot hold one either: "<" in text is always "&lt;".
 */
const startTag = String.raw`<[a-zA-Z][^\s/>]*(?:\s+[^\s"'=<>${'`'}/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>${'`'}]+))?)*\s*\/?>`;
const markedOrTag = new RegExp(String.raw`<!--image (\d+)-->(${startTag})<!--\/image-->|${startTag}`, 'g');

/** HTML with each marked image (its markers and its `<img>`) replaced by what `replace` gives for its index. */
export function replaceMarkedImages(html: string, replace: (index: number) => string): string {
  if (!html.includes('<!--image ')) return html;
  return html.replace(markedOrTag, (whole, index: string | undefined) => (index === undefined ? whole : replace(Number(index))));
}

/** The file name an image's `src` names in the document's folder, or why it names none. */
function fileNameOf(src: string): string | { message: string } {
  let path = src.replace(/[?#].*$/, '');
  try {
    path = decodeURIComponent(path);
  } catch {
    // Written with a stray "%": taken as it is.
  }
  path = path.replace(/^(?:\.\/)+/, '');
  // The folder's own files only: the build keeps an entry by the stat of the files of its folder
  // (pipeline/entry-snapshots.ts), and a path out of it would publish any image on the disk.
  if (path === '' || /[/\\]/.test(path) || path === '..') return { message: `the image "${src}" is not a file of this file's folder` };
  return path;
}

/**
 * Reads and checks the local images of a rendered body found in `folder`, and replaces their marks
 * in `html` with their pictures. Each file is read once however often the body shows it.
 */
export async function resolveMarkdownImages(rendered: { html: string; images?: readonly LocalImageRef[] }, folder: string, place: BodyPlace): Promise<{ html: string; images: MarkdownImage[]; errors: SiteError[] }> {
  const refs = rendered.images ?? [];
  if (!refs.length) return { html: rendered.html, images: [], errors: [] };
  const files = new Map<string, Promise<ImageFile | ImageFileProblem>>();
  const errors: SiteError[] = [];
  const byIndex: MarkdownImage[] = [];
  for (const [index, ref] of refs.entries()) {
    const at = { file: place.file, line: place.bodyLine + ref.line - 1, column: ref.column };
    const name = fileNameOf(ref.src);
    if (typeof name !== 'string') {
      errors.push(new SiteError({ code: 'IMAGE_INVALID', message: name.message, hint: 'Put the image next to this file and write its name alone, as in ![A jacket](jacket.jpg); for a file of public/, write its site path (/images/jacket.jpg).', ...at }));
      continue;
    }
    let read = files.get(name);
    if (!read) files.set(name, (read = readImageFile(join(folder, name), name, { gif: true })));
    const file = await read;
    if ('reason' in file) {
      errors.push(file.reason === 'missing'
        ? new SiteError({ code: 'IMAGE_MISSING', message: `no file "${name}" in the folder of this file`, hint: 'Put the image next to this file (names are case-sensitive), or write a site path (/images/x.png) for a file of public/.', ...at })
        : new SiteError({ code: 'IMAGE_INVALID', message: file.message, hint: 'Use a PNG, JPEG, WebP, AVIF or GIF of at most 5 MB. An SVG is not accepted (it can carry script): export it as PNG or WebP, or put it in public/ and write its site path (/images/x.svg).', ...at }));
      continue;
    }
    byIndex[index] = { ...file, name, path: join(folder, name) };
  }
  if (errors.length) return { html: rendered.html, images: [], errors };
  const html = replaceMarkedImages(rendered.html, (index) => {
    const image = byIndex[index];
    const ref = refs[index];
    return image && ref ? markdownImageHtml(image, ref.alt, ref.title) : '';
  });
  const images = [...new Map(byIndex.map((image) => [image.hash, image])).values()];
  return { html, images, errors };
}
