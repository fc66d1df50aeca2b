/** `site dev`'s admin: a one-time sign-in link instead of a password, on loopback only. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevAdmin, siteOf } from '../../src/admin/mount';
import { followingStoreSource } from '../../src/store/source';
import { startDevServer, type DevServer } from '../../src/dev/server';
import { createTempSite, type TempSite } from '../helpers/fixture-site';
import { send } from '../helpers/admin-server';
import { main } from '../../src/cli';

describe('site dev: sign-in by one-time link', () => {
  let site: TempSite;
  let dev: DevServer;
  let admin: ReturnType<typeof createDevAdmin>;
  const store = followingStoreSource(() => dev?.builder.config);
  beforeAll(async () => {
    site = await createTempSite();
    admin = createDevAdmin({ projectRoot: site.dir, store, site: siteOf(() => dev?.builder) });
    dev = await startDevServer({ config: site.config, port: 0, host: '127.0.0.1', admin, store });
  });
  afterAll(async () => {
    await dev?.close();
    await store.close();
    await site?.cleanup();
  });
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    send(dev.url, 'POST', path, {
      headers: { origin: dev.url, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  it('signs in once with the printed token, as an admin, and refuses it the second time', async () => {
    const token = admin.tokens.issue();
    const first = await post('/api/auth/token', { token });
    expect(first.status).toBe(200);
    expect(first.json().user.role).toBe('admin');
    const cookie = String(first.headers['set-cookie']).split(';', 1)[0]!;
    const session = await send(dev.url, 'GET', '/api/admin/session', { headers: { cookie } });
    expect(session.status).toBe(200);
    expect(session.json().mode).toBe('dev');
    expect((await post('/api/auth/token', { token })).status).toBe(401);
    expect((await post('/api/auth/token', { token: 'guess' })).status).toBe(401);
  });

  it('slows down guessed tokens but never locks the printed link out, and names its cookie apart from site serve --admin', async () => {
    const guesses = [];
    for (let guess = 0; guess < 25; guess++)
      guesses.push((await post('/api/auth/token', { token: `guess-${guess}` })).status);
    // 5 wrong tokens from this address in 15 minutes (the earlier tests sent some), then 429.
    expect(guesses[0]).toBe(401);
    expect(guesses.at(-1)).toBe(429);
    const signedIn = await post('/api/auth/token', { token: admin.tokens.issue() });
    expect(signedIn.status).toBe(200);
    expect(String(signedIn.headers['set-cookie'])).toMatch(/^site_dev_admin=[\w-]{43};/);
    const cookie = String(signedIn.headers['set-cookie']).split(';', 1)[0]!;
    expect((await send(dev.url, 'GET', '/api/admin/session', { headers: { cookie } })).status).toBe(200);
    // The cookie of a site serve --admin on the same host (cookies ignore the port) is not this server's.
    expect(
      (
        await send(dev.url, 'GET', '/api/admin/session', {
          headers: { cookie: cookie.replace('site_dev_admin', 'site_admin') },
        })
      ).status,
    ).toBe(401);
  });

  it('has no password sign-in, and answers only to its own loopback address and port', async () => {
    expect((await post('/api/auth/login', { email: 'a@b.co', password: 'whatever password' })).status).toBe(404);
    const port = new URL(dev.url).port;
    // The dev server's own check refuses foreign names first; a loopback name on another port is the admin's.
    const otherPort = await send(dev.url, 'GET', '/api/admin/session', {
      headers: { host: `127.0.0.1:${Number(port) + 1}` },
    });
    expect(otherPort.status).toBe(403);
    expect(
      (await send(dev.url, 'GET', '/api/admin/session', { headers: { host: `evil.example:${port}` } })).status,
    ).toBe(403);
    expect((await send(dev.url, 'GET', '/api/admin/session', { headers: { host: `localhost:${port}` } })).status).toBe(
      401,
    );
  });

  it('saves a setting into site.config.yaml, after which the watcher rebuilds the page with it', async () => {
    const signedIn = await post('/api/auth/token', { token: admin.tokens.issue() });
    const cookie = String(signedIn.headers['set-cookie']).split(';', 1)[0]!;
    const { version } = (await send(dev.url, 'GET', '/api/admin/settings', { headers: { cookie } })).json() as {
      version: string;
    };
    const saved = await send(dev.url, 'PUT', '/api/admin/settings', {
      headers: {
        cookie,
        origin: dev.url,
        'x-csrf-token': signedIn.json().csrfToken,
        'content-type': 'application/json',
        'if-match': `"${version}"`,
      },
      body: JSON.stringify({ changes: [{ path: 'plans.2.limits.ordersPerMonth', value: 180 }] }),
    });
    expect(saved.status).toBe(200);
    expect(saved.json()).toMatchObject({ rebuilt: false });
    await expect
      .poll(async () => (await send(dev.url, 'GET', '/hub/pricing/')).text, { timeout: 20_000, interval: 200 })
      .toContain('Up to 180 orders per month');
    expect((await send(dev.url, 'GET', '/hub/pricing/')).text).not.toContain('Up to 150 orders per month');
  });

  it('shows what the dev server stored in the inbox, where an admin can delete it', async () => {
    const sent = await post('/api/contact', {
      firstName: 'Dev',
      lastName: 'Visitor',
      email: 'dev@visitor.example',
      message: 'Sent to site dev',
    });
    expect(sent.status).toBe(201);
    const signedIn = await post('/api/auth/token', { token: admin.tokens.issue() });
    const cookie = String(signedIn.headers['set-cookie']).split(';', 1)[0]!;
    const listed = await send(dev.url, 'GET', '/api/admin/inbox', { headers: { cookie } });
    expect(listed.status).toBe(200);
    const item = (listed.json().items as { id: string; message: string }[]).find(
      (candidate) => candidate.message === 'Sent to site dev',
    )!;
    expect(item.id).toMatch(/^contact-/);
    const deleted = await send(dev.url, 'DELETE', `/api/admin/inbox/${item.id}`, {
      headers: { cookie, origin: dev.url, 'x-csrf-token': signedIn.json().csrfToken },
    });
    expect(deleted.status).toBe(200);
    expect((await send(dev.url, 'GET', '/api/admin/inbox', { headers: { cookie } })).json().items).toEqual([]);
  });

  it("edits a page's copy in dev mode too: the file changes in place and the Norwegian is then outdated", async () => {
    const signedIn = await post('/api/auth/token', { token: admin.tokens.issue() });
    const cookie = String(signedIn.headers['set-cookie']).split(';', 1)[0]!;
    const put = async (address: string, key: string, value: string) => {
      const { version } = (
        await send(dev.url, 'GET', `/api/admin/pages/${address}`, { headers: { cookie } })
      ).json() as { version: string };
      return send(dev.url, 'PUT', `/api/admin/pages/${address}`, {
        headers: {
          cookie,
          origin: dev.url,
          'x-csrf-token': signedIn.json().csrfToken,
          'content-type': 'application/json',
          'if-match': `"${version}"`,
        },
        body: JSON.stringify({ changes: [{ key, value }] }),
      });
    };
    expect((await put('contact/no', 'title', 'Kontakt oss')).status).toBe(200);
    expect((await put('contact/en', 'title', 'Get in touch')).status).toBe(200);
    expect(await readFile(join(site.dir, 'content', 'pages', 'contact', 'en.yaml'), 'utf8')).toMatch(
      /^title: Get in touch$/m,
    );
    const norwegian = (await send(dev.url, 'GET', '/api/admin/pages/contact/no', { headers: { cookie } })).json() as {
      translation: { outdated: boolean; diff: string };
    };
    expect(norwegian.translation.outdated).toBe(true);
    expect(norwegian.translation.diff).toContain('+title: Get in touch');
  });

  it('keeps the rest of the site as it was', async () => {
    const page = await send(dev.url, 'GET', '/');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<html');
  });
});

describe('site dev --host', () => {
  it('refuses a non-loopback host while the admin is on (exit code 2)', async () => {
    const code = await main([
      'node',
      'site',
      'dev',
      '--host',
      '0.0.0.0',
      '--port',
      '0',
      '--config',
      '/nonexistent/site.config.yaml',
    ]);
    expect(code).toBe(2);
  });
});
