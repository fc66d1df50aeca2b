/**
 * Vercel's Build Output API (v3): the output folder is `.vercel/output` itself (the recipe builds
 * with `--out .vercel/output`), the site's files go under `static/`, `config.json` holds the
 * routes (security headers, long caching for assets, the trailing-slash policy, the ASCII
 * spellings of non-ASCII paths, and after the file system the 404 page of each locale with status
 * 404), and each form endpoint is an Edge Function, `functions/<path>.func/`.
 */
import { assetCacheControl, securityHeaders } from '../emit/sitemap.js';
import { assetsFolder } from '../routes/paths.js';
import { functionEntry } from './functions.js';
import { asciiRedirects, localeNotFoundPages, type FunctionSource, type HostTarget } from './shared.js';

/** A path as a literal in a route's regular expression. */
const literal = (path: string) => path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The function folder of an endpoint path: "/api/contact" → "functions/api/contact.func". */
const functionFolder = (path: string) => `functions${path}.func`;

export const vercelTarget: HostTarget = {
  staticFolder: 'static/',
  files({ config, pages, scriptHashes, csp, endpoints }) {
    // Paths the trailing-slash rule must leave alone: the endpoints take a POST at their exact path.
    const endpointPaths = endpoints.map(({ settings }) => literal(settings.path.slice(1)));
    const notEndpoint = endpointPaths.length ? `(?!(?:${endpointPaths.join('|')})$)` : '';
    const routes: Record<string, unknown>[] = [
      { src: '^/(.*)$', headers: Object.fromEntries(securityHeaders(scriptHashes, config, csp)), continue: true },
      { src: `^/${assetsFolder}/(.*)$`, headers: { 'Cache-Control': assetCacheControl }, continue: true },
      ...asciiRedirects(config, pages).map(({ from, to }) => ({ src: `^${literal(encodeURI(from))}(?:/(.*))?$`, headers: { Location: `${to}$1` }, status: 301 })),
      // Every page is a folder: "/hub" → "/hub/"; a file never has a slash after it.
      { src: `^/${notEndpoint}((?:[^/]+/)*[^/.]+)$`, headers: { Location: '/$1/' }, status: 308 },
      { src: '^/((?:[^/]+/)*[^/]+\\.\\w+)/$', headers: { Location: '/$1' }, status: 308 },
      { handle: 'filesystem' },
      ...localeNotFoundPages(config).map(({ prefix, url }) => ({ src: prefix ? `^${literal(encodeURI(prefix))}(?:/.*)?$` : '^/.*$', dest: url, status: 404 })),
    ];
    const files = new Map([['config.json', `${JSON.stringify({ version: 3, routes }, null, 2)}\n`]]);
    for (const { settings } of endpoints) files.set(`${functionFolder(settings.path)}/.vc-config.json`, `${JSON.stringify({ runtime: 'edge', entrypoint: 'index.js' }, null, 2)}\n`);
    return files;
  },
  functions: ({ endpoints }) =>
    new Map(endpoints.map((endpoint): [string, FunctionSource] => [
      `${functionFolder(endpoint.settings.path)}/index.js`,
      { name: `vercel-${endpoint.settings.name}`, entry: functionEntry('vercelFunction', [endpoint]) },
    ])),
};
