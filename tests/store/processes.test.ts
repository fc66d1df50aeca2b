/**
 * The store as `site serve` processes share it, for real (child processes on one temp project):
 * the first start imports the JSON-lines files of an earlier version and the accounts file,
 * keeping ids, and renames them aside, and a second start imports nothing; two servers on one
 * data folder never both answer 201 for one slot; a booking deleted in one server's inbox is
 * offered again by the other at once; a session survives a restart and works on the other
 * server; every 201 a server sent before a kill -9 is in the database; `site db migrate`,
 * `status` and `backup` from the command line.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/admin/passwords';
import { buildSite } from '../../src/build';
import { writeSite } from '../../src/emit/write';
import { openSqlite } from '../../src/store/sqlite';
import { latestVersion } from '../../src/store/migrations';
import { createStore } from '../../src/store/store';
import { send, testScrypt } from '../helpers/admin-server';
import { createTempSite, type TempSite } from '../helpers/fixture-site';
import { repoRoot } from '../helpers/paths';

const run = promisify(execFile);
const siteBin = join(repoRoot, 'bin', 'site.js');
const admin = { email: 'chief@example.com', password: 'chief password 1' };
const visitor = {
  firstName: 'Kari',
  lastName: 'Nordmann',
  email: 'kari@example.no',
  company: 'Skredderiet AS',
  note: '',
  locale: 'en',
};

interface Served {
  url: string;
  output(): string;
  stop(): Promise<void>;
  kill(): Promise<void>;
}

/** Starts `site serve` (with `args`) as a child process of the project; resolves once it listens. */
async function serve(site: TempSite, dir: string, args: string[] = []): Promise<Served> {
  const child: ChildProcess = spawn(
    process.execPath,
    [siteBin, '--config', site.config, 'serve', '--dir', dir, '--port', '0', ...args],
    { cwd: site.dir, env: { ...process.env, NO_COLOR: '1', DATABASE_URL: '' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stderr!.setEncoding('utf8').on('data', (text: string) => (output += text));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (text: string) => {
      output += text;
      const address = /serving \S+ at (http:\/\/\S+?)\/?$/m.exec(output)?.[1];
      if (address) resolve(address);
    });
    child.once('exit', (code) => reject(new Error(`site serve ended (${code}): ${output}`)));
  });
  const ended = new Promise((resolve) => child.once('exit', resolve));
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await ended;
  };
  return { url, output: () => output, stop: () => end('SIGTERM'), kill: () => end('SIGKILL') };
}

const json = (url: string, body: unknown, headers: Record<string, string> = {}) => ({
  headers: { origin: url, 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

async function signIn(url: string): Promise<{ cookie: string; csrf: string }> {
  const answer = await send(url, 'POST', '/api/auth/login', json(url, admin));
  expect(answer.status, answer.text).toBe(200);
  return { cookie: String(answer.headers['set-cookie']).split(';', 1)[0]!, csrf: answer.json().csrfToken as string };
}

/** What the project's database holds, read through a connection of its own. */
async function inDatabase<T>(
  site: TempSite,
  read: (store: Awaited<ReturnType<typeof createStore>>) => Promise<T>,
): Promise<T> {
  const store = await createStore(await openSqlite(join(site.dir, 'data', 'site.db')));
  try {
    return await read(store);
  } finally {
    await store.close();
  }
}

describe('site serve processes on one store', () => {
  let site: TempSite;
  let dist: string;
  const oldContact = {
    receivedAt: '2026-01-05T09:00:00.000Z',
    firstName: 'Oldest',
    lastName: 'Hansen',
    email: 'oldest@visitor.example',
    message: 'Hello from before',
  };
  const oldContactLine = JSON.stringify(oldContact);
  const servers: Served[] = [];

  beforeAll(async () => {
    site = await createTempSite();
    dist = join(site.dir, 'dist');
    await writeSite(dist, (await buildSite({ config: site.config, socialImages: false })).files);
    // The files of an earlier version: messages, bookings, accounts and the audit log.
    await mkdir(join(site.dir, 'data'), { recursive: true });
    await writeFile(join(site.dir, 'data', 'contact-submissions.jsonl'), `${oldContactLine}\n`, { mode: 0o600 });
    await writeFile(
      join(site.dir, 'data', 'booking-requests.jsonl'),
      `${JSON.stringify({ id: '5f0c8f4e-1111-4c11-9a11-aaaaaaaaaaaa', start: '2026-02-02T10:00:00+01:00', end: '2026-02-02T10:30:00+01:00', locale: 'no', bookedAt: '2026-01-20T15:00:00.000Z', firstName: 'Kari', lastName: 'Berg', email: 'kari@visitor.example' })}\n`,
      { mode: 0o600 },
    );
    await mkdir(join(site.dir, '.site'), { recursive: true, mode: 0o700 });
    const account = {
      email: admin.email,
      role: 'admin',
      passwordHash: await hashPassword(admin.password, testScrypt),
      created: '2025-01-01T00:00:00.000Z',
    };
    await writeFile(join(site.dir, '.site', 'admins.json'), JSON.stringify({ accounts: [account] }), { mode: 0o600 });
    await writeFile(
      join(site.dir, '.site', 'audit.jsonl'),
      `${JSON.stringify({ time: '2025-06-01T00:00:00.000Z', user: admin.email, action: 'sign-in' })}\n`,
      { mode: 0o600 },
    );
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await site?.cleanup();
  });

  const start = async (args: string[] = [], dir = dist) => {
    const server = await serve(site, dir, args);
    servers.push(server);
    return server;
  };

  it('imports the old files at the first start, keeping ids, renames them aside, and imports nothing the second time', async () => {
    const first = await start();
    expect(first.output()).toMatch(
      /imported into .*site\.db: 1 contact messages, 1 bookings, 1 accounts, 1 audit entries/,
    );
    await first.stop();
    const stamp = new Date().toISOString().slice(0, 10);
    expect((await readdir(join(site.dir, 'data'))).filter((name) => !name.startsWith('site.db')).sort()).toEqual([
      `booking-requests.jsonl.imported-${stamp}`,
      `contact-submissions.jsonl.imported-${stamp}`,
    ]);
    expect((await readdir(join(site.dir, '.site'))).sort()).toEqual([
      `admins.json.imported-${stamp}`,
      `audit.jsonl.imported-${stamp}`,
    ]);
    const items = await inDatabase(site, (store) => store.listInbox());
    // A contact message keeps the id the inbox gave its line: the hash of the line's bytes.
    expect(items.map((item) => item.id).sort()).toEqual([
      'booking-5f0c8f4e-1111-4c11-9a11-aaaaaaaaaaaa',
      `contact-${createHash('sha256').update(oldContactLine).digest('base64url').slice(0, 22)}`,
    ]);
    expect((await stat(join(site.dir, 'data', 'site.db'))).mode & 0o777).toBe(0o600);

    const second = await start();
    expect(second.output()).not.toContain('imported');
    await second.stop();
  }, 120_000);

  it('never answers 201 twice for one slot across two servers, frees a slot deleted in one inbox for the other at once, and shares sessions that survive a restart', async () => {
    // Two servers of one project, each publishing the admin's saves into a folder of its own, on one data folder.
    const second = join(site.dir, 'dist-b');
    await cp(dist, second, { recursive: true });
    const [a, b] = await Promise.all([start(['--admin']), start(['--admin'], second)]);
    const slots = (
      (await send(a.url, 'GET', '/api/booking/slots?days=14')).json() as { slots: { start: string }[] }
    ).slots.slice(0, 5);
    expect(slots).toHaveLength(5);
    // Both servers get every slot at the same moment (each client's budget is 5 bookings a minute per server).
    const answers = await Promise.all(
      slots.flatMap((slot) =>
        [a, b].map((server) =>
          send(server.url, 'POST', '/api/booking', json(server.url, { ...visitor, start: slot.start })),
        ),
      ),
    );
    for (let index = 0; index < slots.length; index++) {
      const pair = [answers[index * 2]!.status, answers[index * 2 + 1]!.status].sort();
      expect(pair, slots[index]!.start).toEqual([201, 409]);
    }
    const booked = await inDatabase(site, (store) => store.listInbox({ kind: 'booking' }));
    expect(booked.filter((item) => slots.some((slot) => slot.start === item.start))).toHaveLength(5);

    // Deleted in a's inbox, offered again by b at once.
    const auth = await signIn(a.url);
    const target = booked.find((item) => item.start === slots[2]!.start)!;
    const deleted = await send(a.url, 'DELETE', `/api/admin/inbox/${target.id}`, {
      headers: { cookie: auth.cookie, origin: a.url, 'x-csrf-token': auth.csrf },
    });
    expect(deleted.status).toBe(200);
    const offered = (
      (await send(b.url, 'GET', '/api/booking/slots?days=14')).json() as { slots: { start: string }[] }
    ).slots.map((slot) => slot.start);
    expect(offered).toContain(slots[2]!.start);
    expect(offered).not.toContain(slots[1]!.start);

    // The session a signed in works on b, and on a after a restart.
    expect((await send(b.url, 'GET', '/api/admin/session', { headers: { cookie: auth.cookie } })).status).toBe(200);
    await a.stop();
    const again = await start(['--admin']);
    const session = await send(again.url, 'GET', '/api/admin/session', { headers: { cookie: auth.cookie } });
    expect(session.status).toBe(200);
    expect(session.json()).toMatchObject({ user: { email: admin.email }, csrfToken: auth.csrf });
    await Promise.all([again.stop(), b.stop()]);
  }, 180_000);

  it('keeps every message it answered 201 for when it is killed (kill -9) mid-stream', async () => {
    const server = await start(['--trust-proxy']);
    const before = await inDatabase(site, (store) => store.listInbox({ kind: 'contact' }));
    const acknowledged: string[] = [];
    let sent = 0;
    let failed = 0;
    let killed = false;
    // Four senders post one message after another until the server is gone; it is killed once five were
    // answered, so the kill comes mid-stream whatever the machine's speed (a fixed delay killed it before
    // the first answer on a slow CI run).
    let killAfterFive!: () => void;
    const fiveAnswered = new Promise<void>((resolve) => (killAfterFive = resolve));
    const sender = async () => {
      while (!killed && sent < 2000) {
        const index = sent++;
        const marker = `killed-${index}`;
        const answer = await send(
          server.url,
          'POST',
          '/api/contact',
          json(
            server.url,
            { firstName: 'Load', lastName: 'Test', email: 'load@example.com', message: marker },
            { 'x-forwarded-for': `10.1.${Math.floor(index / 250)}.${(index % 250) + 1}` },
          ),
        ).catch(() => undefined);
        if (answer?.status === 201) {
          acknowledged.push(marker);
          if (acknowledged.length >= 5) killAfterFive();
        } else failed++;
      }
    };
    const senders = Array.from({ length: 4 }, sender);
    await fiveAnswered;
    await server.kill();
    killed = true;
    await Promise.all(senders);
    const stored = (await inDatabase(site, (store) => store.listInbox({ kind: 'contact' }))).map((item) =>
      String(item.message),
    );
    // Some were answered before the kill, some not: the kill came mid-stream.
    expect(acknowledged.length).toBeGreaterThanOrEqual(5);
    expect(failed).toBeGreaterThan(0);
    for (const marker of acknowledged) expect(stored, marker).toContain(marker);
    expect(stored.length).toBeGreaterThanOrEqual(before.length + acknowledged.length);
  }, 120_000);

  it('site db migrate, status and backup (a consistent, private copy while a server runs)', async () => {
    const cli = (args: string[]) =>
      run(process.execPath, [siteBin, '--config', site.config, 'db', ...args], {
        cwd: site.dir,
        env: { ...process.env, NO_COLOR: '1', DATABASE_URL: '' },
      }).then(
        ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
        (error: { code: number; stdout: string; stderr: string }) => ({
          code: error.code,
          stdout: error.stdout,
          stderr: error.stderr,
        }),
      );
    const migrated = await cli(['migrate']);
    expect(migrated.code, migrated.stderr).toBe(0);
    expect(migrated.stdout).toContain(`site.db is at schema version ${latestVersion}: nothing to apply`);
    const server = await start();
    try {
      const status = await cli(['status']);
      expect(status.code, status.stderr).toBe(0);
      expect(status.stdout).toContain(`database  ${join(site.dir, 'data', 'site.db')} (sqlite)`);
      expect(status.stdout).toContain(`schema    version ${latestVersion} of ${latestVersion}`);
      expect(status.stdout).toContain('pending   none');
      expect(status.stdout).toMatch(/accounts\s+1\n/);
      const file = join(site.dir, 'backup.db');
      const backup = await cli(['backup', file]);
      expect(backup.code, backup.stderr).toBe(0);
      expect(backup.stdout).toContain(`backup written to ${file}`);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      const copy = await createStore(await openSqlite(file));
      const live = await inDatabase(site, (store) => store.counts());
      expect(await copy.counts()).toEqual(live);
      await copy.close();
      const again = await cli(['backup', file]);
      expect(again.code).toBe(2);
      expect(again.stderr).toContain('exists already');
      expect(await readFile(file)).toBeDefined();
    } finally {
      await server.stop();
    }
  }, 120_000);
});
