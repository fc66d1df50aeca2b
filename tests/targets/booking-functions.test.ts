/**
 * The booking on Netlify and Vercel (`output.functions.booking`): the functions a build writes are
 * imported and run in Node, as the hosts run them, against a real Postgres (a throwaway cluster,
 * tests/helpers/postgres.ts) named by DATABASE_URL. One slot, one booking, across instances: two
 * copies of the function (two imports, two connections) asked for one slot at once give one 201 and
 * one 409. Without the switch, the build keeps the contact form and says why once.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTempSite, type TempSite } from '../helpers/fixture-site';
import { startTestPostgres, type TestPostgres } from '../helpers/postgres';
import { buildTarget, listAll, origin, read } from './support';

type WebFunction = (request: Request, context?: { ip?: string }) => Promise<Response>;

const postgres: TestPostgres = await startTestPostgres();
/** Why the tests that book cannot run (no Postgres server here), or ''. */
const noServer = postgres.noServerReason;
let site: TempSite;
beforeAll(async () => {
  site = await createTempSite({
    editConfig: (text) => text.replace(/^ {2}target: node$/m, '  target: node\n  functions:\n    booking: true'),
  });
});
afterAll(async () => {
  delete process.env.DATABASE_URL;
  await postgres?.stop();
  await site?.cleanup();
});

/** A fresh database on the test server, its URL in DATABASE_URL. */
async function useNewDatabase(): Promise<void> {
  process.env.DATABASE_URL = await postgres.server!.createDatabase();
}

/** The first free slot the function offers, and a booking request for it. */
async function firstSlot(call: (request: Request) => Promise<Response>): Promise<{ start: string; end: string }> {
  const response = await call(new Request(`${origin}/api/booking/slots`));
  expect(response.status).toBe(200);
  const { slots } = (await response.json()) as { slots: { start: string; end: string }[] };
  expect(slots.length).toBeGreaterThan(0);
  return slots[0]!;
}

const bookingRequest = (start: string, email = 'ada@example.com') =>
  new Request(`${origin}/api/booking`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin, 'sec-fetch-site': 'same-origin' },
    body: JSON.stringify({ start, firstName: 'Ada', lastName: 'Lovelace', email, company: '', note: '', locale: 'en' }),
  });

/** Checks a booking function end to end: race for one slot, slots after, calendar file, form post. */
async function checkBookingFunction(
  first: (request: Request) => Promise<Response>,
  second: (request: Request) => Promise<Response>,
): Promise<void> {
  const slot = await firstSlot(first);
  const answers = await Promise.all([
    first(bookingRequest(slot.start, 'ada@example.com')),
    second(bookingRequest(slot.start, 'grace@example.com')),
  ]);
  expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
  const booked = answers.find((answer) => answer.status === 201)!;
  const confirmation = (await booked.json()) as { id: string; start: string; end: string };
  expect(confirmation).toMatchObject({ start: slot.start, end: slot.end });
  expect(booked.headers.get('set-cookie')).toContain(`site-booking=${confirmation.id}`);
  const taken = (await answers.find((answer) => answer.status === 409)!.json()) as {
    error: string;
    next: { start: string }[];
  };
  expect(taken.error).toBe('slot_taken');
  expect(taken.next.map(({ start }) => start)).not.toContain(slot.start);

  // The slot is gone from the slots of either instance.
  const after = (await (await second(new Request(`${origin}/api/booking/slots`))).json()) as {
    slots: { start: string }[];
  };
  expect(after.slots.map(({ start }) => start)).not.toContain(slot.start);

  // The calendar file of the booking, by its id.
  const calendar = await second(new Request(`${origin}/api/booking/calendar.ics?id=${confirmation.id}`));
  expect(calendar.status).toBe(200);
  expect(calendar.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
  expect(await calendar.text()).toContain('BEGIN:VEVENT');
  expect((await second(new Request(`${origin}/api/booking/calendar.ics?id=nope`))).status).toBe(404);

  // A plain form post names the slot by local date and time, and lands on the booked page of its language.
  const next = taken.next[0]!;
  const form = new URLSearchParams({
    date: next.start.slice(0, 10),
    time: next.start.slice(11, 16),
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    locale: 'no',
  });
  const posted = await first(
    new Request(`${origin}/api/booking`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
      body: form.toString(),
    }),
  );
  expect(posted.status).toBe(303);
  expect(posted.headers.get('location')).toBe('/no/book-meeting/booked/');

  // Refusals before the database: bad fields, another site's page, a GET of the booking path.
  expect((await first(bookingRequest('not a slot'))).status).toBe(400);
  const foreign = new Request(`${origin}/api/booking`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    body: '{}',
  });
  expect((await first(foreign)).status).toBe(403);
  expect((await first(new Request(`${origin}/api/booking`))).status).toBe(405);
}

/** Imports a built function module afresh: a new instance with its own connection, as a second function instance of the host. */
async function importFresh<T>(file: string): Promise<T> {
  return (await import(`${pathToFileURL(file).href}?instance=${Math.random()}`)).default as T;
}

describe('a build without output.functions.booking', () => {
  it('keeps the contact form on the book-meeting pages and says why, once', async () => {
    const { out, stderr } = await buildTarget(['--target', 'netlify']);
    expect(stderr.match(/BOOKING_FALLBACK/g)).toHaveLength(1);
    expect(stderr).toContain('output.functions.booking: true');
    expect(await read(out, 'hub/book-meeting/index.html')).not.toContain('class="booking-form');
    expect((await listAll(out)).filter((file) => file.startsWith('netlify/'))).toEqual([
      'netlify/functions/contact.mjs',
    ]);
  }, 60_000);
});

describe('netlify with output.functions.booking', () => {
  let out: string;
  let stderr: string;
  beforeAll(async () => {
    ({ out, stderr } = await buildTarget(['--target', 'netlify'], site.config));
  }, 60_000);

  it('renders the booking form and writes the booking function and its rewrites, without a warning', async () => {
    expect(stderr).not.toContain('BOOKING_FALLBACK');
    const page = await read(out, 'hub/book-meeting/index.html');
    expect(page).toContain('class="booking-form');
    expect(page).toContain('action="/api/booking"');
    const redirects = (await read(out, '_redirects')).split('\n');
    expect(redirects).toContain('/api/booking  /.netlify/functions/booking  200');
    expect(redirects).toContain('/api/booking/*  /.netlify/functions/booking/:splat  200');
    const source = await read(out, 'netlify/functions/booking.mjs');
    // Self-contained but for Node's own modules (postgres.js uses its sockets).
    const imports = [...source.matchAll(/(?:^|[;\n])import[^;"'()]*?from\s*["']([^"']+)["']/g)].map(
      ([, specifier]) => specifier,
    );
    expect(imports).toContain('net');
    for (const specifier of imports) expect(specifier).toMatch(/^(node:)?[a-z_]+$/);
    expect(source).not.toContain(postgres.server?.url ?? 'postgres://');
  });

  it.skipIf(noServer)(
    `books through Postgres: one slot, one booking across two instances; slots, calendar file, form post${noServer ? ` (skipped: ${noServer})` : ''}`,
    async () => {
      await useNewDatabase();
      const file = join(out, 'netlify/functions/booking.mjs');
      const [a, b] = [await importFresh<WebFunction>(file), await importFresh<WebFunction>(file)];
      await checkBookingFunction(
        (request) => a(request, { ip: '198.51.100.1' }),
        (request) => b(request, { ip: '198.51.100.2' }),
      );
    },
    60_000,
  );

  it('answers 503 without DATABASE_URL, and the log names the variable, never a password', async () => {
    delete process.env.DATABASE_URL;
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const handler = await importFresh<WebFunction>(join(out, 'netlify/functions/booking.mjs'));
      const answer = await handler(new Request(`${origin}/api/booking/slots`), { ip: '198.51.100.3' });
      expect(answer.status).toBe(503);
      expect(error).toHaveBeenCalledWith(expect.stringContaining('DATABASE_URL'));
    } finally {
      error.mockRestore();
    }
  });
});

describe('vercel with output.functions.booking', () => {
  let out: string;
  let servers: Server[] = [];
  beforeAll(async () => {
    ({ out } = await buildTarget(['--target', 'vercel'], site.config));
  }, 60_000);
  afterAll(async () => {
    await Promise.all(servers.map((server) => new Promise((done) => server.close(done))));
    servers = [];
  });

  it('writes a Node.js function for each path of the booking API', async () => {
    const files = await listAll(out);
    for (const path of ['api/booking', 'api/booking/slots', 'api/booking/calendar.ics']) {
      expect(files).toContain(`functions/${path}.func/index.mjs`);
      expect(JSON.parse(await read(out, `functions/${path}.func/.vc-config.json`))).toEqual({
        runtime: 'nodejs20.x',
        handler: 'index.mjs',
        launcherType: 'Nodejs',
        shouldAddHelpers: false,
      });
    }
    expect(await read(out, 'static/hub/book-meeting/index.html')).toContain('class="booking-form');
    // The trailing-slash rule leaves the API's paths alone.
    const routes = (JSON.parse(await read(out, 'config.json')) as { routes: { src?: string }[] }).routes;
    const slash = new RegExp(routes.find((route) => route.src?.includes('[^/.]+)$'))!.src!);
    expect(slash.test('/api/booking')).toBe(false);
    expect(slash.test('/api/booking/slots')).toBe(false);
  });

  it.skipIf(noServer)(
    `books through Postgres from Node's (req, res), as Vercel calls it: one slot, one booking across two instances${noServer ? ` (skipped: ${noServer})` : ''}`,
    async () => {
      await useNewDatabase();
      // Each instance is an http server calling the function of the path asked, as Vercel routes it.
      const instance = async () => {
        const handlers = new Map<string, (request: unknown, response: unknown) => Promise<void>>();
        for (const path of ['/api/booking', '/api/booking/slots', '/api/booking/calendar.ics'])
          handlers.set(path, await importFresh(join(out, `functions${path}.func/index.mjs`)));
        const server = createServer(
          (request, response) => void handlers.get(new URL(request.url!, 'http://x').pathname)!(request, response),
        );
        await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
        servers.push(server);
        const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        return async (request: Request) => {
          const url = new URL(request.url);
          const body = request.method === 'GET' ? undefined : await request.text();
          // The origin header stays the site's (site.origin), which the function allows.
          return fetch(base + url.pathname + url.search, {
            method: request.method,
            headers: { ...Object.fromEntries(request.headers), 'x-forwarded-proto': 'https' },
            body,
            redirect: 'manual',
          });
        };
      };
      await checkBookingFunction(await instance(), await instance());
    },
    60_000,
  );
});
