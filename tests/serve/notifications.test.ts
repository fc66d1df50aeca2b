/**
 * Notifications through `site serve --admin` (in-process, the real site built by the global setup),
 * against a local SMTP server (smtp-server, with a password) and local webhook receivers on
 * 127.0.0.1: a contact message and a booking reach the webhook as JSON and the team by mail; the
 * booked visitor gets a confirmation in their language with an .ics (RFC 5545 fields checked); a
 * webhook that fails is tried a few times, shown as failed in the inbox API, and sent again by the
 * retry; the log names neither the SMTP password nor the webhook's token.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdminServer } from '../helpers/admin-server';

const admin = { email: 'admin@example.com', role: 'admin' as const, password: 'admin password 1' };
const smtpPassword = 's3cret-smtp-pass';
const hookToken = 'tok-9f8e7d6c5b4a';

interface Receiver {
  server: Server;
  url: string;
  bodies: Record<string, unknown>[];
  hits: number;
  failing: boolean;
}

/** A webhook receiver on 127.0.0.1 that keeps what it is sent, or answers 500 while `failing`. */
async function startReceiver(failing: boolean): Promise<Receiver> {
  const receiver = { bodies: [], hits: 0, failing } as unknown as Receiver;
  receiver.server = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      receiver.hits++;
      if (receiver.failing) return void response.writeHead(500).end();
      receiver.bodies.push({
        path: request.url,
        contentType: request.headers['content-type'],
        ...JSON.parse(Buffer.concat(chunks).toString('utf8')),
      });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(receiver.server.address() as AddressInfo).port}`;
  return receiver;
}

/** The properties of the first VEVENT of an .ics text, lines unfolded. */
function eventOf(ics: string): Record<string, string> {
  const lines = ics.replace(/\r\n[ \t]/g, '').split('\r\n');
  const start = lines.indexOf('BEGIN:VEVENT');
  const end = lines.indexOf('END:VEVENT');
  return Object.fromEntries(
    lines.slice(start + 1, end).map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).split(';')[0]!, line.slice(colon + 1)];
    }),
  );
}

describe('site serve: notifications of contact messages and bookings', () => {
  let smtp: SMTPServer;
  let smtpUrl: string;
  const mails: ParsedMail[] = [];
  const logins: string[] = [];
  let hook: Receiver;
  let failingHook: Receiver;
  const logged: string[] = [];
  let server: Awaited<ReturnType<typeof startAdminServer>>;
  let auth: { cookie: string; csrf: string };

  beforeAll(async () => {
    smtp = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      logger: false,
      onAuth(auth, _session, callback) {
        logins.push(auth.username ?? '');
        if (auth.username === 'notify' && auth.password === smtpPassword) return callback(null, { user: 'notify' });
        callback(new Error('Invalid username or password'));
      },
      onData(stream, _session, callback) {
        simpleParser(stream).then((mail) => {
          mails.push(mail);
          callback();
        }, callback);
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    smtpUrl = `smtp://notify:${smtpPassword}@127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
    hook = await startReceiver(false);
    failingHook = await startReceiver(true);
    server = await startAdminServer({
      users: [admin],
      inbox: true,
      configure(config) {
        config.notifications = {
          webhooks: [`${hook.url}/hook/${hookToken}`, { env: 'TEST_FAILING_WEBHOOK' }],
          email: {
            smtp: { env: 'TEST_SMTP_URL' },
            from: 'Mendwise <hello@mendwise.example>',
            to: ['team@mendwise.example'],
          },
        };
      },
      notify: {
        env: { TEST_SMTP_URL: smtpUrl, TEST_FAILING_WEBHOOK: `${failingHook.url}/other/${hookToken}` },
        policy: { timeoutMs: 2_000, attempts: 3, backoffMs: 20 },
        log: { warn: (message) => logged.push(message) },
      },
    });
    auth = await server.signIn(admin.email, admin.password);
  });
  afterAll(async () => {
    await server?.close();
    await new Promise<void>((resolve) => smtp?.close(() => resolve()));
    for (const receiver of [hook, failingHook]) receiver?.server.close();
  });

  const inbox = async () =>
    (await server.send('GET', '/api/admin/inbox', { headers: { cookie: auth.cookie } })).json().items as Record<
      string,
      unknown
    >[];

  it('posts a contact message to the webhook as JSON and mails it to the team, after storing it', async () => {
    const answer = await server.send(
      'POST',
      '/api/contact',
      server.json({
        firstName: 'Kari',
        lastName: 'Nordmann',
        email: 'kari@visitor.example',
        message: 'Do you repair zips?',
        type: 'repairer',
        locale: 'no',
        page: '/no/contactus/',
      }),
    );
    expect(answer.status).toBe(201);
    await expect.poll(() => hook.bodies.length).toBe(1);
    const body = hook.bodies[0]!;
    expect(body).toMatchObject({
      path: `/hook/${hookToken}`,
      contentType: 'application/json',
      event: 'contact.received',
      site: server.config.site.origin,
      data: { firstName: 'Kari', lastName: 'Nordmann', email: 'kari@visitor.example', message: 'Do you repair zips?' },
    });
    expect(body.id).toMatch(/^contact-/);
    const stored = (await inbox()).find((item) => item.id === body.id);
    expect(stored).toMatchObject({ firstName: 'Kari' });

    await expect.poll(() => mails.length).toBe(1);
    const team = mails[0]!;
    expect(team.to && 'value' in team.to ? team.to.value.map((to) => to.address) : []).toEqual([
      'team@mendwise.example',
    ]);
    expect(team.from?.value[0]?.address).toBe('hello@mendwise.example');
    expect(team.replyTo?.value[0]?.address).toBe('kari@visitor.example');
    expect(team.subject).toBe('New message from Kari Nordmann');
    expect(team.text).toContain('Do you repair zips?');
    expect(team.text).toContain(`${server.config.site.origin}/no/contactus/`);
    expect(logins).toContain('notify');
  });

  it('shows a webhook that keeps failing as failed in the inbox, after its retries, and sends it again on retry', async () => {
    // The contact message above: its second webhook answered 500 three times.
    await expect.poll(async () => (await inbox()).find((item) => item.kind === 'contact')?.delivery).toBe('failed');
    const item = (await inbox()).find((item) => item.kind === 'contact')!;
    expect(failingHook.hits).toBe(3);
    expect(item.deliveryError).toBe(`webhook ${new URL(failingHook.url).host} answered 500`);
    const mailsBefore = mails.length;
    const hooksBefore = hook.bodies.length;

    failingHook.failing = false;
    const retried = await server.send('POST', `/api/admin/inbox/${String(item.id)}/notify`, {
      headers: { cookie: auth.cookie, origin: server.url, 'x-csrf-token': auth.csrf },
    });
    expect(retried.status).toBe(200);
    expect(retried.json().item).toMatchObject({ id: item.id, delivery: 'sent' });
    expect(retried.json().item.deliveryError).toBeUndefined();
    expect(failingHook.bodies).toMatchObject([{ path: `/other/${hookToken}`, id: item.id }]);
    // Only the failed channel went again: no second team mail, nothing more to the first webhook.
    expect(mails.length).toBe(mailsBefore);
    expect(hook.bodies.length).toBe(hooksBefore);

    const withoutCsrf = await server.send('POST', `/api/admin/inbox/${String(item.id)}/notify`, {
      headers: { cookie: auth.cookie, origin: server.url },
    });
    expect(withoutCsrf.status).toBe(403);
    const unknown = await server.send('POST', '/api/admin/inbox/contact-nothing-here/notify', {
      headers: { cookie: auth.cookie, origin: server.url, 'x-csrf-token': auth.csrf },
    });
    expect(unknown.status).toBe(404);
  });

  it('mails a booking to the team and the visitor a confirmation in their language with the meeting as .ics', async () => {
    const slots = (await server.send('GET', '/api/booking/slots')).json().slots as { start: string; end: string }[];
    expect(slots.length).toBeGreaterThan(0);
    const slot = slots[0]!;
    const mailsBefore = mails.length;
    const answer = await server.send(
      'POST',
      '/api/booking',
      server.json({
        start: slot.start,
        firstName: 'Ola',
        lastName: 'Berg',
        email: 'ola@visitor.example',
        company: 'Berg Sko',
        note: 'Om butikken',
        locale: 'no',
        page: '/no/book-meeting/',
      }),
    );
    expect(answer.status).toBe(201);
    const { id } = answer.json() as { id: string };

    await expect.poll(() => hook.bodies.filter((body) => body.event === 'booking.created').length).toBe(1);
    expect(hook.bodies.find((body) => body.event === 'booking.created')).toMatchObject({
      id: `booking-${id}`,
      data: { start: slot.start, end: slot.end, firstName: 'Ola', email: 'ola@visitor.example', locale: 'no' },
    });

    await expect.poll(() => mails.length).toBe(mailsBefore + 2);
    const sent = mails.slice(mailsBefore);
    const addressOf = (mail: ParsedMail) => (mail.to && 'value' in mail.to ? mail.to.value[0]?.address : undefined);
    const team = sent.find((mail) => addressOf(mail) === 'team@mendwise.example')!;
    const visitor = sent.find((mail) => addressOf(mail) === 'ola@visitor.example')!;
    expect(team.subject).toMatch(/^New meeting booked: /);
    expect(team.text).toContain('Om butikken');
    expect(team.attachments).toEqual([]);

    // Norwegian, the visitor's language: the engine's copy (the site has no notifications.* messages).
    expect(visitor.subject).toMatch(/^Møtet ditt med Mendwise: /);
    expect(visitor.text).toContain('Hei Ola');
    expect(visitor.text).toContain('30 minutter');
    expect(visitor.attachments).toHaveLength(1);
    const attachment = visitor.attachments[0]!;
    expect(attachment.contentType).toBe('text/calendar');
    expect(attachment.filename).toBe(`mote-${slot.start.slice(0, 10)}.ics`);
    const ics = attachment.content.toString('utf8');
    expect(ics.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toBe(true);
    expect(ics.trimEnd().endsWith('END:VCALENDAR')).toBe(true);
    const event = eventOf(ics);
    const utc = (iso: string) =>
      new Date(Date.parse(iso))
        .toISOString()
        .replace(/[-:]/g, '')
        .replace(/\.\d{3}/, '');
    expect(event).toMatchObject({
      UID: `${id}@${new URL(server.config.site.origin).hostname}`,
      DTSTART: utc(slot.start),
      DTEND: utc(slot.end),
      ORGANIZER: 'mailto:hello@mendwise.example',
    });
    expect(event.DTSTAMP).toMatch(/^\d{8}T\d{6}Z$/);
    expect(event.DTSTART).toMatch(/Z$/);
    expect(event.SUMMARY).toMatch(/Mendwise/);

    await expect.poll(async () => (await inbox()).find((item) => item.id === `booking-${id}`)?.delivery).toBe('sent');
  });

  it('never logs the SMTP password nor the webhook token', async () => {
    expect(logged.length).toBeGreaterThan(0);
    const text = logged.join('\n');
    expect(text).not.toContain(smtpPassword);
    expect(text).not.toContain(hookToken);
    expect(text).not.toContain('notify:');
  });
});
