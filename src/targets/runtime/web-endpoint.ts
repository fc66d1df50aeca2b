/**
 * A form endpoint on the web `Request`/`Response` API, as the host functions run it (Netlify
 * Functions, Cloudflare Pages, Vercel): the same checks as `site serve`'s contact endpoint, in the
 * same order. A POST from a page of the site only (Origin / Sec-Fetch-Site), JSON or a plain form
 * post, at most `maxBytes` (read no further), decoded in the charset it declares; then the contact
 * form's rules (forms/contact.ts: honeypot, schema, rate limit, storage), which `site serve`
 * applies too. A plain form post is answered with a redirect to the result page of its language,
 * never with the input echoed back. What stays here is the host's: the request and response, the
 * storage (a KV namespace or a webhook) and a rate limit per running instance.
 *
 * This file and what it imports are bundled into each function: web APIs only, no Node modules.
 */
import type { FormAnswer } from '../../forms/answer.js';
import { createContactFlow, type ContactFlowOptions } from '../../forms/contact.js';
import { decoderFor, parseContentType, parseFormBody } from '../../serve/request.js';
import { createRateLimiter } from '../../serve/rate-limit.js';
import { webhookBodyOf, type ContactFields, type NotifiedItem } from '../../notify/payload.js';
import { attemptsText, postWebhooks, type WebhookPolicy, type WebhookSetting } from '../../notify/webhooks.js';

/** What the build writes into a function about its endpoint (JSON, from the config). */
export interface EndpointSettings {
  /** The endpoint's name ("contact"): the kind of the stored records. */
  name: string;
  /** The path it answers ("/api/contact"). */
  path: string;
  maxBytes: number;
  /** Stored submissions per client per window, in one running instance of the function. */
  rateLimit: number;
  rateWindowMs: number;
  /** Origins whose pages may post besides the one the request was sent to (`site.origin`). */
  allowedOrigins: string[];
  /** Where a plain form POST lands, per locale; unknown locales get the default's. */
  resultPages: Record<string, { sent: string; failed: string }>;
  defaultLocale: string;
  /** How a submission is kept (output.functions of the config). */
  storage: { forwardUrlEnv: string; kvBinding: string };
  /** The webhooks of `notifications:` each stored submission is POSTed to, if any. */
  notify?: HostNotifications;
}

/** What the build writes into a function about `notifications.webhooks`: a URL, or the host's variable holding one. */
export interface HostNotifications {
  webhooks: WebhookSetting[];
  /** The site's origin, in each webhook's body. */
  site: string;
}

/**
 * How a host function tries a webhook: shorter than `site serve`'s, so that the storage's budget
 * and two attempts of each webhook (at once) stay well under the 10 s a Netlify function may run.
 */
export const hostWebhookPolicy: WebhookPolicy = { timeoutMs: 2_500, attempts: 2, backoffMs: 250 };

/**
 * POSTs a stored submission to the webhooks of `notify`, and waits: a function's host may stop it
 * once it has answered. A function keeps no inbox, so what failed is said in the host's log (a
 * webhook by its host, never its token); the submission is stored, so the visitor's answer stands.
 */
export async function notifyFromHost(
  notify: HostNotifications | undefined,
  item: NotifiedItem,
  env: Record<string, unknown>,
  path: string,
  options: { fetch?: typeof fetch; policy?: WebhookPolicy } = {},
): Promise<void> {
  if (!notify?.webhooks.length) return;
  const results = await postWebhooks(
    notify.webhooks,
    env,
    webhookBodyOf(item, notify.site),
    options.policy ?? hostWebhookPolicy,
    {
      fetch: options.fetch,
    },
  );
  for (const result of results)
    if (!result.ok)
      logToHost(`${path}: notification of ${item.kind}-${item.id}: ${result.error} (${attemptsText(result.attempts)})`);
}

/** What the host gives a request besides itself. */
export interface HostContext {
  /** The client's address as the host saw it (for the rate limit). */
  client: string;
  /** The host's environment: variables and (Cloudflare) bindings. */
  env: Record<string, unknown>;
}

/** A KV namespace as far as a store needs it (Cloudflare's `KVNamespace`). */
interface KeyValueStore {
  put(key: string, value: string): Promise<unknown>;
}

/** The schema check of an endpoint: its valid data, or field → message key. */
export type Validate<Data> = ContactFlowOptions<Data>['validate'];

/** A handler of one endpoint: (request, host context) → response. */
export type WebHandler = (request: Request, context: HostContext) => Promise<Response>;

/** Options that tests set; a deployed function uses the defaults. */
export interface WebEndpointOptions {
  now?: () => number;
  fetch?: typeof fetch;
  /** A unique id per stored record (default crypto.randomUUID). */
  id?: () => string;
  /** How long the webhook may take to answer (default `webhookTimeoutMs`). */
  webhookTimeoutMs?: number;
  /** How the notifications' webhooks are tried (default `hostWebhookPolicy`). */
  notifyPolicy?: WebhookPolicy;
}

/**
 * How long a submission waits for the webhook before it is answered 503 (the visitor's form keeps
 * what was typed, to send again): under the 10 s a Netlify function may run by default, so the
 * function answers rather than being cut off by its host with nothing said.
 */
export const webhookTimeoutMs = 8_000;

const noStore = { 'cache-control': 'no-store' };

/** Creates the handler of an endpoint. */
export function createWebEndpoint<Data extends object>(
  validate: Validate<Data>,
  settings: EndpointSettings,
  options: WebEndpointOptions = {},
): WebHandler {
  const now = options.now ?? Date.now;
  const budget = createRateLimiter({ limit: settings.rateLimit, windowMs: settings.rateWindowMs, now });

  return async function handle(request, context) {
    if (request.method !== 'POST') return jsonResponse(405, { error: 'method_not_allowed' }, { allow: 'POST' });
    const read = await readWebForm(request, settings);
    if (read instanceof Response) return read;
    // The environment comes with each request (Cloudflare passes it so); the budget is the instance's.
    const submit = createContactFlow({
      validate,
      budget,
      now,
      store: async (record) => {
        const id = options.id?.() ?? crypto.randomUUID();
        await storeRecord({ id, ...record }, context.env, settings, options);
        await notifyFromHost(
          settings.notify,
          { kind: 'contact', id, fields: record as unknown as ContactFields },
          context.env,
          settings.path,
          {
            fetch: options.fetch,
            policy: options.notifyPolicy,
          },
        );
      },
    });
    const answer = await submit(read.fields, context.client);
    return submissionResponse(
      answer,
      read,
      (accepted) =>
        inLocale(settings.resultPages, read.fields.locale, settings.defaultLocale)[accepted ? 'sent' : 'failed'],
    );
  };
}

/** The entry of `locale` in something the build wrote per locale (result pages, calendar words), or the default locale's when the site has no such locale. */
export function inLocale<Entry>(byLocale: Record<string, Entry>, locale: unknown, defaultLocale: string): Entry {
  return (typeof locale === 'string' && byLocale[locale]) || byLocale[defaultLocale]!;
}

/** A JSON answer that no cache keeps. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...noStore, ...headers },
  });
}

/** An answer of the form rules as a `Response`: a string body as it is, any other as JSON. */
export function answerResponse(answer: FormAnswer): Response {
  return typeof answer.body === 'string'
    ? new Response(answer.body, { status: answer.status, headers: answer.headers })
    : jsonResponse(answer.status, answer.body, answer.headers);
}

/** The answer to a submission: for a plain form post a redirect to the result page (the success page for a 201), else the answer. */
export function submissionResponse(
  answer: FormAnswer,
  read: { isForm: boolean },
  resultPage: (accepted: boolean) => string,
): Response {
  if (!read.isForm) return answerResponse(answer);
  return new Response(null, {
    status: 303,
    headers: { ...answer.headers, location: resultPage(answer.status === 201), ...noStore },
  });
}

/**
 * The front checks of a POST to a form endpoint, as `site serve` makes them: from a page of this
 * site, JSON or a plain form post, at most `maxBytes`, in the charset it declares. The fields and
 * whether it was a plain form post, or the answer that refuses it.
 */
export async function readWebForm(
  request: Request,
  settings: Pick<EndpointSettings, 'allowedOrigins' | 'maxBytes'>,
): Promise<{ fields: Record<string, unknown>; isForm: boolean } | Response> {
  if (!isSameOrigin(request, settings.allowedOrigins)) return jsonResponse(403, { error: 'cross_origin' });
  const { type, charset } = parseContentType(request.headers.get('content-type') ?? '');
  const isForm = type === 'application/x-www-form-urlencoded';
  if (!isForm && type !== 'application/json')
    return jsonResponse(415, {
      error: 'unsupported_media_type',
      accepted: ['application/json', 'application/x-www-form-urlencoded'],
    });
  const decoder = decoderFor(charset);
  if (!decoder) return jsonResponse(415, { error: 'unsupported_charset', charset });
  const body = await readBody(request, settings.maxBytes);
  if (!body) return jsonResponse(413, { error: 'payload_too_large', maxBytes: settings.maxBytes });
  try {
    const fields = isForm
      ? parseFormBody(body, decoder)
      : (JSON.parse(decoder.decode(body)) as Record<string, unknown>);
    if (typeof fields !== 'object' || fields === null || Array.isArray(fields)) throw new SyntaxError('not an object');
    return { fields, isForm };
  } catch {
    return jsonResponse(400, { error: 'invalid_body' });
  }
}

/**
 * Whether the request comes from a page of this site: as `isSameOrigin` of serve/request.ts, with
 * the origin the request was sent to taken from its URL (the host terminates TLS and knows it).
 */
function isSameOrigin(request: Request, allowedOrigins: readonly string[]): boolean {
  const site = request.headers.get('sec-fetch-site') ?? '';
  if (site && site !== 'same-origin' && site !== 'none') return false;
  const origin = request.headers.get('origin');
  if (origin === null) return true;
  return origin !== 'null' && (allowedOrigins.includes(origin) || origin === new URL(request.url).origin);
}

/** The body, or undefined when it is over `maxBytes` (reading stops there). */
async function readBody(request: Request, maxBytes: number): Promise<Uint8Array | undefined> {
  if (Number(request.headers.get('content-length') ?? 0) > maxBytes) return undefined;
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/**
 * Keeps a record: in the KV namespace bound as `storage.kvBinding` (Cloudflare), and/or POSTed as
 * JSON to the webhook URL in the variable `storage.forwardUrlEnv`. With neither it throws (the
 * visitor gets 503 and the host's log says what to set), so a submission is never answered as
 * received while nothing keeps it.
 */
async function storeRecord(
  { id, ...record }: { id: string; receivedAt: string },
  env: Record<string, unknown>,
  settings: EndpointSettings,
  options: WebEndpointOptions,
): Promise<void> {
  const kv = env[settings.storage.kvBinding] as KeyValueStore | undefined;
  const url = env[settings.storage.forwardUrlEnv];
  const hasKv = typeof kv === 'object' && kv !== null && typeof kv.put === 'function';
  const hasUrl = typeof url === 'string' && /^https?:\/\//.test(url);
  if (!hasKv && !hasUrl) {
    logToHost(
      `${settings.path}: no storage: bind a KV namespace as ${settings.storage.kvBinding} (Cloudflare) or set ${settings.storage.forwardUrlEnv} to a webhook URL`,
    );
    throw new Error('no storage configured');
  }
  const line = JSON.stringify({ endpoint: settings.name, ...record });
  if (hasKv) await kv.put(`${settings.name}/${record.receivedAt}/${id}`, line);
  if (hasUrl) {
    // A webhook that takes the connection and never answers would hold the visitor until the host
    // ends the function: the wait has a budget, and every failure is said in the host's log (by
    // the variable's name: the URL may hold a token). The caller answers 503: nothing is lost.
    const budget = options.webhookTimeoutMs ?? webhookTimeoutMs;
    let response: Response;
    try {
      response = await (options.fetch ?? fetch)(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: line,
        signal: AbortSignal.timeout(budget),
      });
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      const cause = timedOut
        ? `did not answer within ${budget / 1000} s`
        : `could not be reached (${error instanceof Error ? error.message : String(error)})`;
      logToHost(
        `${settings.path}: the webhook in ${settings.storage.forwardUrlEnv} ${cause}: the submission was answered 503, for the visitor to send again`,
      );
      throw error;
    }
    // The body is not needed, but an unread one holds the connection.
    await response.body?.cancel().catch(() => undefined);
    if (!response.ok) {
      logToHost(
        `${settings.path}: the webhook in ${settings.storage.forwardUrlEnv} answered ${response.status}: the submission was answered 503, for the visitor to send again`,
      );
      throw new Error(`webhook answered ${response.status}`);
    }
  }
}

/**
 * Writes a line to the host's function log: the one place the runtime writes, since a function on
 * Netlify, Cloudflare or Vercel has no CLI logger (src/logger.ts) and its console is that log.
 */
export function logToHost(message: string): void {
  console.error(message);
}
