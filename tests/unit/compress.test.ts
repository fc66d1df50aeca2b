import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compressAhead, compressFiles, compressFilesShared, compressPoolThreshold } from '../../src/emit/compress';
import type { OutputFiles } from '../../src/output-files';

const page = `<!DOCTYPE html><html lang="en"><body>${'<p>Repair beats recycling.</p>'.repeat(200)}</body></html>\n`;

describe('precompressed siblings', () => {
  const files: OutputFiles = new Map<string, string | Uint8Array>([
    ['index.html', page],
    ['assets/main.css', 'body { margin: 0; } '.repeat(50)],
    ['assets/app.js', Buffer.from('console.log("hi");'.repeat(50))],
    ['sitemap.xml', '<urlset>'.repeat(50)],
    ['robots.txt', 'User-agent: *\n'.repeat(20)],
    ['logo.svg', '<svg></svg>'.repeat(40)],
    ['photo.png', new Uint8Array(4096)],
    ['_headers', '/*\n  X-Frame-Options: DENY\n'.repeat(20)],
  ]);

  it('adds .br and .gz beside HTML, CSS, JS, XML, TXT and SVG files only, which decompress to the file', async () => {
    const siblings = compressFiles(files);
    expect([...siblings.keys()].sort()).toEqual([
      'assets/app.js.br',
      'assets/app.js.gz',
      'assets/main.css.br',
      'assets/main.css.gz',
      'index.html.br',
      'index.html.gz',
      'logo.svg.br',
      'logo.svg.gz',
      'robots.txt.br',
      'robots.txt.gz',
      'sitemap.xml.br',
      'sitemap.xml.gz',
    ]);
    expect(brotliDecompressSync(siblings.get('index.html.br')!).toString()).toBe(page);
    expect(gunzipSync(siblings.get('index.html.gz')!).toString()).toBe(page);
    expect(
      Buffer.from(brotliDecompressSync(siblings.get('assets/app.js.br')!)).equals(files.get('assets/app.js') as Buffer),
    ).toBe(true);
  });

  it('is byte-identical from one run to the next', async () => {
    const [first, second] = [compressFiles(files), compressFiles(files)];
    for (const [path, data] of first) expect(Buffer.from(data).equals(Buffer.from(second.get(path)!)), path).toBe(true);
  });

  it('leaves out a sibling that is not smaller than its file, and never replaces a file of the output', async () => {
    const siblings = compressFiles(
      new Map([
        ['a.txt', 'x'],
        ['b.txt', 'y'.repeat(500)],
        ['b.txt.gz', 'mine'],
      ]),
    );
    expect([...siblings.keys()].sort()).toEqual(['b.txt.br']);
  });

  it('shares a large output out with a worker thread, and makes the same bytes as one thread', async () => {
    // Pages that differ (a seeded walk through words), past a threshold given low, so the test stays quick.
    const poolFrom = 4 * 1024 * 1024;
    const large = seededPages(poolFrom);
    const shared = await compressFilesShared(large, { workers: 1, poolFrom });
    expect(shared.workers).toBe(1);
    const alone = compressFiles(large);
    expect([...shared.siblings.keys()]).toEqual([...alone.keys()]);
    for (const [path, data] of alone)
      expect(Buffer.from(shared.siblings.get(path)!).equals(Buffer.from(data)), path).toBe(true);
    expect((await compressFilesShared(new Map([...large].slice(0, 10)), { workers: 1, poolFrom })).workers).toBe(0);
  });

  it('compresses ahead in turns that leave the event loop free, and the write takes what was made for the same contents and settings', async () => {
    const pages = seededPages(2 * 1024 * 1024);
    const ahead = compressAhead();
    ahead.add(pages);
    ahead.add(files);
    // A timer due in a millisecond fires while the files are compressed, not after them all.
    const turns = await new Promise<number>((resolve) => setTimeout(() => resolve(ahead.take().size), 1));
    expect(turns).toBeLessThan(pages.size);
    const partial = ahead.take();
    expect(ahead.take().size).toBe(partial.size);

    const all = compressAhead();
    all.add(files);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const made = all.take();
    // The page, the stylesheet, the script, the sitemap, robots.txt and the logo: not the photo or _headers.
    expect(made.size).toBe(6);
    await expect(compressFilesShared(files, { ahead: all })).resolves.toEqual({
      siblings: compressFiles(files),
      workers: 0,
    });
    // Siblings are taken by contents and settings: a page compressed ahead at quality 8 is not the write's at quality 5.
    const marked = new Map(
      [...made].map(([contents, entry]) => [
        contents,
        { ...entry, siblings: { br: new Uint8Array([1]), gz: new Uint8Array([2]) } },
      ]),
    );
    const fake = { add() {}, take: () => marked };
    expect([...compressFiles(files, { ahead: fake }).get('index.html.br')!]).toEqual([1]);
    const other = compressFiles(files, { ahead: fake, brotliQuality: 5 });
    expect(brotliDecompressSync(other.get('index.html.br')!).toString()).toBe(page);
    expect(gunzipSync(other.get('index.html.gz')!).toString()).toBe(page);
    // A script compressed ahead is taken when the write holds the same bytes in another buffer (the build puts it in the spill), not when they changed.
    const copied = new Map(files).set('assets/app.js', Buffer.from(files.get('assets/app.js') as Uint8Array));
    expect([...compressFiles(copied, { ahead: fake }).get('assets/app.js.br')!]).toEqual([1]);
    const changed = new Map(files).set('assets/app.js', Buffer.from('console.log("bye");'.repeat(50)));
    const fresh = compressFiles(changed, { ahead: fake }).get('assets/app.js.br')!;
    expect(brotliDecompressSync(fresh).toString()).toBe('console.log("bye");'.repeat(50));
  });

  it('compresses the output of a 1,000-post blog on this thread: a worker would cost more memory than the time it saves', async () => {
    // 11 MB of pages, as the benchmark's 1,000 posts make.
    const pages = seededPages(11 * 1024 * 1024);
    expect((await compressFilesShared(pages, { workers: 1 })).workers).toBe(0);
    expect(compressPoolThreshold).toBeGreaterThan(11 * 1024 * 1024);
  });
});

/** Pages that differ (a seeded walk through words), `bytes` of them and a little more. */
function seededPages(bytes: number): OutputFiles {
  const words = [
    'repair',
    'zip',
    'hem',
    'sole',
    'warranty',
    'tailor',
    'seam',
    'order',
    'customer',
    'workwear',
    'jacket',
    'boot',
  ];
  let seed = 7;
  const word = () => words[(seed = (seed * 1103515245 + 12345) % 2147483648) % words.length];
  const pages: OutputFiles = new Map();
  let total = 0;
  for (let index = 0; total <= bytes; index++) {
    const text = `<!DOCTYPE html><main>${Array.from({ length: 2500 }, word).join(' ')}</main>\n`;
    pages.set(`posts/${index}/index.html`, text);
    total += text.length;
  }
  return pages;
}
