/**
 * Vercel's Build Output API (v3): the output folder is `.vercel/output` itself (the recipe builds
 * with `--out .vercel/output`), the site's files go under `static/`, `config.json` holds the
 * routes (security headers, long caching for assets, the site's redirects, the trailing-slash
 * policy, the ASCII spellings of non-ASCII paths, and after the file system the 404 page of each locale with status
 * 404), and each form endpoint is an Edge Function, `functions/<path>.func/`; with
 * `output.functions.booking`, the booking API's paths are Node.js functions on the Postgres database
 * in `DATABASE_URL`.
 */
import { assetCacheControl, securityHeaders } from '../emit/sitemap.js';
import { assetsFolder } from '../url-paths.js';
import { redirectLocation } from '../routes/redirects.js';
import { functionEntry } from './functions.js';
import { asciiRedirects, localeNotFoundPages, type FunctionSource, type HostTarget } from './shared.js';

/** A path as a literal in a route's regular expression. */
const literal = (path: string) => path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The function folder of an endpoint path: "/api/contact" → "functions/api/contact.func". */
const functionFolder = (path: string) => `functions${path}.func`;

export const vercelTarget: HostTarget = {
  staticFolder: 'static/',
  files({ config, pages, redirects, scriptHashes, csp, searchUrls, endpoints, booking }) {
    // Paths the trailing-slash rule must leave alone: the endpoints take a POST at their exact path.
    const endpointPaths = [
      ...endpoints.map(({ settings }) => settings.path),
      ...(booking ? [booking.path, `${booking.path}/slots`] : []),
    ].map((path) => literal(path.slice(1)));
    const notEndpoint = endpointPaths.length ? `(?!(?:${endpointPaths.join('|')})$)` : '';
    const routes: Record<string, unknown>[] = [
      { src: '^/(.*)$', headers: Object.fromEntries(securityHeaders(scriptHashes, config, csp)), continue: true },
      // The search pages' CSP, which allows the search's WebAssembly, replaces that of every page.
      ...searchUrls.map((url) => ({
        src: `^${literal(encodeURI(url))}?$`,
        headers: Object.fromEntries(securityHeaders(scriptHashes, config, csp, true).slice(0, 1)),
        continue: true,
      })),
      { src: `^/${assetsFolder}/(.*)$`, headers: { 'Cache-Control': assetCacheControl }, continue: true },
      ...redirects.map(({ from, to, status }) => ({
        src: `^${literal(encodeURI(from.replace(/^\/$/, '')))}/?$`,
        headers: { Location: redirectLocation(to) },
        status,
      })),
      ...asciiRedirects(config, pages).map(({ from, to }) => ({
        src: `^${literal(encodeURI(from))}(?:/(.*))?$`,
        headers: { Location: `${to}$1` },
        status: 301,
      })),
      // Every page is a folder: "/hub" → "/hub/"; a file never has a slash after it.
      { src: `^/${notEndpoint}((?:[^/]+/)*[^/.]+)$`, headers: { Location: '/$1/' }, status: 308 },
      { src: '^/((?:[^/]+/)*[^/]+\\.\\w+)/$', headers: { Location: '/$1' }, status: 308 },
      { handle: 'filesystem' },
      ...localeNotFoundPages(config).map(({ prefix, url }) => ({
        src: prefix ? `^${literal(encodeURI(prefix))}(?:/.*)?$` : '^/.*$',
        dest: url,
        status: 404,
      })),
    ];
    const files = new Map([['config.json', `${JSON.stringify({ version: 3, routes }, null, 2)}\n`]]);
    for (const { settings } of endpoints)
      files.set(
        `${functionFolder(settings.path)}/.vc-config.json`,
        `${JSON.stringify({ runtime: 'edge', entrypoint: 'index.js' }, null, 2)}\n`,
      );
    for (const path of booking ? bookingPaths(booking.path) : [])
      files.set(`${functionFolder(path)}/.vc-config.json`, `${JSON.stringify(nodeFunctionConfig, null, 2)}\n`);
    return files;
  },
  functions: ({ endpoints, booking }) =>
    new Map([
      ...endpoints.map((endpoint): [string, FunctionSource] => [
        `${functionFolder(endpoint.settings.path)}/index.js`,
        { name: `vercel-${endpoint.settings.name}`, entry: functionEntry('vercelFunction', [endpoint]) },
      ]),
      ...(booking ? bookingPaths(booking.path) : []).map((path): [string, FunctionSource] => [
        `${functionFolder(path)}/index.mjs`,
        {
          name: `vercel-${booking!.name}`,
          entry: functionEntry('vercelNodeFunction', [], false, { settings: booking!, store: 'url-store' }),
          platform: 'node',
        },
      ]),
    ]),
};

/**
 * The paths of the booking API, each a function of its own (one bundle, written to each): a
 * function answers only its own path, and a rewrite would hand it another URL than the one asked.
 */
const bookingPaths = (path: string) => [path, `${path}/slots`, `${path}/calendar.ics`];

/**
 * The booking's functions run on Node.js, not on the Edge: its Postgres driver needs Node's
 * sockets. `launcherType: Nodejs` calls the default export with Node's (req, res).
 */
const nodeFunctionConfig = {
  runtime: 'nodejs20.x',
  handler: 'index.mjs',
  launcherType: 'Nodejs',
  shouldAddHelpers: false,
};
