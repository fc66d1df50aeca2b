/**
 * Cloudflare Pages: `_headers`, `_redirects` (the site's redirects, the ASCII spellings of non-ASCII paths; Pages finds
 * the 404 page of each locale itself, the nearest `404.html` up the tree, with status 404) and, when
 * the site has form endpoints or a booking function, a worker in advanced mode: `_worker.js`
 * answers the endpoints (the booking from the D1 database bound as `output.functions.d1Binding`),
 * and `_routes.json` sends only their paths to it. Pages reads both from the output folder (a
 * `functions/` folder would have to sit in the project root, and would be published from here).
 */
import { createHeaders } from '../emit/sitemap.js';
import { functionEntry } from './functions.js';
import { asciiRedirects, siteRedirectLines, type HostTarget } from './shared.js';

export const cloudflareTarget: HostTarget = {
  staticFolder: '',
  files({ config, pages, redirects, scriptHashes, csp, searchUrls, endpoints, booking }) {
    const files = new Map([['_headers', createHeaders(scriptHashes, config, csp, searchUrls)]]);
    const lines = [
      ...siteRedirectLines(redirects),
      ...asciiRedirects(config, pages).flatMap(({ from, to }) => [
        `${encodeURI(from)}  ${to}  301`,
        `${encodeURI(from)}/*  ${to}:splat  301`,
      ]),
    ];
    if (lines.length) files.set('_redirects', `${lines.join('\n')}\n`);
    const include = [
      ...endpoints.map(({ settings }) => settings.path),
      ...(booking ? [booking.path, `${booking.path}/*`] : []),
    ];
    if (include.length) files.set('_routes.json', `${JSON.stringify({ version: 1, include, exclude: [] }, null, 2)}\n`);
    return files;
  },
  functions: ({ endpoints, booking }) =>
    endpoints.length || booking
      ? new Map([
          [
            '_worker.js',
            {
              name: 'cloudflare-worker',
              entry: functionEntry(
                'cloudflareWorker',
                endpoints,
                true,
                booking && { settings: booking, store: 'd1-store' },
              ),
            },
          ],
        ])
      : new Map(),
};
