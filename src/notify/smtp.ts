/**
 * Mail through the site's SMTP server, for `site serve`: the server's address from the config and
 * its password from the environment only, nodemailer (a well-kept client: STARTTLS, SMTPS, AUTH,
 * MIME with attachments, dot-stuffing) loaded on the first mail, so a build or a server that sends
 * none never loads it. A failure is said without the password or the user.
 */
import type { NotificationsConfig } from '../config/schema.js';
import { lazyPackage } from '../lazy-package.js';
import type { MailMessage } from './payload.js';
import type { ChannelResult } from './webhooks.js';

type Nodemailer = typeof import('nodemailer');
const nodemailer = lazyPackage<Nodemailer>('nodemailer');

/** The e-mail part of `notifications:`. */
export type EmailSettings = NonNullable<NotificationsConfig['email']>;

/** The SMTP server's URL, password included, or why there is none (the variable that is not set). */
export function smtpUrlOf(
  email: EmailSettings,
  env: Readonly<Record<string, string | undefined>>,
): { url: string } | { missing: string } {
  const { smtp } = email;
  if ('env' in smtp) {
    const url = env[smtp.env];
    return url && /^smtps?:\/\//.test(url) ? { url } : { missing: smtp.env };
  }
  if (!smtp.passwordEnv) return { url: smtp.url };
  const password = env[smtp.passwordEnv];
  if (!password) return { missing: smtp.passwordEnv };
  const url = new URL(smtp.url);
  url.password = password;
  return { url: url.href };
}

/** Sends mail through one SMTP server. */
export interface Mailer {
  send(message: MailMessage): Promise<ChannelResult>;
  close(): void;
}

/** How long the SMTP server may take: to connect, to greet, to answer a command (ms). */
const smtpTimeouts = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };
/** Attempts per mail, and the pause between them. */
const mailAttempts = 2;
const mailBackoffMs = 1_000;

/** A mailer on the server at `url` (smtp:// with STARTTLS when offered, smtps:// with TLS from the start). */
export function createMailer(url: string, options: { sleep?: (ms: number) => Promise<void> } = {}): Mailer {
  const parsed = new URL(url);
  const secrets = [parsed.password, decodeURIComponent(parsed.password), parsed.username].filter(
    (part) => part.length > 2,
  );
  const transport = nodemailer().createTransport({
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    port: parsed.port ? Number(parsed.port) : parsed.protocol === 'smtps:' ? 465 : 587,
    secure: parsed.protocol === 'smtps:',
    ...(parsed.username
      ? { auth: { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) } }
      : {}),
    ...smtpTimeouts,
  });
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  return {
    async send(message) {
      let error = '';
      for (let attempt = 1; attempt <= mailAttempts; attempt++) {
        if (attempt > 1) await sleep(mailBackoffMs);
        try {
          await transport.sendMail(message);
          return { ok: true, attempts: attempt };
        } catch (cause) {
          error = safeReason(cause, secrets);
          // A refused address or message stays refused: only a connection's failure is worth another try.
          if (typeof (cause as { responseCode?: unknown }).responseCode === 'number') {
            return { ok: false, attempts: attempt, error: `the SMTP server ${parsed.hostname} ${error}` };
          }
        }
      }
      return { ok: false, attempts: mailAttempts, error: `the SMTP server ${parsed.hostname} ${error}` };
    },
    close: () => transport.close(),
  };
}

/** Why sending failed, in a few words, with anything secret blanked out. */
function safeReason(cause: unknown, secrets: readonly string[]): string {
  const { code, responseCode, message } = cause as { code?: unknown; responseCode?: unknown; message?: unknown };
  let reason =
    typeof responseCode === 'number'
      ? `answered ${responseCode}${typeof message === 'string' ? `: ${message}` : ''}`
      : code === 'ETIMEDOUT'
        ? 'did not answer in time'
        : `could not be reached${typeof code === 'string' ? ` (${code})` : ''}`;
  for (const secret of secrets) reason = reason.split(secret).join('…');
  return reason.slice(0, 300);
}
