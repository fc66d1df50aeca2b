/**
 * What a form endpoint does with the fields of a submission once its body is read, whatever
 * carries the request: `site serve` (Node's http) and the host functions of src/targets (the web
 * `Request`) both run it. Honeypot, then validation with the shared schema, then the rate limit,
 * then storage: a filled honeypot gets the same answer as a success and stores nothing; only what
 * is stored counts against the client's budget. No Node APIs here: it is bundled into the functions.
 */
import { honeypotField } from '../islands/contact-schema.js';
import { isPlainSitePath } from '../routes/paths.js';
import type { RateLimiter } from './rate-limit.js';

/**
 * The fields of a contact message or a booking with the page they say they were sent from only
 * when it is a plain path of the site (routes/paths.ts `isPlainSitePath`): the inbox shows that
 * page as a link, and "/\\evil.example" would take whoever follows it off the site. Any other
 * page is left out, so the submission is kept with none (the store's "/"), never refused for it.
 */
export function withPlainPage(fields: Record<string, unknown>): Record<string, unknown> {
  if (fields.page === undefined || (typeof fields.page === 'string' && isPlainSitePath(fields.page))) return fields;
  const { page: _page, ...rest } = fields;
  return rest;
}

/** The answer to a submission, before it is written as JSON or as a redirect to a result page. */
export interface SubmissionOutcome {
  status: 201 | 400 | 429 | 503;
  body: Record<string, unknown>;
  /** The result page a plain form POST lands on. */
  outcome: 'sent' | 'failed';
  headers?: Record<string, string>;
}

/** Options of `createSubmissionFlow`. */
export interface SubmissionFlowOptions<Data> {
  /** The shared schema's check: the valid data, or field → message key. */
  validate(fields: Record<string, unknown>): { data: Data } | { fieldErrors: Record<string, string> };
  limiter: RateLimiter;
  /** Keeps one accepted submission; rejects when it could not. */
  store(record: { receivedAt: string } & Data): Promise<void>;
  now?: () => number;
}

/** Creates the flow: (fields, client) → outcome. */
export function createSubmissionFlow<Data extends object>(options: SubmissionFlowOptions<Data>) {
  const now = options.now ?? Date.now;
  return async function submit(fields: Record<string, unknown>, client: string): Promise<SubmissionOutcome> {
    if (typeof fields[honeypotField] === 'string' && fields[honeypotField] !== '') return { status: 201, body: { ok: true }, outcome: 'sent' };
    const { [honeypotField]: _honeypot, ...submitted } = fields;
    const checked = options.validate(withPlainPage(submitted));
    if ('fieldErrors' in checked) return { status: 400, body: { error: 'invalid_fields', fields: checked.fieldErrors }, outcome: 'failed' };
    const wait = options.limiter.retryAfter(client);
    if (wait > 0) return { status: 429, body: { error: 'too_many_requests' }, outcome: 'failed', headers: { 'retry-after': String(Math.ceil(wait / 1000)) } };
    options.limiter.hit(client);
    try {
      await options.store({ receivedAt: new Date(now()).toISOString(), ...checked.data });
    } catch {
      return { status: 503, body: { error: 'storage_failed' }, outcome: 'failed', headers: { 'retry-after': '60' } };
    }
    return { status: 201, body: { ok: true }, outcome: 'sent' };
  };
}
