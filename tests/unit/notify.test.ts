/**
 * The notifications' pure parts: a webhook tried with a timeout and a growing pause (its failure
 * named by host, never by its token), the SMTP URL put together from the environment, the config's
 * refusal of a password in the file, and the engine's copy with a site's words over it.
 */
import { describe, expect, it } from 'vitest';
import { bookingConfirmationMailed } from '../../src/config/booking';
import { configSchema } from '../../src/config/schema';
import { notifyTextOf } from '../../src/notify/notify-copy';
import { smtpUrlOf } from '../../src/notify/smtp';
import { postWebhook, postWebhooks, webhookUrlOf } from '../../src/notify/webhooks';

const policy = { timeoutMs: 1_000, attempts: 3, backoffMs: 100 };

describe('postWebhook', () => {
  it('tries again after a pause that doubles, and stops at the first 2xx', async () => {
    const pauses: number[] = [];
    const statuses = [503, 500, 204];
    const sent: RequestInit[] = [];
    const result = await postWebhook('https://hooks.example/x/secret-token', { event: 'contact.received' }, policy, {
      fetch: async (_url, init) => {
        sent.push(init!);
        return new Response(null, { status: statuses.shift()! });
      },
      sleep: async (ms) => void pauses.push(ms),
    });
    expect(result).toEqual({ ok: true, attempts: 3 });
    expect(pauses).toEqual([100, 200]);
    expect(sent[0]!.method).toBe('POST');
    expect(JSON.parse(String(sent[0]!.body))).toEqual({ event: 'contact.received' });
    expect((sent[0]!.headers as Record<string, string>)['content-type']).toBe('application/json');
  });

  it('names a webhook that fails by its host only, and says why', async () => {
    const refused = await postWebhook('https://hooks.example/x/secret-token', {}, policy, {
      fetch: async () => {
        throw new TypeError('fetch failed');
      },
      sleep: async () => undefined,
    });
    expect(refused).toEqual({ ok: false, attempts: 3, error: 'webhook hooks.example could not be reached' });
    const slow = await postWebhook(
      'https://hooks.example/x/secret-token',
      {},
      { ...policy, attempts: 1 },
      {
        fetch: async () => {
          throw new DOMException('timed out', 'TimeoutError');
        },
      },
    );
    expect(slow.error).toBe('webhook hooks.example did not answer within 1 s');
  });

  it('reads a webhook named by a variable from the environment, and fails one that is not set', async () => {
    expect(webhookUrlOf({ env: 'HOOK' }, { HOOK: 'https://a.example/t' })).toEqual({ url: 'https://a.example/t' });
    expect(webhookUrlOf({ env: 'HOOK' }, {})).toEqual({ missing: 'HOOK' });
    const results = await postWebhooks(['https://a.example/', { env: 'HOOK' }], {}, {}, policy, {
      fetch: async () => new Response('ok'),
    });
    expect(results).toEqual([
      { ok: true, attempts: 1 },
      { ok: false, attempts: 0, error: 'webhook 2: the variable HOOK is not set' },
    ]);
  });
});

describe('smtpUrlOf', () => {
  const email = { from: 'a@b.example', to: ['team@b.example'] };
  it('takes the whole URL from a variable, or adds the password of one to the URL of the config', () => {
    expect(smtpUrlOf({ ...email, smtp: { env: 'SMTP_URL' } }, { SMTP_URL: 'smtps://u:p@mail.example' })).toEqual({
      url: 'smtps://u:p@mail.example',
    });
    expect(smtpUrlOf({ ...email, smtp: { env: 'SMTP_URL' } }, {})).toEqual({ missing: 'SMTP_URL' });
    expect(
      smtpUrlOf(
        { ...email, smtp: { url: 'smtp://user@mail.example:587', passwordEnv: 'SMTP_PASSWORD' } },
        {
          SMTP_PASSWORD: 'p@ss:word',
        },
      ),
    ).toEqual({ url: 'smtp://user:p%40ss%3Aword@mail.example:587' });
  });
});

describe('notifications: in the config', () => {
  const base = {
    site: { name: 'S', origin: 'https://s.example' },
    locales: {
      en: {
        label: 'English',
        short: 'EN',
        prefix: '',
        hreflang: 'en',
        htmlLang: 'en',
        ogLocale: 'en_GB',
        intl: 'en-GB',
      },
    },
    routes: [{ path: '/', template: 'Home' }],
  };
  const parse = (notifications: unknown) => configSchema.safeParse({ ...base, notifications });

  it('takes webhooks (https, http on localhost, or a variable) and e-mail whose secret is in the environment', () => {
    const parsed = parse({
      webhooks: ['https://hooks.example/a', 'http://127.0.0.1:9000/hook', { env: 'SLACK_WEBHOOK' }],
      email: { smtp: { env: 'SMTP_URL' }, from: 'S <hello@s.example>', to: ['team@s.example'] },
    });
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    expect(
      parse({
        email: {
          smtp: { url: 'smtp://user@mail.s.example:587', passwordEnv: 'SMTP_PASSWORD' },
          from: 'hello@s.example',
          to: ['t@s.example'],
        },
      }).success,
    ).toBe(true);
  });

  it('refuses a password in the file, a webhook over plain http elsewhere, and a team without an address', () => {
    const withPassword = parse({
      email: { smtp: { url: 'smtp://user:hunter2@mail.s.example:587' }, from: 'hello@s.example', to: ['t@s.example'] },
    });
    expect(withPassword.success).toBe(false);
    expect(JSON.stringify(withPassword.error?.issues)).toContain('without the password');
    expect(parse({ webhooks: ['http://hooks.example/a'] }).success).toBe(false);
    expect(parse({ email: { smtp: { env: 'SMTP_URL' }, from: 'hello@s.example', to: [] } }).success).toBe(false);
  });
});

describe('notifyTextOf', () => {
  it('reads Norwegian for no, nb and nn-NO, English otherwise, with the site words over it', () => {
    expect(notifyTextOf('no').confirmationSubject).toMatch(/^Møtet ditt/);
    expect(notifyTextOf('nb-NO').name).toBe('Navn');
    expect(notifyTextOf('de-DE').name).toBe('Name');
    expect(notifyTextOf('en', { contactSubject: 'Lead: {name}' }).contactSubject).toBe('Lead: {name}');
  });
});

describe('bookingConfirmationMailed', () => {
  it('is true only where site serve mails the visitor: notifications.email on the node target', () => {
    const email = { smtp: { env: 'SMTP_URL' }, from: 'a@b.example', to: ['t@b.example'] };
    const output = (target: 'node' | 'netlify') => ({ target }) as never;
    expect(bookingConfirmationMailed({ notifications: { webhooks: [], email }, output: output('node') })).toBe(true);
    expect(bookingConfirmationMailed({ notifications: { webhooks: [], email }, output: output('netlify') })).toBe(
      false,
    );
    expect(
      bookingConfirmationMailed({ notifications: { webhooks: ['https://h.example/'] }, output: output('node') }),
    ).toBe(false);
    expect(bookingConfirmationMailed({ notifications: undefined, output: output('node') })).toBe(false);
  });
});
