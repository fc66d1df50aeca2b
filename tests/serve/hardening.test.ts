/**
 * `site serve` under attack and under failure: long and slow requests, cross-site posts, bodies
 * over the limit, a disk that fails mid-write, clients behind a proxy, dot-files and symlinks,
 * conditional requests, headers on every answer, other charsets, and a clean stop.
 */
import { mkdtempSync, mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load';
import { createContactHandler } from '../../src/serve/contact';
import { startServer, type RunningServer, type ServerLimits } from '../../src/serve/server';
import type { SqlDriver } from '../../src/store/driver';
import { openSqlite } from '../../src/store/sqlite';
import { fixedStoreSource, type StoreSource } from '../../src/store/source';
import { createStore } from '../../src/store/store';
import { builtSite, repoRoot } from '../helpers/paths';
import { storedRows, storeIn } from '../helpers/store';

const valid = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', message: 'Hello.', locale: 'en' };

function rawRequest(
  base: string,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer; ms: number }> {
  const { hostname, port } = new URL(base);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: hostname,
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: options.headers,
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
            ms: performance.now() - started,
          }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

/** A copy of the built site plus hostile extras, served with its own data folder. */
async function serveCopy(
  limits: Partial<ServerLimits> = {},
  trustProxy = false,
): Promise<{ running: RunningServer; dir: string; dataDir: string; close(): Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'site-hardening-'));
  const dir = join(root, 'site');
  await cp(builtSite, dir, { recursive: true });
  mkdirSync(join(dir, '.git'));
  writeFileSync(join(dir, '.git', 'config'), '[core] secret');
  writeFileSync(join(dir, '.env'), 'TOKEN=secret');
  mkdirSync(join(dir, '.well-known'));
  writeFileSync(join(dir, '.well-known', 'security.txt'), 'Contact: mailto:security@mendwise.example\n');
  writeFileSync(join(root, 'outside.txt'), 'outside the site');
  symlinkSync(join(root, 'outside.txt'), join(dir, 'linked.txt'));
  writeFileSync(join(dir, 'icon.avif'), Buffer.alloc(10));
  writeFileSync(join(dir, 'site.webmanifest'), '{}');
  const config = await loadConfig(join(repoRoot, 'site.config.yaml'));
  config.dirs.data = join(root, 'data');
  const store = await storeIn(config.dirs.data);
  const running = await startServer({ config, store, dir, port: 0, host: '127.0.0.1', limits, trustProxy });
  return {
    running,
    dir,
    dataDir: config.dirs.data,
    close: async () => {
      running.server.closeAllConnections();
      await running.close();
      await store.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

describe('long request paths', () => {
  let served: Awaited<ReturnType<typeof serveCopy>>;
  beforeAll(async () => {
    served = await serveCopy();
  });
  afterAll(() => served.close());

  it('answers a 64 KB path, and paths of thousands of slashes, about as fast as a short one', async () => {
    // The budget scales with this machine's speed right now (a loaded CI box is slow, not wrong):
    // 50 ms, or ten short requests' time; the old quadratic path regex took 350 ms for 16 KB.
    const short: number[] = [];
    for (let i = 0; i < 5; i++) short.push((await rawRequest(served.running.url, { path: '/hub/' })).ms);
    const budget = Math.max(50, 10 * short.sort((a, b) => a - b)[2]!);
    const huge = await rawRequest(served.running.url, { path: `/${'/'.repeat(64 * 1024)}x` });
    expect([414, 431]).toContain(huge.status);
    expect(huge.ms).toBeLessThan(budget);
    const long = await rawRequest(served.running.url, { path: `/${'/'.repeat(12_000)}x` });
    expect(long.status).toBe(414);
    expect(long.ms).toBeLessThan(budget);
    // Under the length cap, the path is parsed in linear time.
    const underCap = await rawRequest(served.running.url, { path: `/hub${'/'.repeat(8000)}` });
    expect(underCap.status).toBe(200);
    expect(underCap.ms).toBeLessThan(budget);
  });
});

describe('static files', () => {
  let served: Awaited<ReturnType<typeof serveCopy>>;
  beforeAll(async () => {
    served = await serveCopy();
  });
  afterAll(() => served.close());
  const get = (path: string, headers: Record<string, string> = {}) => rawRequest(served.running.url, { path, headers });

  it('never serves dot-files or dot-folders, but does serve /.well-known/', async () => {
    for (const path of ['/.git/config', '/.env', '/.git/', '/.site-output', '/%2egit/config']) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(response.body.toString(), path).not.toContain('secret');
    }
    const wellKnown = await get('/.well-known/security.txt');
    expect(wellKnown.status).toBe(200);
    expect(wellKnown.body.toString()).toContain('Contact:');
  });

  it('never follows a symbolic link out of the folder', async () => {
    const response = await get('/linked.txt');
    expect(response.status).toBe(404);
    expect(response.body.toString()).not.toContain('outside the site');
  });

  it('answers a repeated request with 304 by ETag or by date, per encoding', async () => {
    const first = await get('/hub/');
    expect(first.status).toBe(200);
    const etag = first.headers.etag!;
    expect(etag).toMatch(/^W\/".+"$/);
    expect(first.headers['last-modified']).toBe(
      new Date(Math.floor(statSync(join(served.dir, 'hub', 'index.html')).mtimeMs / 1000) * 1000).toUTCString(),
    );
    const again = await get('/hub/', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    expect((await get('/hub/', { 'if-modified-since': first.headers['last-modified']! })).status).toBe(304);
    const brotli = await get('/hub/', { 'accept-encoding': 'br' });
    expect(brotli.headers.etag).not.toBe(etag);
    expect((await get('/hub/', { 'accept-encoding': 'br', 'if-none-match': etag })).status).toBe(200);
    expect((await get('/hub/', { 'accept-encoding': 'br', 'if-none-match': brotli.headers.etag! })).status).toBe(304);
    expect((await get('/hub/', { 'if-none-match': '"something-else"' })).status).toBe(200);
  });

  it('sends the security headers on redirects, refusals, 404s and API answers too', async () => {
    const answers = [
      await get('/hub'),
      await rawRequest(served.running.url, { method: 'DELETE', path: '/hub/' }),
      await get('/no-such-page/'),
      await rawRequest(served.running.url, {
        method: 'POST',
        path: '/api/contact',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([301, 405, 404, 400]);
    for (const answer of answers) {
      expect(answer.headers['content-security-policy'], String(answer.status)).toContain("default-src 'self'");
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('knows the media types of images, fonts, documents and manifests', async () => {
    expect((await get('/icon.avif')).headers['content-type']).toBe('image/avif');
    expect((await get('/site.webmanifest')).headers['content-type']).toBe('application/manifest+json; charset=utf-8');
  });
});

describe('SQLite files in the served folder', () => {
  it('answers 404 for a database, its log or a copy under any name at any depth (known by its header), and names them at start', async () => {
    const root = await mkdtemp(join(tmpdir(), 'site-sqlite-served-'));
    const dir = join(root, 'site');
    await cp(builtSite, dir, { recursive: true });
    // A real store with an account, as a backup put in the wrong place would be.
    const made = join(root, 'made');
    const driver = await openSqlite(join(made, 'site.db'));
    const madeStore = await createStore(driver);
    await madeStore.addAccount({
      email: 'chief@example.com',
      role: 'admin',
      passwordHash: 'scrypt$secret-hash',
      created: '2030-01-01T00:00:00.000Z',
    });
    await driver.execute('VACUUM INTO ?', [join(root, 'copy.db')]);
    mkdirSync(join(dir, 'backups'));
    await cp(join(root, 'copy.db'), join(dir, 'backups', 'site.db'));
    await cp(join(root, 'copy.db'), join(dir, 'assets', 'logo-data.png'));
    await cp(join(made, 'site.db-wal'), join(dir, 'backups', 'site.db-wal'));
    await madeStore.close();
    const config = await loadConfig(join(repoRoot, 'site.config.yaml'));
    config.dirs.data = join(root, 'data');
    const store = await storeIn(config.dirs.data);
    const warnings: string[] = [];
    const running = await startServer({
      config,
      store,
      dir,
      port: 0,
      host: '127.0.0.1',
      log: { info: () => undefined, warn: (message) => warnings.push(message) },
    });
    try {
      for (const path of ['/backups/site.db', '/assets/logo-data.png', '/backups/site.db-wal']) {
        const answer = await rawRequest(running.url, { path, headers: { 'accept-encoding': 'br, gzip' } });
        expect(answer.status, path).toBe(404);
        expect(answer.body.includes('secret-hash'), path).toBe(false);
        expect(answer.body.includes('SQLite format 3'), path).toBe(false);
      }
      expect((await rawRequest(running.url, { path: '/hub/' })).status).toBe(200);
      expect(await running.sqliteFiles).toEqual(['assets/logo-data.png', 'backups/site.db', 'backups/site.db-wal']);
      expect(warnings.join('\n')).toContain('backups/site.db');
      expect(warnings.join('\n')).toContain('assets/logo-data.png');
    } finally {
      await running.close();
      await store.close();
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe('the contact endpoint', () => {
  let served: Awaited<ReturnType<typeof serveCopy>>;
  beforeAll(async () => {
    served = await serveCopy({}, true);
  });
  afterAll(() => served.close());
  const stored = () => storedRows(served.dataDir, 'contact_messages') as Promise<Record<string, string>[]>;
  const post = (body: string, headers: Record<string, string>) =>
    rawRequest(served.running.url, { method: 'POST', path: '/api/contact', headers, body });

  it('refuses posts from another site and text/plain bodies, storing nothing', async () => {
    const json = JSON.stringify({ ...valid, message: 'cross-site' });
    const attempts = [
      await post(json, { 'content-type': 'application/json', origin: 'https://evil.example' }),
      await post(new URLSearchParams({ ...valid }).toString(), {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
      }),
      await post(json, { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' }),
      await post(json, { 'content-type': 'application/json', origin: 'null' }),
      await post(json, { 'content-type': 'text/plain' }),
    ];
    expect(attempts.map((attempt) => attempt.status)).toEqual([403, 403, 403, 403, 415]);
    expect(await stored()).toEqual([]);
  });

  it('accepts the site’s own form without script, and its own origin', async () => {
    const own = new URL(served.running.url).origin;
    const form = await post(new URLSearchParams({ ...valid, message: 'no-js form' }).toString(), {
      'content-type': 'application/x-www-form-urlencoded',
      origin: own,
      'sec-fetch-site': 'same-origin',
      'x-forwarded-for': '198.51.100.1',
    });
    expect(form.status).toBe(303);
    const production = await post(JSON.stringify({ ...valid, message: 'from the site origin' }), {
      'content-type': 'application/json',
      origin: 'https://mendwise.example',
      'x-forwarded-for': '198.51.100.1',
    });
    expect(production.status).toBe(201);
    expect((await stored()).map((line) => line.message)).toEqual(['no-js form', 'from the site origin']);
  });

  it('keeps the message but stores no page that is not a plain path of the site (a browser would leave the site by it)', async () => {
    const hostile = [
      '/\\evil.example',
      '//evil.example/',
      '/a//evil',
      'https://evil.example/',
      'javascript:alert(1)',
      '/\tx',
    ];
    for (const [index, page] of hostile.entries()) {
      const response = await post(JSON.stringify({ ...valid, message: `page ${index}`, page }), {
        'content-type': 'application/json',
        'x-forwarded-for': `198.51.100.${100 + index}`,
      });
      expect(response.status, page).toBe(201);
    }
    expect(
      (
        await post(JSON.stringify({ ...valid, message: 'page plain', page: '/no/hub/contactus/' }), {
          'content-type': 'application/json',
          'x-forwarded-for': '198.51.100.120',
        })
      ).status,
    ).toBe(201);
    const rows = (await stored()).filter((line) => line.message?.startsWith('page '));
    expect(rows.map((line) => [line.message, line.page])).toEqual([
      ...hostile.map((_, index) => [`page ${index}`, '/']),
      ['page plain', '/no/hub/contactus/'],
    ]);
  });

  it('stores a form post in another charset as the text it was', async () => {
    const body = 'firstName=%C6sa&lastName=S%F8rensen&email=asa%40example.com&message=Bl%E5b%E6r&locale=no';
    const response = await post(body, {
      'content-type': 'application/x-www-form-urlencoded; charset=ISO-8859-1',
      'x-forwarded-for': '198.51.100.2',
    });
    expect(response.status).toBe(303);
    expect((await stored()).at(-1)).toMatchObject({ firstName: 'Æsa', lastName: 'Sørensen', message: 'Blåbær' });
    expect(
      (
        await post(body, {
          'content-type': 'application/x-www-form-urlencoded; charset=x-unknown',
          'x-forwarded-for': '198.51.100.2',
        })
      ).status,
    ).toBe(415);
  });

  it('limits each client behind the proxy separately, and counts only stored submissions', async () => {
    const from = (address: string, message: string) =>
      post(JSON.stringify({ ...valid, message }), {
        'content-type': 'application/json',
        'x-forwarded-for': `203.0.113.250, ${address}`,
      });
    for (let i = 0; i < 8; i++)
      expect(
        (
          await post(JSON.stringify({ ...valid, email: 'broken' }), {
            'content-type': 'application/json',
            'x-forwarded-for': '192.0.2.1',
          })
        ).status,
      ).toBe(400);
    for (let i = 1; i <= 5; i++) expect((await from('192.0.2.1', `a${i}`)).status, `a${i}`).toBe(201);
    const sixth = await from('192.0.2.1', 'a6');
    expect(sixth.status).toBe(429);
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
    expect((await from('192.0.2.2', 'b1')).status).toBe(201);
  });

  it('stops reading a body over the limit and closes the connection', async () => {
    const { hostname, port } = new URL(served.running.url);
    const started = performance.now();
    let sent = 0;
    const outcome = await new Promise<{ status?: number; error?: string }>((resolve) => {
      let status: number | undefined;
      const outgoing = request(
        {
          host: hostname,
          port,
          method: 'POST',
          path: '/api/contact',
          agent: false,
          headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        },
        (response) => {
          status = response.statusCode;
          response.resume();
        },
      );
      outgoing.on('error', (error: NodeJS.ErrnoException) => resolve({ status, error: error.code }));
      outgoing.on('close', () => resolve({ status }));
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      const pump = () => {
        while (sent < 100 * 1024 * 1024) {
          sent += chunk.length;
          if (!outgoing.write(chunk)) return void outgoing.once('drain', pump);
        }
        outgoing.end();
      };
      pump();
    });
    expect(outcome.status ?? 413).toBe(413);
    expect(sent).toBeLessThan(20 * 1024 * 1024);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});

describe('storage that fails part-way', () => {
  let dataDir: string;
  let server: Server;
  let base: string;
  let driver: SqlDriver;
  let store: StoreSource;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'site-disk-full-'));
    driver = await openSqlite(join(dataDir, 'site.db'));
    store = fixedStoreSource(await createStore(driver));
    const handle = createContactHandler({
      store,
      rateLimit: 100,
      resultPage: (locale, outcome) => `/${locale}/${outcome}/`,
      types: () => ['repairer', 'retailer', 'investor', 'partner', 'other'],
    });
    server = createServer((incoming, response) => void handle(incoming, response));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((done) => server.close(() => done()));
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('answers 503 to a submission the database could not take (full), and every 201 is a whole row', async () => {
    const send = (message: string) =>
      rawRequest(base, {
        method: 'POST',
        path: '/api/contact',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...valid, message }),
      });
    // SQLite's own "database or disk is full" (SQLITE_FULL): the file may not grow past the pages it has.
    const full = async (on: boolean) => {
      const pages = Number((await driver.execute('PRAGMA page_count')).rows[0]!.page_count);
      await driver.execute(`PRAGMA max_page_count = ${on ? pages : 1_000_000}`);
    };
    const statuses: [string, number][] = [];
    for (const [message, failure] of [
      ['one', false],
      ['two', true],
      ['three', false],
      ['four', true],
      ['five', false],
    ] as const) {
      await full(failure);
      // A message big enough to need new pages.
      statuses.push([message, (await send(`${message} ${'x'.repeat(4000)}`)).status]);
    }
    await full(false);
    expect(statuses).toEqual([
      ['one', 201],
      ['two', 503],
      ['three', 201],
      ['four', 503],
      ['five', 201],
    ]);
    const rows = await storedRows(dataDir, 'contact_messages');
    expect(rows.map((row) => String(row.message).split(' ')[0])).toEqual(['one', 'three', 'five']);
    expect(rows.every((row) => String(row.message).endsWith('x'.repeat(4000)))).toBe(true);
    expect(statSync(join(dataDir, 'site.db')).mode & 0o777).toBe(0o600);
  });
});

describe('slow clients and stopping', () => {
  it('closes a connection that never finishes its headers, and stops within the grace period with a request open', async () => {
    const served = await serveCopy({ headersTimeoutMs: 300, requestTimeoutMs: 600, shutdownGraceMs: 400 });
    try {
      const { port } = new URL(served.running.url);
      const started = performance.now();
      const closedAfter = await new Promise<number>((resolve) => {
        const socket = connect(Number(port), '127.0.0.1', () => socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n'));
        socket.on('data', () => undefined);
        socket.on('close', () => resolve(performance.now() - started));
        socket.on('error', () => undefined);
      });
      expect(closedAfter).toBeLessThan(3_000);

      // A body that never ends: close() must still finish after the grace period.
      const hanging = request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/contact',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': '1000' },
      });
      hanging.on('error', () => undefined);
      hanging.write('{"firstName":');
      await new Promise((done) => setTimeout(done, 50));
      const stopping = performance.now();
      await served.running.close();
      expect(performance.now() - stopping).toBeLessThan(2_000);
      expect(served.running.server.listening).toBe(false);
    } finally {
      await served.close().catch(() => undefined);
    }
  });

  it('refuses to serve a folder that holds the stored submissions, or a database file', async () => {
    const config = await loadConfig(join(repoRoot, 'site.config.yaml'));
    const dataDir = await mkdtemp(join(tmpdir(), 'site-refuse-'));
    const store = await storeIn(dataDir);
    try {
      config.dirs.data = join(builtSite, 'data');
      await expect(startServer({ config, store, dir: builtSite, port: 0, host: '127.0.0.1' })).rejects.toMatchObject({
        code: 'OUTPUT_UNSAFE',
      });
      // A copy of the database (a backup put in the wrong place) in the folder to serve.
      const copy = join(dataDir, 'served');
      await cp(builtSite, copy, { recursive: true });
      await writeFile(join(copy, 'site.db'), '');
      config.dirs.data = join(dataDir, 'data');
      await expect(startServer({ config, store, dir: copy, port: 0, host: '127.0.0.1' })).rejects.toMatchObject({
        code: 'OUTPUT_UNSAFE',
        message: expect.stringContaining('a database file'),
      });
    } finally {
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('says which port is taken instead of crashing', async () => {
    const blocker = createServer();
    await new Promise<void>((done) => blocker.listen(0, '127.0.0.1', done));
    const port = (blocker.address() as AddressInfo).port;
    const config = await loadConfig(join(repoRoot, 'site.config.yaml'));
    try {
      await expect(
        startServer({
          config,
          store: await storeIn(await mkdtemp(join(tmpdir(), 'site-port-'))),
          dir: builtSite,
          port,
          host: '127.0.0.1',
        }),
      ).rejects.toMatchObject({ code: 'SERVE_FAILED', message: `port ${port} on 127.0.0.1 is already in use` });
    } finally {
      blocker.close();
    }
  });
});
