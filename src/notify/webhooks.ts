/**
 * A notification POSTed as JSON to a webhook, with a timeout per attempt and a few attempts with
 * a growing pause between them: a receiver that is down for a moment still gets it. What a
 * failure says names the webhook by its host only (its path or query may hold a token), so it is
 * safe for a log and for the inbox. Web APIs only: the host functions bundle it.
 */

/** How a webhook is tried. */
export interface WebhookPolicy {
  /** How long one attempt may take (ms). */
  timeoutMs: number;
  /** Attempts in all (at least 1). */
  attempts: number;
  /** The pause after the first failed attempt (ms); doubled after each further one. */
  backoffMs: number;
}

/** The default: 5 s an attempt, 3 attempts, pauses of 0.5 s and 1 s. */
export const webhookPolicy: WebhookPolicy = { timeoutMs: 5_000, attempts: 3, backoffMs: 500 };

/** What delivering to one channel did. */
export interface ChannelResult {
  ok: boolean;
  attempts: number;
  /** Why it failed, safe to log and show (no secret). */
  error?: string;
}

/** Options of `postWebhook` that tests set. */
export interface PostOptions {
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
}

/** The host a webhook is named by in logs and the inbox (never its path or query, which may hold a token). */
export function webhookLabel(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'an invalid address';
  }
}

/** POSTs `body` (JSON) to `url` until it answers 2xx or the attempts are spent. */
export async function postWebhook(
  url: string,
  body: unknown,
  policy: WebhookPolicy = webhookPolicy,
  options: PostOptions = {},
): Promise<ChannelResult> {
  const send = options.fetch ?? fetch;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const text = JSON.stringify(body);
  let error = '';
  for (let attempt = 1; attempt <= Math.max(1, policy.attempts); attempt++) {
    if (attempt > 1) await sleep(policy.backoffMs * 2 ** (attempt - 2));
    try {
      const response = await send(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'typed-site notifications' },
        body: text,
        signal: AbortSignal.timeout(policy.timeoutMs),
        redirect: 'error',
      });
      // The body is not needed, but an unread one holds the connection.
      await response.body?.cancel().catch(() => undefined);
      if (response.ok) return { ok: true, attempts: attempt };
      error = `answered ${response.status}`;
    } catch (cause) {
      const timedOut = cause instanceof Error && (cause.name === 'TimeoutError' || cause.name === 'AbortError');
      error = timedOut ? `did not answer within ${policy.timeoutMs / 1000} s` : 'could not be reached';
    }
  }
  return { ok: false, attempts: Math.max(1, policy.attempts), error: `webhook ${webhookLabel(url)} ${error}` };
}

/** A webhook as the config names it: its URL, or the environment variable holding it. */
export type WebhookSetting = string | { env: string };

/** The URL of a webhook, or the variable that should hold it and does not (or holds no http(s) address). */
export function webhookUrlOf(
  webhook: WebhookSetting,
  env: Readonly<Record<string, unknown>>,
): { url: string } | { missing: string } {
  if (typeof webhook === 'string') return { url: webhook };
  const url = env[webhook.env];
  return typeof url === 'string' && /^https?:\/\/\S+$/.test(url) ? { url } : { missing: webhook.env };
}

/**
 * Posts `body` to every webhook, each with the policy, at once; each one's result, in order. Used
 * by the host functions, which have no inbox of their own to record in: they log what failed.
 */
export async function postWebhooks(
  webhooks: readonly WebhookSetting[],
  env: Readonly<Record<string, unknown>>,
  body: unknown,
  policy: WebhookPolicy = webhookPolicy,
  options: PostOptions = {},
): Promise<ChannelResult[]> {
  return Promise.all(webhooks.map((webhook, index) => postToWebhook(webhook, index, env, body, policy, options)));
}

/** Posts `body` to the webhook of the config's `index` (from 0); a variable that is not set fails it, saying which. */
export async function postToWebhook(
  webhook: WebhookSetting,
  index: number,
  env: Readonly<Record<string, unknown>>,
  body: unknown,
  policy: WebhookPolicy = webhookPolicy,
  options: PostOptions = {},
): Promise<ChannelResult> {
  const url = webhookUrlOf(webhook, env);
  return 'missing' in url
    ? { ok: false, attempts: 0, error: `webhook ${index + 1}: the variable ${url.missing} is not set` }
    : postWebhook(url.url, body, policy, options);
}

/** How many tries a result took, for a log line: "not tried", "1 attempt", "3 attempts". */
export function attemptsText(attempts: number): string {
  return attempts === 0 ? 'not tried' : attempts === 1 ? '1 attempt' : `${attempts} attempts`;
}
