/**
 * What the form rules (contact.ts, booking.ts) answer, before an adapter writes it: `site serve`
 * (Node's http) and the host functions (the web `Response`) write the same status, body and
 * headers, so the two cannot drift. Also the one rule for the page a submission says it came from.
 * No Node APIs here: the host functions bundle it.
 */
import { isPlainSitePath } from '../url-paths.js';

/**
 * The answer to a request of a form endpoint. A string body is sent as it is (its content type
 * is in `headers`); any other body as JSON. A plain form post is answered instead with a redirect
 * to the result page: the success page when the status is 201, the failed page otherwise.
 */
export interface FormAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * How many accepted submissions a client may still send, as the adapter counts them (per process
 * in `site serve`, per running instance of a host function): a rate limiter (serve/rate-limit.ts).
 * Only what the rules store is counted, so refused input costs nothing.
 */
export interface ClientBudget {
  /** Milliseconds until `client` may be counted again, or 0 when it may be now. */
  retryAfter(client: string): number;
  hit(client: string): unknown;
}

/** The answer that a client over its budget gets (429), or undefined when the submission is counted and may go on. */
export function spendBudget(budget: ClientBudget, client: string): FormAnswer | undefined {
  const wait = budget.retryAfter(client);
  if (wait > 0)
    return {
      status: 429,
      body: { error: 'too_many_requests' },
      headers: { 'retry-after': String(Math.ceil(wait / 1000)) },
    };
  budget.hit(client);
  return undefined;
}

/** The answer when the store could not keep a submission: the form keeps what was typed, to send again. */
export const storageFailed: FormAnswer = {
  status: 503,
  body: { error: 'storage_failed' },
  headers: { 'retry-after': '60' },
};

/**
 * The fields of a contact message or a booking with the page they say they were sent from only
 * when it is a plain path of the site (url-paths.ts `isPlainSitePath`): the inbox shows that
 * page as a link, and "/\\evil.example" would take whoever follows it off the site. Any other
 * page is left out, so the submission is kept with none (the store's "/"), never refused for it.
 */
export function withPlainPage(fields: Record<string, unknown>): Record<string, unknown> {
  if (fields.page === undefined || (typeof fields.page === 'string' && isPlainSitePath(fields.page))) return fields;
  const { page: _page, ...rest } = fields;
  return rest;
}
