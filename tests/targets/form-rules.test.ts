/**
 * One set of form rules (src/forms/): the same requests sent to `site serve`'s handlers
 * (serve/booking.ts, serve/contact.ts, over Node's http) and to the host functions' handlers
 * (runtime/booking-endpoint.ts, runtime/web-endpoint.ts, on the web `Request`) get the same
 * status, the same answer and the same record handed to the store, `page` included. Each case
 * starts both sides afresh, each on a store of its own, with one fixed clock.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { SlotRules } from '../../src/booking/slots';
import { validateContact } from '../../src/islands/contact-schema';
import { createBookingHandler, type BookingSettings } from '../../src/serve/booking';
import { createContactHandler } from '../../src/serve/contact';
import type { StoreSource } from '../../src/store/source';
import type { NewBooking, Store } from '../../src/store/store';
import { createBookingEndpoint, type BookingEndpointSettings } from '../../src/targets/runtime/booking-endpoint';
import { createWebEndpoint, type EndpointSettings, type WebHandler } from '../../src/targets/runtime/web-endpoint';
import { tempStore } from '../helpers/store';
import { origin } from './support';

// Friday 27 March 2026, 16:10 in Oslo (CET): the weekend and the change to CEST lie ahead.
const now = Date.parse('2026-03-27T16:10:00+01:00');
const rules: SlotRules = {
  timeZone: 'Europe/Oslo',
  weekdays: ['Mo', 'Tu', 'We', 'Th', 'Fr'],
  opens: '09:00',
  closes: '17:00',
  minutes: 30,
};
const terms = {
  endpoint: '/api/booking',
  rules,
  days: 14,
  domain: 'mendwise.example',
  organizer: 'hello@mendwise.example',
};
const calendarText = {
  en: { summary: 'Meeting with Mendwise', description: 'Booked online' },
  no: { summary: 'Møte med Mendwise', description: 'Booket på nett' },
};
const localePrefix = (locale: string) => (locale === 'no' ? '/no' : '');
const types = ['customer', 'other'];

/** What a side answered, with what differs by nature taken out: the random ids of bookings. */
interface Answer {
  status: number;
  body: unknown;
  headers: Record<string, string | null>;
}

/** One handler, `site serve`'s or the host function's, and what it handed to its store. */
interface Side {
  send(request: Request): Promise<Answer>;
  /** The bookings or contact messages the rules handed to the store, in order. */
  stored: object[];
  /** The ids of the bookings the store took, in order (random: they differ between the sides). */
  ids: string[];
  /** The store itself, to book a meeting into it past the rules. */
  source?: StoreSource;
  close(): Promise<void>;
}

const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

async function answerOf(response: Response): Promise<Answer> {
  const text = (await response.text()).replace(uuid, 'ID');
  const type = response.headers.get('content-type');
  const headers = Object.fromEntries(
    ['content-type', 'location', 'retry-after', 'allow', 'set-cookie', 'content-disposition', 'cache-control'].map(
      (name) => [name, response.headers.get(name)?.replace(uuid, 'ID') ?? null],
    ),
  );
  return { status: response.status, body: type?.startsWith('application/json') ? JSON.parse(text) : text, headers };
}

/** A request as a browser on the site sends it (http: the cookie's `Secure` follows the transport, by nature). */
function post(path: string, body: Record<string, string | number>, form = false): Request {
  const type = form ? 'application/x-www-form-urlencoded' : 'application/json';
  const text = form ? new URLSearchParams(body as Record<string, string>).toString() : JSON.stringify(body);
  return new Request(`http://127.0.0.1${path}`, {
    method: 'POST',
    headers: { 'content-type': type, origin },
    body: text,
  });
}
const get = (path: string) => new Request(`http://127.0.0.1${path}`);

/** A store that records what the rules hand to it, and keeps bookings in `source`. */
function recording(source: StoreSource, stored: object[], ids: string[] = []): StoreSource {
  return {
    async get() {
      const store = await source.get();
      return {
        async book(booking: NewBooking) {
          stored.push(booking);
          const result = await store.book(booking);
          if (result.booked) ids.push(result.id);
          return result;
        },
        takenSlots: (from: string, to: string) => store.takenSlots(from, to),
        findBooking: (id: string) => store.findBooking(id),
        addContactMessage: async (record: object) => (stored.push(record), { id: 'stored' }),
      } as unknown as Store;
    },
    close: () => source.close(),
  };
}

/** `site serve`'s side: a handler behind Node's http, fetched as a browser would. */
async function serveSide(
  handler: (request: IncomingMessage, response: ServerResponse) => Promise<unknown>,
  store: StoreSource,
  stored: object[],
  ids: string[] = [],
  source?: StoreSource,
): Promise<Side> {
  const server: Server = createServer((request, response) => {
    void handler(request, response).then((handled) => {
      if (handled === false) response.writeHead(404).end();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    async send(request) {
      const url = new URL(request.url);
      const body = request.method === 'POST' ? await request.text() : undefined;
      return answerOf(
        await fetch(`${base}${url.pathname}${url.search}`, {
          method: request.method,
          headers: request.headers,
          body,
          redirect: 'manual',
        }),
      );
    },
    stored,
    ids,
    source,
    async close() {
      await new Promise((done) => server.close(done));
      await store.close();
    },
  };
}

/** The host function's side: its handler called with the web `Request`. */
function functionSide(
  handle: WebHandler,
  env: Record<string, unknown>,
  stored: object[],
  close: () => Promise<void>,
  ids: string[] = [],
  source?: StoreSource,
): Side {
  return {
    send: async (request) => answerOf(await handle(request, { client: '198.51.100.1', env })),
    stored,
    ids,
    source,
    close,
  };
}

async function bookingSides(): Promise<[Side, Side]> {
  const serveStored: object[] = [];
  const serveIds: string[] = [];
  const serveSource = await tempStore();
  const serveStore = recording(serveSource, serveStored, serveIds);
  const settings: BookingSettings = {
    ...terms,
    allowedOrigins: [origin],
    resultPage: (locale, outcome) => `${localePrefix(locale)}/book-meeting/${outcome}/`,
    calendarText: (locale) => (locale === 'no' ? calendarText.no : calendarText.en),
  };
  const serve = await serveSide(
    createBookingHandler({ settings: () => settings, store: serveStore, now: () => now }),
    serveStore,
    serveStored,
    serveIds,
    serveSource,
  );

  const functionStored: object[] = [];
  const functionIds: string[] = [];
  const functionSource = await tempStore();
  const functionStore = recording(functionSource, functionStored, functionIds);
  const functionSettings: BookingEndpointSettings = {
    name: 'booking',
    path: terms.endpoint,
    maxBytes: 16 * 1024,
    rateLimit: 5,
    rateWindowMs: 60_000,
    allowedOrigins: [origin],
    resultPages: Object.fromEntries(
      ['en', 'no'].map((locale) => [
        locale,
        {
          booked: `${localePrefix(locale)}/book-meeting/booked/`,
          failed: `${localePrefix(locale)}/book-meeting/failed/`,
        },
      ]),
    ),
    defaultLocale: 'en',
    rules,
    days: terms.days,
    domain: terms.domain,
    organizer: terms.organizer,
    calendarText,
    database: { urlEnv: 'DATABASE_URL', d1Binding: 'DB' },
  };
  const host = functionSide(
    createBookingEndpoint(functionSettings, async () => (await functionStore.get()) as Store, { now: () => now }),
    {},
    functionStored,
    () => functionStore.close(),
    functionIds,
    functionSource,
  );
  return [serve, host];
}

async function contactSides(): Promise<[Side, Side]> {
  const serveStored: object[] = [];
  const serveStore = recording(await tempStore(), serveStored);
  const resultPage = (locale: string, outcome: string) => `${localePrefix(locale)}/contactus/${outcome}/`;
  const serve = await serveSide(
    createContactHandler({
      store: serveStore,
      allowedOrigins: [origin],
      resultPage,
      types: () => types,
      now: () => now,
    }),
    serveStore,
    serveStored,
  );

  const functionStored: object[] = [];
  const settings: EndpointSettings = {
    name: 'contact',
    path: '/api/contact',
    maxBytes: 32 * 1024,
    rateLimit: 5,
    rateWindowMs: 60_000,
    allowedOrigins: [origin],
    resultPages: Object.fromEntries(
      ['en', 'no'].map((locale) => [
        locale,
        { sent: resultPage(locale, 'sent'), failed: resultPage(locale, 'failed') },
      ]),
    ),
    defaultLocale: 'en',
    storage: { forwardUrlEnv: 'SITE_FORM_WEBHOOK', kvBinding: 'FORMS' },
  };
  // The KV line holds the endpoint's name besides the record: the store's, by nature.
  const kv = {
    put: async (_key: string, line: string) =>
      void functionStored.push(
        (({ endpoint: _endpoint, ...record }) => record)(JSON.parse(line) as Record<string, unknown>),
      ),
  };
  const host = functionSide(
    createWebEndpoint((fields) => validateContact(fields, types), settings, { now: () => now }),
    { FORMS: kv },
    functionStored,
    async () => undefined,
  );
  return [serve, host];
}

let open: Side[] = [];
afterEach(async () => {
  await Promise.all(open.map((side) => side.close()));
  open = [];
});

/** Sends each request to both sides in turn; expects the same answers from both, and the same records stored. */
async function expectSameOnBoth(
  sides: Promise<[Side, Side]>,
  requests: readonly (() => Request)[],
): Promise<{ answers: Answer[]; stored: object[] }> {
  const [serve, host] = await sides;
  open = [serve, host];
  const answers: Answer[] = [];
  for (const [index, request] of requests.entries()) {
    const served = await serve.send(request());
    expect(await host.send(request()), `request ${index + 1}`).toEqual(served);
    answers.push(served);
  }
  expect(host.stored).toEqual(serve.stored);
  return { answers, stored: serve.stored };
}

const visitor = {
  firstName: 'Kari',
  lastName: 'Nordmann',
  email: 'kari@example.no',
  company: 'Skredderiet AS',
  note: 'Om Hub',
  locale: 'no',
  page: '/no/shop/book-meeting/',
};
const book =
  (fields: Record<string, string>, form = false) =>
  () =>
    post('/api/booking', { ...visitor, ...fields }, form);

describe('the booking rules, in site serve and in the host functions', () => {
  it('a valid booking: 201, the cookie, the record with its page; then the slot is gone and the calendar file is there', async () => {
    const { answers, stored } = await expectSameOnBoth(bookingSides(), [
      book({ start: '2026-03-30T07:00:00Z' }),
      () => get('/api/booking/slots?from=2026-03-30&days=1'),
      () => get('/api/booking/calendar.ics?id=not-an-id!'),
    ]);
    expect(answers[0]).toMatchObject({
      status: 201,
      body: { id: 'ID', start: '2026-03-30T09:00:00+02:00', end: '2026-03-30T09:30:00+02:00' },
    });
    expect(answers[0]!.headers['set-cookie']).toBe(
      'site-booking=ID; Path=/api/booking; Max-Age=1209600; HttpOnly; SameSite=Lax',
    );
    expect((answers[1]!.body as { slots: unknown[] }).slots).toHaveLength(15);
    expect(answers[2]!.status).toBe(404);
    expect(stored).toEqual([
      expect.objectContaining({
        slotStart: '2026-03-30T07:00:00.000Z',
        start: '2026-03-30T09:00:00+02:00',
        firstName: 'Kari',
        locale: 'no',
        page: '/no/shop/book-meeting/',
        bookedAt: new Date(now).toISOString(),
      }),
    ]);
  });

  it('the calendar file of a booking, named by its id', async () => {
    const [serve, host] = await bookingSides();
    open = [serve, host];
    const files: Answer[] = [];
    for (const side of [serve, host]) {
      expect((await side.send(book({ start: '2026-03-30T07:00:00Z' })())).status).toBe(201);
      files.push(await side.send(get(`/api/booking/calendar.ics?id=${side.ids[0]}`)));
    }
    expect(files[1]).toEqual(files[0]);
    expect(files[0]).toMatchObject({ status: 200, headers: { 'content-type': 'text/calendar; charset=utf-8' } });
    expect(files[0]!.body).toContain('SUMMARY:Møte med Mendwise');
  });

  it('a taken slot: 409 with the next free slots', async () => {
    const { answers, stored } = await expectSameOnBoth(bookingSides(), [
      book({ start: '2026-03-30T07:00:00Z' }),
      book({ email: 'ola@example.no', start: '2026-03-30T09:00:00+02:00' }),
    ]);
    expect(answers[1]).toMatchObject({ status: 409, body: { error: 'slot_taken' } });
    expect((answers[1]!.body as { next: { start: string }[] }).next.map((slot) => slot.start)).toEqual([
      '2026-03-30T09:30:00+02:00',
      '2026-03-30T10:00:00+02:00',
      '2026-03-30T10:30:00+02:00',
      '2026-03-30T11:00:00+02:00',
      '2026-03-30T11:30:00+02:00',
    ]);
    // Both attempts reached the store; it refused the second.
    expect(stored).toHaveLength(2);
  });

  it('a slot that overlaps a longer meeting booked before: 409, and the slots it covers are not offered', async () => {
    const sides = bookingSides().then(async (both) => {
      // A one-hour meeting from when slots were an hour long, booked straight into each store.
      for (const side of both) {
        const meeting = {
          slotStart: '2026-03-31T07:00:00.000Z',
          slotEnd: '2026-03-31T08:00:00.000Z',
          start: '2026-03-31T09:00:00+02:00',
          end: '2026-03-31T10:00:00+02:00',
          bookedAt: '2026-03-20T10:00:00.000Z',
          firstName: 'Ola',
          lastName: 'Nordmann',
          email: 'ola@example.no',
        };
        expect((await (await side.source!.get()).book(meeting)).booked).toBe(true);
      }
      return both;
    });
    const { answers, stored } = await expectSameOnBoth(sides, [
      book({ start: '2026-03-31T07:30:00Z' }),
      () => get('/api/booking/slots?from=2026-03-31&days=1'),
    ]);
    expect(answers[0]).toMatchObject({
      status: 409,
      body: {
        error: 'slot_taken',
        next: [
          { start: '2026-03-31T10:00:00+02:00', end: '2026-03-31T10:30:00+02:00' },
          expect.anything(),
          expect.anything(),
          expect.anything(),
          expect.anything(),
        ],
      },
    });
    const starts = (answers[1]!.body as { slots: { start: string }[] }).slots.map((slot) => slot.start);
    expect(starts).toHaveLength(14);
    expect(starts).not.toContain('2026-03-31T09:00:00+02:00');
    expect(starts).not.toContain('2026-03-31T09:30:00+02:00');
    expect(stored).toHaveLength(1);
  });

  it('a past slot, a slot outside the opening hours, at a weekend or past the bookable window: 400, nothing stored', async () => {
    const { answers, stored } = await expectSameOnBoth(bookingSides(), [
      book({ start: '2026-03-27T09:00:00+01:00' }),
      book({ start: '2026-03-30T18:00:00+02:00' }),
      book({ start: '2026-03-28T10:00:00+01:00' }),
      book({ start: '2026-04-20T09:00:00+02:00' }),
      book({ start: '2026-03-30T09:10:00+02:00' }),
    ]);
    for (const answer of answers)
      expect(answer).toMatchObject({
        status: 400,
        body: { error: 'invalid_fields', fields: { start: 'unavailable' } },
      });
    expect(stored).toEqual([]);
  });

  it('bad fields: 400 naming them; as a plain form post, the failed page of its language, saying so', async () => {
    const { answers, stored } = await expectSameOnBoth(bookingSides(), [
      book({ start: '2026-03-30T07:00:00Z', email: 'nope', firstName: '' }),
      book({ date: '2026-03-30', time: '09:00', email: 'nope' }, true),
      book({ start: 'not a slot' }),
    ]);
    expect(answers[0]).toMatchObject({
      status: 400,
      body: { error: 'invalid_fields', fields: { email: 'invalidEmail', firstName: 'required' } },
    });
    // The failed page with why, for a page without script to say (a field, not the time).
    expect(answers[1]).toMatchObject({ status: 303, headers: { location: '/no/book-meeting/failed/#failed-fields' } });
    expect(answers[2]!.status).toBe(400);
    expect(stored).toEqual([]);
  });

  it('a missing page or one that is not a plain path of the site: booked, stored with the page "/"; a plain form post lands on the booked page', async () => {
    const { page: _page, ...withoutPage } = visitor;
    const { answers, stored } = await expectSameOnBoth(bookingSides(), [
      () => post('/api/booking', { ...withoutPage, start: '2026-03-30T07:00:00Z' }),
      book({ start: '2026-03-30T07:30:00Z', page: '/\\evil.example' }),
      book({ date: '2026-03-30', time: '10:00', page: 'https://evil.example/' }, true),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 303]);
    expect(answers[2]!.headers.location).toBe('/no/book-meeting/booked/');
    expect(stored.map((booking) => (booking as NewBooking).page)).toEqual(['/', '/', '/']);
  });

  it('a bot (honeypot), another path below the endpoint, a GET of the endpoint, a malformed slots query', async () => {
    const { answers, stored } = await expectSameOnBoth(bookingSides(), [
      book({ start: '2026-03-30T07:00:00Z', website: 'https://spam.example' }),
      () => post('/api/booking/other', { ...visitor, start: '2026-03-30T07:00:00Z' }),
      () => get('/api/booking'),
      () => get('/api/booking/slots?from=2026-02-30'),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([201, 404, 405, 400]);
    expect(answers[0]!.body).toEqual({ id: 'ID', start: '', end: '' });
    expect(stored).toEqual([]);
  });

  it('five booking attempts a minute per client, then 429', async () => {
    const { answers } = await expectSameOnBoth(
      bookingSides(),
      ['07:00', '07:30', '08:00', '08:30', '09:00', '09:30'].map((time) => book({ start: `2026-03-30T${time}:00Z` })),
    );
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 201, 201, 429]);
    expect(answers[5]!.headers['retry-after']).toBe('60');
  });
});

const message = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  type: 'customer',
  subject: 'Hello',
  message: 'Hello <b>there</b>',
  locale: 'no',
  page: '/no/contactus/',
};
const contact =
  (fields: Record<string, string | number>, form = false) =>
  () =>
    post('/api/contact', { ...message, ...fields }, form);

describe('the contact rules, in site serve and in the host functions', () => {
  it('a valid message: 201 and the record; as a plain form post, the thank-you page of its language', async () => {
    const { answers, stored } = await expectSameOnBoth(contactSides(), [contact({}), contact({ type: '' }, true)]);
    expect(answers[0]).toMatchObject({ status: 201, body: { ok: true } });
    expect(answers[1]).toMatchObject({ status: 303, headers: { location: '/no/contactus/sent/' } });
    expect(stored).toEqual([
      { receivedAt: new Date(now).toISOString(), ...message, company: '' },
      { receivedAt: new Date(now).toISOString(), ...message, company: '', type: 'other' },
    ]);
  });

  it('hostile input: markup kept as text, a page off the site dropped, fields it may not set ignored, wrong types and unknown choices refused, a bot answered as a success', async () => {
    const { answers, stored } = await expectSameOnBoth(contactSides(), [
      contact({
        message: '<script>alert(1)</script>',
        page: '/\\evil.example',
        receivedAt: '1999-01-01T00:00:00Z',
        id: 'mine',
        handledAt: 'now',
      }),
      contact({ firstName: 42 }),
      contact({ type: 'admin', locale: 'EN' }),
      contact({ subject: 'x'.repeat(201), email: 'a@b' }),
      contact({ website: 'https://spam.example' }),
      contact({ locale: 'xx' }, true),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([201, 400, 400, 400, 201, 303]);
    expect(answers[1]!.body).toEqual({ error: 'invalid_fields', fields: { firstName: 'required' } });
    expect(answers[5]!.headers.location).toBe('/contactus/sent/');
    expect(stored[0]).toEqual({
      receivedAt: new Date(now).toISOString(),
      ...message,
      company: '',
      message: '<script>alert(1)</script>',
      page: '/',
    });
    expect(stored).toHaveLength(2);
  });

  it('five stored messages a minute per client, then 429', async () => {
    const { answers } = await expectSameOnBoth(
      contactSides(),
      Array.from({ length: 6 }, () => contact({})),
    );
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201, 201, 201, 429]);
  });
});
