/**
 * Serves a built site the way a static host does: "/x/" from "x/index.html", "/x" redirected to
 * "/x/" when that folder exists, an old path of `redirects:` answered with its status and Location,
 * a path typed without æ, ø, å redirected to the one that exists,
 * the 404 page of the path's language with status 404, the headers of `_headers`, long caching
 * for hashed assets, validators (ETag, Last-Modified) answered with 304, and the build's
 * precompressed brotli or gzip sibling of a file when the client accepts it
 * (or, for `site serve` of a site built without siblings, the file compressed here once). The
 * files come from a folder (`site serve`) or from memory (`site dev`) through one
 * `StaticSource`, so both answer alike. Dot-files and dot-folders (but `/.well-known/`) are never
 * served, and neither is anything a symbolic link leads to outside the folder, nor a SQLite file
 * under any name (sqlite-files.ts).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile, realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, resolve, sep } from 'node:path';
import { compressText, precompressedCodings } from '../emit/compress.js';
import { isHiddenPath, isWithin } from '../file-paths.js';
import { fromUrl } from '../url-paths.js';
import { isSqliteFile, sqliteKindOf } from './sqlite-files.js';

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
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.pdf': 'application/pdf',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.ics': 'text/calendar; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mp3': 'audio/mpeg',
  '.wasm': 'application/wasm',
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
    else if (line.trim().startsWith('!')) rules.at(-1)?.headers.push(['!', line.trim().slice(1).trim()]);
    else {
      const index = line.indexOf(':');
      if (index > 0 && rules.length)
        rules.at(-1)!.headers.push([line.slice(0, index).trim(), line.slice(index + 1).trim()]);
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

/**
 * The headers `_headers` gives a URL path. A line `! Name` (Cloudflare's way) drops the header of
 * that name an earlier rule gave, so that a later rule can give another value (the search page's CSP).
 */
export function headersFor(rules: HeaderRules, path: string): [string, string][] {
  const headers: [string, string][] = [];
  for (const rule of rules) {
    if (!(rule.pattern.endsWith('*') ? path.startsWith(rule.pattern.slice(0, -1)) : path === rule.pattern)) continue;
    for (const [name, value] of rule.headers) {
      if (name !== '!') headers.push([name, value]);
      else
        for (let index = headers.length - 1; index >= 0; index--)
          if (headers[index]![0].toLowerCase() === value.toLowerCase()) headers.splice(index, 1);
    }
  }
  return headers;
}

/** One file of a source. */
export interface StaticFile {
  size: number;
  /** Stays equal while the file is unchanged (keys the parsed `_headers`). */
  version: unknown;
  /** The entity tag of this version of the file (quoted, as sent). */
  etag: string;
  /** When the file last changed (ms since the epoch), when the source knows. */
  modified?: number;
  /** Sends the contents and ends the response. */
  pipe(response: ServerResponse): void;
  bytes(): Promise<Uint8Array>;
  text(): Promise<string>;
}

/** Where the static handler finds files, by path relative to the site root ("hub/index.html"). */
export interface StaticSource {
  get(path: string): Promise<StaticFile | undefined>;
}

/** The files of a folder; paths that leave it (by name or through a symbolic link) are not found. */
export function directorySource(root: string): StaticSource {
  const base = resolve(root);
  let realBase: Promise<string> | undefined;
  /** Whether each file read so far is a SQLite file, for the version (time and size) it was read at. */
  const sqliteChecked = new Map<string, { version: string; sqlite: boolean }>();
  return {
    async get(path) {
      const target = resolve(base, path);
      if (target !== base && !target.startsWith(base + sep)) return undefined;
      const info = await stat(target).catch(() => undefined);
      if (!info?.isFile()) return undefined;
      realBase ??= realpath(base).catch(() => base);
      const real = await realpath(target).catch(() => undefined);
      if (!real || !isWithin(real, await realBase)) return undefined;
      // A database (or its log) holds accounts and messages: never a file of the site, whatever its name.
      const version = `${info.mtimeMs}:${info.size}`;
      let known = sqliteChecked.get(real);
      if (!known || known.version !== version) {
        known = { version, sqlite: await isSqliteFile(real, info.size) };
        sqliteChecked.set(real, known);
      }
      if (known.sqlite) return undefined;
      return {
        size: info.size,
        version: `${info.mtimeMs}:${info.size}`,
        etag: `W/"${info.size.toString(16)}-${Math.floor(info.mtimeMs).toString(16)}"`,
        modified: Math.floor(info.mtimeMs / 1000) * 1000,
        pipe: (response) => void createReadStream(real).pipe(response),
        bytes: () => readFile(target),
        text: () => readFile(target, 'utf8'),
      };
    },
  };
}

/** The files of an in-memory build: `file` gives a path's contents, asked afresh on every request. */
export function memorySource(
  file: (path: string) => string | Uint8Array | undefined | Promise<string | Uint8Array | undefined>,
): StaticSource {
  return {
    async get(path) {
      const data = await file(path);
      if (data === undefined || (typeof data !== 'string' && sqliteKindOf(data.subarray(0, 16)))) return undefined;
      return memoryFile(data);
    },
  };
}

/** A file served from memory: its bytes, which are also its version. */
export function memoryFile(data: string | Uint8Array): StaticFile {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  return {
    size: bytes.byteLength,
    version: data,
    etag: etagOf(bytes),
    pipe: (response) => response.end(bytes),
    bytes: async () => bytes,
    text: async () => (typeof data === 'string' ? data : Buffer.from(bytes).toString('utf8')),
  };
}

/** Options of the static handler. */
export interface StaticOptions {
  /** The 404 page of a requested page path's language ("no/404.html"); default "404.html". */
  notFoundFileFor?(pagePath: string): string;
  /** The redirect a missing path answers with (routes/redirects.ts `siteRedirectFor`): its status and Location. */
  redirect?(pagePath: string): { status: number; location: string } | undefined;
  /** The page path a missing path is another spelling of (see asciiAliasPaths); the handler redirects when that path exists. */
  respell?(pagePath: string): string | undefined;
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
  async function compressHere(
    path: string,
    file: StaticFile,
    coding: (typeof precompressedCodings)[number]['coding'],
  ): Promise<Buffer | undefined> {
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
    if (!parsedHeaders || parsedHeaders.version !== file.version)
      parsedHeaders = { version: file.version, rules: parseHeaders(await file.text()) };
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

  async function send(
    request: IncomingMessage,
    response: ServerResponse,
    found: { path: string; file: StaticFile },
    status: number,
    urlPath: string,
  ) {
    const extension = extname(found.path);
    const headers: Record<string, string> = {
      'content-type': contentTypes[extension] ?? 'application/octet-stream',
      vary: 'accept-encoding',
    };
    for (const [name, value] of headersFor(await headerRules(), urlPath)) headers[name.toLowerCase()] = value;
    headers['cache-control'] ??= extension === '.html' ? 'no-cache' : 'public, max-age=3600';
    // A 404 page is not the asset its path names: never cache it for good ("/assets/*" is immutable).
    if (status !== 200) headers['cache-control'] = 'no-cache';
    // The build writes "x.br" and "x.gz" beside each text file (src/emit/compress.ts): send the
    // preferred one the client accepts, or else the file itself.
    const accept = String(request.headers['accept-encoding'] ?? '');
    let body: { coding?: string; size: number; write(): void } = {
      size: found.file.size,
      write: () => found.file.pipe(response),
    };
    for (const { coding, extension: suffix } of precompressedCodings) {
      if (!accepts(accept, coding)) continue;
      const sibling = await source.get(found.path + suffix);
      if (!sibling) continue;
      body = { coding, size: sibling.size, write: () => sibling.pipe(response) };
      break;
    }
    const coding =
      !body.coding && options.compressMissing
        ? precompressedCodings.find((candidate) => accepts(accept, candidate.coding))?.coding
        : undefined;
    const data = coding && (await compressHere(found.path, found.file, coding));
    if (coding && data) body = { coding, size: data.length, write: () => response.end(data) };
    if (body.coding) headers['content-encoding'] = body.coding;
    if (status === 200) {
      // One tag per representation: the brotli and gzip bodies are other bytes than the file's.
      headers.etag = body.coding ? found.file.etag.replace(/"$/, `-${body.coding}"`) : found.file.etag;
      if (found.file.modified !== undefined) headers['last-modified'] = new Date(found.file.modified).toUTCString();
      if (isNotModified(request, headers.etag, found.file.modified)) {
        const { 'content-type': _type, 'content-encoding': _coding, ...rest } = headers;
        response.writeHead(304, rest);
        response.end();
        return;
      }
    }
    response.writeHead(status, { ...headers, 'content-length': String(body.size) });
    if (request.method === 'HEAD') response.end();
    else body.write();
  }

  /** The headers `_headers` gives a URL path (security headers for every answer, redirects and API answers included). */
  async function headersOf(urlPath: string): Promise<[string, string][]> {
    return headersFor(await headerRules(), urlPath);
  }

  const handle = async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const rawPath = (request.url ?? '/').split(/[?#]/, 1)[0]!;
    for (const [name, value] of await headersOf(rawPath)) response.setHeader(name, value);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' });
      response.end('Method not allowed');
      return;
    }
    const pagePath = fromUrl(rawPath);
    const hidden = pagePath !== undefined && (isHiddenPath(pagePath) || /(^|\/)(_headers|_redirects)$/.test(pagePath));
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
    // An old path that is not a page any more (`redirects:`) goes where the config sends it.
    const redirect = pagePath === undefined || hidden ? undefined : options.redirect?.(pagePath);
    if (redirect) {
      response.writeHead(redirect.status, { location: redirect.location });
      response.end();
      return;
    }
    // A path typed without its letters (an alias's ASCII spelling, "/no/arbeidsklaer") goes to the page that exists.
    const respelled = pagePath === undefined || hidden ? undefined : options.respell?.(pagePath);
    if (respelled && (await findFile(respelled))) {
      const query = (request.url ?? '').slice(rawPath.length);
      response.writeHead(301, {
        location: `/${encodeURI(respelled.split('/').filter(Boolean).join('/'))}${rawPath.endsWith('/') ? '/' : ''}${query}`,
      });
      response.end();
      return;
    }
    const notFoundPath = (pagePath !== undefined && options.notFoundFileFor?.(pagePath)) || '404.html';
    const notFound = await source.get(notFoundPath);
    if (notFound) await send(request, response, { path: notFoundPath, file: notFound }, 404, rawPath);
    else {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('Not found');
    }
  };
  return Object.assign(handle, { headersOf });
}

/** Whether a conditional GET can be answered 304: a matching If-None-Match, or else an If-Modified-Since not before the file's time. */
function isNotModified(request: IncomingMessage, etag: string, modified: number | undefined): boolean {
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    const bare = (tag: string) => tag.trim().replace(/^W\//, '');
    return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((tag) => bare(tag) === bare(etag));
  }
  const since = Date.parse(String(request.headers['if-modified-since'] ?? ''));
  return modified !== undefined && !Number.isNaN(since) && modified <= since;
}

/** A strong entity tag for bytes held in memory. */
export function etagOf(bytes: Uint8Array): string {
  return `"${createHash('sha1').update(bytes).digest('base64url').slice(0, 20)}"`;
}
