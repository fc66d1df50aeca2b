/**
 * `POST /api/contact`: the contact form's server side. The body is read by `readSubmission`
 * (JSON or a plain form POST, same origin, at most 32 KB); then the shared submission flow
 * (validation with the shared schema, at most 5 stored submissions a minute per client). Each
 * accepted submission is committed to the store (src/store/) before the answer: a 201 means it is
 * on disk; a database that cannot take it is answered 503, and the form keeps what was typed.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { validateContact } from '../islands/contact-schema.js';
import { readSubmission, sendJson, type FormEndpointOptions } from './form-request.js';
import { createRateLimiter } from './rate-limit.js';
import { clientAddress } from './request.js';
import { createSubmissionFlow } from './submission.js';

/** Options of the contact handler. */
export interface ContactHandlerOptions extends FormEndpointOptions {
  /** Where a plain form POST lands: the thank-you or error page of a locale. */
  resultPage(locale: string, outcome: 'sent' | 'failed'): string;
  /** The enquiry types the form offers (the config's contact.types, as of the request). */
  types(): readonly string[];
}

/** The contact endpoint's limits, the same in `site serve` and in the host functions (src/targets). */
export const contactEndpointLimits = { maxBytes: 32 * 1024, rateLimit: 5, rateWindowMs: 60_000 } as const;

/** Creates the handler; `handle` answers POST requests to the contact endpoint. */
export function createContactHandler(options: ContactHandlerOptions) {
  const maxBytes = options.maxBytes ?? contactEndpointLimits.maxBytes;
  const windowMs = options.rateWindowMs ?? contactEndpointLimits.rateWindowMs;
  const now = options.now ?? Date.now;
  const limiter = createRateLimiter({ limit: options.rateLimit ?? contactEndpointLimits.rateLimit, windowMs, maxKeys: options.maxClients, now });
  const allowedOrigins = options.allowedOrigins ?? [];
  const submit = createSubmissionFlow({
    validate: (fields) => validateContact(fields, options.types()),
    limiter,
    store: async (record) => void (await (await options.store.get()).addContactMessage(record)),
    now,
  });

  return async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const submission = await readSubmission(request, response, { allowedOrigins, trustProxy: options.trustProxy, maxBytes });
    if (!submission) return;
    const { fields, isForm, locale } = submission;
    // A bot's submission gets the answer of a success and is not stored.
    const result = submission.isBot ? { status: 201, body: { ok: true }, outcome: 'sent' as const, headers: {} } : await submit(fields, clientAddress(request, options));
    if (isForm) {
      response.writeHead(303, { location: options.resultPage(locale, result.outcome), 'cache-control': 'no-store' });
      response.end();
    } else sendJson(response, result.status, result.body, result.headers);
  };
}
