/**
 * `POST /api/contact`: the contact form's server side. The body is read by `readSubmission`
 * (JSON or a plain form POST, same origin, at most 32 KB); validated with the shared schema.
 * At most 5 stored submissions a minute per client. Each accepted submission is appended as one
 * JSON line and flushed to disk before the answer (see jsonl-store.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { validateContact } from '../islands/contact-schema.js';
import { createJsonLinesStore } from './jsonl-store.js';
import { createRateLimiter } from './rate-limit.js';
import { clientAddress } from './request.js';
import { readSubmission, sendJson, type FormEndpointOptions } from './submission.js';

/** Options of the contact handler. */
export interface ContactHandlerOptions extends FormEndpointOptions {
  /** Where a plain form POST lands: the thank-you or error page of a locale. */
  resultPage(locale: string, outcome: 'sent' | 'failed'): string;
}

/** The file contact submissions are stored in, inside the data folder. */
export const contactSubmissionsFile = 'contact-submissions.jsonl';

/** Creates the handler; `handle` answers POST requests to the contact endpoint. */
export function createContactHandler(options: ContactHandlerOptions) {
  const maxBytes = options.maxBytes ?? 32 * 1024;
  const windowMs = options.rateWindowMs ?? 60_000;
  const now = options.now ?? Date.now;
  const limiter = createRateLimiter({ limit: options.rateLimit ?? 5, windowMs, maxKeys: options.maxClients, now });
  const store = createJsonLinesStore(join(options.dataDir, contactSubmissionsFile), { fileSystem: options.fileSystem });
  const allowedOrigins = options.allowedOrigins ?? [];

  return async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const submission = await readSubmission(request, response, { allowedOrigins, trustProxy: options.trustProxy, maxBytes });
    if (!submission) return;
    const { fields, isForm, locale } = submission;
    const finish = (status: number, body: unknown, outcome: 'sent' | 'failed', headers: Record<string, string> = {}) => {
      if (isForm) {
        response.writeHead(303, { location: options.resultPage(locale, outcome), 'cache-control': 'no-store' });
        response.end();
      } else sendJson(response, status, body, headers);
    };
    if (submission.isBot) {
      finish(201, { ok: true }, 'sent');
      return;
    }
    const checked = validateContact(fields);
    if ('fieldErrors' in checked) {
      finish(400, { error: 'invalid_fields', fields: checked.fieldErrors }, 'failed');
      return;
    }
    const client = clientAddress(request, options);
    const wait = limiter.retryAfter(client);
    if (wait > 0) {
      finish(429, { error: 'too_many_requests' }, 'failed', { 'retry-after': String(Math.ceil(wait / 1000)) });
      return;
    }
    limiter.hit(client);
    try {
      await store.append({ receivedAt: new Date(now()).toISOString(), ...checked.data });
    } catch {
      finish(503, { error: 'storage_failed' }, 'failed', { 'retry-after': '60' });
      return;
    }
    finish(201, { ok: true }, 'sent');
  };
}
