/** Answers and cookies of the admin API: every answer is JSON (or the inbox's CSV download) and `Cache-Control: no-store`. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { BodyTooLarge, contentType, decoderFor, parseFormBody, readBody } from '../serve/request.js';

/** JSON bodies larger than this are refused with 413. */
export const maxJsonBytes = 256 * 1024;

/** Headers on every admin answer. */
export const adminHeaders: Record<string, string> = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

/** Sends a JSON answer. */
export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    ...adminHeaders,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  response.end(text);
}

/** Sends a download (the inbox's CSV): the admin's headers, `type`, and a file name to save it as. */
export function sendDownload(response: ServerResponse, type: string, fileName: string, body: string): void {
  response.writeHead(200, {
    ...adminHeaders,
    'content-type': type,
    'content-disposition': `attachment; filename="${fileName.replace(/["\\\r\n]/g, '')}"`,
    'content-length': String(Buffer.byteLength(body)),
  });
  response.end(body);
}

/** Sends a redirect (the answer to a plain form post). */
export function sendRedirect(response: ServerResponse, location: string, headers: Record<string, string> = {}): void {
  response.writeHead(303, { ...adminHeaders, location, ...headers });
  response.end();
}

/** The cookies of a request. */
export function parseCookies(request: IncomingMessage): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of String(request.headers.cookie ?? '').split(';')) {
    const equals = part.indexOf('=');
    if (equals < 1) continue;
    const name = part.slice(0, equals).trim();
    if (!cookies.has(name)) cookies.set(name, part.slice(equals + 1).trim());
  }
  return cookies;
}

/** A body that could not be read: answered already (413), or not JSON / a form (400, 415). */
export class BadBody extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly answered = false,
  ) {
    super(error);
  }
}

/** Reads a JSON object body (or a urlencoded form when `allowForm`), at most 256 KB. */
export async function readObjectBody(
  request: IncomingMessage,
  response: ServerResponse,
  allowForm = false,
): Promise<{ fields: Record<string, unknown>; form: boolean }> {
  const { type, charset } = contentType(request);
  const form = type === 'application/x-www-form-urlencoded';
  if (type !== 'application/json' && !(allowForm && form)) throw new BadBody(415, 'unsupported_media_type');
  const decoder = decoderFor(charset);
  if (!decoder) throw new BadBody(415, 'unsupported_charset');
  let body: Buffer;
  try {
    body = await readBody(request, response, maxJsonBytes, adminHeaders);
  } catch (error) {
    if (error instanceof BodyTooLarge) throw new BadBody(413, 'payload_too_large', true);
    throw error;
  }
  let fields: unknown;
  try {
    fields = form ? parseFormBody(body, decoder) : JSON.parse(decoder.decode(body));
  } catch {
    throw new BadBody(400, 'invalid_body');
  }
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) throw new BadBody(400, 'invalid_body');
  return { fields: fields as Record<string, unknown>, form };
}
