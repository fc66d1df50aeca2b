/**
 * The built-in booking on the web `Request`/`Response` API, as the host functions run it: the
 * same API as `site serve`'s (serve/booking.ts), kept by the store on whatever database the host
 * gives the function (D1 on Cloudflare, Postgres elsewhere):
 *
 * - `GET <endpoint>/slots?from=YYYY-MM-DD&days=N` → `{ timeZone, slots }`, the free slots only;
 * - `POST <endpoint>` → 201 `{ id, start, end }`, 400, 409 `{ next }` when the slot is taken, 429,
 *   503 when the database cannot be reached; a plain form POST is answered with a 303 to the
 *   booked or failed page of its language;
 * - `GET <endpoint>/calendar.ics?id=…` → the booking as an iCalendar file.
 *
 * One slot, one booking, across every instance of the function: the store's `book` is one
 * statement that the schema's unique rule decides. The rules (slot length, opening hours, time
 * zone, days ahead) and the calendar file's words are the config's and messages' at build time.
 *
 * Web APIs only: bundled into the functions.
 */
import { bookingIcs } from '../../booking/ics.js';
import { addDays, dateIn, isDate, listSlots, nextFreeSlots, parseInstant, slotAtLocal, slotStartingAt, type BookedTime, type SlotRules } from '../../booking/slots.js';
import { validateBooking } from '../../islands/booking-schema.js';
import { honeypotField } from '../../islands/contact-schema.js';
import { createRateLimiter } from '../../serve/rate-limit.js';
import { withPlainPage } from '../../serve/submission.js';
import type { Store } from '../../store/store.js';
import { jsonResponse, logToHost, readWebForm, type HostContext, type WebHandler } from './web-endpoint.js';

/** What the build writes into the booking function (JSON, from the config and the messages). */
export interface BookingEndpointSettings {
  /** "booking": the function's name. */
  name: string;
  /** The API's path (`booking.endpoint`): POST here, slots and the calendar file below it. */
  path: string;
  maxBytes: number;
  /** Booking attempts per client per window, in one running instance of the function. */
  rateLimit: number;
  rateWindowMs: number;
  allowedOrigins: string[];
  /** Where a plain form POST lands, per locale; unknown locales get the default's. */
  resultPages: Record<string, { booked: string; failed: string }>;
  defaultLocale: string;
  rules: SlotRules;
  /** How many days ahead slots are offered and may be booked (`booking.days`). */
  days: number;
  /** The site's host name, for the calendar event's UID. */
  domain: string;
  organizer?: string;
  /** The calendar file's words per locale. */
  calendarText: Record<string, { summary: string; description: string }>;
  /** Where the database is: the variable of its URL (Netlify, Vercel) and the D1 binding (Cloudflare). */
  database: { urlEnv: string; d1Binding: string };
}

/** What the booking function needs of the store. */
export type BookingStore = Pick<Store, 'book' | 'takenSlots' | 'findBooking'>;

/**
 * Opens the store of a request's environment; called once per running instance of the function
 * (again after a failure). It throws a `StoreUnavailable` for a database that is missing or down.
 */
export type OpenBookingStore = (env: Record<string, unknown>, settings: BookingEndpointSettings) => Promise<BookingStore>;

/** Options that tests set; a deployed function uses the defaults. */
export interface BookingEndpointOptions {
  now?: () => number;
}

/** Free slots offered after a refused (taken) one. */
const nextSlotsOffered = 5;
/** The longest window the slots endpoint answers, in days. */
const maxDaysAsked = 90;
const cookieName = 'site-booking';
const day = 86_400_000;

/** Creates the handler of the booking endpoint and the paths below it. */
export function createBookingEndpoint(settings: BookingEndpointSettings, open: OpenBookingStore, options: BookingEndpointOptions = {}): WebHandler {
  const now = options.now ?? Date.now;
  const limiter = createRateLimiter({ limit: settings.rateLimit, windowMs: settings.rateWindowMs, now });
  const { rules } = settings;
  let opened: Promise<BookingStore> | undefined;

  // One store per running instance, opened by its first request (migrations included); a
  // failure is not kept, so the next request tries again.
  function storeOf(env: Record<string, unknown>): Promise<BookingStore> {
    opened ??= open(env, settings).catch((error: unknown) => {
      opened = undefined;
      throw error;
    });
    return opened;
  }

  /** The booked times that overlap the days from `from`, for `days` days (a day's margin each side for zone offsets). */
  async function bookedTimes(store: BookingStore, from: string, days: number): Promise<BookedTime[]> {
    const start = new Date(Date.parse(from) - day).toISOString();
    const end = new Date(Date.parse(from) + (days + 1) * day).toISOString();
    return (await store.takenSlots(start, end)).map(({ slotStart, slotEnd }) => ({ start: Date.parse(slotStart), end: Date.parse(slotEnd) }));
  }

  async function slots(request: Request, context: HostContext): Promise<Response> {
    const query = new URL(request.url).searchParams;
    const today = dateIn(now(), rules.timeZone);
    const from = query.get('from') ?? today;
    const daysText = query.get('days') ?? String(settings.days);
    if (!isDate(from) || !/^\d{1,3}$/.test(daysText) || Number(daysText) < 1 || Number(daysText) > maxDaysAsked) {
      return jsonResponse(400, { error: 'invalid_query', expected: `from=YYYY-MM-DD&days=1..${maxDaysAsked}` });
    }
    // Only the bookable window (today and the next booking.days − 1 days) is offered, whatever is asked.
    const lastBookable = addDays(today, settings.days - 1);
    const lastAsked = addDays(from, Number(daysText) - 1);
    const start = from < today ? today : from;
    const end = lastAsked < lastBookable ? lastAsked : lastBookable;
    const days = start > end ? 0 : Math.round((Date.parse(end) - Date.parse(start)) / day) + 1;
    const taken = days ? await bookedTimes(await storeOf(context.env), start, days) : [];
    return jsonResponse(200, { timeZone: rules.timeZone, slots: listSlots(rules, { from: start, days, taken, now: now() }) });
  }

  async function book(request: Request, context: HostContext): Promise<Response> {
    const read = await readWebForm(request, settings);
    if (read instanceof Response) return read;
    const { fields: submitted, isForm } = read;
    const locale = typeof submitted.locale === 'string' && settings.resultPages[submitted.locale] ? submitted.locale : settings.defaultLocale;
    const finish = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      isForm ? new Response(null, { status: 303, headers: { ...headers, location: settings.resultPages[locale]![status === 201 ? 'booked' : 'failed'], 'cache-control': 'no-store' } }) : jsonResponse(status, body, headers);
    if (typeof submitted[honeypotField] === 'string' && submitted[honeypotField] !== '') return finish(201, { id: crypto.randomUUID(), start: '', end: '' });
    const { [honeypotField]: _honeypot, date, time: clock, ...fields } = submitted;
    // A form without script names the slot by its local date and time.
    if (fields.start === undefined && typeof date === 'string' && typeof clock === 'string') fields.start = slotAtLocal(date, clock, rules)?.start ?? `${date}T${clock}`;
    const checked = validateBooking(withPlainPage(fields));
    if ('fieldErrors' in checked) return finish(400, { error: 'invalid_fields', fields: checked.fieldErrors });
    const slot = slotStartingAt(checked.data.start, rules);
    const time = now();
    if (!slot || slot.instant <= time || dateIn(slot.instant, rules.timeZone) > addDays(dateIn(time, rules.timeZone), settings.days - 1)) {
      return finish(400, { error: 'invalid_fields', fields: { start: 'unavailable' } });
    }
    const wait = limiter.retryAfter(context.client);
    if (wait > 0) return finish(429, { error: 'too_many_requests' }, { 'retry-after': String(Math.ceil(wait / 1000)) });
    limiter.hit(context.client);
    const end = parseInstant(slot.end)!;
    let store: BookingStore;
    let result: Awaited<ReturnType<BookingStore['book']>>;
    try {
      store = await storeOf(context.env);
      result = await store.book({
        slotStart: new Date(slot.instant).toISOString(),
        slotEnd: new Date(end).toISOString(),
        start: slot.start,
        end: slot.end,
        bookedAt: new Date(time).toISOString(),
        firstName: checked.data.firstName,
        lastName: checked.data.lastName,
        email: checked.data.email,
        company: checked.data.company,
        note: checked.data.note,
        locale: checked.data.locale,
        // The page it was sent from, a plain path of the site or none, as site serve keeps it.
        page: checked.data.page,
      });
    } catch (error) {
      logToHost(`${settings.path}: the booking could not be stored: ${error instanceof Error ? error.message : String(error)}`);
      return finish(503, { error: 'storage_failed' }, { 'retry-after': '60' });
    }
    if (!result.booked) {
      const taken = await bookedTimes(store, dateIn(slot.instant, rules.timeZone), settings.days).catch(() => undefined);
      return finish(409, { error: 'slot_taken', next: taken ? nextFreeSlots(rules, slot.instant, nextSlotsOffered, { days: settings.days, taken }) : [] });
    }
    const secure = new URL(request.url).protocol === 'https:' ? '; Secure' : '';
    return finish(201, { id: result.id, start: slot.start, end: slot.end }, {
      'set-cookie': `${cookieName}=${result.id}; Path=${settings.path}; Max-Age=${settings.days * 86_400}; HttpOnly; SameSite=Lax${secure}`,
    });
  }

  async function calendar(request: Request, context: HostContext): Promise<Response> {
    const id = new URL(request.url).searchParams.get('id') ?? cookieOf(request, cookieName);
    const booking = id ? await (await storeOf(context.env)).findBooking(id) : undefined;
    if (!booking) return jsonResponse(404, { error: 'not_found' });
    const text = settings.calendarText[booking.locale] ?? settings.calendarText[settings.defaultLocale] ?? { summary: settings.domain, description: '' };
    const ics = bookingIcs(booking, settings, text);
    return new Response(ics, {
      status: 200,
      headers: { 'content-type': 'text/calendar; charset=utf-8', 'content-disposition': `attachment; filename="meeting-${booking.start.slice(0, 10)}.ics"`, 'cache-control': 'no-store' },
    });
  }

  return async function handle(request, context) {
    // Routed by the end of the path: a host may hand the function the path it was rewritten to
    // (Netlify: /.netlify/functions/booking/slots) rather than the one the visitor asked for.
    const path = new URL(request.url).pathname.replace(/\/+$/, '');
    const below = path.endsWith('/slots') ? 'slots' : path.endsWith('/calendar.ics') ? 'calendar' : '';
    const reading = request.method === 'GET' || request.method === 'HEAD';
    try {
      if (below === 'slots') return reading ? await slots(request, context) : jsonResponse(405, { error: 'method_not_allowed' }, { allow: 'GET' });
      if (below === 'calendar') return reading ? await calendar(request, context) : jsonResponse(405, { error: 'method_not_allowed' }, { allow: 'GET' });
      return request.method === 'POST' ? await book(request, context) : jsonResponse(405, { error: 'method_not_allowed' }, { allow: 'POST' });
    } catch (error) {
      // The store could not be opened or read (a missing binding or variable, a database down):
      // 503, and the host's log says why. The booking form offers the contact form then.
      logToHost(`${settings.path}: ${error instanceof Error ? error.message : String(error)}`);
      return jsonResponse(503, { error: 'storage_failed' }, { 'retry-after': '60' });
    }
  };
}

function cookieOf(request: Request, name: string): string | undefined {
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}
