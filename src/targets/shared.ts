/**
 * What the host targets share: the input they are made from, the 404 page of each locale, the
 * site's redirects as lines of a `_redirects` file, and the redirects from the ASCII spellings of
 * non-ASCII paths. Pure: text from the config and pages.
 */
import type { ResolvedConfig } from '../config/load.js';
import type { CspAdditions } from '../render/plugin-head.js';
import type { Page } from '../routes/pages.js';
import { toUrl } from '../url-paths.js';
import { urlsOf } from '../routes/urls.js';
import { asciiSpellings } from '../routes/ascii-spellings.js';
import { redirectLocation, type SiteRedirect } from '../routes/redirects.js';
import type { SiteEndpoint } from './functions.js';
import type { BookingEndpointSettings } from './runtime/booking-endpoint.js';

/** What a target's host files are made from. */
export interface TargetInput {
  config: ResolvedConfig;
  pages: readonly Page[];
  /** The site's redirects: the config's and any code made (routes/redirects.ts `siteRedirects`). */
  redirects: readonly SiteRedirect[];
  /** CSP sources of the inline scripts the pages carry. */
  scriptHashes: readonly string[];
  /** What the site plugins' head tags add to the CSP (render/plugin-head.ts); none without such plugins. */
  csp?: CspAdditions;
  /** The URLs of the search pages (`search.path` in each locale) and the index's worker script, whose CSP allows the search's WebAssembly. */
  searchUrls: readonly string[];
  /** The endpoints the functions answer. */
  endpoints: readonly SiteEndpoint[];
  /** The booking function's settings, when the build has one (`output.functions.booking`). */
  booking?: BookingEndpointSettings;
}

/** A function to bundle: its entry module's source (functions.ts `functionEntry`). */
export interface FunctionSource {
  name: string;
  entry: string;
  /** What it runs on: a web runtime (the default) or Node (functions.ts `bundleFunction`). */
  platform?: 'neutral' | 'node';
}

/** A host: where the site's own files go and what it needs besides them. */
export interface HostTarget {
  /** Folder of the output the pages, assets and feeds are written into ('' for the output itself). */
  staticFolder: string;
  /** Headers, redirects, routes: output path → text. */
  files(input: TargetInput): Map<string, string>;
  /** The functions: output path → what to bundle there. */
  functions(input: TargetInput): Map<string, FunctionSource>;
}

/** The 404 page of a locale under its prefix, longest prefix first, the default locale's last (prefix ""). */
export interface LocaleNotFound {
  locale: string;
  /** "/no"; "" for the default locale. */
  prefix: string;
  /** "/no/404.html". */
  url: string;
}

/** The 404 page of every locale: those with a prefix first, longest first, the default locale last. */
export function localeNotFoundPages(config: ResolvedConfig): LocaleNotFound[] {
  const urls = urlsOf(config);
  return config.localeIds
    .map((locale) => ({ locale, prefix: config.locales[locale]!.prefix, url: urls.notFound(locale).url }))
    .sort((a, b) => b.prefix.length - a.prefix.length || (a.prefix < b.prefix ? -1 : a.prefix > b.prefix ? 1 : 0));
}

/**
 * The site's redirects as `_redirects` lines (Netlify's and Cloudflare's format, first match wins):
 * each old path with and without its trailing slash, to the page's URL or the address elsewhere.
 */
export function siteRedirectLines(redirects: readonly SiteRedirect[]): string[] {
  return redirects.flatMap(({ from, to, status }) => {
    const path = encodeURI(from);
    const location = redirectLocation(to);
    return from === '/'
      ? [`/  ${location}  ${status}`]
      : [`${path}  ${location}  ${status}`, `${path}/  ${location}  ${status}`];
  });
}

/** A redirect of a path and everything under it. */
export interface PathRedirect {
  /** The page path to redirect from ("/no/arbeidsklaer"). */
  from: string;
  /** The URL of the page it goes to ("/no/arbeidskl%C3%A6r/"). */
  to: string;
}

/**
 * Redirects from the ASCII spellings of the alias paths of the config (the `to` of each alias in
 * its locale: "/no/arbeidsklær") to the real ones, for visitors who type the path without the
 * letter; none that would shadow a page of the site.
 */
export function asciiRedirects(config: ResolvedConfig, pages: readonly Page[]): PathRedirect[] {
  const urls = urlsOf(config);
  const existing = new Set(pages.map((page) => page.path));
  const redirects = new Map<string, string>();
  for (const alias of config.aliases) {
    const target = urls.pagePath(alias.to, alias.locale);
    for (const from of asciiSpellings(target)) {
      if (!existing.has(from) && ![...existing].some((path) => path.startsWith(`${from}/`)))
        redirects.set(from, toUrl(target));
    }
  }
  return [...redirects]
    .map(([from, to]) => ({ from, to }))
    .sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
}
