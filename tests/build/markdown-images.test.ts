/**
 * Images in Markdown (issue 45, item 3), through the CLI on tests/fixtures/markdown-images: a file
 * beside a post or a page's Markdown copy is checked by its bytes and published as a cover is
 * (AVIF and WebP at 480/960/1440 px, never wider than the original, in a `<picture>` with its size,
 * loaded lazily; a GIF as it is), site paths and web addresses stay as written; two builds are
 * byte-identical and a warm one encodes nothing; a missing or bad file fails `site check` and
 * `site build` at its line and column, leaving the previous dist/ as it was; and the link check
 * reads `<img src>` and `srcset` besides `<a href>`.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { fixturesRoot, outputRoot, repoRoot } from '../helpers/paths';

const run = promisify(execFile);
const made: string[] = [];
const post = 'content/blog/with-images/en.md';

/** A copy of the fixture with `edits` (file → text transform) applied and `files` added. */
async function fixtureSite(
  edits: Record<string, (text: string) => string> = {},
  files: Record<string, string | Buffer> = {},
): Promise<string> {
  await mkdir(outputRoot, { recursive: true });
  const dir = await mkdtemp(join(outputRoot, 'md-images-'));
  made.push(dir);
  await cp(join(fixturesRoot, 'markdown-images'), dir, { recursive: true });
  for (const [file, edit] of Object.entries(edits))
    await writeFile(join(dir, file), edit(await readFile(join(dir, file), 'utf8')));
  for (const [file, data] of Object.entries(files)) await writeFile(join(dir, file), data);
  return dir;
}

/** Runs `site <args>` in `dir`: exit code and output. */
async function site(dir: string, ...args: string[]): Promise<{ code: number; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [join(repoRoot, 'bin', 'site.js'), ...args], { cwd: dir });
    return { code: 0, stderr: stderr + stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stderr: failed.stderr + failed.stdout };
  }
}

/** Every file below `dir` with the hash of its bytes. */
async function snapshot(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(
      relative(dir, path),
      createHash('sha256')
        .update(await readFile(path))
        .digest('hex'),
    );
  }
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : 1)));
}

const pictureWithin = (html: string, alt: string) =>
  new RegExp(`<picture>(?:(?!</picture>).)*alt="${alt}"(?:(?!</picture>).)*</picture>`).exec(html)?.[0];

afterAll(async () => {
  for (const dir of made) await rm(dir, { recursive: true, force: true });
});

describe('images beside the Markdown', () => {
  it('are published as AVIF and WebP variants in a lazy <picture> with their size and alt text; a GIF as it is; site paths and web addresses stay', async () => {
    const dir = await fixtureSite();
    const cold = await site(dir, 'build', '--no-cache', '--verbose', '--out', 'cold');
    expect(cold.code, cold.stderr).toBe(0);
    expect(cold.stderr).toContain('image variants 10 encoded of 11');
    const html = await readFile(join(dir, 'cold', 'blog', 'with-images', 'index.html'), 'utf8');

    const square = pictureWithin(html, 'A green square');
    expect(square).toBeDefined();
    const hash = /\/assets\/images\/([0-9a-f]{16})-480\.avif/.exec(square!)![1]!;
    const sizes = 'sizes="(min-width: 1200px) 1200px, 100vw"';
    expect(square).toBe(
      `<picture><source type="image/avif" srcset="/assets/images/${hash}-480.avif 480w, /assets/images/${hash}-960.avif 960w, /assets/images/${hash}-1200.avif 1200w" ${sizes} />` +
        `<source type="image/webp" srcset="/assets/images/${hash}-480.webp 480w, /assets/images/${hash}-960.webp 960w, /assets/images/${hash}-1200.webp 1200w" ${sizes} />` +
        `<img src="/assets/images/${hash}-960.webp" alt="A green square" title="Green" width="1200" height="800" loading="lazy" decoding="async" /></picture>`,
    );
    expect(hash).toBe(
      createHash('sha256')
        .update(await readFile(join(dir, 'content', 'blog', 'with-images', 'square.png')))
        .digest('hex')
        .slice(0, 16),
    );
    for (const [, file, width] of square!.matchAll(/\/(assets\/images\/[0-9a-f]{16}-(\d+)\.(?:avif|webp))/g)) {
      const metadata = await sharp(await readFile(join(dir, 'cold', file!))).metadata();
      expect([metadata.width, metadata.height], file).toEqual([Number(width), (Number(width) * 2) / 3]);
    }

    const gif =
      /<img src="\/assets\/images\/([0-9a-f]{16})\.gif" alt="A purple dot" width="40" height="30" loading="lazy" decoding="async" \/>/.exec(
        html,
      );
    expect(gif).not.toBeNull();
    expect(
      (await readFile(join(dir, 'cold', 'assets', 'images', `${gif![1]}.gif`))).equals(
        await readFile(join(dir, 'content', 'blog', 'with-images', 'dot.gif')),
      ),
    ).toBe(true);
    expect(html).toContain('<img src="/images/logo.png" alt="The logo" />');
    expect(html).toContain('<img src="https://example.org/picture.png" alt="A remote picture" />');

    // Page copy in Markdown: its own folder's image, never wider than it is (600 px).
    const home = pictureWithin(await readFile(join(dir, 'cold', 'index.html'), 'utf8'), 'An orange banner');
    expect(home).toMatch(
      /srcset="\/assets\/images\/[0-9a-f]{16}-480\.avif 480w, \/assets\/images\/[0-9a-f]{16}-600\.avif 600w" sizes="\(min-width: 600px\) 600px, 100vw"/,
    );
    expect(home).toMatch(
      /<img src="\/assets\/images\/[0-9a-f]{16}-600\.webp" alt="An orange banner" width="600" height="200" loading="lazy" decoding="async" \/>/,
    );

    // With the build cache: the first build encodes, the next encodes nothing; all three are byte for byte the same.
    const first = await site(dir, 'build', '--verbose', '--out', 'first');
    expect(first.code, first.stderr).toBe(0);
    const warm = await site(dir, 'build', '--verbose', '--out', 'warm');
    expect(warm.code, warm.stderr).toBe(0);
    expect(warm.stderr).toContain('image variants 0 encoded of 11');
    const coldFiles = await snapshot(join(dir, 'cold'));
    expect(await snapshot(join(dir, 'first'))).toEqual(coldFiles);
    expect(await snapshot(join(dir, 'warm'))).toEqual(coldFiles);
  });
});

describe('an image that cannot be published', () => {
  it('fails site check and site build at its line and column, leaving the previous dist/ as it was', async () => {
    const dir = await fixtureSite();
    expect((await site(dir, 'build')).code).toBe(0);
    const before = await snapshot(join(dir, 'dist'));
    await writeFile(
      join(dir, post),
      (await readFile(join(dir, post), 'utf8')).replace('(square.png "Green")', '(squares.png "Green")'),
    );
    for (const command of ['check', 'build']) {
      const result = await site(dir, command);
      expect(result.code, command).toBe(1);
      expect(result.stderr).toContain(
        `IMAGE_MISSING  ${post}:9:29  no file "squares.png" in the folder of this file  (Put the image next to this file`,
      );
      expect(result.stderr).toMatch(/> {2}9 \| A square: !\[A green square\]\(squares\.png "Green"\)\n\s+\| {29}\^/);
    }
    expect(await snapshot(join(dir, 'dist'))).toEqual(before);
  });

  it('is IMAGE_INVALID for a file that is not an image, an SVG, or a path out of the folder; page copy too', async () => {
    const dir = await fixtureSite(
      {
        [post]: (text) =>
          text
            .replace('(square.png "Green")', '(notes.png)')
            .replace('(dot.gif)', '(drawing.svg)')
            .replace('(/images/logo.png)', '(../other/photo.png)'),
        'content/pages/home/en.md': (text) => text.replace('(./banner.png)', '(./gone.png)'),
      },
      {
        'content/blog/with-images/notes.png': 'not an image',
        'content/blog/with-images/drawing.svg':
          '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      },
    );
    const result = await site(dir, 'check');
    expect(result.code).toBe(1);
    const reported = [...result.stderr.matchAll(/^(IMAGE_\w+)  (\S+)  (.*?)  \(/gm)].map(
      (match) => `${match[1]} ${match[2]} ${match[3]}`,
    );
    expect(reported.sort()).toEqual([
      `IMAGE_INVALID ${post}:11:31 "drawing.svg" is not a PNG, JPEG, WebP, AVIF or GIF image`,
      `IMAGE_INVALID ${post}:13:37 the image "../other/photo.png" is not a file of this file's folder`,
      `IMAGE_INVALID ${post}:9:29 "notes.png" is not a PNG, JPEG, WebP, AVIF or GIF image`,
      'IMAGE_MISSING content/pages/home/en.md:5:21 no file "gone.png" in the folder of this file',
    ]);
  });
});

describe('the link check reads images', () => {
  it('reports an <img src> to no file of the site, in a post and in page copy, at its place', async () => {
    const dir = await fixtureSite({
      [post]: (text) => text.replace('(/images/logo.png)', '(/images/logos.png)'),
      'content/pages/home/en.md': (text) => `${text}\n![A chart](/images/chart.png)\n`,
    });
    for (const command of ['check', 'build']) {
      const result = await site(dir, command);
      expect(result.code, command).toBe(1);
      expect(result.stderr).toContain(
        `LINK_BROKEN  ${post}:13:37  the image /images/logos.png is no file of the site  (Put the file in public/`,
      );
      expect(result.stderr).toContain(
        'LINK_BROKEN  content/pages/home/en.md:9:12  the image /images/chart.png is no file of the site',
      );
    }
  });
});
