/**
 * Localized paths and slugs (issue 31) on a three-locale fixture: English without a prefix, `no`
 * and `de`; /about is /no/om-oss and /de/ueber-uns, the blog is /no/blogg, and a post has its own
 * slug in each language. What the built pages say to each other, what a renamed slug leaves behind
 * on every host target, and where a collision is reported.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { serve, silentLogger } from '../../src/api';
import { createDevBuilder } from '../../src/dev/rebuild';
import { startDevServer } from '../../src/dev/server';
import { outputRoot, repoRoot } from '../helpers/paths';
import { buildTarget, listAll, read } from '../targets/support';

const run = promisify(execFile);
const origin = 'https://l10n.example';
const fixture = join(repoRoot, 'tests', 'fixtures', 'l10n-site');

/** A copy of the fixture (a build writes its lock file beside the config). */
async function copyFixture(): Promise<string> {
  await mkdir(outputRoot, { recursive: true });
  const dir = await mkdtemp(join(outputRoot, 'l10n-'));
  await cp(fixture, dir, { recursive: true });
  return dir;
}

/** The file that answers a URL of the site. */
const fileOf = (out: string, url: string) =>
  join(out, decodeURI(url.replace(origin, '')).replace(/\/$/, '/index.html'));

interface BuiltPage {
  url: string;
  canonical: string;
  alternates: Map<string, string>;
  switchLinks: Map<string, string>;
}

function readPage(html: string, url: string): BuiltPage {
  const alternates = new Map(
    [...html.matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]+)"/g)].map((match) => [
      match[1]!,
      match[2]!,
    ]),
  );
  const switchLinks = new Map(
    [...html.matchAll(/<a href="([^"]+)" hrefLang="([^"]+)">/g)].map((match) => [match[2]!, match[1]!]),
  );
  return { url, canonical: /<link rel="canonical" href="([^"]+)"/.exec(html)![1]!, alternates, switchLinks };
}

describe('a three-locale site with localized paths and slugs', () => {
  let dir: string;
  let out: string;
  let pages: BuiltPage[];
  beforeAll(async () => {
    dir = await copyFixture();
    ({ out } = await buildTarget([], join(dir, 'site.config.yaml')));
    const files = (await listAll(out)).filter(
      (file) => file.endsWith('index.html') && !/^(?:[a-z]{2}\/)?(?:admin|auth)\//.test(file),
    );
    pages = await Promise.all(
      files.map(async (file) => readPage(await read(out, file), `/${file.replace(/index\.html$/, '')}`)),
    );
  }, 60_000);

  it('publishes each page at its path in its language', () => {
    expect(pages.map((page) => page.url).sort()).toEqual([
      '/',
      '/about/',
      '/blog/',
      '/blog/tools/',
      '/blog/why-repair/',
      '/de/',
      '/de/blog/',
      '/de/blog/tools/',
      '/de/blog/warum-reparieren/',
      '/de/ueber-uns/',
      '/no/',
      '/no/blogg/',
      '/no/blogg/hvorfor-reparere/',
      '/no/blogg/tools/',
      '/no/om-oss/',
    ]);
  });

  it('gives every page a reciprocal hreflang set of built pages, itself as canonical, and a language switch to its counterparts', () => {
    const byUrl = new Map(pages.map((page) => [origin + page.url, page]));
    const post = byUrl.get(`${origin}/no/blogg/hvorfor-reparere/`)!;
    expect(Object.fromEntries(post.alternates)).toEqual({
      en: `${origin}/blog/why-repair/`,
      de: `${origin}/de/blog/warum-reparieren/`,
      nb: `${origin}/no/blogg/hvorfor-reparere/`,
      'x-default': `${origin}/blog/why-repair/`,
    });
    const hreflangOf: Record<string, string> = { en: 'en', no: 'nb', de: 'de' };
    for (const page of pages) {
      const self = origin + page.url;
      for (const [hreflang, href] of page.alternates) {
        expect(existsSync(fileOf(out, href)), `${page.url} → ${href}`).toBe(true);
        if (hreflang !== 'x-default')
          expect(
            byUrl.get(href)?.alternates.get([...page.alternates].find(([, url]) => url === self)![0]),
            `${href} back to ${page.url}`,
          ).toBe(self);
      }
      // A page shown in its fallback language (the untranslated German "tools") names the original instead.
      if (page.url !== '/de/blog/tools/') expect(page.canonical).toBe(self);
      for (const [locale, href] of page.switchLinks) {
        expect(existsSync(fileOf(out, href)), `${page.url} switch → ${href}`).toBe(true);
        const counterpart = page.alternates.get(hreflangOf[locale]!);
        if (counterpart) expect(origin + href, `${page.url} switch to ${locale}`).toBe(counterpart);
      }
    }
    expect(byUrl.get(`${origin}/about/`)!.switchLinks).toEqual(
      new Map([
        ['en', '/about/'],
        ['de', '/de/ueber-uns/'],
        ['no', '/no/om-oss/'],
      ]),
    );
  });

  it('lists the localized alternates in the sitemap, and the localized post URLs in the feeds', async () => {
    const sitemap = await read(out, 'sitemap.xml');
    expect(sitemap).toContain(
      `<url><loc>${origin}/no/om-oss/</loc><xhtml:link rel="alternate" hreflang="en" href="${origin}/about/"/><xhtml:link rel="alternate" hreflang="de" href="${origin}/de/ueber-uns/"/><xhtml:link rel="alternate" hreflang="nb" href="${origin}/no/om-oss/"/>`,
    );
    const rss = await read(out, 'no/blogg/rss.xml');
    const links = [...rss.matchAll(/<link>([^<]+)<\/link>/g)].map((match) => match[1]!);
    expect(links).toEqual([`${origin}/no/blogg/`, `${origin}/no/blogg/hvorfor-reparere/`, `${origin}/no/blogg/tools/`]);
    for (const link of links) expect(existsSync(fileOf(out, link)), link).toBe(true);
    expect(await read(out, 'de/blog/feed.json')).toContain(`${origin}/de/blog/warum-reparieren/`);
  });

  it('remembers the published paths in site.paths.lock.yaml beside the config', async () => {
    const lock = parse(await readFile(join(dir, 'site.paths.lock.yaml'), 'utf8')) as Record<string, { path: string }>;
    expect(lock['no /blog/why-repair']).toEqual({ path: '/no/blogg/hvorfor-reparere' });
    expect(lock['de /about']).toEqual({ path: '/de/ueber-uns' });
  });
});

describe('a renamed slug', () => {
  const oldPath = '/no/blogg/hvorfor-reparere';
  const newUrl = '/no/blogg/derfor-reparerer-vi/';
  let dir: string;
  beforeAll(async () => {
    dir = await copyFixture();
    await buildTarget([], join(dir, 'site.config.yaml'));
    const post = join(dir, 'content', 'news', 'why-repair', 'no.md');
    await writeFile(
      post,
      (await readFile(post, 'utf8')).replace('slug: hvorfor-reparere', 'slug: derfor-reparerer-vi'),
    );
  }, 60_000);

  it('redirects its old URL on every host target', async () => {
    const config = join(dir, 'site.config.yaml');
    const [netlify, cloudflare, vercel, pages] = await Promise.all(
      ['netlify', 'cloudflare', 'vercel', 'github-pages'].map((target) => buildTarget(['--target', target], config)),
    );
    for (const { out } of [netlify!, cloudflare!])
      expect((await read(out, '_redirects')).split('\n')).toContain(`${oldPath}  ${newUrl}  301`);
    const routes = (
      JSON.parse(await read(vercel!.out, 'config.json')) as {
        routes: { src?: string; status?: number; headers?: Record<string, string> }[];
      }
    ).routes;
    expect(routes).toContainEqual({ src: `^${oldPath}/?$`, headers: { Location: newUrl }, status: 301 });
    expect(await read(pages!.out, `${oldPath.slice(1)}/index.html`)).toContain(
      `<meta http-equiv="refresh" content="0; url=${newUrl}">`,
    );
    expect(existsSync(join(pages!.out, newUrl.slice(1), 'index.html'))).toBe(true);
  }, 120_000);

  it('answers 301 with the new Location from site serve, and keeps the old path in the lock', async () => {
    const { out } = await buildTarget([], join(dir, 'site.config.yaml'));
    const lock = parse(await readFile(join(dir, 'site.paths.lock.yaml'), 'utf8')) as Record<string, unknown>;
    expect(lock['no /blog/why-repair']).toEqual({ path: '/no/blogg/derfor-reparerer-vi', before: [oldPath] });
    const server = await serve({ config: join(dir, 'site.config.yaml'), dir: out, port: 0, logger: silentLogger });
    try {
      const response = await fetch(new URL(`${oldPath.slice(1)}/`, server.url), { redirect: 'manual' });
      expect(response.status).toBe(301);
      expect(response.headers.get('location')).toBe(newUrl);
      expect((await fetch(new URL(newUrl, server.url))).status).toBe(200);
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe('a slug renamed while site dev runs', () => {
  it('answers the old path with 301 to the new one after the rebuild, and keeps it in the lock', async () => {
    const dir = await copyFixture();
    const dev = await startDevServer({ config: join(dir, 'site.config.yaml'), port: 0, host: '127.0.0.1' });
    try {
      expect((await fetch(`${dev.url}/de/blog/warum-reparieren/`)).status).toBe(200);
      const post = join(dir, 'content', 'news', 'why-repair', 'de.md');
      await writeFile(post, (await readFile(post, 'utf8')).replace('slug: warum-reparieren', 'slug: darum-reparieren'));
      let response: Response | undefined;
      for (let tries = 0; tries < 100 && response?.status !== 301; tries++) {
        await new Promise((done) => setTimeout(done, 100));
        response = await fetch(`${dev.url}/de/blog/warum-reparieren/`, { redirect: 'manual' });
      }
      expect(response!.status).toBe(301);
      expect(response!.headers.get('location')).toBe('/de/blog/darum-reparieren/');
      expect((await fetch(`${dev.url}/de/blog/darum-reparieren/`)).status).toBe(200);
      // The rebuild wrote the lock as `site build` would: the old path stays a redirect after dev stops.
      const lock = parse(await readFile(join(dir, 'site.paths.lock.yaml'), 'utf8')) as Record<string, unknown>;
      expect(lock['de /blog/why-repair']).toEqual({
        path: '/de/blog/darum-reparieren',
        before: ['/de/blog/warum-reparieren'],
      });
    } finally {
      await dev.close();
    }
  }, 60_000);
});

describe('a slug changed in a rebuild that fails', () => {
  it('never becomes an old URL: the next good rebuild keeps only the paths that were published', async () => {
    const dir = await copyFixture();
    const builder = createDevBuilder({ config: join(dir, 'site.config.yaml') });
    try {
      expect((await builder.rebuild()).ok).toBe(true);
      const post = join(dir, 'content', 'news', 'why-repair', 'de.md');
      const text = await readFile(post, 'utf8');
      // A link to no page fails the rebuild after the pages were expanded with the new slug.
      await writeFile(
        post,
        `${text.replace('slug: warum-reparieren', 'slug: nie-veroeffentlicht')}\n[Weiter](/de/gibt-es-nicht/)\n`,
      );
      expect((await builder.rebuild([{ path: post }])).ok).toBe(false);
      await writeFile(post, text.replace('slug: warum-reparieren', 'slug: darum-reparieren'));
      expect((await builder.rebuild([{ path: post }])).ok).toBe(true);
      const lock = parse(await readFile(join(dir, 'site.paths.lock.yaml'), 'utf8')) as Record<string, unknown>;
      expect(lock['de /blog/why-repair']).toEqual({
        path: '/de/blog/darum-reparieren',
        before: ['/de/blog/warum-reparieren'],
      });
      // And a rebuild that fails on the pages it already expanded once still moves the lock on when it succeeds.
      await writeFile(
        post,
        `${text.replace('slug: warum-reparieren', 'slug: ganz-neu')}\n[Weiter](/de/gibt-es-nicht/)\n`,
      );
      expect((await builder.rebuild([{ path: post }])).ok).toBe(false);
      await writeFile(
        join(dir, 'content', 'news', 'why-repair', 'de.md'),
        `${text.replace('slug: warum-reparieren', 'slug: ganz-neu')}\n[Weiter](/de/)\n`,
      );
      expect((await builder.rebuild([{ path: post }])).ok).toBe(true);
      const after = parse(await readFile(join(dir, 'site.paths.lock.yaml'), 'utf8')) as Record<string, unknown>;
      expect(after['de /blog/why-repair']).toEqual({
        path: '/de/blog/ganz-neu',
        before: ['/de/blog/darum-reparieren', '/de/blog/warum-reparieren'],
      });
    } finally {
      await builder.dispose();
    }
  }, 60_000);
});

describe("a route's path per locale, as a path: map or as path: with paths:", () => {
  /** The fixture's routes as path: (the default locale's) and paths: (the others). */
  const withPathsKey = (text: string) =>
    text
      .replace(
        '{ path: { en: /about, "no": /om-oss, de: /ueber-uns }, template: Home }',
        '{ path: /about, template: Home, paths: { "no": /om-oss, de: /ueber-uns } }',
      )
      .replace(
        '{ path: { en: /blog, "no": /blogg }, template: List, list: news }',
        '{ path: /blog, template: List, list: news, paths: { "no": /blogg } }',
      )
      .replace(
        '{ path: { en: "/blog/{slug}", "no": "/blogg/{slug}" }, template: Entry, entry: news }',
        '{ path: "/blog/{slug}", template: Entry, entry: news, paths: { "no": "/blogg/{slug}" } }',
      );

  it('builds the same site, byte for byte, and the same lock', async () => {
    const [mapDir, pathsDir] = await Promise.all([copyFixture(), copyFixture()]);
    const config = join(pathsDir, 'site.config.yaml');
    const text = await readFile(config, 'utf8');
    expect(withPathsKey(text)).not.toContain('path: {');
    await writeFile(config, withPathsKey(text));
    const [fromMap, fromPaths] = await Promise.all(
      [mapDir, pathsDir].map((dir) => buildTarget([], join(dir, 'site.config.yaml'))),
    );
    const files = await listAll(fromMap!.out);
    expect(files).toContain('no/om-oss/index.html');
    expect(await listAll(fromPaths!.out)).toEqual(files);
    for (const file of files)
      expect((await readFile(join(fromPaths!.out, file))).equals(await readFile(join(fromMap!.out, file))), file).toBe(
        true,
      );
    expect(await readFile(join(pathsDir, 'site.paths.lock.yaml'), 'utf8')).toBe(
      await readFile(join(mapDir, 'site.paths.lock.yaml'), 'utf8'),
    );
  }, 120_000);
});

describe('site check', () => {
  it('passes on the fixture, and writes no lock (only a build publishes)', async () => {
    const dir = await copyFixture();
    const checked = await run(
      'node',
      [join(repoRoot, 'bin', 'site.js'), 'check', '--config', join(dir, 'site.config.yaml')],
      { cwd: dir },
    );
    expect(checked.stdout).toMatch(/^ok: \d+ pages checked/);
    expect(checked.stderr).not.toMatch(/PATH_COLLISION|CONFIG_INVALID|UNKNOWN_LOCALE/);
    expect(existsSync(join(dir, 'site.paths.lock.yaml'))).toBe(false);
  }, 60_000);
});

describe('collisions', () => {
  /** Builds a copy of the fixture after `edit`; the build must fail: its stderr. */
  async function failingBuild(edit: (dir: string) => Promise<void>): Promise<string> {
    const dir = await copyFixture();
    await edit(dir);
    const failed = await run(
      'node',
      [join(repoRoot, 'bin', 'site.js'), 'build', '--config', join(dir, 'site.config.yaml'), '--out', join(dir, 'out')],
      { cwd: dir },
    ).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(existsSync(join(dir, 'site.paths.lock.yaml'))).toBe(false);
    return failed!.stderr;
  }
  const editFile = async (file: string, from: string, to: string) =>
    writeFile(file, (await readFile(file, 'utf8')).replace(from, to));

  it("names the path map's entry when a localized route path lands on another route", async () => {
    const stderr = await failingBuild((dir) =>
      editFile(join(dir, 'site.config.yaml'), '"no": /om-oss', '"no": /blogg'),
    );
    expect(stderr).toMatch(
      /PATH_COLLISION\s+site\.config\.yaml:21:\d+\s+routes\.2\.path\.no\s+\/no\/blogg\/ is claimed by route "\/about" \(no\) and by route "\/blog" \(no\) \(the other claim: routes\.1\.path\.no in site\.config\.yaml\)/,
    );
  });

  it('names the paths: entry when the route gives its other paths there', async () => {
    const stderr = await failingBuild((dir) =>
      editFile(
        join(dir, 'site.config.yaml'),
        '{ path: { en: /blog, "no": /blogg }, template: List, list: news }',
        '{ path: /blog, template: List, list: news, paths: { "no": /om-oss } }',
      ),
    );
    expect(stderr).toMatch(
      /PATH_COLLISION\s+site\.config\.yaml:2[01]:\d+\s+routes\.[12]\.paths?\.no\s+\/no\/om-oss\/ is claimed by route "\/about" \(no\) and by route "\/blog" \(no\)/,
    );
    expect(stderr).toContain('routes.2.paths.no');
  });

  it('refuses a path map without the default locale, with a key that is no locale, or beside paths:, each at its key', async () => {
    const stderr = await failingBuild((dir) =>
      editFile(
        join(dir, 'site.config.yaml'),
        `  - { path: { en: /about, "no": /om-oss, de: /ueber-uns }, template: Home }
  - { path: { en: /blog, "no": /blogg }, template: List, list: news }
  - { path: { en: "/blog/{slug}", "no": "/blogg/{slug}" }, template: Entry, entry: news }`,
        `  - { path: { "no": /om-oss, de: /ueber-uns }, template: Home }
  - { path: { en: /blog, "no": /blogg, fr: /blogue }, template: List, list: news }
  - { path: { en: "/blog/{slug}", "no": "/blogg/{slug}" }, template: Entry, entry: news, paths: { de: "/blog/{slug}" } }`,
      ),
    );
    expect(stderr).toMatch(
      /CONFIG_INVALID\s+site\.config\.yaml:20:7\s+routes\[1\]\.path\s+the path map has no path for the default locale "en"\s+\(Add the route's path in en to the map/,
    );
    expect(stderr).toMatch(
      /UNKNOWN_LOCALE\s+site\.config\.yaml:21:40\s+routes\[2\]\.path\.fr\s+unknown locale "fr" in the path map\s+\(Use the keys under locales: \(en, no, de\)/,
    );
    expect(stderr).toMatch(
      /CONFIG_INVALID\s+site\.config\.yaml:22:\d+\s+routes\[3\]\.paths\s+the route gives its path per locale in path: and in paths:\s+\(Give each locale's path once/,
    );
  });

  it('names the slug: line when two posts claim one URL', async () => {
    const stderr = await failingBuild((dir) =>
      writeFile(
        join(dir, 'content', 'news', 'tools', 'no.md'),
        '---\ntitle: Verktøy\ndescription: Verktøyene vi bruker.\ndate: 2026-01-05\nslug: hvorfor-reparere\n---\n\nTekst.\n',
      ),
    );
    expect(stderr).toMatch(
      /PATH_COLLISION\s+content\/news\/(?:why-repair|tools)\/no\.md:5:\d+\s+slug\s+\/no\/blogg\/hvorfor-reparere\/ is claimed by news entry/,
    );
  });

  it('refuses a slug that is not URL-safe at its line', async () => {
    const stderr = await failingBuild((dir) =>
      editFile(join(dir, 'content', 'news', 'why-repair', 'de.md'), 'slug: warum-reparieren', 'slug: Warum Reparieren'),
    );
    expect(stderr).toMatch(/FRONT_MATTER\s+content\/news\/why-repair\/de\.md:5:\d+\s+slug\s+.*URL-safe/);
  });
});
