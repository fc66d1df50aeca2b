/**
 * Serves a built site the way a static host does: "/x/" from "x/index.html", "/x" redirected to
 * "/x/" when that folder exists, the 404 page of the path's language with status 404, the headers
 * of `_headers`, long caching for hashed assets, and gzip or brotli when the client accepts it.
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { fromUrl } from '../routes/paths.js';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};
const compressible = new Set(['.html', '.css', '.js', '.mjs', '.json', '.xml', '.txt', '.svg', '.map']);

/** Header rules from a `_headers` file: path pattern → headers. */
export type HeaderRules = { pattern: string; headers: [string, string][] }[];

/** Parses the Netlify/Cloudflare `_headers` format. */
export function parseHeaders(text: string): HeaderRules {
  const rules: HeaderRules = [];
  for (const line of text.split('\n')) {
    if (!line.trim() || line.trim().startsWith('#')) continue;
    if (!/^\s/.test(line)) rules.push({ pattern: line.trim(), headers: [] });
    else {
      const index = line.indexOf(':');
      if (index > 0 && rules.length) rules.at(-1)!.headers.push([line.slice(0, index).trim(), line.slice(index + 1).trim()]);
    }
  }
  return rules;
}

/** Whether an accept-encoding header allows a coding: "gzip" yes, "gzip;q=0" no. */
function accepts(header: string, coding: string): boolean {
  return header.split(',').some((part) => {
    const [name, ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    return name === coding && !params.some((param) => /^q=0(\.0*)?$/.test(param));
  });
}

function headersFor(rules: HeaderRules, path: string): [string, string][] {
  return rules
    .filter((rule) => (rule.pattern.endsWith('*') ? path.startsWith(rule.pattern.slice(0, -1)) : path === rule.pattern))
    .flatMap((rule) => rule.headers);
}

/** Options of the static handler. */
export interface StaticOptions {
  /** Prefixes of non-default locales ("/no"), to pick the 404 page of a path's language. */
  localePrefixes: readonly string[];
}

/** Creates a request handler for the files of `root`; it returns false when it did not answer. */
export async function createStaticHandler(root: string, options: StaticOptions) {
  const base = resolve(root);
  let rules: HeaderRules = [];
  try {
    rules = parseHeaders(await readFile(join(base, '_headers'), 'utf8'));
  } catch {
    rules = [];
  }
  const compressed = new Map<string, { data: Buffer; encoding: string }>();

  async function findFile(pagePath: string): Promise<{ file: string; redirect?: string } | undefined> {
    const target = resolve(base, `.${pagePath}`);
    if (target !== base && !target.startsWith(base + sep)) return undefined;
    const info = await stat(target).catch(() => undefined);
    if (info?.isFile()) return { file: target };
    if (info?.isDirectory()) {
      const index = join(target, 'index.html');
      if (await stat(index).then((s) => s.isFile()).catch(() => false)) return { file: index };
    }
    return undefined;
  }

  async function send(request: IncomingMessage, response: ServerResponse, file: string, status: number, urlPath: string) {
    const extension = extname(file);
    const headers: Record<string, string> = { 'content-type': contentTypes[extension] ?? 'application/octet-stream', vary: 'accept-encoding' };
    for (const [name, value] of headersFor(rules, urlPath)) headers[name.toLowerCase()] = value;
    headers['cache-control'] ??= extension === '.html' ? 'no-cache' : 'public, max-age=3600';
    // A 404 page is not the asset its path names: never cache it for good ("/assets/*" is immutable).
    if (status !== 200) headers['cache-control'] = 'no-cache';
    const accept = String(request.headers['accept-encoding'] ?? '');
    const encoding = accepts(accept, 'br') ? 'br' : accepts(accept, 'gzip') ? 'gzip' : undefined;
    if (encoding && compressible.has(extension)) {
      const key = `${file}:${encoding}`;
      let entry = compressed.get(key);
      if (!entry) {
        const data = await readFile(file);
        entry = {
          encoding,
          data: encoding === 'br' ? brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }) : gzipSync(data, { level: 9 }),
        };
        compressed.set(key, entry);
      }
      response.writeHead(status, { ...headers, 'content-encoding': entry.encoding, 'content-length': String(entry.data.length) });
      response.end(request.method === 'HEAD' ? undefined : entry.data);
      return;
    }
    const info = await stat(file);
    response.writeHead(status, { ...headers, 'content-length': String(info.size) });
    if (request.method === 'HEAD') response.end();
    else createReadStream(file).pipe(response);
  }

  return async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const rawPath = (request.url ?? '/').split(/[?#]/, 1)[0]!;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' });
      response.end('Method not allowed');
      return;
    }
    const pagePath = fromUrl(rawPath);
    const hidden = pagePath !== undefined && /(^|\/)(_headers|_redirects|\.[^/]*)$/.test(pagePath);
    const found = pagePath === undefined || hidden || rawPath.includes('\0') ? undefined : await findFile(pagePath);
    if (found) {
      const isIndex = found.file.endsWith(`${sep}index.html`);
      if (isIndex && !rawPath.endsWith('/')) {
        const query = (request.url ?? '').slice(rawPath.length);
        // One leading slash: a location of "//hub/" would name another host ("hub").
        response.writeHead(301, { location: `${rawPath.replace(/^\/+/, '/')}/${query}` });
        response.end();
        return;
      }
      await send(request, response, found.file, 200, rawPath);
      return;
    }
    const prefix = options.localePrefixes.find((candidate) => pagePath === candidate || pagePath?.startsWith(`${candidate}/`));
    const notFound = prefix ? join(base, `.${prefix}`, '404.html') : join(base, '404.html');
    const exists = await stat(notFound).then((s) => s.isFile()).catch(() => false);
    if (exists) await send(request, response, notFound, 404, rawPath);
    else {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('Not found');
    }
  };
}
