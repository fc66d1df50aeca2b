/**
 * Serves a built site the way a static host does: "/x/" from "x/index.html", "/x" redirected to
 * "/x/" when that folder exists, the 404 page of the path's language with status 404, the headers
 * of `_headers`, long caching for hashed assets, and the build's precompressed brotli or gzip
 * sibling of a file when the client accepts it (or, for `site serve` of a site built without
 * siblings, the file compressed here once). The files come from a folder (`site serve`) or
 * from memory (`site dev`) through one `StaticSource`, so both answer alike.
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, resolve, sep } from 'node:path';
import { compressText, precompressedCodings } from '../emit/compress.js';
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

/** One file of a source. */
export interface StaticFile {
  size: number;
  /** Stays equal while the file is unchanged (keys the parsed `_headers`). */
  version: unknown;
  /** Sends the contents and ends the response. */
  pipe(response: ServerResponse): void;
  bytes(): Promise<Uint8Array>;
  text(): Promise<string>;
}

/** Where the static handler finds files, by path relative to the site root ("hub/index.html"). */
export interface StaticSource {
  get(path: string): Promise<StaticFile | undefined>;
}

/** The files of a folder; paths that leave it are not found. */
export function directorySource(root: string): StaticSource {
  const base = resolve(root);
  return {
    async get(path) {
      const target = resolve(base, path);
      if (target !== base && !target.startsWith(base + sep)) return undefined;
      const info = await stat(target).catch(() => undefined);
      if (!info?.isFile()) return undefined;
      return {
        size: info.size,
        version: `${info.mtimeMs}:${info.size}`,
        pipe: (response) => void createReadStream(target).pipe(response),
        bytes: () => readFile(target),
        text: () => readFile(target, 'utf8'),
      };
    },
  };
}

/** The files of an in-memory build (path → contents), read afresh on every request. */
export function memorySource(files: () => ReadonlyMap<string, string | Uint8Array> | undefined): StaticSource {
  return {
    async get(path) {
      const data = files()?.get(path);
      if (data === undefined) return undefined;
      const bytes = typeof data === 'string' ? Buffer.from(data) : data;
      return {
        size: bytes.byteLength,
        version: data,
        pipe: (response) => response.end(bytes),
        bytes: async () => bytes,
        text: async () => (typeof data === 'string' ? data : Buffer.from(bytes).toString('utf8')),
      };
    },
  };
}

/** Options of the static handler. */
export interface StaticOptions {
  /** Prefixes of non-default locales ("/no"), to pick the 404 page of a path's language. */
  localePrefixes: readonly string[];
  /**
   * Compress a text file that has no precompressed sibling (a site built with
   * `output.precompress: false`) once, and keep the result while the file is unchanged.
   */
  compressMissing?: boolean;
}

/** Creates a request handler for the files of a folder (`root`) or of any other source. */
export async function createStaticHandler(root: string | StaticSource, options: StaticOptions) {
  const source = typeof root === 'string' ? directorySource(root) : root;
  let parsedHeaders: { version: unknown; rules: HeaderRules } | undefined;
  const compressed = new Map<string, { version: unknown; data: Buffer | undefined }>();

  /** A compressed form of a file made here, for a coding the client accepts. */
  async function compressHere(path: string, file: StaticFile, coding: (typeof precompressedCodings)[number]['coding']): Promise<Buffer | undefined> {
    const key = `${path}\0${coding}`;
    let entry = compressed.get(key);
    if (!entry || entry.version !== file.version) {
      entry = { version: file.version, data: compressText(path, await file.bytes(), coding) };
      compressed.set(key, entry);
    }
    return entry.data;
  }

  async function headerRules(): Promise<HeaderRules> {
    const file = await source.get('_headers');
    if (!file) return [];
    if (!parsedHeaders || parsedHeaders.version !== file.version) parsedHeaders = { version: file.version, rules: parseHeaders(await file.text()) };
    return parsedHeaders.rules;
  }

  /** The file a path names, or the index.html of the folder it names (`folder: true`). */
  async function findFile(pagePath: string): Promise<{ path: string; file: StaticFile; folder: boolean } | undefined> {
    // "//hub" and "/hub//x" name the folders "hub" and "hub/x", as on disk.
    const path = pagePath.split('/').filter(Boolean).join('/');
    const file = path === '' ? undefined : await source.get(path);
    if (file) return { path, file, folder: false };
    const index = path === '' ? 'index.html' : `${path}/index.html`;
    const indexFile = await source.get(index);
    return indexFile ? { path: index, file: indexFile, folder: true } : undefined;
  }

  async function send(request: IncomingMessage, response: ServerResponse, found: { path: string; file: StaticFile }, status: number, urlPath: string) {
    const extension = extname(found.path);
    const headers: Record<string, string> = { 'content-type': contentTypes[extension] ?? 'application/octet-stream', vary: 'accept-encoding' };
    for (const [name, value] of headersFor(await headerRules(), urlPath)) headers[name.toLowerCase()] = value;
    headers['cache-control'] ??= extension === '.html' ? 'no-cache' : 'public, max-age=3600';
    // A 404 page is not the asset its path names: never cache it for good ("/assets/*" is immutable).
    if (status !== 200) headers['cache-control'] = 'no-cache';
    // The build writes "x.br" and "x.gz" beside each text file (src/emit/compress.ts): send the
    // preferred one the client accepts, or else the file itself.
    const accept = String(request.headers['accept-encoding'] ?? '');
    for (const { coding, extension: suffix } of precompressedCodings) {
      if (!accepts(accept, coding)) continue;
      const sibling = await source.get(found.path + suffix);
      if (!sibling) continue;
      response.writeHead(status, { ...headers, 'content-encoding': coding, 'content-length': String(sibling.size) });
      if (request.method === 'HEAD') response.end();
      else sibling.pipe(response);
      return;
    }
    const coding = options.compressMissing ? precompressedCodings.find((candidate) => accepts(accept, candidate.coding))?.coding : undefined;
    const data = coding && (await compressHere(found.path, found.file, coding));
    if (coding && data) {
      response.writeHead(status, { ...headers, 'content-encoding': coding, 'content-length': String(data.length) });
      response.end(request.method === 'HEAD' ? undefined : data);
      return;
    }
    response.writeHead(status, { ...headers, 'content-length': String(found.file.size) });
    if (request.method === 'HEAD') response.end();
    else found.file.pipe(response);
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
      if (found.folder && !rawPath.endsWith('/')) {
        const query = (request.url ?? '').slice(rawPath.length);
        // One leading slash: a location of "//hub/" would name another host ("hub").
        response.writeHead(301, { location: `${rawPath.replace(/^\/+/, '/')}/${query}` });
        response.end();
        return;
      }
      await send(request, response, found, 200, rawPath);
      return;
    }
    const prefix = options.localePrefixes.find((candidate) => pagePath === candidate || pagePath?.startsWith(`${candidate}/`));
    const notFoundPath = prefix ? `${prefix.slice(1)}/404.html` : '404.html';
    const notFound = await source.get(notFoundPath);
    if (notFound) await send(request, response, { path: notFoundPath, file: notFound }, 404, rawPath);
    else {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('Not found');
    }
  };
}
