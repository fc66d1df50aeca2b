/**
 * Every URL shape of a site, made from its config in one place: pages in a locale, the 404 page
 * of each locale, collection lists (term pages, further pages), entries, feeds, assets and the
 * contact form's result pages. Route expansion, the feed, `site serve`, `site dev` and the
 * templates (through the site context) all ask this object; the rules underneath are the pure
 * functions of paths.ts.
 */
import type { ResolvedConfig } from '../config/load.js';
import type { RouteConfig } from '../config/schema.js';
import { navigationRoutePath } from '../config/schema.js';
import {
  absoluteUrl,
  aliasPath,
  assetsFolder,
  localizePath,
  splitLocale,
  toOutputFile,
  toUrl,
  type PathRules,
} from '../url-paths.js';

/** A place in the output: the page path, the URL links name, and the file it is written to. */
export interface Place {
  path: string;
  url: string;
  file: string;
}

/** The URL rules of one site. */
export interface Urls {
  /** The page path of a route path in a locale ("/hub", no → "/no/hub"). */
  pagePath(routePath: string, locale: string): string;
  /** The URL of a route path in a locale ("/hub", no → "/no/hub/"). */
  page(routePath: string, locale: string): string;
  /** Where a page path is written and linked. */
  place(pagePath: string): Place;
  /** The route path of a page path, without its locale prefix ("/no/hub" → "/hub"). */
  routePathOf(pagePath: string): string;
  /** The 404 page of a locale: "404.html", "no/404.html". */
  notFound(locale: string): Place;
  /** The 404 file for a requested page path: the one of the path's locale. */
  notFoundFileFor(pagePath: string): string;
  /** The route path of a list page: ("/blog", retail, 2) → "/blog/category/retail/page/2". */
  listPath(listPath: string, collection: string, term: string | undefined, pageNumber: number, locale?: string): string;
  /** The route path of an entry: ("/blog/{slug}", "a-post") → "/blog/a-post". */
  entryPath(entryPattern: string, slug: string): string;
  /**
   * The route that lists (`list`) or shows the entries of (`entry`) a collection for a section:
   * the one of the same audience, else the one without an audience; `anyway` falls back to the
   * first such route (the feed, which belongs to no section, needs one whatever the audiences).
   */
  collectionRoute(
    collection: string,
    kind: 'list' | 'entry',
    audience: string | undefined,
    anyway?: boolean,
  ): RouteConfig | undefined;
  /** The feed of a collection in a locale, when the collection has one (RSS). */
  feed(collection: string, locale: string): Place | undefined;
  /** The JSON Feed beside it: feed.json beside rss.xml, else the RSS feed's name ending in .json. */
  jsonFeed(collection: string, locale: string): Place | undefined;
  /** The URL pattern every built asset matches (for `_headers`). */
  assetsPattern: string;
  /** Where a plain contact form POST lands: "/contactus/sent/", "/no/contactus/failed/". */
  contactResult(outcome: 'sent' | 'failed', locale: string): string;
  /** Where a booking form sent without JavaScript lands: the booked or failed page of a locale. */
  bookingResult(outcome: 'booked' | 'failed', locale: string): string;
  /** The route path of a navigation item for an audience ("/{audience}/blog", /hub → "/hub/blog"). */
  navigation(pattern: string, audiencePath: string): string;
  /** An absolute URL of the site: origin, base path (`site.base`), URL. */
  absolute(url: string): string;
}

const made = new WeakMap<ResolvedConfig, Urls>();

/** The URL rules of a config (one object per config). */
export function urlsOf(config: ResolvedConfig): Urls {
  const cached = made.get(config);
  if (cached) return cached;
  const rules = pathRulesOf(config);
  const localized = localizedPathsOf(config);
  const pagePath = (routePath: string, locale: string) =>
    localizePath(translatePath(routePath, localized[locale]), locale, rules);
  const place = (path: string): Place => ({ path, url: toUrl(path), file: toOutputFile(path) });
  const notFound = (locale: string): Place => {
    const path = pagePath('/404', locale);
    const home = pagePath('/', locale);
    const file = home === '/' ? '404.html' : `${home.slice(1)}/404.html`;
    return { path, url: `/${file}`, file };
  };
  const collectionRoute: Urls['collectionRoute'] = (collection, kind, audience, anyway = false) => {
    const routes = config.routes.filter((route) => route[kind] === collection);
    return (
      routes.find((route) => route.audience === audience) ??
      routes.find((route) => !route.audience) ??
      (anyway ? routes[0] : undefined)
    );
  };
  const urls: Urls = {
    pagePath,
    page: (routePath, locale) => toUrl(pagePath(routePath, locale)),
    place,
    routePathOf: (path) => splitLocale(path, rules).routePath,
    notFound,
    notFoundFileFor: (path) => notFound(splitLocale(path, rules).locale).file,
    listPath(listPath, collection, term, pageNumber, locale = config.site.defaultLocale) {
      const settings = config.collections[collection]!;
      const first =
        term === undefined
          ? listPath
          : `${listPath}/${taxonomySegment(settings.taxonomy!.path, locale, config)}/${term}`;
      return pageNumber === 1 ? first : `${first}/${settings.pagePath}/${pageNumber}`;
    },
    entryPath: (pattern, slug) => pattern.replace('{slug}', slug),
    collectionRoute,
    feed(collection, locale) {
      const feed = config.collections[collection]?.feed;
      if (!feed) return undefined;
      const routePath =
        feed === true
          ? `${collectionRoute(collection, 'list', undefined, true)?.path.replace(/^\/$/, '') ?? ''}/rss.xml`
          : feed;
      const slash = routePath.lastIndexOf('/');
      const folder = pagePath(routePath.slice(0, slash) || '/', locale);
      const url = `${folder === '/' ? '' : folder}${routePath.slice(slash)}`;
      return { path: url, url: encodeURI(url), file: url.slice(1) };
    },
    jsonFeed(collection, locale) {
      const feed = urls.feed(collection, locale);
      if (!feed) return undefined;
      const path = feed.path.replace(/(?:\/rss)?\.xml$/, (ending) => (ending === '/rss.xml' ? '/feed.json' : '.json'));
      return { path, url: encodeURI(path), file: path.slice(1) };
    },
    assetsPattern: `/${assetsFolder}/*`,
    contactResult(outcome, locale) {
      const known = config.localeIds.includes(locale) ? locale : config.site.defaultLocale;
      return toUrl(pagePath(config.contact.results[outcome], known));
    },
    bookingResult(outcome, locale) {
      const known = config.localeIds.includes(locale) ? locale : config.site.defaultLocale;
      // Only the built-in booking lands on these pages; a site without `booking:` has none, so its home stands in.
      return toUrl(pagePath(config.booking?.results[outcome] ?? '/', known));
    },
    navigation: navigationRoutePath,
    absolute: (url) => absoluteUrl(siteRootOf(config), url),
  };
  made.set(config, urls);
  return urls;
}

/** Where the site's URLs start: its origin and base path ("https://example.github.io/mendwise"). */
export function siteRootOf(config: Pick<ResolvedConfig, 'site'>): string {
  return config.site.origin + config.site.base;
}

/** One localized path of a route (`paths:`): the route path and what it is in a locale, the `/{slug}` of an entry route cut off. */
type PathTranslation = { from: string; to: string };

/** Locale → the localized route paths of the config, longest first (so "/blog/tips" wins over "/blog"). */
function localizedPathsOf(config: Pick<ResolvedConfig, 'routes'>): Record<string, PathTranslation[]> {
  const out: Record<string, PathTranslation[]> = {};
  const base = (path: string) => path.replace(/\/\{slug\}$/, '') || '/';
  for (const route of config.routes) {
    for (const [locale, path] of Object.entries(route.paths ?? {}))
      (out[locale] ??= []).push({ from: base(route.path), to: base(path) });
  }
  for (const list of Object.values(out))
    list.sort((a, b) => b.from.length - a.from.length || (a.from < b.from ? -1 : 1));
  return out;
}

/** A route path in a locale's words: the longest localized route path it lies under, swapped ("/blog/x", /blog → /blogg: "/blogg/x"). */
function translatePath(routePath: string, translations: readonly PathTranslation[] | undefined): string {
  for (const { from, to } of translations ?? []) {
    const moved = from === '/' ? undefined : aliasPath(routePath, from, to);
    if (moved !== undefined) return moved;
  }
  return routePath;
}

/** The segment of a taxonomy's term pages in a locale: its own (`path: { no: bransje }`), else the default locale's. */
function taxonomySegment(
  path: string | Readonly<Record<string, string>>,
  locale: string,
  config: ResolvedConfig,
): string {
  return typeof path === 'string' ? path : (path[locale] ?? path[config.site.defaultLocale]!);
}

/** The path facts of a config that the pure rules of paths.ts need. */
export function pathRulesOf(config: Pick<ResolvedConfig, 'localeIds' | 'locales' | 'site'>): PathRules {
  const prefixes: Record<string, string> = {};
  for (const id of config.localeIds) prefixes[id] = config.locales[id]!.prefix;
  return { defaultLocale: config.site.defaultLocale, prefixes };
}
