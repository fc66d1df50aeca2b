/**
 * Serving a site built for a path (`site.base`, e.g. "/mendwise") the way its host will: the pages
 * at "/mendwise/…", "/" sent there, "/mendwise" to "/mendwise/". The steps after this one see the
 * path without the base (the output folder, `_headers` and the API know no base), and every
 * redirect they answer gets the base back in its Location (a cookie's Path likewise). The API endpoints ("/api/…") and the
 * dev server's own paths ("/__site/…") are answered outside the base too: the admin's islands
 * call them there. Anything else outside the base is 404.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { withBaseUrl } from '../render/base-path.js';

/** Paths that are answered whatever the base: the APIs and the dev server's own. */
const originPaths = /^\/(?:api|__site)(?:\/|$)/;

/**
 * Takes the base off the request's path (true: hand the request on), or answers it (false): a
 * redirect into the base, or 404 for a path outside it. With no base, hands every request on.
 */
export function enterBase(request: IncomingMessage, response: ServerResponse, base: string): boolean {
  if (!base) return true;
  const target = request.url ?? '/';
  const cut = target.search(/[?#]/);
  const path = cut < 0 ? target : target.slice(0, cut);
  const query = cut < 0 ? '' : target.slice(cut);
  if (path === base || path === '/') {
    response.writeHead(path === '/' ? 302 : 301, { location: `${base}/${query}`, 'cache-control': 'no-store' });
    response.end();
    return false;
  }
  if (path.startsWith(`${base}/`)) request.url = target.slice(base.length);
  else if (!originPaths.test(path)) {
    response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
    response.end(`Not found. This site is served under ${base}/\n`);
    return false;
  }
  putBaseInLocations(response, base);
  return true;
}

/**
 * Makes every root-relative Location the response sends start with the base, and the Path of a
 * cookie scoped to one part of the site (the booking's, `Path=/api/booking`) too. A cookie for the
 * whole origin (`Path=/`, the admin's session) stays as it is: the admin calls its API outside the base.
 */
function putBaseInLocations(response: ServerResponse, base: string): void {
  const cookie = (value: string) =>
    value.replace(/(;\s*Path=)(\/[^;]+)/i, (whole, name: string, path: string) =>
      path === '/' ? whole : name + withBaseUrl(path, base),
    );
  const fix = (name: string, value: unknown): unknown => {
    const lower = name.toLowerCase();
    if (lower === 'location' && typeof value === 'string') return withBaseUrl(value, base);
    if (lower === 'set-cookie')
      return typeof value === 'string'
        ? cookie(value)
        : Array.isArray(value)
          ? value.map((each) => (typeof each === 'string' ? cookie(each) : each))
          : value;
    return value;
  };
  const setHeader = response.setHeader.bind(response);
  response.setHeader = (name, value) => setHeader(name, fix(name, value) as typeof value);
  const writeHead = response.writeHead.bind(response) as (...args: unknown[]) => ServerResponse;
  response.writeHead = ((...args: unknown[]) => {
    const headers = args.find(
      (arg, index) => index > 0 && typeof arg === 'object' && arg !== null && !Array.isArray(arg),
    ) as OutgoingHttpHeaders | undefined;
    if (headers) for (const name of Object.keys(headers)) headers[name] = fix(name, headers[name]) as string;
    return writeHead(...args);
  }) as ServerResponse['writeHead'];
}
