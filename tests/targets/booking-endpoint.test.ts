/**
 * The host functions' booking endpoint (runtime/booking-endpoint.ts) in-process, on a SQLite store
 * and a fixed clock: what it keeps of the page a booking was sent from.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBookingEndpoint, type BookingEndpointSettings } from '../../src/targets/runtime/booking-endpoint';
import type { StoreSource } from '../../src/store/source';
import { tempStore } from '../helpers/store';
import { origin } from './support';

// Friday 27 March 2026, 16:10 in Oslo (CET).
const now = Date.parse('2026-03-27T16:10:00+01:00');

const settings: BookingEndpointSettings = {
  name: 'booking',
  path: '/api/booking',
  maxBytes: 16 * 1024,
  rateLimit: 100,
  rateWindowMs: 60_000,
  allowedOrigins: [origin],
  resultPages: { en: { booked: '/book-meeting/booked/', failed: '/book-meeting/failed/' } },
  defaultLocale: 'en',
  rules: {
    timeZone: 'Europe/Oslo',
    weekdays: ['Mo', 'Tu', 'We', 'Th', 'Fr'],
    opens: '09:00',
    closes: '17:00',
    minutes: 30,
  },
  days: 14,
  domain: 'mendwise.example',
  calendarText: { en: { summary: 'Meeting', description: 'Booked online' } },
  database: { urlEnv: 'DATABASE_URL', d1Binding: 'DB' },
};

let source: StoreSource;
beforeEach(async () => {
  source = await tempStore();
});
afterEach(async () => {
  await source.close();
});

const book = (handle: ReturnType<typeof createBookingEndpoint>, start: string, page: string) =>
  handle(
    new Request(`${origin}/api/booking`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin, 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify({
        start,
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.com',
        locale: 'en',
        page,
      }),
    }),
    { client: '198.51.100.1', env: {} },
  );

describe('the booking function', () => {
  it('keeps a booking but stores no page that is not a plain path of the site', async () => {
    const handle = createBookingEndpoint(settings, async () => source.get(), { now: () => now });
    expect((await book(handle, '2026-03-30T07:00:00Z', '/\\evil.example')).status).toBe(201);
    expect((await book(handle, '2026-03-30T07:30:00Z', 'https://evil.example/')).status).toBe(201);
    expect((await book(handle, '2026-03-30T08:00:00Z', '/hub/book-meeting/')).status).toBe(201);
    const stored = await (await source.get()).listInbox({ kind: 'booking' });
    expect(stored.map((item) => item.page).sort()).toEqual(['/', '/', '/hub/book-meeting/']);
  });
});

describe('the booking function: notifications', () => {
  it('POSTs each booking to the webhooks of notifications: before it answers, and the booking stands when one fails', async () => {
    const sent: Record<string, unknown>[] = [];
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const handle = createBookingEndpoint(
        { ...settings, notify: { webhooks: ['https://hooks.example/b/tok', 'https://down.example/'], site: origin } },
        async () => source.get(),
        {
          now: () => now,
          notifyPolicy: { timeoutMs: 500, attempts: 1, backoffMs: 1 },
          fetch: async (url, init) => {
            if (String(url).includes('down')) throw new TypeError('fetch failed');
            sent.push(JSON.parse(String(init!.body)) as Record<string, unknown>);
            return new Response(null, { status: 202 });
          },
        },
      );
      const answer = await book(handle, '2026-03-30T09:00:00Z', '/hub/book-meeting/');
      expect(answer.status).toBe(201);
      const { id } = (await answer.json()) as { id: string };
      expect(sent).toMatchObject([
        {
          event: 'booking.created',
          id: `booking-${id}`,
          site: origin,
          data: { firstName: 'Ada', email: 'ada@example.com', page: '/hub/book-meeting/' },
        },
      ]);
      expect(log.mock.calls.map((call) => String(call[0]))).toEqual([
        `/api/booking: notification of booking-${id}: webhook down.example could not be reached (1 attempt)`,
      ]);
    } finally {
      log.mockRestore();
    }
  });
});
