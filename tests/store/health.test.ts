/**
 * The store's health: checked at start (a SQLite file with damaged pages, a `site.db` cut to 0
 * bytes, a schema that lost a table are refused with what to do, rather than a server that
 * answers 503 to every form without a word, or a new empty store in place of the accounts), and,
 * while it runs, every fault that makes requests 503 said once with its cause, and its end said too.
 */
import { mkdtemp, open, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { ResolvedConfig } from '../../src/config/load';
import { createContactHandler } from '../../src/serve/contact';
import { openSiteStore } from '../../src/store/source';
import { fixedStoreSource } from '../../src/store/source';
import { openSqlite } from '../../src/store/sqlite';
import { createStore } from '../../src/store/store';
import { watchDriver, type StoreHealthChange } from '../../src/store/health';
import { serve, type Logger } from '../../src/api';
import { createTempSite } from '../helpers/fixture-site';
import { builtSite } from '../helpers/paths';

const folders: string[] = [];
afterAll(async () => {
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

let dataDir: string;
let file: string;
/** As much of a config as opening the store reads: the data folder, the project. */
let config: ResolvedConfig;
beforeEach(async () => {
  const root = await mkdtemp(join(tmpdir(), 'site-health-'));
  folders.push(root);
  dataDir = join(root, 'data');
  file = join(dataDir, 'site.db');
  config = { root, dirs: { data: dataDir }, storage: {} } as unknown as ResolvedConfig;
});

const message = (n: number) => ({
  receivedAt: '2030-01-01T00:00:00.000Z',
  firstName: `Visitor${n}`,
  lastName: 'X',
  email: 'x@visitor.example',
  message: `${n} ${'x'.repeat(3000)}`,
});

/** A store in the data folder with an account and enough messages to fill many pages; closed. */
async function storeWithData(): Promise<void> {
  const store = await openSiteStore(config);
  await store.addAccount({
    email: 'chief@example.com',
    role: 'admin',
    passwordHash: 'scrypt$hash',
    created: '2030-01-01T00:00:00.000Z',
  });
  for (let n = 0; n < 40; n++) await store.addContactMessage(message(n));
  await store.close();
  // Everything into the file itself, as after any quiet spell (the log would still hold good copies of the pages damaged below).
  const driver = await openSqlite(file);
  await driver.execute('PRAGMA wal_checkpoint(TRUNCATE)');
  await driver.close();
}

describe('the store at start', () => {
  it('refuses a SQLite file with damaged pages, naming the file and the site db commands that help', async () => {
    await storeWithData();
    const { size } = await stat(file);
    const handle = await open(file, 'r+');
    // Pages in the middle (the messages' table), not the first (the schema).
    await handle.write(Buffer.alloc(3 * 4096, 0xa5), 0, 3 * 4096, Math.floor(size / 4096 / 2) * 4096);
    await handle.close();
    const refused = openSiteStore(config);
    await expect(refused).rejects.toMatchObject({ code: 'STORE_DAMAGED', file });
    const error = (await refused.catch((caught: unknown) => caught)) as Error & { hint: string };
    expect(error.message).toContain(file);
    expect(error.message).toMatch(/damaged/);
    expect(error.hint).toContain('site db backup');
    expect(error.hint).toContain('site db status');
  });

  it('refuses a site.db cut to 0 bytes instead of making a new empty store in its place', async () => {
    await storeWithData();
    await writeFile(file, '');
    await expect(openSiteStore(config)).rejects.toMatchObject({
      code: 'STORE_DAMAGED',
      file,
      message: expect.stringContaining('0 bytes'),
    });
    expect((await stat(file)).size).toBe(0);
  });

  it('refuses a database that lost a table of its schema', async () => {
    await storeWithData();
    const driver = await openSqlite(file);
    await driver.execute('DROP TABLE accounts');
    await driver.close();
    await expect(openSiteStore(config)).rejects.toMatchObject({
      code: 'STORE_DAMAGED',
      file,
      message: expect.stringContaining('accounts'),
    });
  });

  it('opens a new store where there was none, and a whole one as it was', async () => {
    await storeWithData();
    const store = await openSiteStore(config);
    expect((await store.counts()).contact_messages).toBe(40);
    await store.close();
  });
});

describe('a store that fails while the server runs', () => {
  let server: Server | undefined;
  afterAll(async () => {
    if (server) await new Promise((done) => server!.close(done));
  });

  it('says once per fault why requests are answered 503 (the disk is full), and says when it is over', async () => {
    const changes: StoreHealthChange[] = [];
    const driver = watchDriver(await openSqlite(file), (change) => changes.push(change));
    const store = fixedStoreSource(await createStore(driver));
    const handle = createContactHandler({
      store,
      rateLimit: 100,
      resultPage: (locale, outcome) => `/${locale}/${outcome}/`,
      types: () => [],
    });
    server = createServer((incoming, response) => void handle(incoming, response));
    await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const send = (n: number) =>
      fetch(`${base}/api/contact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...message(n), receivedAt: undefined }),
      });
    const full = async (on: boolean) => {
      const pages = Number((await driver.execute('PRAGMA page_count')).rows[0]!.page_count);
      await driver.execute(`PRAGMA max_page_count = ${on ? pages : 1_000_000}`);
    };
    expect((await send(1)).status).toBe(201);
    // The driver drops a connection after such an error, and the limit is the connection's: set again before each.
    const during: number[] = [];
    for (const n of [2, 3, 4]) {
      await full(true);
      during.push((await send(n)).status);
    }
    expect(during).toEqual([503, 503, 503]);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ state: 'failing', fault: 'full' });
    await full(false);
    expect((await send(5)).status).toBe(201);
    expect(changes).toHaveLength(2);
    expect(changes[1]).toMatchObject({ state: 'recovered', fault: 'full', failures: 3 });
    await (await store.get()).close();
  });

  it('site serve says in its log, once, why the store answers 503 (held by another process past the wait), and when it answers again', async () => {
    const site = await createTempSite();
    folders.push(site.dir);
    const lines: string[] = [];
    const logger: Logger = {
      result: () => undefined,
      info: (line) => lines.push(`info ${line}`),
      warn: (line) => lines.push(`warn ${line}`),
      diagnostics: () => undefined,
      failed: () => undefined,
    };
    const running = await serve({
      config: site.config,
      dir: builtSite,
      port: 0,
      logger,
      env: { ...process.env, DATABASE_URL: '' },
    });
    const post = (n: number) =>
      fetch(new URL('api/contact', running.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `192.0.2.${n}` },
        body: JSON.stringify({ ...message(n), receivedAt: undefined, locale: 'en' }),
      });
    try {
      expect((await post(1)).status).toBe(201);
      // Another process holds the write lock past the 5 s a statement waits.
      const holder = await openSqlite(join(site.dir, 'data', 'site.db'));
      let release!: () => void;
      const held = holder.transaction(async (tx) => {
        await tx.execute('INSERT INTO audit_log (time, actor, action, record) VALUES (?, ?, ?, ?)', [
          '2030-01-01T00:00:00.000Z',
          'x',
          'held',
          '{}',
        ]);
        await new Promise<void>((done) => (release = done));
      });
      await new Promise((done) => setTimeout(done, 50));
      expect((await Promise.all([post(2), post(3)])).map((answer) => answer.status)).toEqual([503, 503]);
      release();
      await held;
      await holder.close();
      expect((await post(4)).status).toBe(201);
      const failing = lines.filter((line) => line.startsWith('warn the database'));
      expect(failing, lines.join('\n')).toHaveLength(1);
      expect(failing[0]).toContain(join(site.dir, 'data', 'site.db'));
      expect(failing[0]).toContain('held by another process');
      expect(failing[0]).toContain('503');
      expect(
        lines.filter((line) => line.startsWith('info the database') && line.includes('answers again')),
      ).toHaveLength(1);
    } finally {
      await running.close();
    }
  }, 60_000);
});
