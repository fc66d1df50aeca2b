/**
 * The built-in booking API, in-process with a fixed clock: the slots contract, a booking and the
 * 409 with the next free slots, one slot one booking under concurrent requests, the no-script
 * form post (303 and the calendar file), hostile input, the rate limit, a restart that
 * remembers what is taken, and a change of the settings while it runs.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig, type ResolvedConfig } from '../../src/config/load';
import {
  createBookingHandler,
  createSiteBookingHandler,
  type BookingHandler,
  type BookingSettings,
} from '../../src/serve/booking';
import type { StoreSource } from '../../src/store/source';
import { repoRoot } from '../helpers/paths';
import { storedRows, storeIn } from '../helpers/store';

const rules = {
  timeZone: 'Europe/Oslo',
  weekdays: ['Mo', 'Tu', 'We', 'Th', 'Fr'] as const,
  opens: '09:00',
  closes: '17:00',
  minutes: 30,
};
// Friday 27 March 2026, 16:10 in Oslo (CET): the weekend and the change to CEST lie ahead.
const now = Date.parse('2026-03-27T16:10:00+01:00');

let dataDir: string;
let server: Server;
let store: StoreSource | undefined;
let base: string;

const defaultSettings: BookingSettings = {
  endpoint: '/api/booking',
  rules: { ...rules, weekdays: [...rules.weekdays] },
  days: 14,
  resultPage: (locale, outcome) => `${locale === 'no' ? '/no' : ''}/book-meeting/${outcome}/`,
  calendarText: (locale) =>
    locale === 'no'
      ? { summary: 'Møte med Mendwise', description: 'Booket, på nett; takk' }
      : { summary: 'Meeting with Mendwise', description: 'Booked online' },
  domain: 'mendwise.example',
  organizer: 'hello@mendwise.example',
};

/** Starts the handler (or `handler`); `settings` is asked at every request (a test may change what it returns). */
async function start(
  options: {
    rateLimit?: number;
    settings?: () => BookingSettings | undefined;
    handler?: (store: StoreSource) => BookingHandler;
  } = {},
) {
  // A start is a new process: its own connection to the database of the data folder.
  await store?.close();
  store = await storeIn(dataDir);
  const handle =
    options.handler?.(store) ??
    createBookingHandler({
      settings: options.settings ?? (() => defaultSettings),
      store,
      now: () => now,
      rateLimit: options.rateLimit ?? 100,
    });
  server = createServer((request, response) => {
    void handle(request, response).then((handled) => {
      if (!handled) response.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'site-booking-'));
});

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await store?.close();
  store = undefined;
  await rm(dataDir, { recursive: true, force: true });
});

const visitor = {
  firstName: 'Kari',
  lastName: 'Nordmann',
  email: 'kari@example.no',
  company: 'Skredderiet AS',
  note: 'Om Hub',
  locale: 'no',
};
const post = (body: unknown) =>
  fetch(`${base}/api/booking`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const stored = async () => (await storedRows(dataDir, 'bookings')) as Record<string, string>[];

describe('GET /api/booking/slots', () => {
  it('lists the free slots with their Oslo offsets: none before now, none at weekends, CEST from Monday', async () => {
    await start();
    const response = await fetch(`${base}/api/booking/slots?from=2026-03-27&days=4`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { timeZone: string; slots: { start: string; end: string }[] };
    expect(body.timeZone).toBe('Europe/Oslo');
    // Friday: only 16:30 is still ahead; Saturday and Sunday: none; Monday: all 16, in CEST.
    expect(body.slots[0]).toEqual({ start: '2026-03-27T16:30:00+01:00', end: '2026-03-27T17:00:00+01:00' });
    expect(body.slots.slice(1, 3)).toEqual([
      { start: '2026-03-30T09:00:00+02:00', end: '2026-03-30T09:30:00+02:00' },
      { start: '2026-03-30T09:30:00+02:00', end: '2026-03-30T10:00:00+02:00' },
    ]);
    expect(body.slots).toHaveLength(1 + 16);
  });

  it('offers nothing outside the bookable window and refuses a malformed query', async () => {
    await start();
    const late = (await (await fetch(`${base}/api/booking/slots?from=2026-06-01&days=5`)).json()) as {
      slots: unknown[];
    };
    expect(late.slots).toEqual([]);
    for (const query of ['from=2026-02-30&days=3', 'from=tomorrow', 'days=0', 'days=1000', 'days=abc']) {
      expect((await fetch(`${base}/api/booking/slots?${query}`)).status, query).toBe(400);
    }
  });
});

describe('POST /api/booking', () => {
  it('books a free slot (201), hides it from the slots, and refuses it a second time (409) with the next free slots', async () => {
    await start();
    const first = await post({ ...visitor, page: '/no/shop/book-meeting/', start: '2026-03-30T07:00:00Z' });
    expect(first.status).toBe(201);
    const booked = (await first.json()) as { id: string; start: string; end: string };
    expect(booked).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      start: '2026-03-30T09:00:00+02:00',
      end: '2026-03-30T09:30:00+02:00',
    });

    const slots = (await (await fetch(`${base}/api/booking/slots?from=2026-03-30&days=1`)).json()) as {
      slots: { start: string }[];
    };
    expect(slots.slots.map((slot) => slot.start)).not.toContain('2026-03-30T09:00:00+02:00');
    expect(slots.slots).toHaveLength(15);

    const second = await post({ ...visitor, email: 'ola@example.no', start: '2026-03-30T09:00:00+02:00' });
    expect(second.status).toBe(409);
    const refused = (await second.json()) as { next: { start: string }[] };
    expect(refused.next.map((slot) => slot.start)).toEqual([
      '2026-03-30T09:30:00+02:00',
      '2026-03-30T10:00:00+02:00',
      '2026-03-30T10:30:00+02:00',
      '2026-03-30T11:00:00+02:00',
      '2026-03-30T11:30:00+02:00',
    ]);

    const lines = await stored();
    expect(lines).toHaveLength(1);
    // The page it was booked from, which the admin's inbox names with its audience.
    expect(lines[0]).toMatchObject({
      ...visitor,
      id: booked.id,
      start: booked.start,
      end: booked.end,
      page: '/no/shop/book-meeting/',
    });
  });

  it('keeps the booking but stores no page that is not a plain path of the site', async () => {
    await start();
    expect((await post({ ...visitor, page: '/\\evil.example', start: '2026-03-30T07:00:00Z' })).status).toBe(201);
    expect((await post({ ...visitor, page: '//evil.example', start: '2026-03-30T07:30:00Z' })).status).toBe(201);
    expect((await post({ ...visitor, page: 'https://evil.example/', start: '2026-03-30T08:00:00Z' })).status).toBe(201);
    expect((await stored()).map((line) => line.page)).toEqual(['/', '/', '/']);
  });

  it('gives one slot to one of many simultaneous requests', async () => {
    await start();
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        post({ ...visitor, email: `visitor${index}@example.no`, start: '2026-03-31T10:00:00+02:00' }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, ...Array(11).fill(409)]);
    expect(await stored()).toHaveLength(1);
  });

  it('refuses what is not a bookable slot or not a valid visitor (400), and stores nothing', async () => {
    await start();
    const cases: [Record<string, unknown>, string][] = [
      [{ ...visitor, start: '2026-03-30T09:15:00+02:00' }, 'start'],
      [{ ...visitor, start: '2026-03-28T10:00:00+01:00' }, 'start'], // a Saturday
      [{ ...visitor, start: '2026-03-27T16:00:00+01:00' }, 'start'], // already begun
      [{ ...visitor, start: '2026-05-04T09:00:00+02:00' }, 'start'], // beyond the window
      [{ ...visitor, start: '2026-03-30T09:00:00+02:00', email: 'kari@' }, 'email'],
      [{ ...visitor, start: '2026-03-30T09:00:00+02:00', firstName: '' }, 'firstName'],
      [{ ...visitor, start: '2026-03-30T09:00:00+02:00', note: 'x'.repeat(2001) }, 'note'],
      [{ ...visitor, start: { $gt: '' } }, 'start'],
    ];
    for (const [body, field] of cases) {
      const response = await post(body);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(((await response.json()) as { fields: Record<string, string> }).fields).toHaveProperty(field);
    }
    expect(
      (await fetch(`${base}/api/booking`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hi' }))
        .status,
    ).toBe(415);
    expect(
      (
        await fetch(`${base}/api/booking`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
          body: '{}',
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await fetch(`${base}/api/booking`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ ...visitor, note: 'x'.repeat(20_000) }),
        })
      ).status,
    ).toBe(413);
    expect(await stored()).toEqual([]);
  });

  it('pretends to book for a bot that fills the honeypot, and stores nothing', async () => {
    await start();
    const response = await post({ ...visitor, start: '2026-03-30T09:00:00+02:00', website: 'http://spam.example' });
    expect(response.status).toBe(201);
    expect(await stored()).toEqual([]);
  });

  it('answers 429 past the rate limit', async () => {
    await start({ rateLimit: 2 });
    const starts = ['2026-03-30T09:00:00+02:00', '2026-03-30T09:30:00+02:00', '2026-03-30T10:00:00+02:00'];
    const statuses = [];
    for (const start of starts) statuses.push((await post({ ...visitor, start })).status);
    expect(statuses).toEqual([201, 201, 429]);
  });

  it('remembers taken slots after a restart', async () => {
    await start();
    expect((await post({ ...visitor, start: '2026-04-01T14:00:00+02:00' })).status).toBe(201);
    await new Promise((resolve) => server.close(resolve));
    await start();
    expect((await post({ ...visitor, start: '2026-04-01T14:00:00+02:00' })).status).toBe(409);
  });
});

describe('without script', () => {
  const form = (fields: Record<string, string>) =>
    fetch(`${base}/api/booking`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });

  it('books from a date and a local time, lands on the localized booked page, and the calendar file names the slot', async () => {
    await start();
    const response = await form({ ...visitor, date: '2026-03-30', time: '10:30' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/no/book-meeting/booked/');
    const cookie = response.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^site-booking=[0-9a-f-]{36}; Path=\/api\/booking; .*HttpOnly; SameSite=Lax/);
    expect((await stored())[0]).toMatchObject({ start: '2026-03-30T10:30:00+02:00' });

    const ics = await fetch(`${base}/api/booking/calendar.ics`, { headers: { cookie: cookie.split(';')[0]! } });
    expect(ics.status).toBe(200);
    expect(ics.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    const text = await ics.text();
    expect(text).toContain('\r\nDTSTART:20260330T083000Z\r\n');
    expect(text).toContain('\r\nDTEND:20260330T090000Z\r\n');
    expect(text).toContain('\r\nSUMMARY:Møte med Mendwise\r\n');
    expect(text).toContain('\r\nDESCRIPTION:Booket\\, på nett\\; takk\r\n');
    expect(text).not.toContain('Kari');
    expect((await fetch(`${base}/api/booking/calendar.ics?id=00000000-0000-0000-0000-000000000000`)).status).toBe(404);
  });

  it('lands on the failed page, at why, when the time is taken, not a slot, or a field is wrong', async () => {
    await start();
    expect((await form({ ...visitor, date: '2026-03-30', time: '10:30' })).status).toBe(303);
    for (const [fields, why] of [
      [{ date: '2026-03-30', time: '10:30' }, 'taken'],
      [{ date: '2026-03-28', time: '10:00' }, 'time'],
      [{ date: '2026-03-30', time: '10:15' }, 'time'],
      [{ date: '2026-03-30', time: '11:00', email: 'nope' }, 'fields'],
    ] as const) {
      const response = await form({ ...visitor, locale: 'en', ...fields });
      expect(response.headers.get('location'), JSON.stringify(fields)).toBe(`/book-meeting/failed/#failed-${why}`);
    }
    expect(await stored()).toHaveLength(1);
  });
});

describe('a change of the settings while the server runs', () => {
  it('applies to the next request: slots and bookings of the new length; bookings made before stay taken, and so does the rate limit', async () => {
    let settings: BookingSettings | undefined = defaultSettings;
    await start({ rateLimit: 3, settings: () => settings });
    expect((await post({ ...visitor, start: '2026-03-30T09:30:00+02:00' })).status).toBe(201);

    settings = { ...defaultSettings, rules: { ...defaultSettings.rules, minutes: 45 } };
    const slots = (await (await fetch(`${base}/api/booking/slots?from=2026-03-30&days=1`)).json()) as {
      slots: { start: string; end: string }[];
    };
    // 09:00–09:45 and 09:45–10:30 overlap the meeting booked for 09:30–10:00.
    expect(slots.slots.slice(0, 2)).toEqual([
      { start: '2026-03-30T10:30:00+02:00', end: '2026-03-30T11:15:00+02:00' },
      { start: '2026-03-30T11:15:00+02:00', end: '2026-03-30T12:00:00+02:00' },
    ]);
    expect((await post({ ...visitor, start: '2026-03-30T09:45:00+02:00' })).status).toBe(409);
    const booked = await post({ ...visitor, start: '2026-03-30T10:30:00+02:00' });
    expect(booked.status).toBe(201);
    expect(await booked.json()).toMatchObject({ start: '2026-03-30T10:30:00+02:00', end: '2026-03-30T11:15:00+02:00' });
    expect((await stored()).map((line) => [line.start, line.end])).toEqual([
      ['2026-03-30T09:30:00+02:00', '2026-03-30T10:00:00+02:00'],
      ['2026-03-30T10:30:00+02:00', '2026-03-30T11:15:00+02:00'],
    ]);
    // Three attempts so far: the limit counted them across the change.
    expect((await post({ ...visitor, start: '2026-03-30T12:00:00+02:00' })).status).toBe(429);

    // Off (an external booking page), then on again with what it had.
    settings = undefined;
    expect((await fetch(`${base}/api/booking/slots?from=2026-03-30&days=1`)).status).toBe(404);
    settings = defaultSettings;
    const again = (await (await fetch(`${base}/api/booking/slots?from=2026-03-30&days=1`)).json()) as {
      slots: { start: string }[];
    };
    expect(again.slots.map((slot) => slot.start.slice(11, 16))).not.toContain('09:30');
    expect(again.slots.map((slot) => slot.start.slice(11, 16))).not.toContain('11:00');
  });
});

describe("the site's booking handler", () => {
  it("follows the config it is given at each request: the slot length, booking.url, the calendar file's words", async () => {
    const loaded = await loadConfig(join(repoRoot, 'site.config.yaml'));
    let config: ResolvedConfig = { ...loaded, dirs: { ...loaded.dirs, data: dataDir } };
    await start({ handler: (source) => createSiteBookingHandler(() => config, { store: source }) });
    const firstSlot = async () =>
      ((await (await fetch(`${base}/api/booking/slots?days=21`)).json()) as { slots: { start: string; end: string }[] })
        .slots[0]!;
    const length = (slot: { start: string; end: string }) => (Date.parse(slot.end) - Date.parse(slot.start)) / 60_000;
    expect(length(await firstSlot())).toBe(30);

    config = { ...config, booking: { ...config.booking!, minutes: 45 } };
    const slot = await firstSlot();
    expect(length(slot)).toBe(45);
    const booked = await fetch(`${base}/api/booking`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...visitor, locale: 'en', start: slot.start }),
    });
    expect(booked.status).toBe(201);
    expect((await stored())[0]).toMatchObject({ start: slot.start, end: slot.end });
    const { id } = (await booked.json()) as { id: string };
    const ics = await (await fetch(`${base}/api/booking/calendar.ics?id=${id}`)).text();
    expect(ics).toContain('SUMMARY:Meeting with Mendwise (45 min)');

    config = { ...config, booking: { ...config.booking!, url: 'https://cal.example/mendwise' } };
    expect((await fetch(`${base}/api/booking/slots`)).status).toBe(404);
  });
});
