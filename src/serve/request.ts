/**
 * Facts about an incoming request that every endpoint needs and that a careless reading gets
 * wrong: who the client is (behind a proxy only when told to trust it), what origin the request
 * comes from, and its body, read within a size limit and decoded in the charset it declares.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Whether to believe `X-Forwarded-For` and `X-Forwarded-Proto` (set only behind a proxy that writes them). */
export interface ProxyTrust {
  trustProxy?: boolean;
}

/** The client's address: the socket's, or behind a trusted proxy the address the proxy saw. */
export function clientAddress(request: IncomingMessage, options: ProxyTrust = {}): string {
  if (options.trustProxy) {
    const forwarded = String(request.headers['x-forwarded-for'] ?? '');
    // The proxy appends the address it saw: the last entry. Entries before it are the client's word.
    const last = forwarded
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)
      .at(-1);
    if (last) return last;
  }
  return request.socket.remoteAddress ?? 'unknown';
}

/** The origin this request was addressed to ("http://127.0.0.1:4322"), from its Host header. */
export function requestOrigin(request: IncomingMessage, options: ProxyTrust = {}): string | undefined {
  const host = request.headers.host;
  if (!host || !/^[\w.:[\]-]+$/.test(host)) return undefined;
  const forwardedProto = options.trustProxy
    ? String(request.headers['x-forwarded-proto'] ?? '')
        .split(',')[0]!
        .trim()
    : '';
  const proto =
    forwardedProto === 'https' || forwardedProto === 'http'
      ? forwardedProto
      : 'encrypted' in request.socket
        ? 'https'
        : 'http';
  return `${proto}://${host.toLowerCase()}`;
}

/**
 * Whether a state-changing request comes from a page of this site. Browsers send `Origin` on every
 * POST (forms included) and `Sec-Fetch-Site` on every request; a request from another site has a
 * foreign `Origin` or `Sec-Fetch-Site: cross-site`/`same-site`. A request with neither header is
 * not from a browser (curl, a server-side form relay) and cannot carry a visitor's cookies
 * against their will, so it passes.
 */
export function isSameOrigin(
  request: IncomingMessage,
  allowedOrigins: readonly string[],
  options: ProxyTrust = {},
): boolean {
  const site = String(request.headers['sec-fetch-site'] ?? '');
  if (site && site !== 'same-origin' && site !== 'none') return false;
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  const own = requestOrigin(request, options);
  return origin !== 'null' && (allowedOrigins.includes(origin) || origin === own);
}

/** A body that was too large: the request has been answered 413 and its connection is being closed. */
export class BodyTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`request body over ${maxBytes} bytes`);
  }
}

/**
 * Reads a request body of at most `maxBytes`. Past the limit it stops reading at once, answers
 * 413 with `Connection: close` and destroys the connection once the answer is out, so a client
 * cannot make the server read (or wait for) the rest; then it throws BodyTooLarge.
 */
export function readBody(
  request: IncomingMessage,
  response: ServerResponse,
  maxBytes: number,
  headers: Record<string, string> = {},
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const refuse = () => {
      request.pause();
      request.removeAllListeners('data');
      response.writeHead(413, {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'close',
        ...headers,
      });
      response.end(JSON.stringify({ error: 'payload_too_large', maxBytes }));
      response.on('finish', () => request.destroy());
      reject(new BodyTooLarge(maxBytes));
    };
    if (Number(request.headers['content-length'] ?? 0) > maxBytes) return refuse();
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) return refuse();
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/** The media type and charset of a Content-Type header ("application/json", "utf-8"). */
export function contentType(request: IncomingMessage): { type: string; charset?: string } {
  return parseContentType(String(request.headers['content-type'] ?? ''));
}

/** The media type and charset of a Content-Type header's value (pure: the host functions use it too). */
export function parseContentType(header: string): { type: string; charset?: string } {
  const [type = '', ...params] = header.split(';').map((part) => part.trim());
  const charset = params.map((param) => /^charset\s*=\s*"?([^";]+)"?$/i.exec(param)?.[1]).find(Boolean);
  return { type: type.toLowerCase(), charset: charset?.toLowerCase() };
}

/** A decoder for a charset label, or undefined when the label is unknown. */
export function decoderFor(charset = 'utf-8'): TextDecoder | undefined {
  try {
    return new TextDecoder(charset);
  } catch {
    return undefined;
  }
}

/**
 * Parses an `application/x-www-form-urlencoded` body whose bytes are in `decoder`'s charset
 * (URLSearchParams would read every percent-escape as UTF-8).
 */
export function parseFormBody(body: Uint8Array, decoder: TextDecoder): Record<string, string> {
  const fields: Record<string, string> = {};
  // One character per byte (latin1), without Buffer: the host functions run this on runtimes without it.
  let text = '';
  for (let index = 0; index < body.length; index += 8192)
    text += String.fromCharCode(...body.subarray(index, index + 8192));
  for (const pair of text.split('&')) {
    if (!pair) continue;
    const equals = pair.indexOf('=');
    const [rawName, rawValue] = equals < 0 ? [pair, ''] : [pair.slice(0, equals), pair.slice(equals + 1)];
    fields[decodeFormPart(rawName, decoder)] = decodeFormPart(rawValue, decoder);
  }
  return fields;
}

function decodeFormPart(part: string, decoder: TextDecoder): string {
  const bytes: number[] = [];
  for (let index = 0; index < part.length; index++) {
    const char = part[index]!;
    if (char === '+') bytes.push(0x20);
    else if (char === '%' && /^[0-9a-fA-F]{2}$/.test(part.slice(index + 1, index + 3))) {
      bytes.push(Number.parseInt(part.slice(index + 1, index + 3), 16));
      index += 2;
    } else bytes.push(char.charCodeAt(0) & 0xff);
  }
  return decoder.decode(Uint8Array.from(bytes));
}

/**
 * Whether a Host header names this machine in a way DNS rebinding cannot fake: a loopback name
 * (`localhost`, `*.localhost`), an IP address literal, or one of `extraHosts`. A page of
 * `evil.example` whose name was re-pointed at 127.0.0.1 still sends `Host: evil.example`.
 */
export function isAllowedHost(hostHeader: string | undefined, extraHosts: readonly string[] = []): boolean {
  if (!hostHeader) return false;
  const host = hostHeader.toLowerCase();
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d+$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (/^\[[0-9a-f:.]+\]$/.test(name) || /^\d{1,3}(\.\d{1,3}){3}$/.test(name)) return true;
  return extraHosts.map((extra) => extra.toLowerCase()).includes(name);
}
