/**
 * `site serve --admin`: a change of the meeting length in the settings applies to the booking API
 * at once, as it does to the pages (no restart): slots of the new length, a booking stored with
 * its end that far after its start, and a booking made before the change still taken. In process
 * (startServer given the live site's config), and as the CLI runs it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLiveSite, type LiveSite } from '../../src/admin/live-site';
import { serve, silentLogger } from '../../src/api';
import { createServeAdmin } from '../../src/admin/mount';
import { addUser } from '../../src/admin/users';
import { buildSite } from '../../src/build';
import { loadConfig } from '../../src/config/load';
import { writeSite } from '../../src/emit/write';
import { startServer, type RunningServer } from '../../src/serve/server';
import { fixedStoreSource, openSiteStore, type StoreSource } from '../../src/store/source';
import { storedRows } from '../helpers/store';
import { send, testScrypt } from '../helpers/admin-server';
import { createTempSite, type TempSite } from '../helpers/fixture-site';
import { repoRoot } from '../helpers/paths';

const admin = { email: 'admin@example.com', role: 'admin' as const, password: 'admin password 1' };
const visitor = {
  firstName: 'Kari',
  lastName: 'Nordmann',
  email: 'kari@example.no',
  company: 'Skredderiet AS',
  note: '',
  locale: 'en',
};
const minute = 60_000;

/** A temp copy of the site, built into its dist/, with an admin account. */
async function createBuiltSite(): Promise<{ site: TempSite; dir: string }> {
  const site = await createTempSite();
  const dir = join(site.dir, 'dist');
  await writeSite(dir, (await buildSite({ config: site.config, socialImages: false })).files);
  // As `site admin add-user` does: its own connection to the site's store, closed after.
  const store = await openSiteStore(await loadConfig(site.config));
  await addUser(store, admin.email, admin.role, admin.password, testScrypt);
  await store.close();
  return { site, dir };
}

/** Books a meeting, saves booking.minutes 45 as an admin, then checks the pages, the slots and the stored bookings. */
async function changeMeetingLength(url: string, dataDir: string): Promise<void> {
  const json = (body: unknown, headers: Record<string, string> = {}) => ({
    headers: { origin: url, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const slots = async () =>
    ((await send(url, 'GET', '/api/booking/slots?days=21')).json() as { slots: { start: string; end: string }[] })
      .slots;
  const book = (start: string) => send(url, 'POST', '/api/booking', json({ ...visitor, start }));
  const length = (slot: { start: string; end: string }) => (Date.parse(slot.end) - Date.parse(slot.start)) / minute;

  const signedIn = await send(url, 'POST', '/api/auth/login', json({ email: admin.email, password: admin.password }));
  expect(signedIn.status).toBe(200);
  const auth = {
    cookie: String(signedIn.headers['set-cookie']).split(';', 1)[0]!,
    csrf: signedIn.json().csrfToken as string,
  };

  const before = await slots();
  expect(before.length).toBeGreaterThan(10);
  expect(before.every((slot) => length(slot) === 30)).toBe(true);
  const early = before[0]!;
  expect((await book(early.start)).status).toBe(201);

  const { version } = (await send(url, 'GET', '/api/admin/settings', { headers: { cookie: auth.cookie } })).json() as {
    version: string;
  };
  const saved = await send(
    url,
    'PUT',
    '/api/admin/settings',
    json(
      { changes: [{ path: 'booking.minutes', value: 45 }] },
      { cookie: auth.cookie, 'x-csrf-token': auth.csrf, 'if-match': `"${version}"` },
    ),
  );
  expect(saved.status).toBe(200);
  expect(saved.json()).toMatchObject({ rebuilt: true, ok: true });
  // The pages that name the length, rebuilt: page copy in YAML and in Markdown, a blog post.
  for (const path of ['/hub/book-meeting/', '/privacy/', '/blog/repair-as-a-retail-service/'])
    expect((await send(url, 'GET', path)).text, path).toMatch(/book a 45-minute meeting/i);

  const after = await slots();
  expect(after.length).toBeGreaterThan(5);
  expect(after.every((slot) => length(slot) === 45)).toBe(true);
  // Nothing offered overlaps the meeting booked before the change, and it cannot be booked again.
  const [bookedStart, bookedEnd] = [Date.parse(early.start), Date.parse(early.end)];
  expect(after.filter((slot) => Date.parse(slot.start) < bookedEnd && Date.parse(slot.end) > bookedStart)).toEqual([]);
  expect((await book(early.start)).status).not.toBe(201);

  const next = after[0]!;
  const answer = await book(next.start);
  expect(answer.status).toBe(201);
  expect(answer.json()).toMatchObject({ start: next.start, end: next.end });
  const stored = (await storedRows(dataDir, 'bookings')) as { start: string; end: string }[];
  expect(stored.map(length)).toEqual([30, 45]);
  expect(stored[1]).toMatchObject({ start: next.start, end: next.end });
}

describe('site serve --admin in process: booking.minutes saved in the settings', () => {
  let site: TempSite;
  let live: LiveSite;
  let running: RunningServer;
  let store: StoreSource | undefined;

  beforeAll(async () => {
    const built = await createBuiltSite();
    site = built.site;
    live = createLiveSite({ config: site.config, dir: built.dir });
    await live.start();
    const config = await loadConfig(site.config);
    store = fixedStoreSource(await openSiteStore(config));
    const mounted = createServeAdmin({
      projectRoot: site.dir,
      store,
      origin: config.site.origin,
      scrypt: testScrypt,
      site: live,
    });
    // As src/cli.ts starts it: the booking API follows the live site's config.
    running = await startServer({
      config,
      store,
      currentConfig: () => live.config,
      dir: built.dir,
      port: 0,
      host: '127.0.0.1',
      admin: mounted,
      limits: { shutdownGraceMs: 100 },
    });
  }, 120_000);

  afterAll(async () => {
    await running?.close();
    await store?.close();
    await live?.dispose();
    await site?.cleanup();
  });

  it('offers and stores 45-minute meetings once the save is answered, and keeps the 30-minute one booked before', async () => {
    await changeMeetingLength(running.url, join(site.dir, 'data'));
  });
});

describe('site serve --admin as a child process: booking.minutes saved in the settings', () => {
  let site: TempSite;
  let child: ChildProcess;
  let url: string;

  beforeAll(async () => {
    const built = await createBuiltSite();
    site = built.site;
    child = spawn(
      process.execPath,
      [
        join(repoRoot, 'bin', 'site.js'),
        '--config',
        site.config,
        'serve',
        '--admin',
        '--dir',
        built.dir,
        '--port',
        '0',
      ],
      {
        cwd: site.dir,
        env: { ...process.env, NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stderr!.setEncoding('utf8').on('data', (text: string) => (output += text));
    url = await new Promise<string>((resolve, reject) => {
      child.stdout!.setEncoding('utf8').on('data', (text: string) => {
        output += text;
        const address = /serving \S+ at (http:\/\/\S+?)\/?$/m.exec(output)?.[1];
        if (address) resolve(address);
      });
      child.once('exit', (code) => reject(new Error(`site serve --admin ended (${code}): ${output}`)));
    });
  }, 120_000);

  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await site?.cleanup();
  });

  it('offers and stores 45-minute meetings once the save is answered, and keeps the 30-minute one booked before', async () => {
    await changeMeetingLength(url, join(site.dir, 'data'));
  });
});

// Issue 46: two servers on one project folder (one database, one served folder): a settings save
// on one left the other on the config it started with, refusing the slots the first offered.
describe('two site serve --admin on one project folder', () => {
  it('the second follows a settings save made on the first: its booking API and its settings answer the new config', async () => {
    const { site, dir } = await createBuiltSite();
    const first = await serve({ config: site.config, dir, port: 0, admin: true, logger: silentLogger });
    const second = await serve({ config: site.config, dir, port: 0, admin: true, logger: silentLogger });
    // The origins (serve() answers the address as printed, with its final slash).
    const [firstUrl, secondUrl] = [first.url.replace(/\/$/, ''), second.url.replace(/\/$/, '')];
    try {
      const slots = async (url: string) =>
        ((await send(url, 'GET', '/api/booking/slots?days=21')).json() as { slots: { start: string; end: string }[] })
          .slots;
      const length = (slot: { start: string; end: string }) => (Date.parse(slot.end) - Date.parse(slot.start)) / minute;
      const json = (url: string, body: unknown, headers: Record<string, string> = {}) => ({
        headers: { origin: url, 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      expect((await slots(secondUrl)).every((slot) => length(slot) === 30)).toBe(true);

      const signedIn = await send(
        firstUrl,
        'POST',
        '/api/auth/login',
        json(firstUrl, { email: admin.email, password: admin.password }),
      );
      const cookie = String(signedIn.headers['set-cookie']).split(';', 1)[0]!;
      const { version } = (await send(firstUrl, 'GET', '/api/admin/settings', { headers: { cookie } })).json() as {
        version: string;
      };
      const saved = await send(
        firstUrl,
        'PUT',
        '/api/admin/settings',
        json(
          firstUrl,
          { changes: [{ path: 'booking.minutes', value: 45 }] },
          { cookie, 'x-csrf-token': signedIn.json().csrfToken, 'if-match': `"${version}"` },
        ),
      );
      expect(saved.status).toBe(200);

      const offered = await slots(secondUrl);
      expect(offered.length).toBeGreaterThan(5);
      expect(offered.every((slot) => length(slot) === 45)).toBe(true);
      // A slot off the half-hour grid, as the first offers it, is taken by the second.
      const slot = (await slots(firstUrl)).find((each) => new Date(each.start).getUTCMinutes() % 30 !== 0)!;
      const booked = await send(secondUrl, 'POST', '/api/booking', json(secondUrl, { ...visitor, start: slot.start }));
      expect(booked.status).toBe(201);
      expect(booked.json()).toMatchObject({ start: slot.start, end: slot.end });
      // Its admin reads the settings as the file has them now (the session is shared by the store).
      const settings = (await send(secondUrl, 'GET', '/api/admin/settings', { headers: { cookie } })).json() as {
        values: { booking: { minutes: number } };
      };
      expect(settings.values.booking.minutes).toBe(45);
    } finally {
      await second.close();
      await first.close();
      await site.cleanup();
    }
  }, 180_000);
});
