/**
 * sitemap.xml, robots.txt and the host files, as pure text from the page list. A page's `lastmod`
 * is the date of what it shows from a collection (an entry's `updated`, else its `date`; a list
 * page's newest entry); pages with no dated input have none rather than the clock's date, so the
 * output stays deterministic.
 */
import type { ResolvedConfig } from '../config/load.js';
import type { Entry } from '../content/collections.js';
import type { Page } from '../routes/pages.js';
import { contentSecurityPolicy } from '../render/csp.js';
import type { CspAdditions } from '../render/plugin-head.js';
import { escapeHtml } from '../render/html.js';
import { siteRootOf, urlsOf } from '../routes/urls.js';

/** The most URLs one sitemap file may list (sitemaps.org). */
export const sitemapLimit = 50_000;

/** The date (YYYY-MM-DD) of what each page shows from a collection, when it shows anything dated. */
export function lastModifiedOf(
  entries: Readonly<Record<string, readonly Entry[]>>,
): (page: Page) => string | undefined {
  const bySlug = new Map(
    Object.entries(entries).map(([name, list]) => [name, new Map(list.map((entry) => [entry.slug, entry]))]),
  );
  const dateOf = (collection: string, slug: string, locale: string) => {
    const translation = bySlug.get(collection)?.get(slug)?.translations[locale];
    return translation && (translation.updated ?? translation.date);
  };
  return (page) => {
    const data = page.collection;
    if (!data) return undefined;
    if (data.kind === 'entry') return dateOf(data.collection, data.slug, data.contentLocale);
    let newest: string | undefined;
    for (const listed of data.entries) {
      const date = dateOf(data.collection, listed.slug, listed.locale);
      if (date !== undefined && (newest === undefined || date > newest)) newest = date;
    }
    return newest;
  };
}

/**
 * The sitemap files: indexable canonical pages only, each with its hreflang alternates and its
 * `lastmod` when known. Up to `limit` URLs: sitemap.xml lists them; above it, they are split into
 * sitemap-1.xml, sitemap-2.xml, … and sitemap.xml is the index of those.
 */
export function createSitemaps(
  pages: readonly Page[],
  config: ResolvedConfig,
  lastModified: (page: Page) => string | undefined,
  limit = sitemapLimit,
): Map<string, string> {
  const urls = pages
    .filter((page) => page.inSitemap)
    .map((page) => {
      const links = page.alternates.map(
        (alternate) =>
          `<xhtml:link rel="alternate" hreflang="${escapeHtml(alternate.hreflang)}" href="${escapeHtml(alternate.href)}"/>`,
      );
      const date = lastModified(page);
      return {
        date,
        xml: `<url><loc>${escapeHtml(siteRootOf(config) + page.url)}</loc>${date ? `<lastmod>${date}</lastmod>` : ''}${links.join('')}</url>`,
      };
    });
  const urlset = (list: typeof urls) =>
    [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
      ...list.map((url) => url.xml),
      '</urlset>',
      '',
    ].join('\n');
  if (urls.length <= limit) return new Map([['sitemap.xml', urlset(urls)]]);
  const files = new Map<string, string>();
  const index: string[] = [];
  for (let start = 0, part = 1; start < urls.length; start += limit, part++) {
    const list = urls.slice(start, start + limit);
    const file = `sitemap-${part}.xml`;
    files.set(file, urlset(list));
    const newest = list.reduce<string | undefined>(
      (latest, url) => (url.date && (!latest || url.date > latest) ? url.date : latest),
      undefined,
    );
    index.push(
      `<sitemap><loc>${escapeHtml(`${siteRootOf(config)}/${file}`)}</loc>${newest ? `<lastmod>${newest}</lastmod>` : ''}</sitemap>`,
    );
  }
  files.set(
    'sitemap.xml',
    [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      ...index,
      '</sitemapindex>',
      '',
    ].join('\n'),
  );
  return files;
}

/**
 * robots.txt: the disallowed paths of the config (under the base path), and where the sitemap (or
 * the sitemap index) is. Crawlers read it only at the domain's root: under a base, copy its lines there.
 */
export function createRobots(config: ResolvedConfig): string {
  // A preview deploy is kept out of search engines altogether.
  if (config.preview) return ['User-agent: *', 'Disallow: /', ''].join('\n');
  const disallow = [...config.robots.disallow].sort().map((path) => `Disallow: ${config.site.base}${path}`);
  return [
    'User-agent: *',
    ...(disallow.length ? disallow : ['Disallow:']),
    '',
    `Sitemap: ${siteRootOf(config)}/sitemap.xml`,
    '',
  ].join('\n');
}

/** The security headers of every page (the CSP allows the inline scripts of `scriptHashes`; `search` for the search page). */
export function securityHeaders(
  scriptHashes: readonly string[],
  config: ResolvedConfig,
  plugins?: CspAdditions,
  search = false,
): [name: string, value: string][] {
  return [
    ['Content-Security-Policy', contentSecurityPolicy(config, scriptHashes, 'header', plugins, search)],
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', 'strict-origin-when-cross-origin'],
    ['X-Frame-Options', 'DENY'],
    ['Cross-Origin-Opener-Policy', 'same-origin'],
    ['Permissions-Policy', 'camera=(), microphone=(), geolocation=(), interest-cohort=()'],
    ['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'],
  ];
}

/** The caching of built assets, whose names carry a content hash. */
export const assetCacheControl = 'public, max-age=31536000, immutable';

/**
 * Netlify/Cloudflare-style `_headers`: security headers for every page, long caching for hashed
 * assets. The search pages (`searchUrls`) get their own CSP, which allows the search's
 * WebAssembly: Cloudflare (and `site serve`) join the values of a header that two rules give, so
 * the page's first drops the policy of every page (`! Name`, `detach`); Netlify lets the later
 * rule's value win, and knows no `!` line.
 */
export function createHeaders(
  scriptHashes: readonly string[],
  config: ResolvedConfig,
  plugins?: CspAdditions,
  searchUrls: readonly string[] = [],
  detach = true,
): string {
  const searchCsp = contentSecurityPolicy(config, scriptHashes, 'header', plugins, true);
  return [
    '/*',
    ...securityHeaders(scriptHashes, config, plugins).map(([name, value]) => `  ${name}: ${value}`),
    '',
    ...searchUrls.flatMap((url) => [
      url,
      ...(detach ? ['  ! Content-Security-Policy'] : []),
      `  Content-Security-Policy: ${searchCsp}`,
      '',
    ]),
    urlsOf(config).assetsPattern,
    `  Cache-Control: ${assetCacheControl}`,
    '',
  ].join('\n');
}
