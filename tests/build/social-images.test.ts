import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../src/build';
import { openDiskCache } from '../../src/cache/disk-cache';
import { drawCards, drawSocialImages, placedMark } from '../../src/emit/social-images';
import { createWorkerPool } from '../../src/parallel/pool';
import { createRuntime } from '../../src/pipeline/runtime';
import { socialImageFile, type SocialCard } from '../../src/render/social-card';
import { openSpill, SpilledFiles } from '../../src/spill';
import { createTempSite } from '../helpers/fixture-site';
import { builtSite, outputRoot, repoRoot } from '../helpers/paths';
import { readPages } from '../helpers/site-files';

const origin = 'https://mendwise.example';
let pages: { file: string; url: string; html: string }[];

const meta = (html: string, property: string) =>
  html.match(new RegExp(`<meta (?:property|name)="${property}" content="([^"]*)"`))?.[1];

/** Width and height from a PNG's header; undefined when the bytes are not a PNG. */
function pngSize(bytes: Buffer): { width: number; height: number } | undefined {
  if (
    !bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) ||
    bytes.toString('latin1', 12, 16) !== 'IHDR'
  )
    return undefined;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

beforeAll(async () => {
  pages = await readPages(builtSite);
});

describe('social images of the real site', () => {
  it('gives every page an og:image of its own site: a 1200×630 PNG the build wrote (a JPEG for a post with an image), with a large Twitter card', async () => {
    const problems: string[] = [];
    const checked = new Set<string>();
    for (const page of pages) {
      const image = meta(page.html, 'og:image');
      if (!image?.startsWith(`${origin}/_social/`)) {
        problems.push(`${page.url}: og:image ${image}`);
        continue;
      }
      if (meta(page.html, 'twitter:card') !== 'summary_large_image') problems.push(`${page.url}: twitter:card`);
      if (meta(page.html, 'og:image:width') !== '1200' || meta(page.html, 'og:image:height') !== '630')
        problems.push(`${page.url}: size tags`);
      if (!meta(page.html, 'og:image:alt')) problems.push(`${page.url}: no og:image:alt`);
      const file = image.slice(origin.length + 1);
      if (checked.has(file)) continue;
      checked.add(file);
      let bytes: Buffer;
      try {
        bytes = readFileSync(join(builtSite, file));
      } catch {
        problems.push(`${page.url}: ${file} missing`);
        continue;
      }
      const size = file.endsWith('.png')
        ? pngSize(bytes)
        : await sharp(bytes)
            .metadata()
            .then(({ format, width, height }) => (format === 'jpeg' ? { width: width!, height: height! } : undefined));
      if (size?.width !== 1200 || size.height !== 630) problems.push(`${page.url}: ${file} is ${JSON.stringify(size)}`);
    }
    expect(problems).toEqual([]);
    expect(pages.length).toBeGreaterThan(100);
  });

  it('draws translated pages in their own language, and each audience in its accent', () => {
    const imageOf = (url: string) => meta(pages.find((page) => page.url === url)!.html, 'og:image');
    for (const url of ['/hub/', '/hub/pricing/', '/shop/product/', '/ourstory/'])
      expect(imageOf(url), url).not.toBe(imageOf(`/no${url}`));
    const hub = readFileSync(join(builtSite, imageOf('/hub/')!.slice(origin.length + 1)));
    const shop = readFileSync(join(builtSite, imageOf('/shop/')!.slice(origin.length + 1)));
    expect(hub.equals(shop)).toBe(false);
    // The pages of a list share the card of its first page (its title without the page number).
    expect(imageOf('/blog/page/2/')).toBe(imageOf('/blog/'));
    expect(imageOf('/no/blog/page/2/')).toBe(imageOf('/no/blog/'));
    expect(imageOf('/no/blog/')).not.toBe(imageOf('/blog/'));
  });

  it('writes no social image that no page names', async () => {
    const named = new Set(pages.map((page) => meta(page.html, 'og:image')!.slice(origin.length + 1)));
    const { readdir } = await import('node:fs/promises');
    const written = (await readdir(join(builtSite, '_social')))
      .filter((name) => /\.(png|jpg)$/.test(name))
      .map((name) => `_social/${name}`);
    expect(written.sort()).toEqual([...named].sort());
  });
});

describe('drawing social images', () => {
  let cacheDir: string;
  beforeAll(async () => {
    cacheDir = await mkdtemp(join(outputRoot, 'social-cache-'));
  });
  afterAll(() => rm(cacheDir, { recursive: true, force: true }));

  const card = (title: string): SocialCard => ({
    title,
    siteName: 'Mendwise',
    host: 'mendwise.example',
    accent: '#0f5132',
    lang: 'nb',
    eyebrow: 'Reparatører',
  });

  it('names a card by what it shows, and draws it once: a second build takes it from the cache, byte for byte', async () => {
    const cards = new Map(
      [card('Hvorfor reparasjon slår resirkulering'), card('Priser for reparatører – æøå')].map((c) => [
        socialImageFile(c),
        c,
      ]),
    );
    expect(cards.size).toBe(2);
    expect(socialImageFile(card('A'))).toBe(socialImageFile(card('A')));
    expect(socialImageFile(card('A'))).not.toBe(socialImageFile({ ...card('A'), accent: '#a8480b' }));

    const cache = openDiskCache('social', cacheDir);
    const first = await drawSocialImages(cards, { cache });
    expect(first.drawn).toBe(2);
    const second = await drawSocialImages(cards, { cache: openDiskCache('social', cacheDir) });
    expect(second.drawn).toBe(0);
    for (const [file, png] of first.files) {
      expect(pngSize(Buffer.from(png))).toEqual({ width: 1200, height: 630 });
      expect(Buffer.from(second.files.get(file)!).equals(Buffer.from(png))).toBe(true);
    }
    // Drawn again without a cache, a card has the same bytes: the output is deterministic.
    const again = await drawSocialImages(cards, { cache: false });
    for (const [file, png] of first.files)
      expect(Buffer.from(again.files.get(file)!).equals(Buffer.from(png))).toBe(true);
  });

  it('draws pages that show the same card in two languages once, and writes the drawing to each file', async () => {
    const english = { ...card('Mendwise for repair shops – æøå'), lang: 'en' };
    const norwegian = { ...english, lang: 'nb' };
    const other = card('Priser for reparatører');
    // The page's language names the file (a page and its translation have cards of their own), not the drawing.
    const cards = new Map([english, norwegian, other].map((c) => [socialImageFile(c), c]));
    expect(cards.size).toBe(3);

    const cache = openDiskCache('social', cacheDir);
    const first = await drawSocialImages(cards, { cache });
    expect(first.drawn).toBe(2);
    expect([...first.files.keys()]).toEqual([...cards.keys()].sort());
    const bytes = (c: SocialCard) => Buffer.from(first.files.get(socialImageFile(c))!);
    expect(bytes(english).equals(bytes(norwegian))).toBe(true);
    expect(bytes(english).equals(bytes(other))).toBe(false);
    // The same bytes as each drawn alone, and a third language takes the drawing from the cache.
    for (const c of [english, norwegian]) {
      const alone = await drawSocialImages(new Map([[socialImageFile(c), c]]), { cache: false });
      expect(Buffer.from([...alone.files.values()][0]!).equals(bytes(c))).toBe(true);
    }
    const german = { ...english, lang: 'de' };
    const later = await drawSocialImages(new Map([[socialImageFile(german), german]]), { cache });
    expect(later.drawn).toBe(0);
    expect(Buffer.from(later.files.get(socialImageFile(german))!).equals(bytes(english))).toBe(true);
  });

  it('draws each title into the same frame: two cards of one accent differ only between the header and the foot, and a long name stays on its line', async () => {
    const rows = async (c: SocialCard) => {
      const drawn = await drawSocialImages(new Map([[socialImageFile(c), c]]), { cache: false });
      const raw = await sharp(Buffer.from([...drawn.files.values()][0]!))
        .raw()
        .toBuffer({ resolveWithObject: true });
      expect(raw.info).toMatchObject({ width: 1200, height: 630, channels: 3 });
      const row = (y: number) => raw.data.subarray(y * 1200 * 3, (y + 1) * 1200 * 3);
      return {
        header: Buffer.concat(range(0, 128).map(row)),
        band: Buffer.concat(range(128, 498).map(row)),
        foot: Buffer.concat(range(498, 630).map(row)),
      };
    };
    const range = (from: number, to: number) => Array.from({ length: to - from }, (_, index) => from + index);
    const [short, long, longName] = await Promise.all([
      rows(card('Kort')),
      rows(card('En tittel lang nok til å gå over flere linjer på kortet, slik at satori bryter den')),
      rows({
        ...card('Kort'),
        siteName: 'A site name long enough to take more than the one line of the card it is on',
      }),
    ]);
    expect(short.header.equals(long.header) && short.foot.equals(long.foot)).toBe(true);
    expect(short.band.equals(long.band)).toBe(false);
    // A name longer than its line ends in an ellipsis on that line, not on a second one: the rows
    // between the name and the title stay the accent (#0f5132), right of the mark.
    expect(longName.header.equals(short.header)).toBe(false);
    const below = range(123, 128).flatMap((y) =>
      range(150, 1200).map((x) => longName.header.readUIntBE((y * 1200 + x) * 3, 3).toString(16)),
    );
    expect(new Set(below)).toEqual(new Set(['f5132']));
  });

  it("draws the site's logo (public/logo.svg) at the top left, else the name's first letter; a new logo is drawn again, not taken from the cache", async () => {
    const logo = readFileSync(join(repoRoot, 'public', 'logo.svg'), 'utf8');
    expect(placedMark(logo)).toMatch(
      /^<svg x="80" y="72" width="56" height="56" xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 32 32">/,
    );
    expect(placedMark('<?xml version="1.0"?>\n<svg width="64" height="32"><rect width="64" height="32"/></svg>')).toBe(
      '<svg x="80" y="72" width="56" height="56" viewBox="0 0 64 32"><rect width="64" height="32"/></svg>',
    );
    expect(placedMark('<html>no svg</html>')).toBeUndefined();

    const one = new Map([[socialImageFile(card('Logo')), card('Logo')]]);
    const cache = openDiskCache('social', cacheDir);
    const withLogo = await drawSocialImages(one, { cache, mark: logo });
    const letter = await drawSocialImages(one, { cache });
    const otherLogo = await drawSocialImages(one, { cache, mark: logo.replace('#0f5132', '#a8480b') });
    expect([withLogo.drawn, letter.drawn, otherLogo.drawn]).toEqual([1, 1, 1]);
    // The mark's corner: the logo's dark green square, or the letter's light veil on the accent.
    const pixel = async (png: Uint8Array) =>
      [...(await sharp(Buffer.from(png)).extract({ left: 84, top: 100, width: 1, height: 1 }).raw().toBuffer())].slice(
        0,
        3,
      );
    const [logoPixel, letterPixel, otherPixel] = await Promise.all(
      [withLogo, letter, otherLogo].map((drawn) => pixel([...drawn.files.values()][0]!)),
    );
    expect(logoPixel).toEqual([0x0f, 0x51, 0x32]);
    expect(otherPixel).toEqual([0xa8, 0x48, 0x0b]);
    expect(letterPixel![0]).toBeGreaterThan(0x0f + 20);
  });
});

describe('social images drawn in worker threads', () => {
  it('have the bytes the main thread draws, with the logo or the letter, and a photo card', async () => {
    const logo = readFileSync(join(repoRoot, 'public', 'logo.svg'), 'utf8');
    const photo = join(repoRoot, 'content', 'blog', 'why-repair-beats-recycling', 'cover.jpg');
    const photoCard: SocialCard = {
      title: 'Photo',
      siteName: 'Mendwise',
      host: 'mendwise.example',
      accent: '#0f5132',
      lang: 'en',
      photo: { hash: 'h', path: photo, alt: 'A bench', focus: { x: 0.2, y: 0.8 } },
    };
    const cards = new Map(
      [
        ...[
          'Hvorfor reparasjon slår resirkulering',
          'Priser – æøå',
          'A title long enough to wrap over more than two of the card’s lines, so that satori breaks it',
        ].map((title) => ({ title, siteName: 'Mendwise', host: 'mendwise.example', accent: '#a8480b', lang: 'nb' })),
        photoCard,
      ].map((card) => [socialImageFile(card), card] as const),
    );
    const pool = createWorkerPool(2, 'social-worker.js');
    try {
      for (const mark of [logo, undefined]) {
        const here = await drawSocialImages(cards, { cache: false, mark });
        const there = await drawSocialImages(cards, { cache: false, mark, pool: () => pool });
        expect([here.drawn, there.drawn]).toEqual([cards.size, cards.size]);
        expect([...there.files.keys()]).toEqual([...here.files.keys()]);
        for (const [file, png] of here.files)
          expect(Buffer.from(there.files.get(file)!).equals(Buffer.from(png)), file).toBe(true);
        // A build that spills its pages puts the images there as they come: the same bytes, read back.
        const spill = openSpill();
        const spilled = await drawSocialImages(cards, { cache: false, mark, pool: () => pool, spill });
        expect(spilled.files).toBeInstanceOf(SpilledFiles);
        expect([...spilled.files.keys()]).toEqual([...here.files.keys()]);
        for (const [file, png] of here.files)
          expect(Buffer.from(spilled.files.get(file)!).equals(Buffer.from(png)), file).toBe(true);
        spill.close();
      }
    } finally {
      await pool.close();
    }
  });

  it('stop at once when their pool is ended (a build that failed needs no cards): the job fails, and so does the next', async () => {
    const cards = Array.from({ length: 40 }, (_, index) => ({
      title: `Card ${index}`,
      siteName: 'Mendwise',
      host: 'mendwise.example',
      accent: '#0f5132',
      lang: 'en',
    }));
    const pool = createWorkerPool(1, 'social-worker.js');
    const drawing = pool.run({ kind: 'social', items: cards, chunkSize: 1 });
    const started = Date.now();
    await new Promise((done) => setTimeout(done, 50));
    await pool.terminate();
    await expect(drawing).rejects.toThrow('the worker pool was ended');
    // 40 cards take well over a second on one thread.
    expect(Date.now() - started).toBeLessThan(1000);
    await expect(pool.run({ kind: 'social', items: cards, chunkSize: 1 })).rejects.toThrow('closed');
  });

  it("end their build's worker once drawn, and the build still counts it", async () => {
    const runtime = createRuntime({
      scope: join(outputRoot, 'site.config.yaml'),
      incremental: false,
      workers: 1,
      cache: false,
    });
    try {
      const pool = runtime.socialPool()!;
      await pool.run({
        kind: 'social',
        items: [{ title: 'A', siteName: 'M', host: 'm.example', accent: '#0f5132', lang: 'en' }],
        chunkSize: 1,
      });
      await runtime.socialImagesDrawn();
      // The worker is gone: its pool takes no more jobs, and a build that asks again starts another.
      await expect(pool.run({ kind: 'social', items: [], chunkSize: 1 })).rejects.toThrow('closed');
      expect(runtime.socialPool()).not.toBe(pool);
      expect(runtime.stats().workers).toBe(1);
    } finally {
      await runtime.dispose();
    }
  });

  it('a job the main thread joins while it runs: every chunk is drawn once, by one thread or the other, and the results come in item order', async () => {
    const cards = Array.from({ length: 24 }, (_, index) => ({
      title: `Card ${index}`,
      siteName: 'Mendwise',
      host: 'mendwise.example',
      accent: index % 2 ? '#0f5132' : '#a8480b',
      lang: 'en',
    }));
    const pool = createWorkerPool(1, 'social-worker.js');
    try {
      const alone = await pool.run<SocialCard, Uint8Array>({ kind: 'social', items: cards, chunkSize: 2 });
      const firsts: number[] = [];
      const local: string[] = [];
      let started: () => void;
      const firstChunk = new Promise<void>((done) => (started = done));
      const job = pool.submit<SocialCard, Uint8Array>({
        kind: 'social',
        items: cards,
        chunkSize: 2,
        onResults: (first) => {
          firsts.push(first);
          started();
        },
      });
      expect(job.remaining()).toBe(cards.length);
      // Joined once the worker has drawn its first chunk (and holds at most two more): the main
      // thread takes the chunks it has not.
      await firstChunk;
      job.join((chunk) => {
        local.push(...chunk.map((card) => card.title));
        return drawCards(chunk, undefined);
      });
      const helped = await job.results;
      expect(job.remaining()).toBe(0);
      expect(firsts.sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, index) => index * 2));
      expect(local.length).toBeGreaterThan(0);
      expect(local.length).toBeLessThan(cards.length);
      expect(helped.map((png) => Buffer.from(png).toString('base64'))).toEqual(
        alone.map((png) => Buffer.from(png).toString('base64')),
      );
      // A job run while the main thread is busy gives the worker `ahead` chunks at once (its
      // replies wait for the main thread's loop); the rest stays for the main thread to share.
      const ahead = pool.submit<SocialCard, Uint8Array>({ kind: 'social', items: cards, chunkSize: 2, ahead: 4 });
      await new Promise((done) => setImmediate(done));
      expect(ahead.remaining()).toBe(cards.length - 4 * 2);
      await ahead.results;
      // A job done ignores a late lane; a lane that fails fails its job.
      job.join(() => Promise.reject(new Error('too late')));
      const failing = pool.submit<SocialCard, Uint8Array>({ kind: 'social', items: cards, chunkSize: 1 });
      failing.join(() => Promise.reject(new Error('the lane failed')));
      await expect(failing.results).rejects.toThrow('the lane failed');
      expect(failing.remaining()).toBe(0);
    } finally {
      await pool.close();
    }
  });

  it('a build with a worker thread writes the same social images as one without; without its cache, neither keeps a card', async () => {
    const site = await createTempSite();
    const cacheBefore = process.env.SITE_CACHE_DIR;
    // One cache folder for both builds: with `cache: false` neither reads nor writes it, so both draw every card.
    process.env.SITE_CACHE_DIR = await mkdtemp(join(outputRoot, 'social-cache-'));
    try {
      const [alone, shared] = [
        await buildSite({ config: site.config, cache: false, workers: 0 }),
        await buildSite({ config: site.config, cache: false, workers: 1 }),
      ];
      // With `--workers 1`: one thread for the Markdown and pages, one for the cards.
      expect([alone.stats.workers, shared.stats.workers]).toEqual([0, 2]);
      const social = (files: typeof alone.files) => [...files].filter(([file]) => file.startsWith('_social/'));
      expect(social(alone.files).length).toBeGreaterThan(50);
      expect([alone.stats.socialImagesDrawn, shared.stats.socialImagesDrawn]).toEqual([
        social(alone.files).length,
        social(alone.files).length,
      ]);
      expect(social(shared.files).map(([file, bytes]) => [file, Buffer.from(bytes).toString('base64')])).toEqual(
        social(alone.files).map(([file, bytes]) => [file, Buffer.from(bytes).toString('base64')]),
      );
      expect(readdirSync(process.env.SITE_CACHE_DIR)).toEqual([]);
    } finally {
      await rm(process.env.SITE_CACHE_DIR, { recursive: true, force: true });
      if (cacheBefore === undefined) delete process.env.SITE_CACHE_DIR;
      else process.env.SITE_CACHE_DIR = cacheBefore;
      await site.cleanup();
    }
  });
});

describe('a build without social images', () => {
  it('names none and writes none, with output.socialImages: false as with --no-social-images', async () => {
    const off = await createTempSite({
      editConfig: (text) => text.replace(/^output:\n/m, 'output:\n  socialImages: false\n'),
    });
    const plain = await createTempSite();
    try {
      for (const options of [{ config: off.config }, { config: plain.config, socialImages: false }]) {
        const result = await buildSite({ ...options, cache: false });
        expect([...result.files.keys()].filter((file) => file.startsWith('_social/'))).toEqual([]);
        const home = String(result.files.get('hub/index.html'));
        expect(home).not.toContain('og:image');
        expect(home).toContain('<meta name="twitter:card" content="summary" />');
        expect(result.stats.socialImages).toBe(0);
      }
    } finally {
      await Promise.all([off.cleanup(), plain.cleanup()]);
    }
  });
});
