/**
 * `site serve`'s production server, in-process: static serving like a static host, refused path
 * traversal, and the contact endpoint (JSON, plain form POST, limits, concurrency).
 *
 * The contact endpoint allows 5 submissions a minute per remote address, and every request here
 * comes from 127.0.0.1: each describe block that posts starts its own server (its own limiter)
 * and stays within that budget, except the one that tests the limit.
 */
import { readdir, readFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContactHandler } from '../../src/serve/contact';
import { createStaticHandler } from '../../src/serve/static';
import { startServer, type MountedApi } from '../../src/serve/server';
import { loadConfig } from '../../src/config/load';
import { builtSite, repoRoot } from '../helpers/paths';
import { serveSite, type TestServer } from '../helpers/server';
import { storedRows, storeIn } from '../helpers/store';
import type { StoreSource } from '../../src/store/source';

/** The stored contact messages, in the order they came ([] when nothing was stored). */
async function storedLines(dataDir: string): Promise<Record<string, unknown>[]> {
  return storedRows(dataDir, 'contact_messages');
}

/** A valid submission; `overrides` replace or add fields. */
function submission(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    message: 'Hello from the test suite.',
    type: 'repairer',
    locale: 'en',
    ...overrides,
  };
}

/** A raw request that fetch cannot express (path kept as written, own headers and body chunks). */
function rawRequest(
  base: string,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: Buffer[] },
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolvePromise, reject) => {
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
          resolvePromise({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
        );
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    for (const chunk of options.body ?? []) outgoing.write(chunk);
    outgoing.end();
  });
}

const postJson = (base: string, body: unknown) =>
  fetch(`${base}/api/contact`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const postForm = (base: string, fields: Record<string, string>) =>
  fetch(`${base}/api/contact`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });

/** A fresh server with its own data folder (and so its own rate limiter). */
function useServer() {
  const state = {} as { server: TestServer; dataDir: string };
  beforeAll(async () => {
    state.dataDir = await mkdtemp(join(tmpdir(), 'site-serve-test-'));
    state.server = await serveSite({ dataDir: state.dataDir });
  });
  afterAll(async () => {
    await state.server?.close();
    if (state.dataDir) await rm(state.dataDir, { recursive: true, force: true });
  });
  return state;
}

describe('static serving', () => {
  const context = useServer();
  const url = (path: string) => `${context.server.url}${path}`;

  it('answers pages with 200 text/html', async () => {
    for (const path of ['/', '/hub/', '/no/hub/', '/no/arbeidskl%C3%A6r/']) {
      const response = await fetch(url(path));
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toMatch(/^text\/html/);
      expect(await response.text(), path).toMatch(/^<!doctype html>/i);
    }
  });

  it('redirects a folder without its trailing slash, keeping the query', async () => {
    const response = await fetch(url('/hub'), { redirect: 'manual' });
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe('/hub/');
    const withQuery = await fetch(url('/no/hub?ref=test'), { redirect: 'manual' });
    expect(withQuery.status).toBe(301);
    expect(withQuery.headers.get('location')).toBe('/no/hub/?ref=test');
  });

  it('sends a Norwegian path typed without æ, ø, å to the page that exists, and still answers 404 when none does', async () => {
    for (const [path, location] of [
      ['/no/arbeidsklaer', '/no/arbeidskl%C3%A6r'],
      ['/no/arbeidsklaer/product/?ref=x', '/no/arbeidskl%C3%A6r/product/?ref=x'],
    ] as const) {
      const response = await fetch(url(path), { redirect: 'manual' });
      expect(response.status, path).toBe(301);
      expect(response.headers.get('location'), path).toBe(location);
    }
    const followed = await fetch(url('/no/arbeidsklaer'));
    expect(followed.status).toBe(200);
    expect(decodeURI(new URL(followed.url).pathname)).toBe('/no/arbeidsklær/');
    expect((await fetch(url('/no/aerial-view/'), { redirect: 'manual' })).status).toBe(404);
  });

  it('never redirects to another host', async () => {
    // "//hub" names the hub folder, but a location of "//hub/" would send the browser to http://hub/.
    for (const [path, location] of [
      ['//hub', '/hub/'],
      ['///no/hub?x=1', '/no/hub/?x=1'],
    ] as const) {
      const response = await rawRequest(context.server.url, { path });
      expect(response.status, path).toBe(301);
      expect(response.headers.location, path).toBe(location);
    }
  });

  it('answers an unknown path with 404 and the 404 page of its language', async () => {
    const english = await fetch(url('/no-such-page/'));
    expect(english.status).toBe(404);
    expect(english.headers.get('content-type')).toMatch(/^text\/html/);
    const englishHtml = await english.text();
    expect(englishHtml).toContain('<h1>Page not found</h1>');
    expect(englishHtml).toMatch(/<html[^>]*\blang="en/);

    const norwegian = await fetch(url('/no/finnes-ikke/'));
    expect(norwegian.status).toBe(404);
    const norwegianHtml = await norwegian.text();
    expect(norwegianHtml).toMatch(/<html[^>]*\blang="nb"/);
    expect(norwegianHtml).not.toContain('<h1>Page not found</h1>');
  });

  it('does not cache the 404 page of a missing asset for good', async () => {
    const response = await fetch(url('/assets/missing-0123abcd.css'));
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(await response.text()).toContain('<h1>Page not found</h1>');
  });

  it('sends the headers of _headers on pages and does not serve _headers itself', async () => {
    const page = await fetch(url('/hub/'));
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('cache-control')).toBe('no-cache');

    for (const path of ['/_headers', '/_headers/', '/%5Fheaders']) {
      const response = await fetch(url(path));
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).not.toContain('Content-Security-Policy');
    }
  });

  it('caches hashed assets for good, and answers with the right content types', async () => {
    const assets = await readdir(join(builtSite, 'assets'));
    const css = assets.find((file) => file.endsWith('.css'));
    const js = assets.find((file) => file.endsWith('.js'));
    expect(css).toBeDefined();
    expect(js).toBeDefined();

    const cssResponse = await fetch(url(`/assets/${css}`));
    expect(cssResponse.status).toBe(200);
    expect(cssResponse.headers.get('cache-control')).toContain('immutable');
    expect(cssResponse.headers.get('content-type')).toBe('text/css; charset=utf-8');

    const jsResponse = await fetch(url(`/assets/${js}`));
    expect(jsResponse.status).toBe(200);
    expect(jsResponse.headers.get('content-type')).toMatch(/^text\/javascript/);

    const sitemap = await fetch(url('/sitemap.xml'));
    expect(sitemap.status).toBe(200);
    expect(sitemap.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(await sitemap.text()).toContain('<urlset');

    const svg = await fetch(url('/favicon.svg'));
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
  });

  it('sends the precompressed brotli or gzip sibling when the client accepts it', async () => {
    const css = (await readdir(join(builtSite, 'assets'))).find((file) => file.endsWith('.css'))!;
    const onDisk = await readFile(join(builtSite, 'assets', css));

    const brotli = await rawRequest(context.server.url, {
      path: `/assets/${css}`,
      headers: { 'accept-encoding': 'br' },
    });
    expect(brotli.status).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toContain('accept-encoding');
    expect(Number(brotli.headers['content-length'])).toBe(brotli.body.length);
    expect(brotliDecompressSync(brotli.body).equals(onDisk)).toBe(true);
    expect(brotli.body.equals(await readFile(join(builtSite, 'assets', `${css}.br`)))).toBe(true);

    const gzip = await rawRequest(context.server.url, { path: '/hub/', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.status).toBe(200);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.body).equals(await readFile(join(builtSite, 'hub', 'index.html')))).toBe(true);
    expect(gzip.body.equals(await readFile(join(builtSite, 'hub', 'index.html.gz')))).toBe(true);

    const notFound = await rawRequest(context.server.url, {
      path: '/no-such-page/',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(notFound.status).toBe(404);
    expect(notFound.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(notFound.body).equals(await readFile(join(builtSite, '404.html')))).toBe(true);

    const plain = await rawRequest(context.server.url, { path: `/assets/${css}` });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(onDisk)).toBe(true);

    // q=0 means "not acceptable".
    const noBrotli = await rawRequest(context.server.url, {
      path: `/assets/${css}`,
      headers: { 'accept-encoding': 'br;q=0, gzip' },
    });
    expect(noBrotli.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(noBrotli.body).equals(onDisk)).toBe(true);
    const neither = await rawRequest(context.server.url, {
      path: `/assets/${css}`,
      headers: { 'accept-encoding': 'br;q=0, gzip;q=0.0' },
    });
    expect(neither.headers['content-encoding']).toBeUndefined();
    expect(neither.body.equals(onDisk)).toBe(true);
  });

  it('answers HEAD without a body and refuses other methods on pages', async () => {
    const head = await fetch(url('/hub/'), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const post = await fetch(url('/hub/'), { method: 'POST', body: 'x' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('precompressed siblings', () => {
  let dir: string;
  let server: Server;
  let base: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'site-static-test-'));
    // Distinct bytes prove the server sends the sibling as it is and compresses nothing itself.
    await writeFile(join(dir, 'both.txt'), 'plain');
    await writeFile(join(dir, 'both.txt.br'), 'brotli bytes');
    await writeFile(join(dir, 'both.txt.gz'), 'gzip bytes');
    await writeFile(join(dir, 'gzip-only.txt'), 'plain');
    await writeFile(join(dir, 'gzip-only.txt.gz'), 'gzip bytes');
    await writeFile(join(dir, 'none.txt'), 'plain');
    const handle = await createStaticHandler(dir, {});
    server = createServer((request, response) => void handle(request, response));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((done) => server.close(() => done()));
    await rm(dir, { recursive: true, force: true });
  });

  it('prefers brotli, falls back to gzip, and sends the file itself when there is no sibling', async () => {
    const cases = [
      ['/both.txt', 'gzip, br', 'br', 'brotli bytes'],
      ['/both.txt', 'gzip', 'gzip', 'gzip bytes'],
      ['/gzip-only.txt', 'br, gzip', 'gzip', 'gzip bytes'],
      ['/gzip-only.txt', 'br', undefined, 'plain'],
      ['/none.txt', 'br, gzip', undefined, 'plain'],
    ] as const;
    for (const [path, accept, coding, body] of cases) {
      const response = await rawRequest(base, { path, headers: { 'accept-encoding': accept } });
      expect(response.headers['content-encoding'], `${path} ${accept}`).toBe(coding);
      expect(response.headers['content-type'], path).toBe('text/plain; charset=utf-8');
      expect(response.headers['content-length'], path).toBe(String(body.length));
      expect(response.body.toString(), `${path} ${accept}`).toBe(body);
    }
    const head = await rawRequest(base, { method: 'HEAD', path: '/both.txt', headers: { 'accept-encoding': 'br' } });
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.body.length).toBe(0);
  });
});

describe('a site built without siblings', () => {
  it('compresses a text file once per version when it has no sibling, and sends small or binary files as they are', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'site-static-test-'));
    const page = `<!DOCTYPE html><html><body>${'<p>Repair beats recycling.</p>'.repeat(100)}</body></html>`;
    await writeFile(join(dir, 'index.html'), page);
    await writeFile(join(dir, 'tiny.txt'), 'plain');
    await writeFile(join(dir, 'logo.png'), Buffer.alloc(2000));
    const handle = await createStaticHandler(dir, { compressMissing: true });
    const server = createServer((request, response) => void handle(request, response));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const brotli = await rawRequest(base, { path: '/', headers: { 'accept-encoding': 'gzip, br' } });
      expect(brotli.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(brotli.body).toString()).toBe(page);
      expect(brotli.headers['content-length']).toBe(String(brotli.body.length));
      const gzip = await rawRequest(base, { path: '/', headers: { 'accept-encoding': 'gzip' } });
      expect(gunzipSync(gzip.body).toString()).toBe(page);
      await writeFile(join(dir, 'index.html'), `${page}<!-- edited, longer -->`);
      const edited = await rawRequest(base, { path: '/', headers: { 'accept-encoding': 'br' } });
      expect(brotliDecompressSync(edited.body).toString()).toBe(`${page}<!-- edited, longer -->`);
      for (const path of ['/tiny.txt', '/logo.png']) {
        const response = await rawRequest(base, { path, headers: { 'accept-encoding': 'br, gzip' } });
        expect(response.headers['content-encoding'], path).toBeUndefined();
      }
    } finally {
      await new Promise<void>((done) => server.close(() => done()));
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('path traversal', () => {
  const context = useServer();
  const attempts = [
    '/../package.json',
    '/../../package.json',
    '/%2e%2e/package.json',
    '/%2E%2E/%2e%2e/package.json',
    '/assets/..%2f..%2fpackage.json',
    '/assets/%2e%2e%2f%2e%2e%2fpackage.json',
    '/..%5c..%5cpackage.json',
    '/%5c..%5c..%5cpackage.json',
    '/..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd',
    '/hub/%2e%2e/%2e%2e/package.json',
    '/package.json%00.html',
    '/%c0%ae%c0%ae/package.json',
  ];

  it('never serves a file from outside the built site', async () => {
    const packageJson = await readFile(join(repoRoot, 'package.json'), 'utf8');
    expect(packageJson).toContain('"name": "typed-site"');
    for (const path of attempts) {
      const response = await rawRequest(context.server.url, { path });
      expect([400, 404], path).toContain(response.status);
      const body = response.body.toString('utf8');
      expect(body, path).not.toContain('"name": "site"');
      expect(body, path).not.toContain('root:x:0:0');
    }
  });
});

describe('POST /api/contact with JSON', () => {
  // Counted by the rate limit: the valid, missing-fields, bad-e-mail and honeypot posts (4 of 5).
  const context = useServer();

  it('stores a valid submission and answers 201', async () => {
    const marker = `json-valid-${Date.now()}`;
    const response = await postJson(
      context.server.url,
      submission({ message: `Valid ${marker}`, locale: 'no', company: 'Analytical Engines' }),
    );
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ ok: true });

    const lines = await storedLines(context.dataDir);
    expect(lines).toHaveLength(1);
    const [stored] = lines;
    expect(stored).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      message: `Valid ${marker}`,
      type: 'repairer',
      company: 'Analytical Engines',
      locale: 'no',
    });
    expect(typeof stored!.receivedAt).toBe('string');
    expect(Number.isNaN(Date.parse(String(stored!.receivedAt)))).toBe(false);
  });

  it('names each missing required field', async () => {
    const response = await postJson(context.server.url, { type: 'other', locale: 'en' });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { fields: Record<string, string> };
    expect(body.fields).toMatchObject({
      firstName: 'required',
      lastName: 'required',
      email: 'required',
      message: 'required',
    });
    expect(await storedLines(context.dataDir)).toHaveLength(1);
  });

  it('refuses an invalid e-mail address', async () => {
    const response = await postJson(context.server.url, submission({ email: 'not-an-address' }));
    expect(response.status).toBe(400);
    const body = (await response.json()) as { fields: Record<string, string> };
    expect(body.fields.email).toBe('invalidEmail');
    expect(body.fields.firstName).toBeUndefined();
    expect(await storedLines(context.dataDir)).toHaveLength(1);
  });

  it('refuses malformed JSON and JSON that is not an object', async () => {
    for (const body of ['{"firstName": "Ada",', '', 'null', '[1, 2]', '"text"']) {
      const response = await postJson(context.server.url, body);
      expect(response.status, body).toBe(400);
    }
    expect(await storedLines(context.dataDir)).toHaveLength(1);
  });

  it('refuses a body over 32 KB with 413 and stores nothing', async () => {
    const big = submission({ message: 'x'.repeat(33 * 1024) });
    const response = await postJson(context.server.url, big);
    expect(response.status).toBe(413);
    expect(await storedLines(context.dataDir)).toHaveLength(1);
  });

  it('answers 413 to a large body sent without a content-length (chunked)', async () => {
    const chunk = Buffer.from('x'.repeat(4096));
    const body = [Buffer.from('{"message":"'), ...Array.from({ length: 10 }, () => chunk), Buffer.from('"}')];
    const response = await rawRequest(context.server.url, {
      method: 'POST',
      path: '/api/contact',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      body,
    });
    expect(response.status).toBe(413);
    expect(await storedLines(context.dataDir)).toHaveLength(1);
  });

  it('answers 413 at once when the declared content-length is too large', async () => {
    // The body is much shorter than declared: the server must answer from the header alone.
    const { hostname, port } = new URL(context.server.url);
    const status = await new Promise<number>((resolvePromise, reject) => {
      const outgoing = request(
        {
          host: hostname,
          port,
          method: 'POST',
          path: '/api/contact',
          agent: false,
          headers: { 'content-type': 'application/json', 'content-length': String(1024 * 1024) },
        },
        (response) => {
          resolvePromise(response.statusCode ?? 0);
          response.resume();
          outgoing.destroy();
        },
      );
      outgoing.on('error', (error) => (outgoing.destroyed ? undefined : reject(error)));
      outgoing.write('{"firstName":"Ada"');
    });
    expect(status).toBe(413);
    expect(await storedLines(context.dataDir)).toHaveLength(1);
  });

  it('answers 201 to a filled honeypot but stores nothing', async () => {
    const response = await postJson(context.server.url, submission({ website: 'https://spam.example' }));
    expect(response.status).toBe(201);
    expect(await storedLines(context.dataDir)).toHaveLength(1);
  });
});

describe('POST /api/contact rate limit', () => {
  const context = useServer();

  it('refuses a 6th submission within a minute from the same address', async () => {
    for (let i = 1; i <= 5; i++) {
      const response = await postJson(context.server.url, submission({ message: `rate ${i}` }));
      expect(response.status, `submission ${i}`).toBe(201);
    }
    const refused = await postJson(context.server.url, submission({ message: 'rate 6' }));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);

    const form = await postForm(context.server.url, submission({ message: 'rate 7', locale: 'no' }));
    expect(form.status).toBe(303);
    expect(form.headers.get('location')).toBe('/no/contactus/failed/');

    const lines = await storedLines(context.dataDir);
    expect(lines.map((line) => line.message)).toEqual(['rate 1', 'rate 2', 'rate 3', 'rate 4', 'rate 5']);
  });
});

describe('POST /api/contact as a plain form', () => {
  // Counted by the rate limit: 4 posts.
  const context = useServer();

  it('redirects a valid English submission to the thank-you page and stores it', async () => {
    const response = await postForm(context.server.url, {
      ...submission({ message: 'form en' }),
      company: '',
      subject: '',
      website: '',
      page: '/contactus/',
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/contactus/sent/');
    const lines = await storedLines(context.dataDir);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ message: 'form en', locale: 'en', page: '/contactus/' });
  });

  it('redirects a valid Norwegian submission to the Norwegian thank-you page', async () => {
    const response = await postForm(context.server.url, {
      ...submission({ message: 'form no', locale: 'no' }),
      website: '',
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/no/contactus/sent/');
    const lines = await storedLines(context.dataDir);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({ message: 'form no', locale: 'no' });
  });

  it('redirects an invalid submission to the error page of its language', async () => {
    const english = await postForm(context.server.url, submission({ email: 'broken' }));
    expect(english.status).toBe(303);
    expect(english.headers.get('location')).toBe('/contactus/failed/');
    const norwegian = await postForm(context.server.url, submission({ firstName: '', locale: 'no' }));
    expect(norwegian.status).toBe(303);
    expect(norwegian.headers.get('location')).toBe('/no/contactus/failed/');
    expect(await storedLines(context.dataDir)).toHaveLength(2);
  });

  it('lands on pages that exist', async () => {
    for (const path of ['/contactus/sent/', '/contactus/failed/', '/no/contactus/sent/', '/no/contactus/failed/']) {
      const response = await fetch(`${context.server.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toMatch(/^text\/html/);
    }
  });
});

describe('POST /api/contact under concurrency', () => {
  let dataDir: string;
  let server: Server;
  let base: string;
  let store: StoreSource;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'site-serve-concurrency-'));
    store = await storeIn(dataDir);
    const handle = createContactHandler({
      store,
      rateLimit: 1000,
      resultPage: (locale, outcome) => `/${locale}/${outcome}/`,
      types: () => ['repairer', 'retailer', 'investor', 'partner', 'other'],
    });
    server = createServer((incoming, response) => {
      handle(incoming, response).catch(() => {
        if (!response.headersSent) response.writeHead(500);
        response.end();
      });
    });
    await new Promise<void>((resolvePromise) => server.listen(0, '127.0.0.1', () => resolvePromise()));
    const address = server.address();
    if (typeof address !== 'object' || !address) throw new Error('no address');
    base = `http://127.0.0.1:${address.port}`;
  });

  afterAll(async () => {
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolvePromise) => server.close(() => resolvePromise()));
    }
    await store?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('stores 200 concurrent submissions exactly once each, whole', async () => {
    const count = 200;
    const markers = Array.from({ length: count }, (_, i) => `marker-${i}-${Math.random().toString(36).slice(2)}`);
    const responses = await Promise.all(
      markers.map((marker) => postJson(base, submission({ message: `Concurrent ${marker} ${'padding '.repeat(50)}` }))),
    );
    expect(responses.map((response) => response.status)).toEqual(markers.map(() => 201));

    const rows = await storedRows(dataDir, 'contact_messages');
    expect(rows).toHaveLength(count);
    const found = rows.map((row) =>
      markers.find((marker) => String(row.message) === `Concurrent ${marker} ${'padding '.repeat(50)}`.trim()),
    );
    expect(found.every(Boolean)).toBe(true);
    expect(new Set(found).size).toBe(count);
  });
});

describe('a request that names index.html itself', () => {
  let server: Awaited<ReturnType<typeof serveSite>>;
  beforeAll(async () => {
    server = await serveSite({ dataDir: await mkdtemp(join(tmpdir(), 'site-index-')) });
  });
  afterAll(() => server?.close());

  it('serves the file with 200 instead of redirecting to a folder that does not exist', async () => {
    const response = await fetch(`${server.url}/hub/index.html`, { redirect: 'manual' });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<html lang="en"');
  });
});

describe('close', () => {
  it("waits for the admin's background work (which may write the project's state) before it resolves", async () => {
    const config = await loadConfig(join(repoRoot, 'site.config.yaml'));
    config.dirs.data = await mkdtemp(join(tmpdir(), 'site-close-'));
    const store = await storeIn(config.dirs.data);
    const order: string[] = [];
    let finish: () => void = () => undefined;
    const admin: MountedApi = {
      handle: async () => false,
      listening: () => undefined,
      idle: () => new Promise<void>((resolvePromise) => (finish = resolvePromise)).then(() => void order.push('work')),
    };
    const running = await startServer({ config, store, dir: builtSite, port: 0, host: '127.0.0.1', admin });
    try {
      const closed = running.close().then(() => void order.push('closed'));
      await new Promise((resolvePromise) => setTimeout(resolvePromise, 100));
      expect(order).toEqual([]);
      finish();
      await closed;
      expect(order).toEqual(['work', 'closed']);
    } finally {
      await store.close();
      await rm(config.dirs.data, { recursive: true, force: true });
    }
  });
});
