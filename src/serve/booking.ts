/**
 * The built-in meeting booking's server side (used when `booking.url` is not set):
 *
 * - `GET <endpoint>/slots?from=YYYY-MM-DD&days=N` → `{ timeZone, slots: [{ start, end }] }`, the
 *   free slots only, starts in ISO 8601 with the zone's offset;
 * - `POST <endpoint>` `{ start, firstName, lastName, email, company, note, locale }` → 201
 *   `{ id, start, end }`, 400 (fields, or no such slot), 409 `{ next: [slots] }` when the slot is
 *   taken, 429; a plain form POST (with `date` and `time` instead of `start`) is answered with a
 *   303 to the localized booked or failed page;
 * - `GET <endpoint>/calendar.ics?id=…` → the booking as an iCalendar file (the id, or the cookie
 *   the booking set, names it; it holds times only, nothing about the visitor).
 *
 * The front checks (origin, media type, size, honeypot) are the contact form's (`readSubmission`),
 * and so are the rate limit and the fsync'd JSON-lines store. One slot, one booking: the set of
 * taken slots is loaded from the store at start and claimed synchronously before the append, so
 * two requests for one slot in this process can never both succeed (one server process owns the
 * data folder, as for contact submissions).
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { ResolvedConfig } from '../config/load.js';
import { createIcs } from '../booking/ics.js';
import { slotRulesOf } from '../booking/rules.js';
import { createDiagnostics } from '../diagnostics.js';
import { loadMessages, lookupMessage } from '../content/messages.js';
import { urlsOf } from '../routes/urls.js';
import { addDays, dateIn, isDate, listSlots, nextFreeSlots, parseInstant, slotAtLocal, slotStartingAt, type SlotRules } from '../booking/slots.js';
import { validateBooking } from '../islands/booking-schema.js';
import { createJsonLinesStore } from './jsonl-store.js';
import { createRateLimiter } from './rate-limit.js';
import { clientAddress } from './request.js';
import { readSubmission, sendJson, type FormEndpointOptions } from './form-request.js';

/** Options of the booking handler (`rateLimit` counts booking attempts). */
export interface BookingHandlerOptions extends FormEndpointOptions {
  /** The API's path (booking.endpoint): POST here, slots and the calendar file below it. */
  endpoint: string;
  rules: SlotRules;
  /** How many days ahead slots are offered and may be booked (booking.days). */
  days: number;
  /** Where a plain form POST lands: the booked or failed page of a locale. */
  resultPage(locale: string, outcome: 'booked' | 'failed'): string;
  /** The calendar file's words in a locale: its title and description. */
  calendarText(locale: string): { summary: string; description: string };
  /** The site's host name, for the calendar event's UID. */
  domain: string;
  /** The organiser's e-mail address in the calendar file. */
  organizer?: string;
}

/** The file bookings are stored in, inside the data folder. */
export const bookingsFile = 'booking-requests.jsonl';

/** Free slots offered after a refused (taken) one. */
const nextSlotsOffered = 5;
/** The longest window the slots endpoint answers, in days. */
const maxDaysAsked = 90;
const cookieName = 'site-booking';

interface StoredBooking {
  id: string;
  start: string;
  end: string;
  locale: string;
  bookedAt: string;
}

/** Creates the handler; it answers requests under `endpoint` and passes on the rest. */
export function createBookingHandler(options: BookingHandlerOptions) {
  const { endpoint, rules } = options;
  const now = options.now ?? Date.now;
  const limiter = createRateLimiter({ limit: options.rateLimit ?? 5, windowMs: options.rateWindowMs ?? 60_000, maxKeys: options.maxClients, now });
  const file = join(options.dataDir, bookingsFile);
  const store = createJsonLinesStore(file, { fileSystem: options.fileSystem });
  const allowedOrigins = options.allowedOrigins ?? [];
  // Start instant → booking; filled from the file once, then kept in step with every append.
  const taken = new Map<number, StoredBooking>();
  const byId = new Map<string, StoredBooking>();
  const loaded = loadBookings(file).then((bookings) => {
    for (const booking of bookings) remember(booking);
  });

  function remember(booking: StoredBooking) {
    const instant = parseInstant(booking.start);
    if (instant === undefined) return;
    taken.set(instant, booking);
    byId.set(booking.id, booking);
  }

  const takenStarts = (): ReadonlySet<number> => new Set(taken.keys());

  async function slots(response: ServerResponse, query: URLSearchParams) {
    const today = dateIn(now(), rules.timeZone);
    const from = query.get('from') ?? today;
    const daysText = query.get('days') ?? String(options.days);
    if (!isDate(from) || !/^\d{1,3}$/.test(daysText) || Number(daysText) < 1 || Number(daysText) > maxDaysAsked) {
      sendJson(response, 400, { error: 'invalid_query', expected: `from=YYYY-MM-DD&days=1..${maxDaysAsked}` });
      return;
    }
    // Only the bookable window (today and the next booking.days − 1 days) is offered, whatever is asked.
    const lastBookable = addDays(today, options.days - 1);
    const lastAsked = addDays(from, Number(daysText) - 1);
    const start = from < today ? today : from;
    const end = lastAsked < lastBookable ? lastAsked : lastBookable;
    const days = start > end ? 0 : Math.round((Date.parse(end) - Date.parse(start)) / 86_400_000) + 1;
    sendJson(response, 200, { timeZone: rules.timeZone, slots: listSlots(rules, { from: start, days, taken: takenStarts(), now: now() }) });
  }

  async function book(request: IncomingMessage, response: ServerResponse) {
    const submission = await readSubmission(request, response, { allowedOrigins, trustProxy: options.trustProxy, maxBytes: options.maxBytes ?? 16 * 1024 });
    if (!submission) return;
    const { isForm, locale } = submission;
    const finish = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      if (isForm) {
        response.writeHead(303, { ...headers, location: options.resultPage(locale, status === 201 ? 'booked' : 'failed'), 'cache-control': 'no-store' });
        response.end();
      } else sendJson(response, status, body, headers);
    };
    if (submission.isBot) {
      finish(201, { id: randomUUID(), start: '', end: '' });
      return;
    }
    // A form without script names the slot by its local date and time.
    const fields = { ...submission.fields };
    if (fields.start === undefined && typeof fields.date === 'string' && typeof fields.time === 'string') {
      fields.start = slotAtLocal(fields.date, fields.time, rules)?.start ?? `${fields.date}T${fields.time}`;
    }
    delete fields.date;
    delete fields.time;
    const checked = validateBooking(fields);
    if ('fieldErrors' in checked) {
      finish(400, { error: 'invalid_fields', fields: checked.fieldErrors });
      return;
    }
    const slot = slotStartingAt(checked.data.start, rules);
    const time = now();
    if (!slot || slot.instant <= time || dateIn(slot.instant, rules.timeZone) > addDays(dateIn(time, rules.timeZone), options.days - 1)) {
      finish(400, { error: 'invalid_fields', fields: { start: 'unavailable' } });
      return;
    }
    const client = clientAddress(request, options);
    const wait = limiter.retryAfter(client);
    if (wait > 0) {
      finish(429, { error: 'too_many_requests' }, { 'retry-after': String(Math.ceil(wait / 1000)) });
      return;
    }
    limiter.hit(client);
    await loaded;
    // Claimed before the first await below: a second request for this slot sees it taken.
    if (taken.has(slot.instant)) {
      finish(409, { error: 'slot_taken', next: nextFreeSlots(rules, slot.instant, nextSlotsOffered, { days: options.days, taken: takenStarts() }) });
      return;
    }
    const booking: StoredBooking = { id: randomUUID(), start: slot.start, end: slot.end, locale, bookedAt: new Date(time).toISOString() };
    remember(booking);
    try {
      await store.append({ ...booking, ...checked.data, start: slot.start });
    } catch {
      taken.delete(slot.instant);
      byId.delete(booking.id);
      finish(503, { error: 'storage_failed' }, { 'retry-after': '60' });
      return;
    }
    const secure = 'encrypted' in request.socket ? '; Secure' : '';
    finish(201, { id: booking.id, start: booking.start, end: booking.end }, {
      'set-cookie': `${cookieName}=${booking.id}; Path=${endpoint}; Max-Age=${options.days * 86_400}; HttpOnly; SameSite=Lax${secure}`,
    });
  }

  async function calendar(request: IncomingMessage, response: ServerResponse, query: URLSearchParams) {
    await loaded;
    const id = query.get('id') ?? cookieOf(request, cookieName);
    const booking = id ? byId.get(id) : undefined;
    if (!booking) {
      sendJson(response, 404, { error: 'not_found' });
      return;
    }
    const text = options.calendarText(booking.locale);
    const ics = createIcs({
      id: booking.id,
      domain: options.domain,
      start: parseInstant(booking.start)!,
      end: parseInstant(booking.end)!,
      stamp: Date.parse(booking.bookedAt),
      summary: text.summary,
      description: text.description,
      organizer: options.organizer,
    });
    response.writeHead(200, {
      'content-type': 'text/calendar; charset=utf-8',
      'content-disposition': `attachment; filename="meeting-${booking.start.slice(0, 10)}.ics"`,
      'cache-control': 'no-store',
    });
    response.end(ics);
  }

  /** Answers a request under the endpoint and returns true, or returns false for any other request. */
  return async function handle(request: IncomingMessage, response: ServerResponse): Promise<boolean> {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const path = url.pathname;
    if (path === endpoint && request.method === 'POST') await book(request, response);
    else if (path === `${endpoint}/slots` && (request.method === 'GET' || request.method === 'HEAD')) {
      await loaded;
      await slots(response, url.searchParams);
    } else if (path === `${endpoint}/calendar.ics` && request.method === 'GET') await calendar(request, response, url.searchParams);
    else if (path === endpoint) sendJson(response, 405, { error: 'method_not_allowed' }, { allow: 'POST' });
    else if (path === `${endpoint}/slots` || path === `${endpoint}/calendar.ics`) sendJson(response, 405, { error: 'method_not_allowed' }, { allow: 'GET' });
    else if (path.startsWith(`${endpoint}/`)) sendJson(response, 404, { error: 'not_found' });
    else return false;
    return true;
  };
}

/**
 * The booking handler of a site as `site serve` runs it, or undefined when the site books
 * through an external provider (`booking.url`). The calendar file's words are the messages
 * `booking.calendarSummary` and `booking.calendarDescription` of the booking's locale.
 */
export async function createSiteBookingHandler(config: ResolvedConfig, options: { trustProxy?: boolean } = {}): Promise<ReturnType<typeof createBookingHandler> | undefined> {
  if (config.booking.url) return undefined;
  // The build has checked the messages; a problem here leaves the calendar file with the site's name.
  const messages = await loadMessages(config, createDiagnostics());
  const message = (locale: string, key: string) =>
    lookupMessage(messages[locale] ?? messages[config.site.defaultLocale] ?? {}, key, { company: config.site.name, minutes: config.booking.minutes }) ?? config.site.name;
  return createBookingHandler({
    endpoint: config.booking.endpoint,
    rules: slotRulesOf(config),
    days: config.booking.days,
    dataDir: config.dirs.data,
    allowedOrigins: [config.site.origin],
    trustProxy: options.trustProxy,
    resultPage: (locale, outcome) => urlsOf(config).bookingResult(outcome, locale),
    calendarText: (locale) => ({ summary: message(locale, 'booking.calendarSummary'), description: message(locale, 'booking.calendarDescription') }),
    domain: new URL(config.site.origin).hostname,
    organizer: config.company.email,
  });
}

/** The bookings already stored; a line cut short by a crash is skipped. */
async function loadBookings(file: string): Promise<StoredBooking[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const bookings: StoredBooking[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const record = JSON.parse(line) as Partial<StoredBooking>;
      if (typeof record.id === 'string' && typeof record.start === 'string' && typeof record.end === 'string') {
        bookings.push({ id: record.id, start: record.start, end: record.end, locale: typeof record.locale === 'string' ? record.locale : 'en', bookedAt: typeof record.bookedAt === 'string' ? record.bookedAt : record.start });
      }
    } catch {
      // A torn line was never acknowledged: nobody was told it was booked.
    }
  }
  return bookings;
}

function cookieOf(request: IncomingMessage, name: string): string | undefined {
  for (const part of String(request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}
