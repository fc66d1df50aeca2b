/**
 * The site's Content-Security-Policy, in one place: sent as a header by the hosts that read
 * `_headers` (or their own config), and written into every page's head where headers are
 * impossible (GitHub Pages). Inline scripts are allowed by hash only.
 */
import type { ResolvedConfig } from '../config/load.js';
import type { CspAdditions } from './plugin-head.js';

/**
 * The policy text. As a `<meta>` it leaves out `frame-ancestors`, which browsers ignore there
 * (and complain about in the console): a page on a host without headers can be framed.
 * `plugins` are the sources the site plugins' head tags and the config's third parties
 * (`analytics:`, `head:`) need (plugin-head.ts), allowed exactly: a directive without any keeps
 * its text of a site without them.
 * `search` is set for the search page alone: Pagefind's script compiles its WebAssembly search
 * engine (`'wasm-unsafe-eval'`, which allows WebAssembly only, not JavaScript's eval) and fetches
 * the index from the site (`connect-src 'self'`, as every page has).
 */
export function contentSecurityPolicy(
  config: ResolvedConfig,
  scriptHashes: readonly string[],
  delivery: 'header' | 'meta' = 'header',
  plugins?: CspAdditions,
  search = false,
): string {
  const endpoint = config.contact.endpoint;
  const external = /^https?:\/\//.test(endpoint) ? ` ${new URL(endpoint).origin}` : '';
  const more = (sources: readonly string[] | undefined) => (sources?.length ? ` ${sources.join(' ')}` : '');
  return [
    "default-src 'self'",
    `script-src 'self' ${[...(search ? ["'wasm-unsafe-eval'"] : []), ...scriptHashes, ...(plugins?.scriptSrc ?? [])].join(' ')}`,
    `style-src 'self'${more(plugins?.styleSrc)}`,
    `img-src 'self' data:${more(plugins?.imgSrc)}`,
    `connect-src 'self'${external}${more(plugins?.connectSrc)}`,
    ...(plugins?.frameSrc.length ? [`frame-src 'self'${more(plugins.frameSrc)}`] : []),
    `form-action 'self'${external}`,
    ...(delivery === 'header' ? ["frame-ancestors 'none'"] : []),
    "base-uri 'self'",
    "object-src 'none'",
  ].join('; ');
}

/** Whether a route is the search page's (`search.path`, in every locale) of a site with search on. */
export function isSearchPage(config: ResolvedConfig, routePath: string): boolean {
  return config.search.enabled && routePath === config.search.path;
}
