/**
 * `site serve --admin`, over HTTP: sign-in, sessions, and each rejection of the issue (no session
 * 401, wrong role 403, missing or wrong CSRF 403, foreign Origin 403, foreign Host 403, body 413,
 * the 6th failed sign-in 429); and without --admin, none of it exists.
 */
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveSite } from '../helpers/server';
import { startAdminServer } from '../helpers/admin-server';

const editor = { email: 'editor@example.com', role: 'editor' as const, password: 'editor password 1' };
const chief = { email: 'chief@example.com', role: 'admin' as const, password: 'admin password 22' };

describe('site serve --admin: sign-in and the guard', () => {
  let server: Awaited<ReturnType<typeof startAdminServer>>;
  beforeAll(async () => {
    server = await startAdminServer({ users: [editor, chief] });
  });
  afterAll(() => server.close());

  it('signs in with email and password: a session cookie (HttpOnly, SameSite=Strict) and a CSRF token', async () => {
    const answer = await server.send(
      'POST',
      '/api/auth/login',
      server.json({ email: 'Editor@Example.com ', password: editor.password }),
    );
    expect(answer.status).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    const cookie = String(answer.headers['set-cookie']);
    expect(cookie).toMatch(/^site_admin=[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict/);
    expect(cookie).not.toContain('Secure');
    const body = answer.json();
    expect(body.user).toEqual({ email: editor.email, role: 'editor' });
    const session = await server.send('GET', '/api/admin/session', { headers: { cookie: cookie.split(';', 1)[0]! } });
    expect(session.status).toBe(200);
    expect(session.json().csrfToken).toBe(body.csrfToken);
  });

  it('sets a Secure __Host- cookie when served over https (behind a trusted proxy)', async () => {
    // The server was not told to trust the proxy: X-Forwarded-Proto is ignored.
    const plain = await server.send(
      'POST',
      '/api/auth/login',
      server.json({ email: chief.email, password: chief.password }, { 'x-forwarded-proto': 'https' }),
    );
    expect(String(plain.headers['set-cookie'])).toMatch(/^site_admin=/);
    const trusted = await startAdminServer({ users: [chief], trustProxy: true });
    try {
      const answer = await trusted.send(
        'POST',
        '/api/auth/login',
        trusted.json(
          { email: chief.email, password: chief.password },
          { 'x-forwarded-proto': 'https', host: 'mendwise.example', origin: 'https://mendwise.example' },
        ),
      );
      expect(answer.status).toBe(200);
      const cookie = String(answer.headers['set-cookie']);
      expect(cookie).toMatch(/^__Host-site_admin=[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+; Secure$/);
      const session = await trusted.send('GET', '/api/admin/session', {
        headers: { cookie: cookie.split(';', 1)[0]!, host: 'mendwise.example', 'x-forwarded-proto': 'https' },
      });
      expect(session.status).toBe(200);
    } finally {
      await trusted.close();
    }
  });

  it('answers one generic message for a wrong password and an unknown account', async () => {
    const wrong = await server.send(
      'POST',
      '/api/auth/login',
      server.json({ email: editor.email, password: 'not the password' }),
    );
    const unknown = await server.send(
      'POST',
      '/api/auth/login',
      server.json({ email: 'nobody@example.com', password: 'not the password' }),
    );
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json().message).toBe('E-mail or password is wrong');
  });

  it('rotates the session id on sign-in and deletes it on sign-out', async () => {
    const first = await server.signIn(editor.email, editor.password);
    const again = await server.send(
      'POST',
      '/api/auth/login',
      server.json({ email: editor.email, password: editor.password }, { cookie: first.cookie }),
    );
    const second = String(again.headers['set-cookie']).split(';', 1)[0]!;
    expect(second).not.toBe(first.cookie);
    expect((await server.send('GET', '/api/admin/session', { headers: { cookie: first.cookie } })).status).toBe(401);
    const secondCsrf = again.json().csrfToken as string;
    const out = await server.send('POST', '/api/auth/logout', {
      headers: { cookie: second, origin: server.url, 'x-csrf-token': secondCsrf },
    });
    expect(out.status).toBe(200);
    expect(String(out.headers['set-cookie'])).toContain('Max-Age=0');
    expect((await server.send('GET', '/api/admin/session', { headers: { cookie: second } })).status).toBe(401);
  });

  it('401 without a session, 403 for the wrong role, 200 for the right one', async () => {
    expect((await server.send('GET', '/api/admin/users')).status).toBe(401);
    const asEditor = await server.signIn(editor.email, editor.password);
    const refused = await server.send('GET', '/api/admin/users', { headers: { cookie: asEditor.cookie } });
    expect(refused.status).toBe(403);
    expect(refused.headers['cache-control']).toBe('no-store');
    const asChief = await server.signIn(chief.email, chief.password);
    const users = await server.send('GET', '/api/admin/users', { headers: { cookie: asChief.cookie } });
    expect(users.status).toBe(200);
    expect(users.json().map((user: { email: string }) => user.email)).toEqual([chief.email, editor.email]);
    expect(users.text).not.toContain('scrypt');
  });

  it('403 for a missing or wrong CSRF token on an unsafe request', async () => {
    const { cookie, csrf } = await server.signIn(editor.email, editor.password);
    const missing = await server.send('POST', '/api/auth/logout', { headers: { cookie, origin: server.url } });
    expect(missing.status).toBe(403);
    expect(missing.json().error).toBe('csrf');
    const wrong = await server.send('POST', '/api/auth/logout', {
      headers: { cookie, origin: server.url, 'x-csrf-token': `${csrf.slice(0, -1)}${csrf.endsWith('A') ? 'B' : 'A'}` },
    });
    expect(wrong.status).toBe(403);
    expect((await server.send('GET', '/api/admin/session', { headers: { cookie } })).status).toBe(200);
  });

  it('403 for a foreign or missing Origin, and for Sec-Fetch-Site other than same-origin', async () => {
    const { cookie, csrf } = await server.signIn(editor.email, editor.password);
    const variants: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      {},
      { origin: server.url, 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of variants) {
      const answer = await server.send('POST', '/api/auth/logout', {
        headers: { cookie, 'x-csrf-token': csrf, ...headers },
      });
      expect(answer.status).toBe(403);
      expect(answer.json().error).toBe('cross_origin');
    }
    const login = await server.send('POST', '/api/auth/login', {
      ...server.json({ email: editor.email, password: editor.password }),
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
    });
    expect(login.status).toBe(403);
    expect((await server.send('GET', '/api/admin/session', { headers: { cookie } })).status).toBe(200);
  });

  it('rejects a Host that is not the configured origin nor this loopback address (DNS rebinding)', async () => {
    const { cookie } = await server.signIn(editor.email, editor.password);
    const rebound = await server.send('GET', '/api/admin/session', {
      headers: { cookie, host: `evil.example:${new URL(server.url).port}` },
    });
    expect(rebound.status).toBe(403);
    expect(rebound.json().error).toBe('host_not_allowed');
    const proxied = await server.send('GET', '/api/admin/session', { headers: { cookie, host: 'mendwise.example' } });
    expect(proxied.status).toBe(200);
  });

  it('413 for a body over 256 KB', async () => {
    const answer = await server.send('POST', '/api/auth/login', {
      headers: { origin: server.url, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(300 * 1024) }),
    });
    expect(answer.status).toBe(413);
    expect(answer.headers['cache-control']).toBe('no-store');
  });

  it('429 with Retry-After on the 6th failed sign-in within 15 minutes, even with the right password', async () => {
    const limited = await startAdminServer({ users: [editor] });
    try {
      for (let attempt = 1; attempt <= 5; attempt++) {
        expect(
          (
            await limited.send(
              'POST',
              '/api/auth/login',
              limited.json({ email: editor.email, password: `wrong ${attempt}` }),
            )
          ).status,
        ).toBe(401);
      }
      const sixth = await limited.send(
        'POST',
        '/api/auth/login',
        limited.json({ email: editor.email, password: editor.password }),
      );
      expect(sixth.status).toBe(429);
      expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(800);
      // Another account from the same address is not locked out by these failures.
      expect(
        (await limited.send('POST', '/api/auth/login', limited.json({ email: 'other@example.com', password: 'x' })))
          .status,
      ).toBe(401);
    } finally {
      await limited.close();
    }
  });

  it('signs in from a plain form post (no JavaScript) that carries the token of the page it was served in, and lands on the admin', async () => {
    const page = await server.send('GET', '/auth/');
    expect(page.status).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    // Marked as served by the admin, as the other admin pages are, so the islands ask for a session.
    expect(page.text).toMatch(/^<!DOCTYPE html><html data-site-admin="serve" lang="en"/);
    expect((await server.send('GET', '/admin/blog/')).text).toMatch(/^<!DOCTYPE html><html data-site-admin="serve" /);
    expect((await server.send('GET', '/hub/')).text).not.toContain('data-site-admin');
    // Only plain paths are admin pages: nothing outside the served folder is read through them.
    for (const path of ['/admin/../', '/admin/../../', '/admin/%2e%2e/', '/admin//'])
      expect(server.admin.servesPage!(path), path).toBe(false);
    expect(page.headers['content-security-policy']).toBeTruthy();
    const token = /name="csrf" value="([\w-]{43})"/.exec(page.text)?.[1];
    expect(token).toBeDefined();
    const cookie = String(page.headers['set-cookie']).split(';', 1)[0]!;
    expect(cookie).toBe(`site_signin=${token}`);
    expect(String(page.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Strict/);
    // Each page view gets its own token.
    expect((await server.send('GET', '/auth/')).text).not.toContain(token);
    const post = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
      server.send('POST', '/api/auth/login', {
        headers: { origin: server.url, 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams(fields).toString(),
      });

    const answer = await post({ csrf: token!, email: editor.email, password: editor.password }, { cookie });
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe('/admin/blog/');
    expect(String(answer.headers['set-cookie'])).toMatch(/^site_admin=/);
    const wrong = await post({ csrf: token!, email: 'a@b.co', password: 'nope' }, { cookie });
    expect(wrong.status).toBe(303);
    expect(wrong.headers.location).toBe('/auth/?error=wrong');
  });

  it("refuses a plain form sign-in without the form's token, or with another one, before checking the password", async () => {
    const page = await server.send('GET', '/auth/');
    const token = /name="csrf" value="([\w-]{43})"/.exec(page.text)![1]!;
    const cookie = String(page.headers['set-cookie']).split(';', 1)[0]!;
    const post = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
      server.send('POST', '/api/auth/login', {
        headers: { origin: server.url, 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams(fields).toString(),
      });
    const attempts = [
      post({ email: editor.email, password: editor.password }),
      post({ email: editor.email, password: editor.password }, { cookie }),
      post({ csrf: token, email: editor.email, password: editor.password }),
      post(
        {
          csrf: `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`,
          email: editor.email,
          password: editor.password,
        },
        { cookie },
      ),
    ];
    for (const answer of await Promise.all(attempts)) {
      expect(answer.status).toBe(303);
      expect(answer.headers.location).toBe('/auth/?error=expired');
      expect(answer.headers['set-cookie']).toBeUndefined();
    }
  });

  it('upgrades a hash made with weaker parameters at the next sign-in', async () => {
    const { addUser } = await import('../../src/admin/users');
    const store = await server.store.get();
    await addUser(store, 'old@example.com', 'editor', 'an old password 1', { N: 512, r: 8, p: 1 });
    expect((await store.findAccount('old@example.com'))!.passwordHash).toMatch(/^scrypt\$N=512,/);
    await server.signIn('old@example.com', 'an old password 1');
    expect((await store.findAccount('old@example.com'))!.passwordHash).toMatch(/^scrypt\$N=1024,r=8,p=1\$/);
    await server.signIn('old@example.com', 'an old password 1');
  });

  it('ends the sessions of an account whose password changes', async () => {
    const { cookie } = await server.signIn(chief.email, chief.password);
    const { setPassword } = await import('../../src/admin/users');
    await setPassword(await server.store.get(), chief.email, 'a brand new password', { N: 1024, r: 8, p: 1 });
    expect((await server.send('GET', '/api/admin/session', { headers: { cookie } })).status).toBe(401);
    chief.password = 'a brand new password';
  });

  it('keeps an audit log of sign-ins and the accounts in the store, a database outside the output, mode 0600', async () => {
    const { entries } = await (await server.store.get()).listAudit(1000);
    expect(entries.some((entry) => entry.action === 'sign-in' && entry.user === editor.email)).toBe(true);
    expect(entries.some((entry) => entry.action === 'sign-in-failed')).toBe(true);
    const file = join(server.config.dirs.data, 'site.db');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(server.config.dirs.data)).mode & 0o777).toBe(0o700);
    // Sessions are kept by the hash of their token: no cookie value is in the database.
    const { cookie } = await server.signIn(editor.email, editor.password);
    expect((await readFile(file)).includes(Buffer.from(cookie.split('=')[1]!))).toBe(false);
  });
});

describe('site serve without --admin', () => {
  it('has no /api/auth nor /api/admin: 404 (and 405 for a POST, as for any path of a static site)', async () => {
    const server = await serveSite();
    try {
      for (const path of ['/api/admin/session', '/api/admin/posts'])
        expect((await fetch(`${server.url}${path}`)).status).toBe(404);
      const login = await fetch(`${server.url}/api/auth/login`, {
        method: 'POST',
        headers: { origin: server.url, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(login.status).toBe(405);
      expect(login.headers.get('set-cookie')).toBeNull();
    } finally {
      await server.close();
    }
  });
});
