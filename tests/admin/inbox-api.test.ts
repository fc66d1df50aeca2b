/**
 * The inbox API of `site serve --admin` on a temp site whose data folder holds the JSON-lines files
 * of an earlier version (imported at the first start, ids kept, the files renamed aside untouched;
 * its two bookings of one slot, made by two processes of that version, both kept): admins only (an
 * editor gets 403), newest first with both kinds, handled state that survives a restart, one
 * deletion that keeps what the running contact endpoint stores meanwhile, the CSV export's quoting and formula neutralisation,
 * CSRF, unknown ids, the audit log (ids, never personal data) and the changes view.
 */
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempSite, type TempSite } from '../helpers/fixture-site';
import { startAdminServer } from '../helpers/admin-server';

const admin = { email: 'admin@example.com', role: 'admin' as const, password: 'admin password 1' };
const editor = { email: 'editor@example.com', role: 'editor' as const, password: 'editor password 1' };

const contact = (receivedAt: string, firstName: string, extra: Record<string, string> = {}) => ({
  receivedAt,
  firstName,
  lastName: 'Hansen',
  email: `${firstName.toLowerCase()}@visitor.example`,
  company: '',
  type: 'repairer',
  subject: '',
  message: `Hello from ${firstName}`,
  locale: 'en',
  page: '/contactus/',
  ...extra,
});
const booking = (id: string, bookedAt: string, firstName: string) => ({
  id,
  start: '2026-12-01T10:00:00+01:00',
  end: '2026-12-01T10:30:00+01:00',
  locale: 'no',
  bookedAt,
  firstName,
  lastName: 'Berg',
  email: `${firstName.toLowerCase()}@visitor.example`,
  company: 'Berg Sko',
  note: 'About the shop',
});

const spam = Array.from({ length: 6 }, (_, n) => contact(`2025-06-0${n + 1}T10:00:00.000Z`, `Spam${n}`));
const contactLines = [
  ...spam,
  contact('2026-01-05T09:00:00.000Z', 'Oldest'),
  contact('2026-03-01T12:00:00.000Z', 'Formula', {
    company: '+47 22 00 00 00',
    subject: '@sum',
    message: '=HYPERLINK("http://evil.example","click")',
  }),
  contact('2026-04-10T08:30:00.000Z', 'Quoted', {
    lastName: 'O"Brien, Jr.',
    message: 'Line one\nLine two, with a comma',
  }),
];
const bookingLines = [
  booking('5f0c8f4e-1111-4c11-9a11-aaaaaaaaaaaa', '2026-02-14T15:00:00.000Z', 'Kari'),
  booking('5f0c8f4e-2222-4c22-9a22-bbbbbbbbbbbb', '2026-05-01T07:00:00.000Z', 'Ola'),
];

describe('site serve --admin: /api/admin/inbox', () => {
  let site: TempSite;
  let server: Awaited<ReturnType<typeof startAdminServer>>;
  let auth: { cookie: string; csrf: string };
  let editorAuth: { cookie: string; csrf: string };
  const dataDir = () => join(site.dir, 'data');
  const contactFile = () => join(dataDir(), 'contact-submissions.jsonl');
  const bookingFile = () => join(dataDir(), 'booking-requests.jsonl');
  const get = (path: string, who = auth) => server.send('GET', path, { headers: { cookie: who.cookie } });
  const change = (method: string, path: string, body?: unknown, who = auth, csrf: string | null = who.csrf) =>
    server.send(method, path, {
      headers: {
        cookie: who.cookie,
        origin: server.url,
        ...(csrf === null ? {} : { 'x-csrf-token': csrf }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const items = async () => (await get('/api/admin/inbox')).json().items as Record<string, unknown>[];
  const start = async (restart = false) => {
    server = await startAdminServer({
      users: restart ? [] : [admin, editor],
      configPath: site.config,
      projectRoot: site.dir,
      inbox: true,
      trustProxy: true,
    });
    auth = await server.signIn(admin.email, admin.password);
    editorAuth = await server.signIn(editor.email, editor.password);
  };

  beforeAll(async () => {
    site = await createTempSite();
    await mkdir(dataDir(), { recursive: true });
    await writeFile(contactFile(), contactLines.map((line) => `${JSON.stringify(line)}\n`).join(''), { mode: 0o600 });
    await writeFile(bookingFile(), bookingLines.map((line) => `${JSON.stringify(line)}\n`).join(''), { mode: 0o600 });
    await start();
  });
  afterAll(async () => {
    await server?.close();
    await site?.cleanup();
  });

  it('is for admins: an editor gets 403, a visitor 401, and every answer is no-store', async () => {
    for (const path of ['/api/admin/inbox', '/api/admin/inbox.csv', '/api/admin/changes']) {
      const answer = await get(path, editorAuth);
      expect(answer.status, path).toBe(403);
      expect(answer.json().error).toBe('forbidden');
      expect((await server.send('GET', path)).status, path).toBe(401);
    }
    const id = (await items())[0]!.id as string;
    expect((await change('PATCH', `/api/admin/inbox/${id}`, { handled: true }, editorAuth)).status).toBe(403);
    expect((await change('DELETE', `/api/admin/inbox/${id}`, undefined, editorAuth)).status).toBe(403);
    expect((await items()).find((item) => item.id === id)!.handled).toBe(false);
    expect((await get('/api/admin/inbox')).headers['cache-control']).toBe('no-store');
  });

  it('lists both kinds newest first, with stable ids, their fields and handled state', async () => {
    const listed = await items();
    expect(listed.map((item) => [item.kind, item.firstName])).toEqual([
      ['booking', 'Ola'],
      ['contact', 'Quoted'],
      ['contact', 'Formula'],
      ['booking', 'Kari'],
      ['contact', 'Oldest'],
      ...spam.map((line) => ['contact', line.firstName]).reverse(),
    ]);
    const ola = listed[0]!;
    expect(ola).toMatchObject({
      id: 'booking-5f0c8f4e-2222-4c22-9a22-bbbbbbbbbbbb',
      kind: 'booking',
      receivedAt: '2026-05-01T07:00:00.000Z',
      handled: false,
      email: 'ola@visitor.example',
      company: 'Berg Sko',
      note: 'About the shop',
      start: '2026-12-01T10:00:00+01:00',
    });
    expect(ola.bookedAt).toBeUndefined();
    const quoted = listed[1]!;
    expect(quoted.id).toMatch(/^contact-[\w-]{22}$/);
    expect(quoted).toMatchObject({
      receivedAt: '2026-04-10T08:30:00.000Z',
      message: 'Line one\nLine two, with a comma',
      handled: false,
    });
    expect((await items()).map((item) => item.id)).toEqual(listed.map((item) => item.id));
  });

  it('imported the old files at the first start and renamed them aside, untouched', async () => {
    const stamp = new Date().toISOString().slice(0, 10);
    expect(await readFile(`${contactFile()}.imported-${stamp}`, 'utf8')).toBe(
      contactLines.map((line) => `${JSON.stringify(line)}\n`).join(''),
    );
    expect(await readFile(`${bookingFile()}.imported-${stamp}`, 'utf8')).toBe(
      bookingLines.map((line) => `${JSON.stringify(line)}\n`).join(''),
    );
    await expect(stat(contactFile())).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('marks an item handled and back, and keeps it across a restart', async () => {
    const target = (await items()).find((item) => item.firstName === 'Formula')!;
    const marked = await change('PATCH', `/api/admin/inbox/${target.id}`, { handled: true });
    expect(marked.status).toBe(200);
    expect(marked.json().item).toMatchObject({ id: target.id, handled: true });
    const other = (await items()).find((item) => item.firstName === 'Kari')!;
    expect((await change('PATCH', `/api/admin/inbox/${other.id}`, { handled: true })).status).toBe(200);
    expect((await change('PATCH', `/api/admin/inbox/${other.id}`, { handled: false })).status).toBe(200);
    expect((await change('PATCH', `/api/admin/inbox/${other.id}`, { handled: 'yes' })).status).toBe(400);

    await server.close();
    await start(true);
    const after = await items();
    expect(after.find((item) => item.id === target.id)).toMatchObject({
      handled: true,
      handledAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(after.find((item) => item.id === other.id)!.handled).toBe(false);
    expect(after.filter((item) => item.handled).length).toBe(1);
    expect((await stat(join(dataDir(), 'site.db'))).mode & 0o777).toBe(0o600);
  });

  it('refuses a change without the CSRF token (403), and an unknown id (404)', async () => {
    const id = (await items())[0]!.id as string;
    expect((await change('PATCH', `/api/admin/inbox/${id}`, { handled: true }, auth, null)).status).toBe(403);
    expect((await change('DELETE', `/api/admin/inbox/${id}`, undefined, auth, null)).status).toBe(403);
    expect((await change('DELETE', `/api/admin/inbox/${id}`, undefined, auth, 'not-the-token')).status).toBe(403);
    expect((await items()).map((item) => item.id)).toContain(id);
    for (const unknown of [
      'contact-AAAAAAAAAAAAAAAAAAAAAA',
      'booking-00000000-0000-0000-0000-000000000000',
      'nothing',
      '..%2F..%2Fetc',
    ]) {
      expect((await change('PATCH', `/api/admin/inbox/${unknown}`, { handled: true })).status, unknown).toBe(404);
      expect((await change('DELETE', `/api/admin/inbox/${unknown}`)).status, unknown).toBe(404);
    }
  });

  it('deletes exactly one item, and keeps every submission the contact endpoint stores meanwhile', async () => {
    const listed = await items();
    const doomed = listed.filter((item) => /^(Oldest|Kari|Spam)/.test(String(item.firstName)));
    const post = (n: number) =>
      server.send(
        'POST',
        '/api/contact',
        server.json(
          {
            firstName: `Concurrent${n}`,
            lastName: 'Visitor',
            email: `c${n}@visitor.example`,
            message: `Sent while deleting ${n}`,
          },
          { 'x-forwarded-for': `192.0.2.${n + 1}` },
        ),
      );
    // Each deletion races a few submissions sent just before and after it.
    const answers = await Promise.all(
      doomed.flatMap((item, round) => [
        post(round * 4),
        post(round * 4 + 1),
        change('DELETE', `/api/admin/inbox/${item.id}`),
        post(round * 4 + 2),
        post(round * 4 + 3),
      ]),
    );
    expect(answers.map((answer) => answer.status)).toEqual(doomed.flatMap(() => [201, 201, 200, 201, 201]));

    const after = await items();
    const sent = doomed.length * 4;
    expect(after.length).toBe(listed.length - doomed.length + sent);
    for (const item of doomed) expect(after.map((kept) => kept.id)).not.toContain(item.id);
    for (const item of listed.filter((candidate) => !doomed.includes(candidate)))
      expect(
        after.find((kept) => kept.id === item.id),
        String(item.firstName),
      ).toMatchObject({ handled: item.handled });
    expect(after.filter((item) => String(item.firstName).startsWith('Concurrent')).length).toBe(sent);
    expect((await change('DELETE', `/api/admin/inbox/${doomed[0]!.id}`)).status).toBe(404);
  });

  it('exports what the filter shows as CSV: quoted where needed, formulas neutralised', async () => {
    const answer = await get('/api/admin/inbox.csv?kind=contact&q=formula');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.headers['content-disposition']).toMatch(/^attachment; filename="inbox-\d{4}-\d\d-\d\d\.csv"$/);
    expect(answer.headers['cache-control']).toBe('no-store');
    const rows = answer.text.replace(/^\uFEFF/, '').split('\r\n');
    expect(rows[0]).toBe(
      'id,kind,receivedAt,handled,handledAt,firstName,lastName,email,company,type,subject,message,start,end,note,locale,page',
    );
    expect(rows.length).toBe(3);
    expect(rows[2]).toBe('');
    expect(rows[1]).toContain(
      `,Formula,Hansen,formula@visitor.example,'+47 22 00 00 00,repairer,'@sum,"'=HYPERLINK(""http://evil.example"",""click"")",,,,en,/contactus/`,
    );

    const all = (await get('/api/admin/inbox.csv')).text;
    expect(all).toContain('"O""Brien, Jr."');
    expect(all).toContain('"Line one\nLine two, with a comma"');
    expect(all.split('\r\n').length).toBe((await items()).length + 2);
    const handled = (await get('/api/admin/inbox.csv?handled=handled')).text.split('\r\n');
    expect(handled.length).toBe(3);
    // The page posts the filter, keeping the search text out of the URL; a post needs the CSRF token.
    const posted = await change('POST', '/api/admin/inbox.csv', { q: 'formula', kind: 'contact', handled: '' });
    expect(posted.status).toBe(200);
    expect(posted.text).toBe(answer.text);
    expect((await change('POST', '/api/admin/inbox.csv', { q: 'formula' }, auth, null)).status).toBe(403);
    expect((await change('POST', '/api/admin/inbox.csv', { q: 'formula' }, editorAuth)).status).toBe(403);
  });

  it('logs every change and export with ids and counts only, and shows the log newest first as the changes view', async () => {
    const { entries: stored } = await (await server.store.get()).listAudit(1000);
    const log = JSON.stringify(stored);
    const inboxLines = [...stored].reverse().filter((entry) => String(entry.action).startsWith('inbox-'));
    expect(inboxLines.map((entry) => entry.action)).toEqual([
      'inbox-handled',
      'inbox-handled',
      'inbox-unhandled',
      ...Array(8).fill('inbox-delete'),
      'inbox-export',
      'inbox-export',
      'inbox-export',
      'inbox-export',
    ]);
    expect(inboxLines[0]).toMatchObject({ user: admin.email, id: expect.stringMatching(/^contact-/), kind: 'contact' });
    expect(inboxLines[11]).toMatchObject({ action: 'inbox-export', count: 1, kind: 'contact' });
    for (const secret of ['visitor.example', 'Hansen', 'HYPERLINK', 'formula', 'Concurrent'])
      expect(log).not.toContain(secret);

    const changes = await get('/api/admin/changes');
    expect(changes.status).toBe(200);
    const entries = changes.json().items as Record<string, unknown>[];
    expect(entries[0]).toEqual({
      time: expect.any(String),
      action: 'inbox-export',
      user: admin.email,
      count: 1,
      kind: 'contact',
    });
    const times = entries.map((entry) => String(entry.time));
    expect([...times].sort().reverse()).toEqual(times);
    expect(entries.some((entry) => entry.action === 'sign-in' && entry.user === editor.email)).toBe(true);
    expect(changes.json().more).toBe(false);
    const limited = (await get('/api/admin/changes?limit=2')).json();
    expect(limited.items).toEqual(entries.slice(0, 2));
    expect(limited.more).toBe(true);
  });
});
