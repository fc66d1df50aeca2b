/**
 * An image's sidecar (`<image file>.yaml`, written by the admin's media library) in the build: its
 * alt text fills a missing `imageAlt` in the entry's language (the front matter's still wins), and
 * its focal point places the image in CSS crops (the card's `<img>` carries the focus classes, the
 * page links their stylesheet, the CSP untouched) and moves the social card's crop. A broken
 * sidecar fails the build at the entry's `image:`, naming the sidecar's line.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, type BuildResult } from '../../src/build';
import { collectSiteErrors } from '../../src/errors';
import { createTempSite, type TempSite } from '../helpers/fixture-site';

const post = join('content', 'blog', 'why-repair-beats-recycling');
const text = (result: BuildResult, file: string) => {
  const data = result.files.get(file);
  return typeof data === 'string' ? data : Buffer.from(data!).toString('utf8');
};

describe('an image with a sidecar', () => {
  let site: TempSite;
  let result: BuildResult;

  beforeAll(async () => {
    site = await createTempSite();
    // Red on the left third, blue elsewhere: a crop at the left edge shows red where the centre's shows blue.
    const width = 2400;
    const red = await sharp({ create: { width: 800, height: 900, channels: 3, background: '#ff0000' } })
      .png()
      .toBuffer();
    const photo = await sharp({ create: { width, height: 900, channels: 3, background: '#0000ff' } })
      .composite([{ input: red, left: 0, top: 0 }])
      .jpeg()
      .toBuffer();
    await writeFile(join(site.dir, post, 'cover.jpg'), photo);
    await writeFile(
      join(site.dir, post, 'cover.jpg.yaml'),
      'alt:\n  en: "A red and blue test card"\n  no: "Et rødt og blått testkort"\nfocus: { x: 0, y: 0.5 }\n',
    );
    const english = join(site.dir, post, 'en.md');
    await writeFile(english, (await readFile(english, 'utf8')).replace(/^imageAlt: .*\n/m, ''));
    result = await buildSite({ config: site.config, cache: false });
  }, 120_000);
  afterAll(() => site?.cleanup());

  it("takes the sidecar's alt text in the entry's language when imageAlt is missing, and the front matter's when it is there", () => {
    expect(text(result, 'blog/why-repair-beats-recycling/index.html')).toMatch(
      /<img [^>]*alt="A red and blue test card"/,
    );
    expect(text(result, 'no/blog/why-repair-beats-recycling/index.html')).toMatch(
      /<img [^>]*alt="Illustrasjon: [^"]+"/,
    );
  });

  it("puts the focal point on the card's image as classes of a linked stylesheet, not an inline style", () => {
    const list = text(result, 'blog/category/circularity/index.html');
    expect(/<img class="focus focus-x-0 focus-y-50" src="\/assets\/images\/[0-9a-f]{16}-960\.webp"/.test(list)).toBe(
      true,
    );
    expect(/style="[^"]*object-position/.test(list)).toBe(false);
    const href = /<link rel="stylesheet" href="(\/assets\/focus\.[^"]+\.css)" \/>/.exec(list)?.[1];
    expect(href).toBeDefined();
    const css = text(result, href!.slice(1));
    expect(css).toContain('img.focus{object-position:var(--focus-x,50%) var(--focus-y,50%)}');
    expect(css).toContain('.focus-x-0{--focus-x:0%}');
    // A page without such an image does not load it.
    expect(text(result, 'index.html')).not.toContain('/assets/focus.');
  });

  it('crops the social card around the focal point: its right side shows the red left of the photo', async () => {
    const html = text(result, 'blog/why-repair-beats-recycling/index.html');
    const file = /<meta property="og:image" content="https:\/\/[^/]+\/(_social\/[^"]+\.jpg)"/.exec(html)![1]!;
    const { data, info } = await sharp(Buffer.from(result.files.get(file) as Uint8Array))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([1200, 630]);
    // Scaled to 1680×630, the red third is 560 px wide: kept at the left edge, x = 500 is red
    // (a centred crop would start at x = 240 and show blue there).
    const at = (x: number, y: number) => [
      ...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3),
    ];
    const [r, , b] = at(500, 300);
    expect(r).toBeGreaterThan(200);
    expect(b).toBeLessThan(60);
  });
});

describe('a broken sidecar', () => {
  it("fails the build at the entry's image, naming the sidecar's line and column", async () => {
    const site = await createTempSite();
    try {
      await writeFile(join(site.dir, post, 'cover.jpg.yaml'), 'alt: {}\nfocus: { x: 2, y: 0.5 }\n');
      const errors = await buildSite({ config: site.config, cache: false, socialImages: false }).then(
        () => [],
        (error) => collectSiteErrors(error) ?? [],
      );
      expect(errors).toHaveLength(2);
      const [error] = errors;
      expect(error!.code).toBe('ENTRY_IMAGE');
      expect(error!.field).toBe('image');
      expect(error!.file).toMatch(/why-repair-beats-recycling\/(en|no)\.md$/);
      expect(error!.message).toMatch(/cover\.jpg\.yaml:2:\d+ is invalid: focus\.x/);
    } finally {
      await site.cleanup();
    }
  });
});
