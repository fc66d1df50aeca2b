/**
 * The common front of every form endpoint of `site serve` (contact, booking): a JSON body (from a
 * hydrated form) or a plain form POST (without script), from a page of this site only (Origin /
 * Sec-Fetch-Site), at most `maxBytes` (read no further), decoded in the charset it declares, an
 * object. Refusals are answered here; the endpoint gets the fields, with the honeypot taken out.
 * (The host functions of src/targets do the same on the web `Request`: runtime/web-endpoint.ts.)
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { honeypotField } from '../islands/contact-schema.js';
import type { StoreSource } from '../store/source.js';
import { BodyTooLarge, contentType, decoderFor, isSameOrigin, parseFormBody, readBody, type ProxyTrust } from './request.js';

/** What every form endpoint (contact, booking) can be told about its clients, limits and storage. */
export interface FormEndpointOptions {
  /** Where accepted submissions are committed (one store per process, src/store/). */
  store: StoreSource;
  /** Origins whose pages may post (the site's `site.origin`); the origin the request was sent to is always allowed. */
  allowedOrigins?: readonly string[];
  /** Take the client's address from `X-Forwarded-For` (only behind a proxy that sets it). */
  trustProxy?: boolean;
  maxBytes?: number;
  /** Accepted requests per client per window. */
  rateLimit?: number;
  rateWindowMs?: number;
  /** Clients the rate limiter remembers at most. */
  maxClients?: number;
  now?: () => number;
}

/** Options of `readSubmission`. */
export interface SubmissionOptions extends ProxyTrust {
  /** Origins whose pages may post; the origin the request was sent to is always allowed. */
  allowedOrigins: readonly string[];
  maxBytes: number;
}

/** A submission that passed the front checks. */
export interface Submission {
  /** The fields sent, without the honeypot. */
  fields: Record<string, unknown>;
  /** Sent as a plain form (answer with a redirect), not JSON. */
  isForm: boolean;
  /** The honeypot was filled in: a bot. Pretend success, store nothing. */
  isBot: boolean;
  /** The page's locale as sent (`locale` field), or "en". */
  locale: string;
}

/** Answers with JSON that is never cached. */
export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers });
  response.end(JSON.stringify(body));
}

/** Reads a submission; answers 403, 415, 413 or 400 itself and then returns undefined. */
export async function readSubmission(request: IncomingMessage, response: ServerResponse, options: SubmissionOptions): Promise<Submission | undefined> {
  const { type, charset } = contentType(request);
  const isForm = type === 'application/x-www-form-urlencoded';
  if (!isSameOrigin(request, options.allowedOrigins, options)) {
    sendJson(response, 403, { error: 'cross_origin' });
    return undefined;
  }
  if (!isForm && type !== 'application/json') {
    sendJson(response, 415, { error: 'unsupported_media_type', accepted: ['application/json', 'application/x-www-form-urlencoded'] });
    return undefined;
  }
  const decoder = decoderFor(charset);
  if (!decoder) {
    sendJson(response, 415, { error: 'unsupported_charset', charset });
    return undefined;
  }
  let fields: Record<string, unknown>;
  try {
    const body = await readBody(request, response, options.maxBytes);
    fields = isForm ? parseFormBody(body, decoder) : (JSON.parse(decoder.decode(body)) as Record<string, unknown>);
    if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) throw new SyntaxError('not an object');
  } catch (error) {
    if (!(error instanceof BodyTooLarge)) sendJson(response, 400, { error: 'invalid_body' });
    return undefined;
  }
  const locale = typeof fields.locale === 'string' && /^[a-z]{2,3}$/.test(fields.locale) ? fields.locale : 'en';
  const { [honeypotField]: honeypot, ...rest } = fields;
  return { fields: rest, isForm, isBot: typeof honeypot === 'string' && honeypot !== '', locale };
}
