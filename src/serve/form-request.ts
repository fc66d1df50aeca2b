/**
 * The common front and back of every form endpoint of `site serve` (contact, booking). In front: a
 * JSON body (from a hydrated form) or a plain form POST (without script), from a page of this site
 * only (Origin / Sec-Fetch-Site), at most `maxBytes` (read no further), decoded in the charset it
 * declares, an object. Refusals are answered here; the endpoint hands the fields to its form's
 * rules (src/forms/). At the back: the rules' answer written as JSON, or for a plain form POST as a
 * redirect to the result page. (The host functions of src/targets do the same on the web
 * `Request`: runtime/web-endpoint.ts.)
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FormAnswer } from '../forms/answer.js';
import type { StoreSource } from '../store/source.js';
import {
  BodyTooLarge,
  contentType,
  decoderFor,
  isSameOrigin,
  parseFormBody,
  readBody,
  type ProxyTrust,
} from './request.js';

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
  /** The fields sent, the honeypot among them (the form's rules look at it). */
  fields: Record<string, unknown>;
  /** Sent as a plain form (answer with a redirect), not JSON. */
  isForm: boolean;
  /** The page's locale as sent (`locale` field), or "": the result page is that locale's, or the default locale's. */
  locale: string;
}

/** Answers with JSON that is never cached. */
export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    ...headers,
  });
  response.end(JSON.stringify(body));
}

/** Writes an answer of the form rules: a string body as it is, any other as JSON. */
export function sendAnswer(response: ServerResponse, answer: FormAnswer): void {
  if (typeof answer.body !== 'string') return sendJson(response, answer.status, answer.body, answer.headers);
  response.writeHead(answer.status, answer.headers);
  response.end(answer.body);
}

/** Writes the answer to a submission: for a plain form POST a redirect to the result page (the success page for a 201), else the answer. */
export function sendSubmissionAnswer(
  response: ServerResponse,
  answer: FormAnswer,
  submission: Submission,
  resultPage: (accepted: boolean) => string,
): void {
  if (!submission.isForm) return sendAnswer(response, answer);
  response.writeHead(303, {
    ...answer.headers,
    location: resultPage(answer.status === 201),
    'cache-control': 'no-store',
  });
  response.end();
}

/** Reads a submission; answers 403, 415, 413 or 400 itself and then returns undefined. */
export async function readSubmission(
  request: IncomingMessage,
  response: ServerResponse,
  options: SubmissionOptions,
): Promise<Submission | undefined> {
  const { type, charset } = contentType(request);
  const isForm = type === 'application/x-www-form-urlencoded';
  if (!isSameOrigin(request, options.allowedOrigins, options)) {
    sendJson(response, 403, { error: 'cross_origin' });
    return undefined;
  }
  if (!isForm && type !== 'application/json') {
    sendJson(response, 415, {
      error: 'unsupported_media_type',
      accepted: ['application/json', 'application/x-www-form-urlencoded'],
    });
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
  return { fields, isForm, locale: typeof fields.locale === 'string' ? fields.locale : '' };
}
