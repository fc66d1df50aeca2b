/**
 * Every rule about URL paths, in one pure module: locale prefixes, the trailing-slash policy,
 * output files, aliases, and the locale a path belongs to.
 *
 * Vocabulary: a *route path* is the path as written in the config ("/hub/product"); a *page path*
 * is the path of one page in one locale ("/no/hub/product"); a *URL* is what links, canonicals,
 * hreflang and the sitemap name, and what a static host serves with status 200 ("/no/hub/product/").
 */

/** The folder of the output that holds the built, content-hashed assets (stylesheet, island scripts). */
export const assetsFolder = 'assets';

/** The folder of the search index (`search.enabled`) in the output, and in the URL under `site.base`. */
export const searchIndexFolder = 'pagefind';

/** The URL of the search index's script, which the search page's island loads (root-relative: the renderer puts `site.base` in front). */
export const searchScriptUrl = `/${searchIndexFolder}/pagefind.js`;

/** The path facts of the config that the rules need. */
export interface PathRules {
  defaultLocale: string;
  /** Locale id → URL prefix ("" for the default locale, "/no" for Norwegian). */
  prefixes: Record<string, string>;
}

/** Puts a route path under a locale's prefix: ("/", no) → "/no", ("/hub", no) → "/no/hub". */
export function localizePath(routePath: string, locale: string, rules: PathRules): string {
  const prefix = rules.prefixes[locale] ?? '';
  if (routePath === '/') return prefix || '/';
  return prefix + routePath;
}

/** Strips a locale prefix: "/no/hub" → { locale: "no", routePath: "/hub" }; others are default. */
export function splitLocale(pagePath: string, rules: PathRules): { locale: string; routePath: string } {
  for (const [locale, prefix] of Object.entries(rules.prefixes)) {
    if (!prefix) continue;
    if (pagePath === prefix) return { locale, routePath: '/' };
    if (pagePath.startsWith(`${prefix}/`)) return { locale, routePath: pagePath.slice(prefix.length) };
  }
  return { locale: rules.defaultLocale, routePath: pagePath };
}

/**
 * The trailing-slash policy: every page is a folder with an index.html, so its URL ends in "/".
 * Every static host serves "/hub/" from "hub/index.html" with status 200; "/hub" would redirect.
 * Non-ASCII segments are percent-encoded ("/no/arbeidsklær" → "/no/arbeidskl%C3%A6r/").
 */
export function toUrl(pagePath: string): string {
  const withSlash = pagePath === '/' ? '/' : `${pagePath}/`;
  return encodeURI(withSlash);
}

/** The file a page is written to, relative to the output folder: "/no/hub" → "no/hub/index.html". */
export function toOutputFile(pagePath: string): string {
  return pagePath === '/' ? 'index.html' : `${pagePath.slice(1)}/index.html`;
}

/**
 * Whether `path` (a page a visitor's form says it was sent from) is a plain path of this site,
 * one a browser resolves on the site's own host: it starts with a single "/", and holds no "\\"
 * (browsers read "/\\evil.example" as "//evil.example", another host), no "//", no white space or
 * control character, and at most 300 characters. Anything else is stored as no page and never
 * linked to.
 */
export function isPlainSitePath(path: string): boolean {
  return (
    path.length <= 300 &&
    path.startsWith('/') &&
    !path.includes('//') &&
    !path.includes('\\') &&
    !/[\s\u0000-\u001f\u007f]/.test(path)
  );
}

/** The page path a request URL names, or undefined when it leaves the site: "/no/hub/" → "/no/hub". */
export function fromUrl(url: string): string | undefined {
  let path: string;
  try {
    path = decodeURIComponent(url.split(/[?#]/, 1)[0]!);
  } catch {
    return undefined;
  }
  if (!path.startsWith('/') || path.split('/').some((segment) => segment === '..' || segment === '.')) return undefined;
  // A loop, not /\/+$/: that regex retries from every slash of a long run (quadratic), and a
  // request line of 16,000 slashes took 350 ms of CPU.
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 47) end--;
  return end === 0 ? '/' : path.slice(0, end);
}

/** Joins the origin and a URL into an absolute URL. */
export function absoluteUrl(origin: string, url: string): string {
  return origin + url;
}

/**
 * Maps a path under `from` to the same place under `to` ("/workwear/product" with
 * from "/workwear", to "/arbeidsklær" → "/arbeidsklær/product"), or undefined when it is not under `from`.
 */
export function aliasPath(routePath: string, from: string, to: string): string | undefined {
  if (routePath === from) return to;
  if (routePath.startsWith(`${from}/`)) return to + routePath.slice(from.length);
  return undefined;
}

/** The parent route paths of a route path, nearest last: "/hub/blog/x" → ["/", "/hub", "/hub/blog"]. */
export function ancestorPaths(routePath: string): string[] {
  if (routePath === '/') return [];
  const segments = routePath.split('/').slice(1);
  const out = ['/'];
  for (let i = 1; i < segments.length; i++) out.push(`/${segments.slice(0, i).join('/')}`);
  return out;
}
