/**
 * Draws the social images of a build: each card (render/social-card.ts) laid out by satori with
 * the Inter font of @fontsource/inter (from node_modules: no network, no system fonts, the same
 * glyphs on every machine), which turns the text into paths, and rasterised to PNG by sharp
 * (libvips, on libuv's threads: several cards are drawn at once). Both are loaded only when a card
 * is not in the cache: cards are stored by the hash of what they show and the versions that draw
 * them, so a warm build draws none. A build gives the misses to worker threads of
 * lib/social-worker.js, which run the same `drawCards`, so the bytes do not depend on the thread.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import {
  dependencyFolder,
  generatorRoot,
  hashParts,
  installedVersion,
  openDiskCache,
  type DiskCache,
} from '../cache/disk-cache.js';
import type { FileStamp } from '../cache/render-state.js';
import { SpilledFiles, type Spill, type SpillRef } from '../spill.js';
import type { WorkerPool } from '../parallel/pool.js';
import { noProgress, type Progress } from '../progress.js';
import { socialCardKey, socialCardLayout, socialImageSize, type SocialCard } from '../render/social-card.js';

/** Options of `drawSocialImages`. */
export interface SocialImageOptions {
  /** Where drawn cards are kept; false draws every card. Default: the build cache's "social" namespace. */
  cache?: DiskCache | false;
  /** Images of an earlier run, by file: a file's name says what it shows, so one found here is taken as it is (give none when the mark changed). */
  reuse?: ReadonlyMap<string, Uint8Array>;
  /** The site's mark, drawn at the top left: the SVG text of `public/logo.svg`; without it, the site name's first letter. */
  mark?: string;
  /** Worker threads of lib/social-worker.js that draw the misses, leaving this thread free for the rest of the build (asked for when a card is to be drawn); without them the cards are drawn here. */
  pool?: () => WorkerPool | undefined;
  /** Where the cards drawn are counted, as they are drawn. */
  progress?: Progress;
  /** Where the images go as they come (a build that spills its pages, spill.ts), rather than held until the write. */
  spill?: Spill;
  /**
   * The stamps of a file the output folder holds as an earlier build wrote it, drawn the same way
   * (`socialDrawingKey`): its name says what it shows, so it is what this build would write, and
   * is neither read nor drawn. Undefined for a file to make.
   */
  keep?: (file: string) => [string, FileStamp][] | undefined;
}

/** What was drawn: the files, and how many drawings were made rather than taken from the cache or `reuse` (files that show the same share one). */
export interface SocialImages {
  files: Map<string, Uint8Array>;
  drawn: number;
  /** The files left in the output folder as they are (`keep`), with their stamps. */
  kept: Map<string, FileStamp>;
}

const byName = <T>([a]: [string, T], [b]: [string, T]) => (a < b ? -1 : a > b ? 1 : 0);

/** The files in path order; spilled ones stay where they are. */
function sortedFiles(files: Map<string, Uint8Array>): Map<string, Uint8Array> {
  if (!(files instanceof SpilledFiles)) return new Map([...files].sort(byName));
  const sorted = new SpilledFiles(files.spill);
  for (const path of [...files.keys()].sort()) sorted.setStored(path, files.stored(path)!);
  return sorted as unknown as Map<string, Uint8Array>;
}

/** Draws the card of each file (output path → card), or takes it from `reuse` or the cache. */
export async function drawSocialImages(
  cards: ReadonlyMap<string, SocialCard>,
  options: SocialImageOptions = {},
): Promise<SocialImages> {
  const cache = options.cache === false ? undefined : (options.cache ?? openDiskCache('social'));
  // With a spill, the images are written there as they come and the files name them (their values read back as bytes).
  const { spill } = options;
  const files = (spill ? new SpilledFiles(spill) : new Map()) as Map<string, Uint8Array>;
  const kept = new Map<string, FileStamp>();
  const missing: { file: string; card: SocialCard; key?: string }[] = [];
  for (const [file, card] of [...cards].sort(byName)) {
    const onDisk = options.keep?.(file);
    if (onDisk) {
      for (const [path, stamp] of onDisk) kept.set(path, stamp);
      continue;
    }
    const earlier = options.reuse?.get(file);
    const key = earlier || !cache ? undefined : hashParts(drawingVersion(), options.mark ?? '', drawingKeyOf(card));
    const png = earlier ?? (key ? cache!.readSync(key) : undefined);
    if (png) files.set(file, png);
    else missing.push({ file, card, key });
  }
  // Cards that differ only in what the drawing does not show (a page's language) are drawn once, and written to each file.
  const drawings = new Map<string, number>();
  const cardsToDraw: SocialCard[] = [];
  const drawingOf = missing.map(({ card }) => {
    const key = drawingKeyOf(card);
    let index = drawings.get(key);
    if (index === undefined) drawings.set(key, (index = cardsToDraw.push(card) - 1));
    return index;
  });
  if (cardsToDraw.length) {
    const pool = options.pool?.();
    const progress = (options.progress ?? noProgress).begin('social images', cardsToDraw.length, 'cards');
    // Each drawing goes to the cache as it comes (the misses that share it share its key), so the
    // writes, five file operations each, overlap the drawing instead of following it.
    const keys: (string | undefined)[] = new Array(cardsToDraw.length);
    missing.forEach((miss, index) => (keys[drawingOf[index]!] ??= miss.key));
    const refs: SpillRef[] = spill ? new Array(cardsToDraw.length) : [];
    const keep = (index: number, png: Uint8Array) => {
      const key = keys[index];
      if (key) void cache!.write(key, png);
      if (spill) refs[index] = spill.put(png);
    };
    let drawing: Promise<Uint8Array[]>;
    if (pool) {
      // Chunks of a few cards, two drawn at a time by a worker (src/social-worker.ts): it lays out one
      // while sharp rasterises others. This thread draws none: it has the rest of the build to do
      // meanwhile (the site files, the links, the pages compressed ahead), and a lane of its own
      // loaded satori and sharp a second time, 60-90 MB more at the peak of the real site with
      // 1,000 posts for the same wall time (docs/performance.md, "Issue 50, part 2").
      const job = pool.submit<SocialCard, Uint8Array>({
        kind: 'social',
        setup: options.mark,
        items: cardsToDraw,
        chunkSize: cardsPerChunk,
        ahead: chunksAhead,
        onChunk: (count) => progress.tick(count),
        onResults: (first, pngs) => pngs.forEach((png, offset) => keep(first + offset, png)),
        keepResults: !spill,
      });
      drawing = job.results;
    } else
      drawing = drawCards(cardsToDraw, options.mark, (index, png) => {
        progress.tick();
        keep(index, png);
      });
    const pngs = await drawing.finally(() => progress.end());
    missing.forEach((miss, index) => {
      const drawn = drawingOf[index]!;
      if (spill) (files as unknown as SpilledFiles).setRef(miss.file, refs[drawn]!);
      else files.set(miss.file, pngs[drawn]!);
    });
  }
  await cache?.settled();
  // In file order, whatever came from where: the output does not depend on the cache or on timing.
  return { files: sortedFiles(files), drawn: cardsToDraw.length, kept };
}

/** Cards per chunk of the workers' job. */
export const cardsPerChunk = 4;

/**
 * Chunks a worker is given at once (`PoolJob.ahead`). The cards are
 * given before the pages render, and a cold render of the real site holds the main thread, which
 * gives the worker its chunks, for 4-6 s at a stretch: with two chunks the worker drew 8 of the
 * 2,081 cards meanwhile. 128 chunks is about 5 s of its drawing.
 */
export const chunksAhead = 128;

/** What the bytes of every card depend on besides the card: the versions that draw it and the mark. */
export function socialDrawingKey(mark: string): string {
  return hashParts(drawingVersion(), mark);
}

/**
 * Draws each card, in order: satori lays out the next card while sharp rasterises the ones before
 * it. `onDrawn` is given each card's drawing, with its index, as it is drawn.
 */
export async function drawCards(
  cards: readonly SocialCard[],
  mark: string | undefined,
  onDrawn?: (index: number, png: Uint8Array) => void,
): Promise<Uint8Array[]> {
  const draw = await cardDrawer();
  const pngs: Uint8Array[] = new Array(cards.length);
  let next = 0;
  const lane = async () => {
    while (next < cards.length) {
      const index = next++;
      pngs[index] = await draw(cards[index]!, mark);
      onDrawn?.(index, pngs[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(cards.length, availableParallelism() + 1) }, lane));
  return pngs;
}

/** What the bytes of a card depend on besides the card: the versions that draw it, its layout and its encoding. */
function drawingVersion(): string {
  return (
    ['satori', 'sharp', '@fontsource/inter'].map((name) => `${name}@${installedVersion(name)}`).join(' ') +
    ` layout ${socialCardLayout} ${cardEncoding}`
  );
}

/**
 * What a card's drawing depends on: what it shows, without the page's language, which the layout
 * does not use (a page and its translation with the same title share one drawing).
 */
function drawingKeyOf(card: SocialCard): string {
  return card.photo ? socialCardKey(card) : socialCardKey({ ...card, lang: '' });
}

/**
 * How a card is encoded (part of `drawingVersion`): PNG without an alpha channel (the card is
 * opaque) at zlib level 4. On the demo's cards: 39.6 KB a card in about 1.9 ms of CPU, against
 * 41.0 KB in 3 ms with the alpha channel at the default level 6; level 9 gives 25.9 KB in 17 ms.
 */
const cardEncoding = 'png rgb 4';

type CardDrawer = (card: SocialCard, mark: string | undefined) => Promise<Uint8Array>;

let drawer: Promise<CardDrawer> | undefined;

/**
 * The drawing of one card, made once per process: satori parses the fonts once per font list,
 * which a long-running `site serve --admin` then keeps.
 */
export function cardDrawer(): Promise<CardDrawer> {
  if (!drawer) {
    drawer = createCardDrawer();
    // A failed load (a package missing) is tried again by the next build.
    drawer.catch(() => (drawer = undefined));
  }
  return drawer;
}

/** Loads satori, sharp and the font, and returns the drawing of one card. */
async function createCardDrawer(): Promise<CardDrawer> {
  const [{ default: satori }, { default: sharp }] = await Promise.all([import('satori'), import('sharp')]);
  // Every card is a new drawing, so libvips' cache of operations (50 MB by default, for the whole
  // process) only holds memory: the real site with 1,000 posts peaked 50 MB lower without it
  // (728 -> 678 MB), in the same time, with the same bytes.
  sharp.cache(false);
  const files = join(
    dependencyFolder('@fontsource/inter') ?? join(generatorRoot(), 'node_modules', '@fontsource', 'inter'),
    'files',
  );
  const fonts = ['latin', 'latin-ext'].flatMap((subset) =>
    ([400, 700] as const).map((weight) => ({
      name: 'Inter',
      weight,
      style: 'normal' as const,
      data: readFileSync(join(files, `inter-${subset}-${weight}-normal.woff`)),
    })),
  );
  // satori parses the fonts (0.13 s) on its first layout: done here, so a worker that loads the
  // drawer as it starts (lib/social-worker.js) has them parsed before the first card is known.
  await satori(box('div', { display: 'flex', fontFamily: 'Inter' }, 'A') as Parameters<typeof satori>[0], {
    width: 8,
    height: 8,
    fonts,
  });
  const { width, height } = socialImageSize;
  const layout = async (card: SocialCard, letterMark: boolean, part: CardPart) =>
    satori(cardLayout(card, letterMark, part) as Parameters<typeof satori>[0], { width, height, fonts });
  /** The pixels (RGB) of an SVG of satori's. */
  const pixels = (svg: string) => sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer();
  /** How much each pixel of the rows `band` of an SVG of satori's is covered (its alpha, 0-255). */
  const coverage = (svg: string, band: { top: number; height: number }) =>
    sharp(
      Buffer.from(
        svg.replace(
          /^<svg width="\d+" height="\d+" viewBox="[^"]*"/,
          `<svg width="${width}" height="${band.height}" viewBox="0 ${band.top} ${width} ${band.height}"`,
        ),
      ),
    )
      .extractChannel(3)
      .raw()
      .toBuffer();
  // The frames drawn by this thread, by what they show: a build's cards have one or a few (one per
  // accent). A process that lives on (the admin) keeps the last few, 2.3 MB each.
  const frames = new Map<string, Promise<Buffer>>();
  // A card's pixels are put together in a buffer used again once sharp has encoded them (one per
  // card in flight). A new buffer per card, 2.3 MB of external memory each, made V8 collect the
  // worker's heap that much more often: on the real site with 1,000 posts its collections took 5.1
  // of its 15.4 s of CPU, and 3.5 of 12.5 s with the buffers used again (`npm run profile`).
  const spare: Buffer[] = [];
  return async (card, mark) => {
    if (card.photo) {
      const photo = await croppedPhoto(sharp, await readFile(card.photo.path), card.photo.focus);
      return new Uint8Array(await photo.jpeg({ quality: 82 }).toBuffer());
    }
    const logo = placedMarkOf(mark);
    const letterMark = logo === undefined;
    const frameKey = JSON.stringify([card.siteName, card.host, card.accent, mark ?? null]);
    let frame = frames.get(frameKey);
    if (!frame) {
      frame = layout(card, letterMark, 'frame').then((svg) =>
        pixels(logo === undefined ? svg : svg.replace(/<\/svg>\s*$/, `${logo}</svg>`)),
      );
      frames.set(frameKey, frame);
      if (frames.size > framesKept) frames.delete(frames.keys().next().value!);
      // A frame that failed is drawn again for the next card (its own card fails).
      frame.catch(() => frames.delete(frameKey));
    }
    const band = await coverage(await layout(card, letterMark, 'band'), titleBand);
    if (band.length !== width * titleBand.height) throw new Error("satori's SVG did not start as expected");
    const rgb = spare.pop() ?? Buffer.allocUnsafeSlow(width * height * 3);
    (await frame).copy(rgb);
    layWhite(rgb, titleBand.top * width * 3, band);
    try {
      return new Uint8Array(
        await sharp(rgb, { raw: { width, height, channels: 3 } })
          .png({ compressionLevel: 4 })
          .toBuffer(),
      );
    } finally {
      spare.push(rgb);
    }
  };
}

/**
 * Lays white over the pixels (RGB) of `rgb` from byte `offset`, each as much as `alpha` (0-255)
 * says: the band's text, all white, over the frame's accent, which the band's first pixel has.
 * The band comes from sharp as its alpha alone (a third of the bytes of its pixels): V8 counts
 * that external memory toward the card worker's heap, which it collected every 5 cards with the
 * band's pixels.
 */
function layWhite(rgb: Buffer, offset: number, alpha: Buffer): void {
  const [red, green, blue] = [0, 1, 2].map((channel) => {
    const under = rgb[offset + channel]!;
    return Uint8Array.from({ length: 256 }, (_, a) => Math.round(under + ((255 - under) * a) / 255));
  }) as [Uint8Array, Uint8Array, Uint8Array];
  for (let index = 0; index < alpha.length; index++) {
    const a = alpha[index]!;
    if (a === 0) continue;
    const at = offset + index * 3;
    rgb[at] = red[a]!;
    rgb[at + 1] = green[a]!;
    rgb[at + 2] = blue[a]!;
  }
}

/**
 * A photo cropped to the card's size: scaled to cover it, then cut around the focal point (kept as
 * near the middle as the edges allow), or around the centre without one.
 */
async function croppedPhoto(
  sharp: (typeof import('sharp'))['default'],
  bytes: Buffer,
  focus: { x: number; y: number } | undefined,
) {
  const { width, height } = socialImageSize;
  if (!focus) return sharp(bytes).rotate().resize({ width, height, fit: 'cover' });
  // Upright first (a camera's EXIF orientation), so the focal point means what the editor saw.
  const upright = await sharp(bytes).rotate().toBuffer({ resolveWithObject: true });
  const scale = Math.max(width / upright.info.width, height / upright.info.height);
  const scaled = {
    width: Math.max(width, Math.round(upright.info.width * scale)),
    height: Math.max(height, Math.round(upright.info.height * scale)),
  };
  const clamp = (value: number, max: number) => Math.min(Math.max(0, Math.round(value)), max);
  const left = clamp(focus.x * scaled.width - width / 2, scaled.width - width);
  const top = clamp(focus.y * scaled.height - height / 2, scaled.height - height);
  return sharp(upright.data).resize(scaled).extract({ left, top, width, height });
}

/** The last mark placed (`placedMark`), by its text: a worker draws every card of a build with the same. */
let lastMark: { text: string; placed: string | undefined } | undefined;

function placedMarkOf(mark: string | undefined): string | undefined {
  if (mark === undefined) return undefined;
  if (lastMark?.text !== mark) lastMark = { text: mark, placed: placedMark(mark) };
  return lastMark.placed;
}

/** Where the site's mark goes: the top left corner of the card's padding, 56 px square. */
const markBox = { x: 80, y: 72, size: 56 };

/**
 * The site's logo placed at `markBox`: its root `<svg>` with the box's position and size (its own
 * viewBox kept, or made from its width and height), to be added to satori's SVG. As an element of
 * satori's tree it would be embedded as an image, which costs a third of the drawing. Undefined
 * for a file that is no SVG. No script runs: the SVG is rasterised by librsvg, not a browser.
 */
export function placedMark(logo: string): string | undefined {
  const text = logo.replace(/^\uFEFF?\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--[\s\S]*?-->\s*)*(?:<!DOCTYPE[^>]*>\s*)?/i, '');
  const root = /^<svg\b([^>]*)>/i.exec(text);
  if (!root) return undefined;
  let attributes = root[1]!;
  const size = (name: string) =>
    Number.parseFloat(new RegExp(`\\s${name}\\s*=\\s*["']([\\d.]+)`, 'i').exec(attributes)?.[1] ?? '');
  if (!/\sviewBox\s*=/i.test(attributes)) {
    const [width, height] = [size('width'), size('height')];
    if (!(width > 0 && height > 0)) return undefined;
    attributes += ` viewBox="0 0 ${width} ${height}"`;
  }
  attributes = attributes.replace(/\s(?:x|y|width|height)\s*=\s*(?:"[^"]*"|'[^']*')/gi, '');
  return `<svg x="${markBox.x}" y="${markBox.y}" width="${markBox.size}" height="${markBox.size}"${attributes}>${text.slice(root[0].length)}`;
}

/** An element of satori's tree (the shape React elements have), without React. */
interface Box {
  type: string;
  props: {
    style?: Record<string, string | number>;
    children?: (Box | string)[] | Box | string;
    [name: string]: unknown;
  };
}

const box = (type: string, style: Record<string, string | number>, ...children: (Box | string)[]): Box => ({
  type,
  props: { style, children: children.length === 1 ? children[0] : children },
});

/** Title size by length, so a long title still fits in four lines. */
function titleSize(title: string): number {
  if (title.length <= 40) return 72;
  if (title.length <= 70) return 60;
  return 48;
}

/**
 * A card is drawn in two parts: its frame (the mark and the name at the top, the rule and the host
 * at the foot, on the accent), the same for every card of a site and accent, rasterised once by
 * each thread; and the band between them, where the eyebrow and the title are, laid out and
 * rasterised for each card as its text's coverage, which `layWhite` lays over the frame's pixels
 * (the same card as with the band's own pixels but for a few pixels, by 1 of 255). Neither part
 * reaches into the other's rows, so the card has the pixels of the whole layout drawn at once
 * (checked on the demo's 97 cards: the same but for a few pixels of the name and host, by 1 of
 * 255, from their clip), for a layout of the eyebrow and title alone and under two thirds of the
 * rasterising.
 */
type CardPart = 'frame' | 'band';

/** Frames a thread keeps (`createCardDrawer`). */
const framesKept = 8;

/** The header's height (the mark's) and the foot's (the rule, its padding and the host's line). */
const headerHeight = markBox.size;
const footHeight = 60;

/** The rows of the band: from the header's foot (the top padding and the header) to the foot's top. */
const titleBand = {
  top: markBox.y + headerHeight,
  height: socialImageSize.height - 2 * markBox.y - headerHeight - footHeight,
};

/**
 * The eyebrow's and the host's white, and the rule's above the host: colours with alpha rather than
 * an element's opacity, which librsvg paints on a layer of the card's size of its own (a third of
 * the rasterising), and the rule a box rather than a border (satori clips a border with masks).
 */
const veil = 'rgba(255,255,255,0.85)';
const rule = 'rgba(255,255,255,0.3)';

/**
 * The card: the site's mark (its logo, or the first letter of its name) and name at the top, then the eyebrow and the title, the host at the
 * foot, in white on the accent colour. Raise `socialCardLayout` when this changes.
 */
function cardLayout(card: SocialCard, letterMark: boolean, part: CardPart): Box {
  // The place of the logo (added to the SVG by `placedMark`), or a mark made of the name's first letter.
  const letter = [...card.siteName][0]?.toUpperCase() ?? '';
  const mark = letterMark
    ? box(
        'div',
        {
          width: markBox.size,
          height: markBox.size,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          borderRadius: 14,
          background: 'rgba(255,255,255,0.16)',
          fontSize: 34,
        },
        letter,
      )
    : box('div', { width: markBox.size, height: markBox.size });
  const title = card.title.length > 140 ? `${card.title.slice(0, 139).trimEnd()}…` : card.title;
  // One line each, at the heights `titleBand` leaves them: a longer name or host ends in an ellipsis.
  const line = { whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' };
  return box(
    'div',
    // satori sizes boxes without their padding (content-box): the padding comes off the card's size.
    {
      width: socialImageSize.width - 2 * markBox.x,
      height: socialImageSize.height - 2 * markBox.y,
      display: 'flex',
      flexDirection: 'column',
      justifyContent: 'space-between',
      padding: `${markBox.y}px ${markBox.x}px`,
      // The band is drawn as its text's coverage alone (`layWhite`): no background.
      ...(part === 'frame' ? { background: card.accent } : {}),
      color: '#ffffff',
      fontFamily: 'Inter',
    },
    part === 'band'
      ? box('div', { height: headerHeight, flexShrink: 0 })
      : box(
          'div',
          { display: 'flex', alignItems: 'center', height: headerHeight, flexShrink: 0, fontSize: 36, fontWeight: 700 },
          mark,
          box('span', { marginLeft: 20, ...line }, card.siteName),
        ),
    part === 'frame'
      ? box('div', {})
      : box(
          'div',
          { display: 'flex', flexDirection: 'column', maxWidth: 1040 },
          ...(card.eyebrow ? [box('div', { fontSize: 32, color: veil, marginBottom: 20 }, card.eyebrow)] : []),
          box(
            'div',
            { fontSize: titleSize(title), fontWeight: 700, lineHeight: 1.12, letterSpacing: -1, lineClamp: 4 },
            title,
          ),
        ),
    part === 'band'
      ? box('div', { height: footHeight, flexShrink: 0 })
      : box(
          'div',
          { display: 'flex', flexDirection: 'column', height: footHeight, flexShrink: 0 },
          box('div', { height: 2, background: rule }),
          box('div', { display: 'flex', fontSize: 28, color: veil, paddingTop: 24, ...line }, card.host),
        ),
  );
}
