import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseConfig, type ResolvedConfig } from '../../src/config/load';
import { createPages, type EntryIndex, type Page } from '../../src/routes/pages';
import { repoRoot } from '../helpers/paths';

const posts: EntryIndex[] = [
  {
    collection: 'blog',
    slug: 'both',
    translations: { en: { date: '2026-02-01', term: 'saas' }, no: { date: '2026-02-01', term: 'saas' } },
  },
  { collection: 'blog', slug: 'english-only', translations: { en: { date: '2026-03-01', term: 'retail' } } },
];
const entries = { blog: posts };

let config: ResolvedConfig;
let pages: Page[];
const page = (url: string) => {
  const found = pages.find((candidate) => candidate.url === url);
  if (!found) throw new Error(`no page ${url}`);
  return found;
};
const switchTo = (url: string, locale: string) => page(url).languageLinks.find((link) => link.locale === locale)!.url;

beforeAll(() => {
  config = parseConfig(readFileSync(join(repoRoot, 'site.config.yaml'), 'utf8'), 'site.config.yaml', repoRoot);
  pages = createPages(config, { entries });
});

describe('route expansion', () => {
  it('creates every route in both languages except the single-language ones', () => {
    const urls = new Set(pages.map((entry) => entry.url));
    for (const url of [
      '/',
      '/no/',
      '/hub/',
      '/no/hub/',
      '/hub/launch-campaign/',
      '/no/hub/launch-campaign/',
      '/shop/pricing/',
      '/no/workwear/ourstory/',
      '/terms/',
      '/no/privacy/',
      '/contactus/',
      '/no/ourstory/',
    ]) {
      expect(urls.has(url), url).toBe(true);
    }
    for (const url of ['/hub-presentation-english/', '/hub-presentation-no/', '/admin/blog/', '/admin/settings/']) {
      expect(urls.has(url), url).toBe(true);
      expect(urls.has(`/no${url}`), `/no${url}`).toBe(false);
    }
  });

  it('mirrors /no/workwear and all its subpages at /no/arbeidsklær, canonical to the original', () => {
    const alias = page('/no/arbeidskl%C3%A6r/product/');
    expect(alias.file).toBe('no/arbeidsklær/product/index.html');
    expect(alias.canonical).toBe('https://mendwise.example/no/workwear/product/');
    expect(alias.inSitemap).toBe(false);
    expect(alias.alternates).toEqual([]);
    expect(page('/no/arbeidskl%C3%A6r/').canonical).toBe('https://mendwise.example/no/workwear/');
    expect(pages.filter((entry) => entry.path.startsWith('/no/arbeidsklær')).length).toBe(
      pages.filter((entry) => entry.path.startsWith('/no/workwear')).length,
    );
  });

  it('gives reciprocal en, no and x-default alternates to translated pages', () => {
    expect(page('/hub/pricing/').alternates).toEqual([
      { hreflang: 'en', href: 'https://mendwise.example/hub/pricing/' },
      { hreflang: 'no', href: 'https://mendwise.example/no/hub/pricing/' },
      { hreflang: 'x-default', href: 'https://mendwise.example/hub/pricing/' },
    ]);
    expect(page('/no/hub/pricing/').alternates).toEqual(page('/hub/pricing/').alternates);
  });

  it('switches language by adding or removing /no', () => {
    expect(switchTo('/', 'no')).toBe('/no/');
    expect(switchTo('/no/', 'en')).toBe('/');
    expect(switchTo('/hub/product/', 'no')).toBe('/no/hub/product/');
    expect(switchTo('/no/shop/pricing/', 'en')).toBe('/shop/pricing/');
  });

  it('switches an alias page to the English original', () => {
    expect(switchTo('/no/arbeidskl%C3%A6r/product/', 'en')).toBe('/workwear/product/');
    expect(switchTo('/no/arbeidskl%C3%A6r/', 'en')).toBe('/workwear/');
  });

  it('pairs the two presentation pages', () => {
    expect(switchTo('/hub-presentation-english/', 'no')).toBe('/hub-presentation-no/');
    expect(switchTo('/hub-presentation-no/', 'en')).toBe('/hub-presentation-english/');
    expect(page('/hub-presentation-no/').locale).toBe('no');
  });

  it('sends pages without a counterpart to the other language home', () => {
    expect(switchTo('/auth/', 'no')).toBe('/no/auth/');
    expect(switchTo('/admin/settings/', 'no')).toBe('/no/');
    const notFound = pages.filter((entry) => entry.notFound);
    expect(notFound.map((entry) => entry.file).sort()).toEqual(['404.html', 'no/404.html']);
    expect(
      notFound.find((entry) => entry.locale === 'en')!.languageLinks.find((link) => link.locale === 'no')!.url,
    ).toBe('/no/');
    expect(
      notFound.find((entry) => entry.locale === 'no')!.languageLinks.find((link) => link.locale === 'en')!.url,
    ).toBe('/');
  });

  it('marks auth, admin, presentation and 404 pages noindex and keeps them out of the sitemap', () => {
    for (const url of ['/auth/', '/admin/blog/', '/hub-presentation-english/', '/404.html']) {
      expect(page(url).noindex, url).toBe(true);
      expect(page(url).inSitemap, url).toBe(false);
    }
  });

  it('canonicalises audience copies of a post to the generic post', () => {
    expect(page('/hub/blog/both/').canonical).toBe('https://mendwise.example/blog/both/');
    expect(page('/no/shop/blog/both/').canonical).toBe('https://mendwise.example/no/blog/both/');
    expect(page('/hub/blog/both/').inSitemap).toBe(false);
    expect(page('/blog/both/').inSitemap).toBe(true);
  });

  it('shows an untranslated post under /no in English, canonical to the English post, without a no alternate', () => {
    const fallback = page('/no/blog/english-only/');
    expect(fallback.collection).toMatchObject({ kind: 'entry', collection: 'blog', contentLocale: 'en' });
    expect(fallback.canonical).toBe('https://mendwise.example/blog/english-only/');
    expect(fallback.inSitemap).toBe(false);
    expect(page('/blog/english-only/').alternates).toEqual([]);
    expect(page('/no/hub/blog/english-only/').canonical).toBe('https://mendwise.example/blog/english-only/');
  });

  it('paginates blog lists and adds a page per category', () => {
    const list = page('/blog/');
    expect(list.collection).toMatchObject({
      kind: 'list',
      pageNumber: 1,
      pageCount: 1,
      entries: [
        { slug: 'english-only', locale: 'en', url: '/blog/english-only/' },
        { slug: 'both', locale: 'en', url: '/blog/both/' },
      ],
    });
    expect(page('/no/hub/blog/').collection).toMatchObject({
      entries: [
        { slug: 'english-only', locale: 'en', url: '/no/hub/blog/english-only/' },
        { slug: 'both', locale: 'no', url: '/no/hub/blog/both/' },
      ],
    });
    expect(page('/blog/category/retail/').collection).toMatchObject({ entries: [{ slug: 'english-only' }] });
    expect(page('/blog/category/circularity/').collection).toMatchObject({ entries: [] });
  });

  it('refuses two pages that would write the same file', () => {
    const clash = { ...config, aliases: [...config.aliases, { locale: 'no', from: '/shop', to: '/workwear' }] };
    expect(() => createPages(clash, { entries })).toThrow(/would be written by route/);
  });
});

describe('taxonomy paths per language', () => {
  const localized = (path: string) =>
    parseConfig(
      readFileSync(join(repoRoot, 'site.config.yaml'), 'utf8').replace(
        'path: category, labels: blog.categories',
        `path: ${path}, labels: blog.categories`,
      ),
      'site.config.yaml',
      repoRoot,
    );

  it('puts the term pages of each locale under its own segment, paired as translations', () => {
    const found = createPages(localized('{ en: category, no: kategori }'), { entries });
    const at = (url: string) => found.find((candidate) => candidate.url === url);
    expect(at('/blog/category/saas/')).toBeDefined();
    expect(at('/no/blog/kategori/saas/')).toBeDefined();
    expect(at('/no/blog/category/saas/')).toBeUndefined();
    expect(at('/blog/category/saas/')!.alternates).toContainEqual({
      hreflang: 'no',
      href: 'https://mendwise.example/no/blog/kategori/saas/',
    });
    expect(at('/no/blog/kategori/saas/')!.languageLinks.find((link) => link.locale === 'en')!.url).toBe(
      '/blog/category/saas/',
    );
    // A post's link to its term's page follows the page's language.
    const post = at('/no/blog/both/')!.collection as { termUrl?: string };
    expect(post.termUrl).toBe('/no/blog/kategori/saas/');
  });

  it('refuses a map without the default locale, and a key that is no locale, at their lines', () => {
    const text = readFileSync(join(repoRoot, 'site.config.yaml'), 'utf8').replace(
      'path: category, labels: blog.categories',
      'path: { no: kategori, de: kategorie }, labels: blog.categories',
    );
    const line = text.split('\n').findIndex((each) => each.includes('de: kategorie')) + 1;
    let errors: { code: string; field?: string; line?: number; message: string }[] = [];
    try {
      parseConfig(text, 'site.config.yaml', repoRoot);
    } catch (error) {
      errors = (error as { errors: typeof errors }).errors;
    }
    expect(errors.map(({ code, field, line: at, message }) => ({ code, field, line: at, message }))).toEqual(
      expect.arrayContaining([
        { code: 'UNKNOWN_LOCALE', field: 'collections.blog.taxonomy.path.de', line, message: 'unknown locale "de"' },
        {
          code: 'CONFIG_INVALID',
          field: 'collections.blog.taxonomy.path',
          line,
          message: "the term pages' segment has no en (the default locale)",
        },
      ]),
    );
  });
});
