/**
 * `POST /api/contact`: the contact form's server side in `site serve`. The body is read by
 * `readSubmission` (JSON or a plain form POST, same origin, at most 32 KB); then the contact
 * form's rules (forms/contact.ts: honeypot, the shared schema, at most 5 stored submissions a
 * minute per client, storage), the same ones the host functions apply. Each accepted submission
 * is committed to the store (src/store/) before the answer: a 201 means it is on disk; a database
 * that cannot take it is answered 503, and the form keeps what was typed. Once stored, a message
 * is handed to the notifier (webhooks, the team's mail), which the answer does not wait for.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { contactEndpointLimits, createContactFlow } from '../forms/contact.js';
import { validateContact } from '../islands/contact-schema.js';
import type { Notifier } from '../notify/notifier.js';
import { readSubmission, sendSubmissionAnswer, type FormEndpointOptions } from './form-request.js';
import { createRateLimiter } from './rate-limit.js';
import { clientAddress } from './request.js';

/** Options of the contact handler. */
export interface ContactHandlerOptions extends FormEndpointOptions {
  /** Where a plain form POST lands: the thank-you or error page of a locale. */
  resultPage(locale: string, outcome: 'sent' | 'failed'): string;
  /** The enquiry types the form offers (the config's contact.types, as of the request). */
  types(): readonly string[];
  /** Told of each stored message (notify/notifier.ts). */
  notifier?: Pick<Notifier, 'contact'>;
}

/** Creates the handler; `handle` answers POST requests to the contact endpoint. */
export function createContactHandler(options: ContactHandlerOptions) {
  const maxBytes = options.maxBytes ?? contactEndpointLimits.maxBytes;
  const windowMs = options.rateWindowMs ?? contactEndpointLimits.rateWindowMs;
  const now = options.now ?? Date.now;
  const budget = createRateLimiter({
    limit: options.rateLimit ?? contactEndpointLimits.rateLimit,
    windowMs,
    maxKeys: options.maxClients,
    now,
  });
  const allowedOrigins = options.allowedOrigins ?? [];
  const submit = createContactFlow({
    validate: (fields) => validateContact(fields, options.types()),
    budget,
    store: async (record) => {
      const { id } = await (await options.store.get()).addContactMessage(record);
      // Stored first: the notifications go out after, and the visitor's answer never waits for them.
      void options.notifier?.contact(id, record);
    },
    now,
  });

  return async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const submission = await readSubmission(request, response, {
      allowedOrigins,
      trustProxy: options.trustProxy,
      maxBytes,
    });
    if (!submission) return;
    const answer = await submit(submission.fields, clientAddress(request, options));
    sendSubmissionAnswer(response, answer, submission, (accepted) =>
      options.resultPage(submission.locale, accepted ? 'sent' : 'failed'),
    );
  };
}
