/**
 * `POST /api/contact`: the contact form's server side. JSON (from the hydrated form) or a plain
 * form POST (without script), from a page of this site only (Origin / Sec-Fetch-Site); at most
 * 32 KB, read no further; decoded in the charset it declares; validated with the shared schema.
 * At most 5 stored submissions a minute per client. Each accepted submission is appended as one
 * JSON line and flushed to disk before the answer (see jsonl-store.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { validateContact } from '../islands/contact-schema.js';
import { createJsonLinesStore, type StoreFileSystem } from './jsonl-store.js';
import { createRateLimiter } from './rate-limit.js';
import { createSubmissionFlow } from './submission.js';
import { BodyTooLarge, clientAddress, contentType, decoderFor, isSameOrigin, parseFormBody, readBody } from './request.js';

/** Options of the contact handler. */
export interface ContactHandlerOptions {
  /** Folder of the submissions file (contact.dataDir). */
  dataDir: string;
  /** Where a plain form POST lands: the thank-you or error page of a locale. */
  resultPage(locale: string, outcome: 'sent' | 'failed'): string;
  /** Origins whose pages may post (the site's `site.origin`); the origin the request was sent to is always allowed. */
  allowedOrigins?: readonly string[];
  /** Take the client's address from `X-Forwarded-For` (only behind a proxy that sets it). */
  trustProxy?: boolean;
  maxBytes?: number;
  /** Stored submissions per client per window. */
  rateLimit?: number;
  rateWindowMs?: number;
  /** Clients the rate limiter remembers at most. */
  maxClients?: number;
  now?: () => number;
  /** File operations of the store (tests inject failures). */
  fileSystem?: StoreFileSystem;
}

/** The file contact submissions are stored in, inside the data folder. */
export const contactSubmissionsFile = 'contact-submissions.jsonl';

/** The contact endpoint's limits, the same in `site serve` and in the host functions (src/targets). */
export const contactEndpointLimits = { maxBytes: 32 * 1024, rateLimit: 5, rateWindowMs: 60_000 } as const;

/** Creates the handler; `handle` answers POST requests to the contact endpoint. */
export function createContactHandler(options: ContactHandlerOptions) {
  const maxBytes = options.maxBytes ?? contactEndpointLimits.maxBytes;
  const windowMs = options.rateWindowMs ?? contactEndpointLimits.rateWindowMs;
  const now = options.now ?? Date.now;
  const limiter = createRateLimiter({ limit: options.rateLimit ?? contactEndpointLimits.rateLimit, windowMs, maxKeys: options.maxClients, now });
  const store = createJsonLinesStore(join(options.dataDir, contactSubmissionsFile), { fileSystem: options.fileSystem });
  const allowedOrigins = options.allowedOrigins ?? [];
  const submit = createSubmissionFlow({ validate: validateContact, limiter, store: (record) => store.append(record), now });

  return async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers });
      response.end(JSON.stringify(body));
    };
    const { type, charset } = contentType(request);
    const isForm = type === 'application/x-www-form-urlencoded';
    if (!isSameOrigin(request, allowedOrigins, options)) {
      json(403, { error: 'cross_origin' });
      return;
    }
    if (!isForm && type !== 'application/json') {
      json(415, { error: 'unsupported_media_type', accepted: ['application/json', 'application/x-www-form-urlencoded'] });
      return;
    }
    const decoder = decoderFor(charset);
    if (!decoder) {
      json(415, { error: 'unsupported_charset', charset });
      return;
    }
    let fields: Record<string, unknown>;
    try {
      const body = await readBody(request, response, maxBytes);
      fields = isForm ? parseFormBody(body, decoder) : (JSON.parse(decoder.decode(body)) as Record<string, unknown>);
      if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) throw new SyntaxError('not an object');
    } catch (error) {
      if (error instanceof BodyTooLarge) return;
      json(400, { error: 'invalid_body' });
      return;
    }
    const locale = typeof fields.locale === 'string' && /^[a-z]{2,3}$/.test(fields.locale) ? fields.locale : 'en';
    const finish = (status: number, body: unknown, outcome: 'sent' | 'failed', headers: Record<string, string> = {}) => {
      if (isForm) {
        response.writeHead(303, { location: options.resultPage(locale, outcome), 'cache-control': 'no-store' });
        response.end();
      } else json(status, body, headers);
    };
    const result = await submit(fields, clientAddress(request, options));
    finish(result.status, result.body, result.outcome, result.headers);
  };
}
