/** Builds the demo site for a host target, and drives a built form function with `Request`s. */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { outputRoot, repoRoot } from '../helpers/paths';

const run = promisify(execFile);

/** Builds the site of `config` (default: the demo site) with `args` into a new folder; returns the folder and stderr. */
export async function buildTarget(
  args: readonly string[],
  config = join(repoRoot, 'site.config.yaml'),
): Promise<{ out: string; stderr: string }> {
  const { mkdir } = await import('node:fs/promises');
  await mkdir(outputRoot, { recursive: true });
  const out = join(await mkdtemp(join(outputRoot, 'target-')), 'out');
  const { stderr } = await run(
    'node',
    [join(repoRoot, 'bin', 'site.js'), 'build', '--config', config, '--out', out, ...args],
    { cwd: repoRoot },
  );
  return { out, stderr };
}

/** Every file under `dir`, relative to it, sorted. */
export async function listAll(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

export const read = (dir: string, path: string) => readFile(join(dir, path), 'utf8');

/** A webhook that records what it is sent. */
export async function startWebhook(): Promise<{
  url: string;
  received: Record<string, unknown>[];
  close(): Promise<void>;
}> {
  const received: Record<string, unknown>[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

export const origin = 'https://mendwise.example';
export const valid = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  message: 'Hello <b>there</b>',
  locale: 'en',
  page: '/contactus/',
};

/** A POST to the contact endpoint as a browser on the site sends it. */
export function contactRequest(body: string, type = 'application/json', headers: Record<string, string> = {}): Request {
  return new Request(`${origin}/api/contact`, {
    method: 'POST',
    headers: { 'content-type': type, origin, 'sec-fetch-site': 'same-origin', ...headers },
    body,
  });
}

/**
 * The checks every host's contact function must pass. `call` sends a request as client `client`;
 * `stored` is what the function has kept so far; `clearStorage` takes its storage away.
 */
export async function checkContactFunction(options: {
  call(request: Request, client: string): Promise<Response>;
  stored(): unknown[];
  withoutStorage(work: () => Promise<void>): Promise<void>;
}): Promise<void> {
  const { call, stored } = options;
  // valid JSON → 201, stored once, with the input as data (never echoed back)
  const accepted = await call(contactRequest(JSON.stringify(valid)), '198.51.100.1');
  expect(accepted.status).toBe(201);
  expect(await accepted.json()).toEqual({ ok: true });
  expect(stored()).toHaveLength(1);
  expect(stored()[0]).toMatchObject({
    endpoint: 'contact',
    firstName: 'Ada',
    email: 'ada@example.com',
    message: 'Hello <b>there</b>',
    type: 'other',
  });

  // a plain form post (no script) → 303 to the thank-you page of its language
  const form = new URLSearchParams({ ...valid, locale: 'no' }).toString();
  const redirected = await call(contactRequest(form, 'application/x-www-form-urlencoded'), '198.51.100.2');
  expect(redirected.status).toBe(303);
  expect(redirected.headers.get('location')).toBe('/no/contactus/sent/');
  expect(stored()).toHaveLength(2);

  // invalid → 400 naming the fields, nothing stored; as a form post → the failed page
  const invalid = await call(
    contactRequest(JSON.stringify({ ...valid, email: 'not-an-address', firstName: '' })),
    '198.51.100.3',
  );
  expect(invalid.status).toBe(400);
  expect(await invalid.json()).toEqual({
    error: 'invalid_fields',
    fields: { email: 'invalidEmail', firstName: 'required' },
  });
  const invalidForm = await call(
    contactRequest(new URLSearchParams({ ...valid, email: '' }).toString(), 'application/x-www-form-urlencoded'),
    '198.51.100.3',
  );
  expect(invalidForm.status).toBe(303);
  expect(invalidForm.headers.get('location')).toBe('/contactus/failed/');
  expect((await call(contactRequest('{not json'), '198.51.100.3')).status).toBe(400);
  expect((await call(contactRequest('name=x', 'text/plain'), '198.51.100.3')).status).toBe(415);
  expect(stored()).toHaveLength(2);

  // oversized → 413, whether announced or streamed
  const big = JSON.stringify({ ...valid, message: 'x'.repeat(40 * 1024) });
  expect((await call(contactRequest(big), '198.51.100.4')).status).toBe(413);
  const streamed = new Request(`${origin}/api/contact`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: new ReadableStream({
      start(controller) {
        for (let i = 0; i < 40; i++) controller.enqueue(new TextEncoder().encode('x'.repeat(1024)));
        controller.close();
      },
    }),
    duplex: 'half',
  } as RequestInit);
  expect((await call(streamed, '198.51.100.4')).status).toBe(413);

  // honeypot → the same answer as a success, nothing stored
  const bot = await call(contactRequest(JSON.stringify({ ...valid, website: 'https://spam.example' })), '198.51.100.5');
  expect(bot.status).toBe(201);
  expect(await bot.json()).toEqual({ ok: true });
  expect(stored()).toHaveLength(2);

  // another site's page → 403; not a POST → 405
  expect(
    (
      await call(
        contactRequest(JSON.stringify(valid), 'application/json', {
          origin: 'https://evil.example',
          'sec-fetch-site': 'cross-site',
        }),
        '198.51.100.6',
      )
    ).status,
  ).toBe(403);
  expect((await call(new Request(`${origin}/api/contact`), '198.51.100.6')).status).toBe(405);

  // rate limit: 5 stored submissions a minute per client, then 429 with Retry-After
  for (let i = 0; i < 5; i++)
    expect((await call(contactRequest(JSON.stringify(valid)), '198.51.100.7')).status).toBe(201);
  const limited = await call(contactRequest(JSON.stringify(valid)), '198.51.100.7');
  expect(limited.status).toBe(429);
  expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  expect((await call(contactRequest(JSON.stringify(valid)), '198.51.100.8')).status).toBe(201);
  expect(stored()).toHaveLength(8);

  // a page that is not a plain path of the site (the inbox would link off the site) → kept, without the page
  const hostilePage = await call(
    contactRequest(JSON.stringify({ ...valid, page: '/\\evil.example' })),
    '198.51.100.10',
  );
  expect(hostilePage.status).toBe(201);
  expect(stored()).toHaveLength(9);
  expect(stored()[8]).toMatchObject({ endpoint: 'contact', firstName: 'Ada', page: '/' });

  // no storage configured → 503, never "received"
  await options.withoutStorage(async () => {
    const unkept = await call(contactRequest(JSON.stringify(valid)), '198.51.100.9');
    expect(unkept.status).toBe(503);
  });
}
