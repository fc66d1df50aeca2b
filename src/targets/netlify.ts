/**
 * Netlify: `_headers` (as `site serve` reads it), `_redirects` (the form endpoints rewritten to
 * their functions, the ASCII spellings of non-ASCII paths, the 404 page of each locale with status
 * 404) and a function per endpoint, `netlify/functions/<name>.mjs` (the recipe in the README points
 * Netlify's `functions` setting there).
 */
import { createHeaders } from '../emit/sitemap.js';
import { urlsOf } from '../routes/urls.js';
import { functionEntry } from './functions.js';
import { asciiRedirects, localeNotFoundPages, type FunctionSource, type HostTarget } from './shared.js';

/** The folder of the output the functions are written into. */
export const netlifyFunctionsFolder = 'netlify/functions';

export const netlifyTarget: HostTarget = {
  staticFolder: '',
  files({ config, pages, scriptHashes, csp, endpoints }) {
    const lines: string[] = [];
    if (endpoints.length) {
      lines.push('# Form endpoints, answered by their functions');
      for (const { settings } of endpoints) lines.push(`${settings.path}  /.netlify/functions/${settings.name}  200`);
      lines.push('# The functions are not pages', `/${netlifyFunctionsFolder.split('/')[0]}/*  ${urlsOf(config).notFound(config.site.defaultLocale).url}  404!`);
    }
    const redirects = asciiRedirects(config, pages);
    if (redirects.length) lines.push('# ASCII spellings of paths with other letters');
    for (const { from, to } of redirects) lines.push(`${encodeURI(from)}  ${to}  301`, `${encodeURI(from)}/*  ${to}:splat  301`);
    lines.push('# The 404 page of each language, with status 404, for paths with no file');
    for (const { prefix, url } of localeNotFoundPages(config)) lines.push(`${prefix}/*  ${url}  404`);
    return new Map([
      ['_headers', createHeaders(scriptHashes, config, csp)],
      ['_redirects', `${lines.join('\n')}\n`],
    ]);
  },
  functions: ({ endpoints }) =>
    new Map(endpoints.map((endpoint): [string, FunctionSource] => [
      `${netlifyFunctionsFolder}/${endpoint.settings.name}.mjs`,
      { name: `netlify-${endpoint.settings.name}`, entry: functionEntry('netlifyFunction', [endpoint]) },
    ])),
};
