/**
 * The engine on a small generic site (tests/fixtures/engine-site): three locales with a default
 * that is not first in string order, no audiences, and two collections that are not at /blog.
 * Nothing here depends on the Mendwise site, so adding one of its pages or locales cannot break it.
 */
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSite, type BuildResult } from '../../src/build';
import { createSitemaps } from '../../src/emit/sitemap';
import { languageScript } from '../../src/render/head';
import { repoRoot } from '../helpers/paths';

const config = join(repoRoot, 'tests', 'fixtures', 'engine-site', 'site.config.yaml');
let result: BuildResult;
const text = (file: string): string => {
  const data = result.files.get(file);
  if (data === undefined) throw new Error(`no file ${file}; files: ${[...result.files.keys()].sort().join(' ')}`);
  return typeof data === 'string' ? data : Buffer.from(data).toString('utf8');
};
/** The `lang` of each card of a list page, by slug. */
const cardLanguages = (file: string) =>
  Object.fromEntries(
    [...text(file).matchAll(/<li lang="([a-z]+)" data-slug="([a-z-]+)">/g)].map((match) => [match[2], match[1]]),
  );
const contentLocale = (file: string) => /data-content-locale="([a-z]+)"/.exec(text(file))?.[1];

beforeAll(async () => {
  result = await buildSite({ config, cache: false, workers: 0 });
});

describe('collections declared in the config', () => {
  it('gives each collection its list, term pages, further pages and entry pages, at the paths the config names', () => {
    const files = new Set(result.files.keys());
    for (const file of [
      'aktuelt/index.html',
      'de/aktuelt/index.html',
      'en/aktuelt/index.html',
      'aktuelt/side/2/index.html',
      'aktuelt/tema/people/index.html',
      'aktuelt/tema/tools/index.html',
      'en/aktuelt/tema/tools/index.html',
      'aktuelt/first-hire/index.html',
      'de/aktuelt/first-hire/index.html',
      'en/aktuelt/english-only/index.html',
      'work/index.html',
      'de/work/index.html',
      'work/bridge/index.html',
      'de/work/bridge/index.html',
    ])
      expect(files.has(file), file).toBe(true);
    // Three entries, two per page; `cases` has no taxonomy and one page.
    expect(files.has('aktuelt/side/3/index.html')).toBe(false);
    expect([...files].some((file) => file.startsWith('work/tema') || file.startsWith('work/side'))).toBe(false);
    expect([...files].some((file) => file.startsWith('blog'))).toBe(false);
  });

  it("links list pages to their entries, terms and next page in the list's locale", () => {
    const list = text('de/aktuelt/index.html');
    expect(list).toContain('href="/de/aktuelt/english-only/"');
    expect(list).toContain('data-term="tools"');
    expect(list).toContain('href="/de/aktuelt/tema/tools/"');
    expect(list).toContain('rel="next" href="/de/aktuelt/side/2/"');
    const entry = text('en/aktuelt/first-hire/index.html');
    expect(entry).toContain('data-term-url="true" href="/en/aktuelt/tema/people/"');
    expect(entry).toContain('data-list-url="true" href="/en/aktuelt/"');
  });

  it('checks front matter against the fields the collection declares', () => {
    expect(text('work/bridge/index.html')).toContain('<p data-client="true">Vegvesenet</p>');
    expect(text('en/work/bridge/index.html')).toContain('<p data-client="true">Road Authority</p>');
  });

  it('writes a feed only for the collection that asks for one, per locale, with the entries written in it', () => {
    const feed = text('de/aktuelt/rss.xml');
    expect(feed).toContain('<title>Fixture · News (de)</title>');
    expect(feed).toContain('<link>https://fixture.example/de/aktuelt/first-hire/</link>');
    expect(feed).not.toContain('new-tool');
    expect(text('aktuelt/rss.xml')).toContain('<link>https://fixture.example/aktuelt/new-tool/</link>');
    expect(text('en/aktuelt/rss.xml')).toContain('english-only');
    expect([...result.files.keys()].filter((file) => file.endsWith('.xml')).sort()).toEqual([
      'aktuelt/rss.xml',
      'de/aktuelt/rss.xml',
      'en/aktuelt/rss.xml',
      'sitemap.xml',
    ]);
    expect([...result.files.keys()].filter((file) => file.endsWith('feed.json')).sort()).toEqual([
      'aktuelt/feed.json',
      'de/aktuelt/feed.json',
      'en/aktuelt/feed.json',
    ]);
    expect(text('aktuelt/index.html')).toContain('data-feed="true" href="/aktuelt/rss.xml"');
  });
});

describe('the untranslated-entry fallback, decided once', () => {
  it('shows the same language on a list card, on the entry page and through translationOf', () => {
    // new-tool is written in nb (the default) and en; a German page falls back to the default first.
    expect(cardLanguages('de/aktuelt/index.html')['new-tool']).toBe('nb');
    expect(contentLocale('de/aktuelt/new-tool/index.html')).toBe('nb');
    // english-only exists only in English: every locale shows English.
    expect(cardLanguages('de/aktuelt/index.html')['english-only']).toBe('en');
    expect(contentLocale('aktuelt/english-only/index.html')).toBe('en');
    expect(text('index.html')).toContain('<li data-latest="news" lang="en">English only</li>');
  });

  it("follows the collection's own chain where it has one", () => {
    // cases: { de: [en] }: the German page of a case written in nb and en shows English.
    expect(cardLanguages('de/work/index.html').bridge).toBe('en');
    expect(contentLocale('de/work/bridge/index.html')).toBe('en');
    expect(text('de/index.html')).toContain('<li data-latest="cases" lang="en">Bridge</li>');
    expect(text('de/index.html')).toContain('<li data-latest="news" lang="en">English only</li>');
  });

  it('canonicalises a fallback page to the page of the language it shows', () => {
    const page = result.pages.find((candidate) => candidate.url === '/de/work/bridge/')!;
    expect(page.canonical).toBe('https://fixture.example/en/work/bridge/');
    expect(page.inSitemap).toBe(false);
  });
});

describe('the first-visit language redirect', () => {
  /** Runs the page's inline script as a first visit with this browser language; returns where it goes. */
  function firstVisit(html: string, language: string): string | undefined {
    const redirect = /data-redirect="([^"]*)"/.exec(html)?.[1] ?? null;
    let target: string | undefined;
    const storage = new Map<string, string>();
    const element = {
      className: '',
      getAttribute: (name: string) => (name === 'data-redirect' ? redirect : name === 'data-lang' ? 'nb' : null),
    };
    runInNewContext(languageScript, {
      document: { documentElement: element, addEventListener: () => undefined },
      window: {
        localStorage: {
          getItem: (key: string) => storage.get(key) ?? null,
          setItem: (key: string, value: string) => storage.set(key, value),
        },
      },
      navigator: { language },
      location: { search: '', hash: '', replace: (url: string) => (target = url) },
    });
    return target;
  }

  it('sends a first visit to every locale that claims the browser language, not only the first', () => {
    const home = text('index.html');
    expect(home).toContain('data-redirect="de=/de/ en=/en/"');
    expect(firstVisit(home, 'de-AT')).toBe('/de/');
    expect(firstVisit(home, 'en-US')).toBe('/en/');
    expect(firstVisit(home, 'nb-NO')).toBeUndefined();
    // A page of another locale never redirects.
    expect(text('de/index.html')).not.toContain(' data-redirect="');
  });
});

describe('the sitemap', () => {
  it('splits above the limit into numbered sitemaps under an index, every URL once', () => {
    const single = createSitemaps(result.pages, result.config, () => undefined).get('sitemap.xml')!;
    const locs = (xml: string) => [...xml.matchAll(/<url><loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    const all = locs(single);
    expect(all.length).toBeGreaterThan(7);
    const split = createSitemaps(
      result.pages,
      result.config,
      (page) => (page.url.includes('aktuelt') ? '2026-03-01' : undefined),
      3,
    );
    const parts = [...split.keys()]
      .filter((file) => file !== 'sitemap.xml')
      .sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
    expect(parts.length).toBe(Math.ceil(all.length / 3));
    expect(parts.flatMap((file) => locs(split.get(file)!))).toEqual(all);
    const index = split.get('sitemap.xml')!;
    expect(index).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect([...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1])).toEqual(
      parts.map((file) => `https://fixture.example/${file}`),
    );
    expect(index).toContain('<lastmod>2026-03-01</lastmod>');
    expect(text('robots.txt')).toContain('Sitemap: https://fixture.example/sitemap.xml');
  });
});

describe('a preview deploy at another origin', () => {
  it('names the preview origin everywhere and keeps every page out of search engines', async () => {
    const preview = await buildSite({
      config,
      cache: false,
      workers: 0,
      deploy: { origin: 'https://preview-7.fixture.pages.dev', preview: true },
    });
    const file = (path: string) => String(preview.files.get(path));
    expect(file('robots.txt')).toBe('User-agent: *\nDisallow: /\n');
    expect(file('sitemap.xml')).toContain('<loc>https://preview-7.fixture.pages.dev/aktuelt/</loc>');
    expect(file('sitemap.xml')).not.toContain('fixture.example/');
    expect(file('aktuelt/rss.xml')).toContain('<link>https://preview-7.fixture.pages.dev/aktuelt/new-tool/</link>');
    const pages = preview.pages.filter((page) => !page.notFound);
    for (const page of pages) {
      const html = file(page.file);
      expect(html, page.file).toContain('<meta name="robots" content="noindex" />');
      expect(html, page.file).toContain('<link rel="canonical" href="https://preview-7.fixture.pages.dev/');
    }
    // The production build is indexable.
    expect(text('aktuelt/index.html')).not.toContain('content="noindex"');
  });
});
