/**
 * Netlify: `_headers` (as `site serve` reads it), `_redirects` (the form endpoints rewritten to
 * their functions, the site's redirects, the ASCII spellings of non-ASCII paths, the 404 page of each locale with status
 * 404) and a function per endpoint, `netlify/functions/<name>.mjs` (the recipe in docs/deploying.md points
 * Netlify's `functions` setting there); the booking's, with `output.functions.booking`, answers its
 * path and the paths below it from the Postgres database in `DATABASE_URL`.
 */
import { createHeaders } from '../emit/sitemap.js';
import { urlsOf } from '../routes/urls.js';
import { functionEntry } from './functions.js';
import {
  asciiRedirects,
  localeNotFoundPages,
  siteRedirectLines,
  type FunctionSource,
  type HostTarget,
} from './shared.js';

/** The folder of the output the functions are written into. */
export const netlifyFunctionsFolder = 'netlify/functions';

export const netlifyTarget: HostTarget = {
  staticFolder: '',
  files({ config, pages, redirects, scriptHashes, csp, searchUrls, endpoints, booking }) {
    const lines: string[] = [];
    if (endpoints.length || booking) {
      lines.push('# Form endpoints, answered by their functions');
      for (const { settings } of endpoints) lines.push(`${settings.path}  /.netlify/functions/${settings.name}  200`);
      if (booking)
        lines.push(
          `${booking.path}  /.netlify/functions/${booking.name}  200`,
          `${booking.path}/*  /.netlify/functions/${booking.name}/:splat  200`,
        );
      lines.push(
        '# The functions are not pages',
        `/${netlifyFunctionsFolder.split('/')[0]}/*  ${urlsOf(config).notFound(config.site.defaultLocale).url}  404!`,
      );
    }
    if (redirects.length) lines.push('# Old paths that are not pages any more', ...siteRedirectLines(redirects));
    const spellings = asciiRedirects(config, pages);
    if (spellings.length) lines.push('# ASCII spellings of paths with other letters');
    for (const { from, to } of spellings)
      lines.push(`${encodeURI(from)}  ${to}  301`, `${encodeURI(from)}/*  ${to}:splat  301`);
    lines.push('# The 404 page of each language, with status 404, for paths with no file');
    for (const { prefix, url } of localeNotFoundPages(config)) lines.push(`${prefix}/*  ${url}  404`);
    return new Map([
      ['_headers', createHeaders(scriptHashes, config, csp, searchUrls, false)],
      ['_redirects', `${lines.join('\n')}\n`],
    ]);
  },
  functions: ({ endpoints, booking }) =>
    new Map([
      ...endpoints.map((endpoint): [string, FunctionSource] => [
        `${netlifyFunctionsFolder}/${endpoint.settings.name}.mjs`,
        { name: `netlify-${endpoint.settings.name}`, entry: functionEntry('netlifyFunction', [endpoint]) },
      ]),
      // Netlify's functions run on Node, which the booking's Postgres driver needs.
      ...(booking
        ? [
            [
              `${netlifyFunctionsFolder}/${booking.name}.mjs`,
              {
                name: `netlify-${booking.name}`,
                entry: functionEntry('netlifyFunction', [], false, { settings: booking, store: 'url-store' }),
                platform: 'node',
              },
            ] as [string, FunctionSource],
          ]
        : []),
    ]),
};
