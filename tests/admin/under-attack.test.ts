/**
 * The admin under attack: guesses sent in parallel meet the lockout, a flood of sign-ins never
 * runs more than a few password hashes at once and is answered 503 past them, one address cannot
 * try many accounts, event streams are capped and end with their session, cookies over https
 * only count with their `__Host-` name (site dev's link and cookie: dev-admin.test.ts), and a preview is served with the site's security headers.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentScryptParams } from '../../src/admin/passwords';
import { createSignInLimits, isRefusal, type Attempt } from '../../src/admin/sign-in-limits';
import { removeUser } from '../../src/admin/users';
import { send, startAdminServer, startLiveAdminServer } from '../helpers/admin-server';
import { tempStore } from '../helpers/store';
import type { SqlDriver } from '../../src/store/driver';
import { fixedStoreSource, type StoreSource } from '../../src/store/source';
import { openSqlite } from '../../src/store/sqlite';
import { createStore } from '../../src/store/store';

const editor = { email: 'editor@example.com', role: 'editor' as const, password: 'editor password 1' };
const chief = { email: 'chief@example.com', role: 'admin' as const, password: 'chief password 1' };

describe('sign-in limits (the gate on its own)', () => {
  it('counts an attempt before its check: the sixth of six guesses sent at once is refused before it is hashed', async () => {
    const limits = createSignInLimits(await tempStore(), { accountInFlight: 10 });
    const attempts = await Promise.all(Array.from({ length: 6 }, () => limits.begin('10.0.0.1', 'a@b.co')));
    expect(attempts.slice(0, 5).every((attempt) => !isRefusal(attempt))).toBe(true);
    expect(attempts[5]).toMatchObject({ status: 429 });
    for (const attempt of attempts.slice(0, 5)) (attempt as Attempt).end();
  });

  it('lets a success take back only its own count while other guesses of the account are still being checked', async () => {
    const limits = createSignInLimits(await tempStore());
    const slow = (await limits.begin('10.0.0.1', 'a@b.co')) as Attempt;
    let finishSlow!: () => void;
    const slowCheck = slow.check(() => new Promise<boolean>((resolve) => (finishSlow = () => resolve(false))));
    for (let guess = 0; guess < 3; guess++) {
      const wrong = (await limits.begin('10.0.0.1', 'a@b.co')) as Attempt;
      await wrong.check(async () => false);
      wrong.end();
    }
    const right = (await limits.begin('10.0.0.1', 'a@b.co')) as Attempt;
    await right.check(async () => true);
    await right.succeeded();
    right.end();
    // 1 in flight + 3 failures stay counted: one more guess, then the account is locked.
    const fifth = (await limits.begin('10.0.0.1', 'a@b.co')) as Attempt;
    expect(isRefusal(fifth)).toBe(false);
    fifth.end();
    expect(await limits.begin('10.0.0.1', 'a@b.co')).toMatchObject({ status: 429 });
    finishSlow();
    await slowCheck;
    slow.end();
  });

  it('runs at most two checks at once, lets a few wait, and refuses the rest with 503 at once', async () => {
    const limits = createSignInLimits(await tempStore(), { waiting: 3 });
    const releases: (() => void)[] = [];
    const attempts = await Promise.all(
      Array.from({ length: 10 }, (_, index) => limits.begin(`10.0.1.${index}`, `user${index}@b.co`)),
    );
    const outcomes = attempts.map((attempt) =>
      (attempt as Attempt).check(() => new Promise<string>((resolve) => releases.push(() => resolve('checked')))),
    );
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(limits.hashing).toBe(2);
    while (releases.length) {
      releases.shift()!();
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    const settled = await Promise.all(outcomes);
    expect(settled.filter((outcome) => outcome === 'checked')).toHaveLength(5);
    expect(settled.filter((outcome) => isRefusal(outcome) && outcome.status === 503)).toHaveLength(5);
    expect(limits.peakHashing).toBe(2);
  });
});

describe("sign-in limits: the counting is kept off the pages' way", () => {
  /** A store whose writes (commits) are counted: a transaction, or a statement that is not a read. */
  async function countedStore(): Promise<{ source: StoreSource; commits: () => number; close(): Promise<void> }> {
    const folder = await mkdtemp(join(tmpdir(), 'site-sign-in-commits-'));
    const driver = await openSqlite(join(folder, 'site.db'));
    let commits = 0;
    const counted: SqlDriver = {
      dialect: driver.dialect,
      execute: (sql, params) => {
        if (!/^\s*(SELECT|PRAGMA)\b/i.test(sql)) commits++;
        return driver.execute(sql, params);
      },
      transaction: (work) => {
        commits++;
        return driver.transaction(work);
      },
      close: () => driver.close(),
    };
    const store = await createStore(counted);
    return {
      source: fixedStoreSource(store),
      commits: () => commits,
      close: async () => {
        await store.close();
        await rm(folder, { recursive: true, force: true });
      },
    };
  }

  it("counts 200 sign-ins sent at once in a few commits, not several for each (each was fsync'd on the event loop)", async () => {
    const counted = await countedStore();
    try {
      const limits = createSignInLimits(counted.source);
      const before = counted.commits();
      const attempts = await Promise.all(
        Array.from({ length: 200 }, (_, index) =>
          limits.begin(`10.7.${index >> 8}.${index & 255}`, `flood${index}@example.com`),
        ),
      );
      expect(attempts.filter((attempt) => isRefusal(attempt))).toEqual([]);
      expect(counted.commits() - before).toBeLessThanOrEqual(20);
      // Still one place per budget each, as the budgets count them.
      const store = await counted.source.get();
      expect((await store.counts()).sign_in_attempts).toBe(400);
      // Taken back (never checked: 503) in few commits too.
      const forgiven = counted.commits();
      await Promise.all(
        attempts.map((attempt) =>
          (attempt as Attempt).check(async () => false).finally(() => (attempt as Attempt).end()),
        ),
      );
      expect(counted.commits() - forgiven).toBeLessThanOrEqual(20);
    } finally {
      await counted.close();
    }
  });

  it('claims both budgets of an attempt in one step, in the order the attempts came: the lockout holds as one at a time', async () => {
    const counted = await countedStore();
    try {
      const limits = createSignInLimits(counted.source, { accountInFlight: 100 });
      // 30 guesses of one account and 30 of others from one address, at once: 5 of the account get through, 20 of the address in all.
      const attempts = await Promise.all([
        ...Array.from({ length: 30 }, () => limits.begin('10.8.0.1', 'target@example.com')),
        ...Array.from({ length: 30 }, (_, index) => limits.begin('10.8.0.1', `other${index}@example.com`)),
      ]);
      const through = attempts.filter((attempt) => !isRefusal(attempt));
      expect(attempts.slice(0, 30).filter((attempt) => !isRefusal(attempt))).toHaveLength(5);
      expect(through).toHaveLength(20);
      for (const attempt of through) (attempt as Attempt).end();
    } finally {
      await counted.close();
    }
  });
});

describe('site serve --admin under attack', () => {
  let server: Awaited<ReturnType<typeof startAdminServer>>;
  beforeAll(async () => {
    server = await startAdminServer({
      users: [editor, chief],
      trustProxy: true,
      posts: true,
      eventStreams: { sweepMs: 50 },
    });
  });
  afterAll(() => server?.close());

  const login = (email: string, password: string, from: string, headers: Record<string, string> = {}) =>
    server.send('POST', '/api/auth/login', server.json({ email, password }, { 'x-forwarded-for': from, ...headers }));

  it('guesses for one account sent 30 at a time: at most 5 are ever checked, then even the right password is refused', async () => {
    const statuses: number[] = [];
    for (let burst = 0; burst < 4; burst++) {
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, index) => login(editor.email, `wrong ${burst}-${index}`, '10.1.0.1')),
      );
      statuses.push(...answers.map((answer) => answer.status));
      expect(answers.find((answer) => answer.status === 429)!.headers['retry-after']).toMatch(/^\d+$/);
    }
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((status) => status !== 401 && status !== 429)).toEqual([]);
    // The checked guesses count (the ones refused unchecked cost nothing): 5 in all, then it is locked.
    for (let guess = statuses.filter((status) => status === 401).length; guess < 5; guess++)
      expect((await login(editor.email, `late wrong ${guess}`, '10.1.0.1')).status).toBe(401);
    expect((await login(editor.email, editor.password, '10.1.0.1')).status).toBe(429);
    // From another address the account can still sign in.
    expect((await login(editor.email, editor.password, '10.1.0.2')).status).toBe(200);
  });

  it('one address cannot try many accounts: 20 sign-ins of different e-mails, then 429 whatever the e-mail', async () => {
    for (let index = 0; index < 20; index++)
      expect((await login(`nobody${index}@example.com`, 'guess', '10.2.0.1')).status).toBe(401);
    expect((await login('nobody-else@example.com', 'guess', '10.2.0.1')).status).toBe(429);
    expect((await login(chief.email, chief.password, '10.2.0.1')).status).toBe(429);
    expect((await login(chief.email, chief.password, '10.2.0.2')).status).toBe(200);
  });

  it('refuses a sign-in that reached it as plain http for an https site (a TLS proxy it is not told to trust)', async () => {
    const proxied = await login(chief.email, chief.password, '10.3.0.1', {
      host: 'mendwise.example',
      origin: 'https://mendwise.example',
      'x-forwarded-proto': 'http',
    });
    expect(proxied.status).toBe(403);
    expect(proxied.json().error).toBe('https_required');
    expect(proxied.headers['set-cookie']).toBeUndefined();
    const form = await server.send('POST', '/api/auth/login', {
      headers: {
        host: 'mendwise.example',
        origin: 'https://mendwise.example',
        'x-forwarded-proto': 'http',
        'x-forwarded-for': '10.3.0.1',
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'email=a%40b.co&password=x&csrf=',
    });
    expect(form.status).toBe(303);
  });

  it('over https takes the session only from the __Host- cookie, never from a plain one a sibling subdomain could set', async () => {
    const https = { host: 'mendwise.example', origin: 'https://mendwise.example', 'x-forwarded-proto': 'https' };
    const answer = await login(chief.email, chief.password, '10.4.0.1', https);
    expect(answer.status).toBe(200);
    const id = /^__Host-site_admin=([\w-]+);/.exec(String(answer.headers['set-cookie']))![1]!;
    const session = (cookie: string) => server.send('GET', '/api/admin/session', { headers: { ...https, cookie } });
    expect((await session(`__Host-site_admin=${id}`)).status).toBe(200);
    expect((await session(`site_admin=${id}`)).status).toBe(401);
  });

  /** Opens an event stream; resolves with its response once the first bytes are in. */
  const openStream = (cookie: string) =>
    new Promise<{ status: number; response: IncomingMessage; received: () => string; ended: Promise<void> }>(
      (resolve, reject) => {
        const url = new URL(server.url);
        const outgoing = httpRequest(
          { host: url.hostname, port: url.port, path: '/api/admin/events', headers: { host: url.host, cookie } },
          (response) => {
            let text = '';
            const ended = new Promise<void>((done) => {
              response.on('end', done);
              response.on('close', done);
            });
            response.on('data', (chunk: Buffer) => (text += chunk.toString()));
            response.once('data', () =>
              resolve({ status: response.statusCode!, response, received: () => text, ended }),
            );
          },
        );
        outgoing.on('error', reject);
        outgoing.end();
      },
    );

  it('caps event streams at 5 per session, and ends them when the session signs out', async () => {
    const { cookie, csrf } = await server.signIn(editor.email, editor.password);
    const streams = await Promise.all(Array.from({ length: 5 }, () => openStream(cookie)));
    expect(streams.map((stream) => stream.status)).toEqual([200, 200, 200, 200, 200]);
    const sixth = await send(server.url, 'GET', '/api/admin/events', { headers: { cookie } });
    expect(sixth.status).toBe(429);
    expect(
      (await server.send('POST', '/api/auth/logout', { headers: { cookie, origin: server.url, 'x-csrf-token': csrf } }))
        .status,
    ).toBe(200);
    await Promise.all(streams.map((stream) => stream.ended));
  });

  // Issue 46: one editor signed in 20 times held all 100 streams, and an admin then got 503.
  it('caps event streams at 10 per account, whatever its sessions, so others still get theirs', async () => {
    const sessions: { cookie: string; csrf: string }[] = [];
    for (let session = 0; session < 3; session++) sessions.push(await server.signIn(editor.email, editor.password));
    const opened = await Promise.all(
      sessions.slice(0, 2).flatMap(({ cookie }) => Array.from({ length: 5 }, () => openStream(cookie))),
    );
    expect(opened.map((stream) => stream.status)).toEqual(Array(10).fill(200));
    const eleventh = await openStream(sessions[2]!.cookie);
    eleventh.response.destroy();
    expect(eleventh.status).toBe(429);
    expect(JSON.parse(eleventh.received())).toMatchObject({
      error: 'too_many_streams',
      message: expect.stringMatching(/per account/),
    });
    const other = await server.signIn(chief.email, chief.password);
    const theirs = await openStream(other.cookie);
    expect(theirs.status).toBe(200);
    for (const stream of [...opened, theirs]) stream.response.destroy();
    // A closed stream frees its place in the account's share.
    await expect
      .poll(async () => {
        const again = await openStream(sessions[2]!.cookie);
        again.response.destroy();
        return again.status;
      })
      .toBe(200);
  });

  it('ends a stream when its account is removed', async () => {
    const { cookie } = await server.signIn(chief.email, chief.password);
    const stream = await openStream(cookie);
    expect(stream.status).toBe(200);
    await removeUser(await server.store.get(), chief.email);
    await stream.ended;
    expect(stream.received()).not.toContain('event:');
  });
});

describe('a sign-in flood (real scrypt parameters)', () => {
  it('never hashes more than 2 at once, answers the excess 503 with Retry-After, and serves pages meanwhile', async () => {
    const limits = createSignInLimits(await tempStore());
    const server = await startAdminServer({
      users: [],
      trustProxy: true,
      scrypt: currentScryptParams,
      signInLimits: limits,
    });
    try {
      const flood = Promise.all(
        Array.from({ length: 40 }, (_, index) =>
          server.send(
            'POST',
            '/api/auth/login',
            server.json(
              { email: `flood${index}@example.com`, password: 'guess' },
              { 'x-forwarded-for': `10.9.${index}.1` },
            ),
          ),
        ),
      );
      const page = await server.send('GET', '/no/ourstory/');
      expect(page.status).toBe(200);
      const answers = await flood;
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 401).length).toBeGreaterThanOrEqual(2);
      const busy = answers.filter((answer) => answer.status === 503);
      expect(busy.length).toBeGreaterThan(0);
      expect(busy.every((answer) => /^\d+$/.test(String(answer.headers['retry-after'])))).toBe(true);
      expect(statuses.filter((status) => status !== 401 && status !== 503)).toEqual([]);
      expect(limits.peakHashing).toBe(2);
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe('a preview', () => {
  it("is served with the site's security headers (CSP, frame protection) and shows the post as the build will", async () => {
    const live = await startLiveAdminServer([editor]);
    try {
      const { server } = live;
      const auth = await server.signIn(editor.email, editor.password);
      const post = (
        await server.send('GET', '/api/admin/posts/a-day-in-a-tailor-shop/en', { headers: { cookie: auth.cookie } })
      ).json();
      const made = await server.send('POST', '/api/admin/preview', {
        headers: {
          cookie: auth.cookie,
          origin: server.url,
          'x-csrf-token': auth.csrf,
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          slug: 'a-day-in-a-tailor-shop',
          locale: 'en',
          frontMatter: post.frontMatter,
          body: `${post.body}\n\nBook a {minutes}-minute call.\n`,
        }),
      });
      expect(made.status).toBe(200);
      const preview = await server.send('GET', made.json().url, { headers: { cookie: auth.cookie } });
      expect(preview.status).toBe(200);
      expect(preview.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(preview.headers['x-frame-options']).toBe('DENY');
      expect(preview.headers['x-content-type-options']).toBe('nosniff');
      expect(preview.headers['cache-control']).toBe('no-store');
      // As the build will show it: the site's placeholders filled.
      expect(preview.text).toContain('Book a 30-minute call.');
    } finally {
      await live.close();
    }
  }, 120_000);
});
