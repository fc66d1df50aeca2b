import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../src/build';
import { openDiskCache } from '../../src/cache/disk-cache';
import { sniffImageType, type EntryImage } from '../../src/content/images';
import { createImageVariants } from '../../src/emit/images';
import { collectSiteErrors, type SiteError } from '../../src/errors';
import { imageVariants, pictureOf } from '../../src/content/image-variants';
import { createTempSite } from '../helpers/fixture-site';
import { builtSite, outputRoot } from '../helpers/paths';

const post = 'blog/why-repair-beats-recycling';
const read = (path: string) => readFileSync(join(builtSite, path), 'utf8');

async function png(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#0f5132' } })
    .png()
    .toBuffer();
}

describe('image type sniffing', () => {
  it('knows PNG, JPEG, WebP and AVIF by their bytes, and nothing else (SVG, text, a renamed file)', async () => {
    const image = sharp({ create: { width: 8, height: 8, channels: 3, background: '#b4530f' } });
    expect(sniffImageType(await image.clone().png().toBuffer())).toBe('png');
    expect(sniffImageType(await image.clone().jpeg().toBuffer())).toBe('jpeg');
    expect(sniffImageType(await image.clone().webp().toBuffer())).toBe('webp');
    expect(sniffImageType(await image.clone().avif().toBuffer())).toBe('avif');
    expect(
      sniffImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')),
    ).toBeUndefined();
    expect(sniffImageType(Buffer.from('just some text, named photo.png'))).toBeUndefined();
    expect(sniffImageType(new Uint8Array(0))).toBeUndefined();
  });
});

describe('image variants', () => {
  let cacheDir: string;
  beforeAll(async () => {
    cacheDir = await mkdtemp(join(outputRoot, 'images-cache-'));
  });
  afterAll(() => rm(cacheDir, { recursive: true, force: true }));

  it('are AVIF and WebP at 480, 960 and 1440 px, never wider than the original, named by its hash', () => {
    const files = (image: Pick<EntryImage, 'hash' | 'width' | 'height'>) =>
      imageVariants(image).map((variant) => `${variant.file} ${variant.width}×${variant.height}`);
    expect(files({ hash: 'abc', width: 2000, height: 1000 })).toEqual([
      'assets/images/abc-480.avif 480×240',
      'assets/images/abc-960.avif 960×480',
      'assets/images/abc-1440.avif 1440×720',
      'assets/images/abc-480.webp 480×240',
      'assets/images/abc-960.webp 960×480',
      'assets/images/abc-1440.webp 1440×720',
    ]);
    expect(files({ hash: 'abc', width: 800, height: 600 })).toEqual([
      'assets/images/abc-480.avif 480×360',
      'assets/images/abc-800.avif 800×600',
      'assets/images/abc-480.webp 480×360',
      'assets/images/abc-800.webp 800×600',
    ]);
  });

  it('are encoded once: a second build takes them from the cache, byte for byte', async () => {
    const path = join(cacheDir, 'photo.png');
    await writeFile(path, await png(1000, 500));
    const image: EntryImage = {
      name: 'photo.png',
      path,
      hash: 'feedface00000001',
      type: 'png',
      width: 1000,
      height: 500,
      alt: 'A green field',
    };
    const first = await createImageVariants([image], { cache: openDiskCache('images', cacheDir) });
    expect(first.made).toBe(6);
    const second = await createImageVariants([image, image], { cache: openDiskCache('images', cacheDir) });
    expect(second.made).toBe(0);
    expect([...second.files.keys()]).toEqual([...first.files.keys()]);
    for (const [file, data] of first.files) {
      expect(Buffer.from(second.files.get(file)!).equals(Buffer.from(data))).toBe(true);
      const { width, format } = await sharp(data).metadata();
      expect(`${format} ${width}`).toBe(`${file.endsWith('.avif') ? 'heif' : 'webp'} ${/-(\d+)\./.exec(file)![1]}`);
    }
  });
});

describe('a post with an image, in the real site', () => {
  it('shows it as a picture of AVIF and WebP sources with its size and text alternative, in the post and in the lists', async () => {
    const html = read(`${post}/index.html`);
    const picture = /<picture class="post-image">.*?<\/picture>/.exec(html)?.[0];
    expect(picture).toBeDefined();
    expect(picture).toContain('type="image/avif"');
    expect(picture).toContain('type="image/webp"');
    expect(picture).toMatch(
      /<img src="\/assets\/images\/[0-9a-f]{16}-960\.webp" width="1600" height="900" alt="Illustration: [^"]+" loading="eager"/,
    );
    for (const [, file, width] of picture!.matchAll(/\/(assets\/images\/[0-9a-f]{16}-(\d+)\.(?:avif|webp)) \d+w/g)) {
      const metadata = await sharp(readFileSync(join(builtSite, file!))).metadata();
      expect(metadata.width, file).toBe(Number(width));
    }
    const norwegian = read(`no/${post}/index.html`);
    expect(norwegian).toMatch(/alt="Illustrasjon: [^"]+"/);
    const list = read('blog/category/circularity/index.html');
    expect(list).toMatch(/<picture class="post-card-image">.*?loading="lazy"/);
  });

  it('makes the image its og:image, cropped to a 1200×630 JPEG', async () => {
    const html = read(`${post}/index.html`);
    const image = /<meta property="og:image" content="https:\/\/mendwise\.example\/(_social\/[^"]+\.jpg)"/.exec(
      html,
    )?.[1];
    expect(image).toBeDefined();
    expect(html).toContain('<meta property="og:image:type" content="image/jpeg" />');
    const metadata = await sharp(readFileSync(join(builtSite, image!))).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual(['jpeg', 1200, 630]);
  });
});

describe('a bad image in the front matter', () => {
  async function errorsWith(
    edit: (text: string) => string,
    files: Record<string, string | Buffer> = {},
  ): Promise<SiteError[]> {
    const site = await createTempSite();
    try {
      const folder = join(site.dir, 'content', post);
      for (const [name, data] of Object.entries(files)) await writeFile(join(folder, name), data);
      const file = join(folder, 'en.md');
      await writeFile(file, edit(await readFile(file, 'utf8')));
      await buildSite({ config: site.config, cache: false, socialImages: false });
      return [];
    } catch (error) {
      return collectSiteErrors(error) ?? [];
    } finally {
      await site.cleanup();
    }
  }
  const image = (name: string) => (text: string) => text.replace('image: cover.jpg', `image: ${name}`);

  it('fails the build at the field, with the file and line, for a missing file, an SVG or a text file named .png, or no text alternative', async () => {
    const cases: [string, (text: string) => string, Record<string, string | Buffer>, string][] = [
      ['missing', image('gone.jpg'), {}, 'no file "gone.jpg"'],
      [
        'svg',
        image('drawing.svg'),
        { 'drawing.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>' },
        'PNG, JPEG, WebP or AVIF',
      ],
      ['renamed text', image('notes.png'), { 'notes.png': 'not an image' }, 'is not a PNG, JPEG, WebP or AVIF image'],
      ['no alt', (text) => text.replace(/^imageAlt: .*\n/m, ''), {}, 'needs imageAlt'],
    ];
    for (const [name, edit, files, message] of cases) {
      const errors = await errorsWith(edit, files);
      expect(errors.length, name).toBe(1);
      const [error] = errors;
      expect(error!.message, name).toContain(message);
      expect(error!.file, name).toMatch(/why-repair-beats-recycling\/en\.md$/);
      expect(error!.line, name).toBe(5);
      expect(error!.field, name).toMatch(/^image/);
    }
  });
});

describe('picture markup', () => {
  it('falls back to the WebP nearest 960 px, or the largest below it', () => {
    const image: EntryImage = {
      name: 'a.png',
      path: '/x/a.png',
      hash: '0123456789abcdef',
      type: 'png',
      width: 700,
      height: 350,
      alt: 'A',
    };
    expect(pictureOf(image).src).toBe('/assets/images/0123456789abcdef-700.webp');
    expect(pictureOf({ ...image, width: 3000, height: 1500 }).src).toBe('/assets/images/0123456789abcdef-960.webp');
  });
});
