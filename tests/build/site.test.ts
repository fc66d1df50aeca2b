import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempSite, type TempSite } from '../helpers/fixture-site';
import { builtSite, repoRoot } from '../helpers/paths';
import { listFiles, readPages } from '../helpers/site-files';

const run = promisify(execFile);
const read = (path: string) => readFile(join(builtSite, path), 'utf8');

const sections = ['', '/product', '/pricing', '/book-meeting', '/contactus', '/ourstory'];
const localized = [
  '/',
  ...sections.map((section) => `/hub${section}/`),
  '/hub/launch-campaign/',
  ...sections.map((section) => `/shop${section}/`),
  ...sections.map((section) => `/workwear${section}/`),
  '/ourstory/',
  '/contactus/',
  '/contactus/sent/',
  '/contactus/failed/',
  '/book-meeting/booked/',
  '/book-meeting/failed/',
  '/search/',
  '/terms/',
  '/privacy/',
  // The sign-in page a visitor can reach from the landing page, in each language.
  '/auth/',
];
const englishOnly = [
  '/hub-presentation-english/',
  '/hub-presentation-no/',
  '/admin/blog/',
  '/admin/media/',
  '/admin/pages/',
  '/admin/visual/',
  '/admin/inbox/',
  '/admin/changes/',
  '/admin/settings/',
  '/404.html',
];
const norwegianOnly = [...sections.map((section) => `/no/arbeidskl%C3%A6r${section}/`), '/no/404.html'];

describe('the real site', () => {
  it('has exactly the route table of the spec in both languages (blog aside)', async () => {
    const urls = (await readPages(builtSite))
      .map((page) => page.url)
      .filter((url) => !url.includes('/blog/') || url === '/admin/blog/')
      .sort();
    const expected = [
      ...localized,
      ...localized.map((url) => (url === '/' ? '/no/' : `/no${url}`)),
      ...englishOnly,
      ...norwegianOnly,
    ].sort();
    expect(urls).toEqual(expected);
  });

  it('writes the head of a page from its record: lang, canonical, alternates, Open Graph', async () => {
    const html = await read('no/hub/pricing/index.html');
    expect(html).toMatch(/^<!DOCTYPE html><html lang="nb" data-lang="no" data-audience="hub">/);
    expect(html).toContain('<link rel="canonical" href="https://mendwise.example/no/hub/pricing/" />');
    expect(html).toContain('<link rel="alternate" hreflang="en" href="https://mendwise.example/hub/pricing/" />');
    expect(html).toContain('<link rel="alternate" hreflang="no" href="https://mendwise.example/no/hub/pricing/" />');
    expect(html).toContain(
      '<link rel="alternate" hreflang="x-default" href="https://mendwise.example/hub/pricing/" />',
    );
    expect(html).toContain('<meta property="og:locale" content="nb_NO" />');
    expect(html).toContain('<meta property="og:locale:alternate" content="en_GB" />');
    expect(html).toMatch(/<title>[^<]+ · Mendwise<\/title>/);
    const english = await read('hub/index.html');
    expect(english).toMatch(
      /^<!DOCTYPE html><html lang="en" data-lang="en" data-audience="hub" data-redirect="nb=\/no\/hub\/ no=\/no\/hub\/">/,
    );
  });

  it('marks auth, admin, presentation and 404 pages noindex', async () => {
    for (const file of [
      'auth/index.html',
      'admin/blog/index.html',
      'admin/media/index.html',
      'admin/pages/index.html',
      'admin/visual/index.html',
      'admin/inbox/index.html',
      'admin/changes/index.html',
      'hub-presentation-english/index.html',
      '404.html',
      'no/404.html',
    ]) {
      expect(await read(file), file).toContain('<meta name="robots" content="noindex" />');
    }
    expect(await read('hub-presentation-no/index.html')).toContain('<html lang="nb"');
    expect(await read('hub/index.html')).not.toContain('noindex');
  });

  it('canonicalises /no/arbeidsklær pages to /no/workwear and keeps them out of the sitemap', async () => {
    const html = await read('no/arbeidsklær/product/index.html');
    expect(html).toContain('<link rel="canonical" href="https://mendwise.example/no/workwear/product/" />');
    expect(html).not.toContain('hreflang=');
    const sitemap = await read('sitemap.xml');
    expect(sitemap).not.toContain('arbeidskl');
  });

  it('lists indexable pages with their alternates in the sitemap', async () => {
    const sitemap = await read('sitemap.xml');
    expect(sitemap).toContain(
      '<url><loc>https://mendwise.example/hub/pricing/</loc><xhtml:link rel="alternate" hreflang="en" href="https://mendwise.example/hub/pricing/"/><xhtml:link rel="alternate" hreflang="no" href="https://mendwise.example/no/hub/pricing/"/><xhtml:link rel="alternate" hreflang="x-default" href="https://mendwise.example/hub/pricing/"/></url>',
    );
    for (const excluded of ['/auth/', '/admin/', '/hub-presentation', '/404', '/contactus/sent/', '/hub/blog/'])
      expect(sitemap, excluded).not.toContain(excluded);
    const locs = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    expect(new Set(locs).size).toBe(locs.length);
    expect(locs).toContain('https://mendwise.example/');
    expect(locs).toContain('https://mendwise.example/no/');
  });

  it('writes robots.txt and _headers', async () => {
    expect(await read('robots.txt')).toBe(
      'User-agent: *\nDisallow: /admin\nDisallow: /auth\nDisallow: /no/auth\n\nSitemap: https://mendwise.example/sitemap.xml\n',
    );
    const headers = await read('_headers');
    expect(headers).toMatch(
      /Content-Security-Policy: default-src 'self'; script-src 'self' 'sha256-[A-Za-z0-9+/=]+' 'sha256-/,
    );
    expect(headers).toContain('X-Content-Type-Options: nosniff');
  });

  it('writes precompressed .br and .gz siblings of every text file', async () => {
    const files = await listFiles(builtSite);
    const text = files.filter((file) => /\.(html|css|js|xml|svg|txt|json)$/.test(file));
    expect(text.length).toBeGreaterThan(200);
    for (const file of text) {
      const data = await readFile(join(builtSite, file));
      for (const [suffix, decompress] of [
        ['.br', brotliDecompressSync],
        ['.gz', gunzipSync],
      ] as const) {
        // A sibling is left out only when it would not be smaller than the file.
        if (!files.includes(file + suffix)) {
          expect(data.length, file + suffix).toBeLessThan(100);
          continue;
        }
        expect(decompress(await readFile(join(builtSite, file + suffix))).equals(data), file + suffix).toBe(true);
      }
    }
    expect(files.filter((file) => /\.(br|gz)$/.test(file) && !text.includes(file.slice(0, -3)))).toEqual([]);
  });

  it('renders the 404 page per language with a way home and the path logged', async () => {
    const en = await read('404.html');
    expect(en).toContain('<h1>Page not found</h1>');
    expect(en).toMatch(/<a class="button button-primary" href="\/">Back to the home page<\/a>/);
    expect(en).toContain("console.warn('Page not found:',location.pathname)");
    expect(await read('no/404.html')).toMatch(/href="\/no\/">Tilbake til forsiden<\/a>/);
  });

  it('greys out Product, Pricing and Book meeting where no audience is active', async () => {
    const html = await read('index.html');
    // Greyed, with no link of its own: a disclosure that explains why and offers the three audiences.
    expect(html).toContain(
      '<details class="nav-choice"><summary class="nav-link is-disabled">Product</summary><div class="nav-choice-panel"><p>Choose an audience to see this page</p><ul><li><a class="nav-choice-link" href="/hub/product/" data-audience="hub">Repairers</a></li>',
    );
    expect(html).not.toContain('>Product</a>');
    // Elsewhere without an audience, the language script may swap it for the last audience's link.
    expect(await read('blog/index.html')).toContain(
      '<details class="nav-choice" data-remember=""><summary class="nav-link is-disabled">Product</summary>',
    );
    expect(html).toContain('<a class="nav-link" href="/blog/">Blog</a>');
    const hub = await read('hub/pricing/index.html');
    expect(hub).toContain('<a class="nav-link" href="/hub/pricing/" aria-current="page">Pricing</a>');
    expect(hub).toContain('<a class="pill is-active" href="/hub/" aria-current="true">Repairers</a>');
  });

  it('renders the plans from the config in both languages', async () => {
    const en = await read('hub/pricing/index.html');
    const no = await read('no/hub/pricing/index.html');
    for (const text of [
      'Up to 10 orders per month',
      'Up to 50 orders per month',
      'Up to 150 orders per month',
      'Unlimited orders',
    ])
      expect(en).toContain(text);
    for (const text of [
      'Opptil 10 ordrer per måned',
      'Opptil 50 ordrer per måned',
      'Opptil 150 ordrer per måned',
      'Ubegrenset antall ordrer',
    ])
      expect(no).toContain(text);
  });
});

describe('the CLI', () => {
  let temp: TempSite;
  beforeAll(async () => {
    temp = await createTempSite();
  });
  afterAll(() => temp.cleanup());
  const site = (...args: string[]) =>
    run('node', [join(repoRoot, 'bin', 'site.js'), ...args], { cwd: temp.dir }).then(
      (result) => ({ code: 0, ...result }),
      (error: { code: number; stdout: string; stderr: string }) => ({
        code: error.code,
        stdout: error.stdout,
        stderr: error.stderr,
      }),
    );

  it('builds, reports what it built, and exits 0', async () => {
    const result = await site('build', '--out', 'out');
    expect(result.code).toBe(0);
    // The /no/arbeidsklær pages mirror /no/workwear: the summary says how many of the Norwegian pages they are.
    expect(result.stdout).toMatch(
      /^built \d+ pages \(\d+ en; \d+ no, of which \d+ aliases\) and \d+ other files into out in \d+ ms\n$/,
    );
  });

  it('leaves the previous output untouched when a build fails, and exits 1 naming file and line', async () => {
    await site('build', '--out', 'out');
    const before = await listFiles(join(temp.dir, 'out'));
    const marker = join(temp.dir, 'out', 'marker.txt');
    await writeFile(marker, 'kept');
    const config = await readFile(temp.config, 'utf8');
    await writeFile(
      temp.config,
      config.replace('template: Product, audience: hub', 'template: Prodcut, audience: hub'),
    );
    const result = await site('build', '--out', 'out');
    await writeFile(temp.config, config);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /UNKNOWN_TEMPLATE  site\.config\.yaml:\d+:\d+  routes\[\d+\]\.template  unknown template "Prodcut"/,
    );
    expect(await readFile(marker, 'utf8')).toBe('kept');
    expect((await listFiles(join(temp.dir, 'out'))).filter((file) => file !== 'marker.txt')).toEqual(before);
  });

  it('fails on a broken template with the file and position, leaving the output as it was', async () => {
    const result = await site(
      'check',
      '--config',
      join(repoRoot, 'tests', 'fixtures', 'broken-template', 'site.config.yaml'),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/TEMPLATE_BUILD  .*Landing\.tsx:\d+:\d+  /);
  });

  it('checks without writing and answers usage errors with exit 2', async () => {
    const check = await site('check');
    expect(check.code).toBe(0);
    expect(check.stdout).toMatch(/^ok: \d+ pages checked/);
    expect((await site('build', '--bogus')).code).toBe(2);
    expect((await site('frobnicate')).code).toBe(2);
    const help = await site('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('build');
    expect((await site('--version')).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('rebuilds an existing folder by writing only what changed, and drops the siblings with --no-precompress', async () => {
    await site('build', '--out', 'again');
    const files = await listFiles(join(temp.dir, 'again'));
    const rebuilt = await site('build', '--out', 'again', '--verbose');
    expect(rebuilt.stderr + rebuilt.stdout).toContain(
      `wrote 0 of ${files.length} files (siblings included), removed 0`,
    );
    const plain = await site('build', '--out', 'again', '--verbose', '--no-precompress');
    const remaining = await listFiles(join(temp.dir, 'again'));
    expect(remaining).toEqual(files.filter((file) => !/\.(br|gz)$/.test(file)));
    expect(plain.stderr + plain.stdout).toContain(
      `wrote 0 of ${remaining.length} files (siblings included), removed ${files.length - remaining.length}`,
    );
  });

  it('builds byte-identical output twice', async () => {
    await site('build', '--out', 'first');
    await site('build', '--out', 'second');
    const files = await listFiles(join(temp.dir, 'first'));
    expect(await listFiles(join(temp.dir, 'second'))).toEqual(files);
    for (const file of files) {
      const [a, b] = await Promise.all([
        readFile(join(temp.dir, 'first', file)),
        readFile(join(temp.dir, 'second', file)),
      ]);
      expect(a.equals(b), file).toBe(true);
    }
  });
});
