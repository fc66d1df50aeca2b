/**
 * The cloudflare target in Cloudflare's own runtime: `wrangler pages dev` (workerd, offline) serves
 * the demo site's build (with `output.functions.booking: true`, the booking on a local D1 database
 * bound as DB), so the 404 rules, the headers, the redirects, the contact function and the booking
 * are proven where they will run, not only read from the files.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempSite, type TempSite } from '../helpers/fixture-site';
import { repoRoot } from '../helpers/paths';
import { buildTarget, valid } from './support';

let wrangler: ChildProcess | undefined;
let site: TempSite | undefined;
let url: string;
let log = '';

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

beforeAll(async () => {
  site = await createTempSite({
    editConfig: (text) => text.replace(/^ {2}target: node$/m, '  target: node\n  functions:\n    booking: true'),
  });
  const { out } = await buildTarget(['--target', 'cloudflare'], site.config);
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  // The compatibility date is one the installed workerd knows; SUBMISSIONS is the KV binding the
  // contact function stores into (output.functions.kvBinding) and DB the D1 database the booking
  // stores into (output.functions.d1Binding), both local to the emulator's state folder.
  wrangler = spawn(
    process.execPath,
    [
      join(repoRoot, 'node_modules', 'wrangler', 'bin', 'wrangler.js'),
      'pages',
      'dev',
      out,
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--compatibility-date',
      '2025-01-01',
      '--kv',
      'SUBMISSIONS',
      '--d1',
      'DB',
    ],
    {
      cwd: dirname(out),
      env: { ...process.env, CI: '1', WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  );
  wrangler.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  wrangler.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const deadline = Date.now() + 90_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/`)).status === 200) break;
    } catch {
      // Not listening yet.
    }
    if (wrangler.exitCode !== null || Date.now() > deadline)
      throw new Error(`wrangler pages dev did not start:\n${log}`);
    await new Promise((resume) => setTimeout(resume, 250));
  }
}, 150_000);

afterAll(async () => {
  if (wrangler?.pid && wrangler.exitCode === null) process.kill(-wrangler.pid, 'SIGTERM');
  await site?.cleanup();
});

describe('the cloudflare target in wrangler pages dev', () => {
  it('answers a missing page with status 404 and the 404 page of its language', async () => {
    const norwegian = await fetch(`${url}/no/finnes-ikke/`);
    expect(norwegian.status).toBe(404);
    const html = await norwegian.text();
    expect(html).toContain('<html lang="nb" data-lang="no"');
    const english = await fetch(`${url}/does-not-exist/`);
    expect(english.status).toBe(404);
    expect(await english.text()).toContain('<html lang="en" data-lang="en"');
  });

  it('sends the security headers, with the CSP hashes of the inline scripts, and caches hashed assets for good', async () => {
    const response = await fetch(`${url}/hub/`);
    expect(response.status).toBe(200);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+/);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    const html = await response.text();
    const stylesheet = /<link rel="stylesheet" href="(\/assets\/[^"]+)"/.exec(html)![1]!;
    const asset = await fetch(`${url}${stylesheet}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const image = /<meta property="og:image" content="https:\/\/mendwise\.example(\/_social\/[^"]+\.png)"/.exec(
      html,
    )![1]!;
    const card = await fetch(`${url}${image}`);
    expect(card.status).toBe(200);
    expect(card.headers.get('content-type')).toBe('image/png');
  });

  it('redirects the ASCII alias of a Norwegian path to the page', async () => {
    const response = await fetch(`${url}/no/arbeidsklaer/`, { redirect: 'manual' });
    expect(response.status).toBe(301);
    expect(new URL(response.headers.get('location')!, url).pathname).toBe('/no/arbeidskl%C3%A6r/');
  });

  it('runs the contact function: a valid message is taken, an invalid one refused at its fields, a honeypot dropped quietly', async () => {
    const post = (body: Record<string, unknown>) =>
      fetch(`${url}/api/contact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: url, 'sec-fetch-site': 'same-origin' },
        body: JSON.stringify(body),
      });
    const taken = await post(valid);
    expect(taken.status).toBe(201);
    const refused = await post({ ...valid, email: 'not an address' });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ fields: { email: expect.any(String) } });
    const trapped = await post({ ...valid, website: 'https://spam.example' });
    expect(trapped.status).toBe(201);
    const oversized = await post({ ...valid, message: 'x'.repeat(300_000) });
    expect(oversized.status).toBe(413);
  });

  it('books through D1: the schema made by the first request, one slot booked once when two ask at once, the slot gone after, the calendar file', async () => {
    const slots = await fetch(`${url}/api/booking/slots`);
    expect(slots.status, log).toBe(200);
    const { slots: free } = (await slots.json()) as { slots: { start: string; end: string }[] };
    expect(free.length).toBeGreaterThan(1);
    const book = (start: string, email: string) =>
      fetch(`${url}/api/booking`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: url, 'sec-fetch-site': 'same-origin' },
        body: JSON.stringify({ start, firstName: 'Ada', lastName: 'Lovelace', email, locale: 'en' }),
      });
    const answers = await Promise.all([
      book(free[0]!.start, 'ada@example.com'),
      book(free[0]!.start, 'grace@example.com'),
    ]);
    expect(answers.map((answer) => answer.status).sort(), log).toEqual([201, 409]);
    const confirmation = (await answers.find((answer) => answer.status === 201)!.json()) as {
      id: string;
      start: string;
    };
    expect(confirmation.start).toBe(free[0]!.start);
    expect(((await answers.find((answer) => answer.status === 409)!.json()) as { error: string }).error).toBe(
      'slot_taken',
    );
    const after = (await (await fetch(`${url}/api/booking/slots`)).json()) as { slots: { start: string }[] };
    expect(after.slots.map(({ start }) => start)).not.toContain(free[0]!.start);
    expect(after.slots.map(({ start }) => start)).toContain(free[1]!.start);
    const calendar = await fetch(`${url}/api/booking/calendar.ics?id=${confirmation.id}`);
    expect(calendar.status).toBe(200);
    expect(await calendar.text()).toContain('BEGIN:VEVENT');
  });
});
