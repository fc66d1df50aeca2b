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
 * and so is the rate limit. One slot, one booking, decided by the store (src/store/): the booking
 * goes in with one statement that a unique index on the slot's start refuses a second time, so two
 * requests for one slot never both get a 201, whether they reach one process or two servers on one
 * database; a slot that overlaps a booked meeting is taken too. The slots offered are read from
 * the store at each request, so a booking deleted in the inbox frees its slot at once. A database
 * that cannot answer is a 503, and the form keeps what was typed.
 *
 * The rules (slot length, opening hours, time zone, days ahead, the calendar file's words, and
 * whether the built-in booking is on at all) are asked for at every request, so a change of the
 * config applies at once; the rate limit stays as it is.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ResolvedConfig } from '../config/load.js';
import { bookingIcs } from '../booking/ics.js';
import { builtInBookingOf, slotRulesOf, type BuiltInBooking } from '../booking/rules.js';
import { createDiagnostics } from '../diagnostics.js';
import { copyValuesOf, loadMessages, lookupMessage } from '../content/messages.js';
import { urlsOf } from '../routes/urls.js';
import { addDays, dateIn, isDate, listSlots, nextFreeSlots, parseInstant, slotAtLocal, slotStartingAt, type BookedTime, type SlotRules } from '../booking/slots.js';
import { validateBooking } from '../islands/booking-schema.js';
import { StoreUnavailable } from '../store/driver.js';
import type { StoreSource } from '../store/source.js';
import type { BookResult, Store } from '../store/store.js';
import { createRateLimiter } from './rate-limit.js';
import { clientAddress } from './request.js';
import { readSubmission, sendJson, type FormEndpointOptions } from './form-request.js';
import { withPlainPage } from './submission.js';

/** What the booking handler applies at a moment: derived from the config of that moment. */
export interface BookingSettings {
  /** The API's path (booking.endpoint): POST here, slots and the calendar file below it. */
  endpoint: string;
  rules: SlotRules;
  /** How many days ahead slots are offered and may be booked (booking.days). */
  days: number;
  /** Origins whose pages may post (the site's `site.origin`). */
  allowedOrigins?: readonly string[];
  /** Where a plain form POST lands: the booked or failed page of a locale. */
  resultPage(locale: string, outcome: 'booked' | 'failed'): string;
  /** The calendar file's words in a locale: its title and description. */
  calendarText(locale: string): { summary: string; description: string } | Promise<{ summary: string; description: string }>;
  /** The site's host name, for the calendar event's UID. */
  domain: string;
  /** The organiser's e-mail address in the calendar file. */
  organizer?: string;
}

/** Options of the booking handler (`rateLimit` counts booking attempts). */
export interface BookingHandlerOptions extends Omit<FormEndpointOptions, 'allowedOrigins'> {
  /** The settings now, asked at every request; undefined when the built-in booking is off (requests are passed on). */
  settings(): BookingSettings | undefined;
}

/** Free slots offered after a refused (taken) one. */
const nextSlotsOffered = 5;
/** The longest window the slots endpoint answers, in days. */
const maxDaysAsked = 90;
const cookieName = 'site-booking';
const dayMs = 86_400_000;

/** A booking handler: it answers requests under the endpoint (true) and passes on the rest (false). */
export type BookingHandler = (request: IncomingMessage, response: ServerResponse) => Promise<boolean>;

/** Creates the handler; it answers requests under the endpoint of the settings of the moment and passes on the rest. */
export function createBookingHandler(options: BookingHandlerOptions): BookingHandler {
  const now = options.now ?? Date.now;
  const limiter = createRateLimiter({ limit: options.rateLimit ?? 5, windowMs: options.rateWindowMs ?? 60_000, maxKeys: options.maxClients, now });

  /** The meetings booked in the window slots can be offered in (a day's margin either side, for the zone's offset), from the store. */
  async function bookedFrom(store: Store, firstDay: string, days: number): Promise<BookedTime[]> {
    const from = new Date(Date.parse(firstDay) - dayMs).toISOString();
    const to = new Date(Date.parse(firstDay) + (days + 2) * dayMs).toISOString();
    return (await store.takenSlots(from, to)).map((slot) => ({ start: Date.parse(slot.slotStart), end: Date.parse(slot.slotEnd) }));
  }

  async function slots(settings: BookingSettings, response: ServerResponse, query: URLSearchParams) {
    const { rules } = settings;
    const today = dateIn(now(), rules.timeZone);
    const from = query.get('from') ?? today;
    const daysText = query.get('days') ?? String(settings.days);
    if (!isDate(from) || !/^\d{1,3}$/.test(daysText) || Number(daysText) < 1 || Number(daysText) > maxDaysAsked) {
      sendJson(response, 400, { error: 'invalid_query', expected: `from=YYYY-MM-DD&days=1..${maxDaysAsked}` });
      return;
    }
    // Only the bookable window (today and the next booking.days − 1 days) is offered, whatever is asked.
    const lastBookable = addDays(today, settings.days - 1);
    const lastAsked = addDays(from, Number(daysText) - 1);
    const start = from < today ? today : from;
    const end = lastAsked < lastBookable ? lastAsked : lastBookable;
    const days = start > end ? 0 : Math.round((Date.parse(end) - Date.parse(start)) / dayMs) + 1;
    const taken = days > 0 ? await bookedFrom(await options.store.get(), start, days) : [];
    sendJson(response, 200, { timeZone: rules.timeZone, slots: listSlots(rules, { from: start, days, taken, now: now() }) });
  }

  async function book(settings: BookingSettings, request: IncomingMessage, response: ServerResponse) {
    const { rules } = settings;
    const submission = await readSubmission(request, response, { allowedOrigins: settings.allowedOrigins ?? [], trustProxy: options.trustProxy, maxBytes: options.maxBytes ?? 16 * 1024 });
    if (!submission) return;
    const { isForm, locale } = submission;
    const finish = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      if (isForm) {
        response.writeHead(303, { ...headers, location: settings.resultPage(locale, status === 201 ? 'booked' : 'failed'), 'cache-control': 'no-store' });
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
    const checked = validateBooking(withPlainPage(fields));
    if ('fieldErrors' in checked) {
      finish(400, { error: 'invalid_fields', fields: checked.fieldErrors });
      return;
    }
    const slot = slotStartingAt(checked.data.start, rules);
    const time = now();
    if (!slot || slot.instant <= time || dateIn(slot.instant, rules.timeZone) > addDays(dateIn(time, rules.timeZone), settings.days - 1)) {
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
    const { firstName, lastName, email, company, note, page } = checked.data;
    let store: Store;
    let result: BookResult;
    try {
      store = await options.store.get();
      // The database decides, once for every process on it: the slot's row goes in, or it is taken.
      result = await store.book({
        slotStart: new Date(slot.instant).toISOString(),
        slotEnd: new Date(parseInstant(slot.end)!).toISOString(),
        start: slot.start,
        end: slot.end,
        bookedAt: new Date(time).toISOString(),
        firstName,
        lastName,
        email,
        company,
        note,
        locale,
        page,
      });
    } catch {
      finish(503, { error: 'storage_failed' }, { 'retry-after': '60' });
      return;
    }
    if (!result.booked) {
      const today = dateIn(time, rules.timeZone);
      const taken = await bookedFrom(store, today, settings.days).catch(() => []);
      finish(409, { error: 'slot_taken', next: nextFreeSlots(rules, slot.instant, nextSlotsOffered, { days: settings.days, taken }) });
      return;
    }
    const secure = 'encrypted' in request.socket ? '; Secure' : '';
    finish(201, { id: result.id, start: slot.start, end: slot.end }, {
      'set-cookie': `${cookieName}=${result.id}; Path=${settings.endpoint}; Max-Age=${settings.days * 86_400}; HttpOnly; SameSite=Lax${secure}`,
    });
  }

  async function calendar(settings: BookingSettings, request: IncomingMessage, response: ServerResponse, query: URLSearchParams) {
    const id = query.get('id') ?? cookieOf(request, cookieName);
    const booking = id && /^[A-Za-z0-9-]{8,64}$/.test(id) ? await (await options.store.get()).findBooking(id) : undefined;
    if (!booking) {
      sendJson(response, 404, { error: 'not_found' });
      return;
    }
    const text = await settings.calendarText(booking.locale);
    const ics = bookingIcs(booking, settings, text);
    response.writeHead(200, {
      'content-type': 'text/calendar; charset=utf-8',
      'content-disposition': `attachment; filename="meeting-${booking.start.slice(0, 10)}.ics"`,
      'cache-control': 'no-store',
    });
    response.end(ics);
  }

  async function route(settings: BookingSettings, request: IncomingMessage, response: ServerResponse, url: URL, endpoint: string, path: string): Promise<boolean> {
    if (path === endpoint && request.method === 'POST') await book(settings, request, response);
    else if (path === `${endpoint}/slots` && (request.method === 'GET' || request.method === 'HEAD')) await slots(settings, response, url.searchParams);
    else if (path === `${endpoint}/calendar.ics` && request.method === 'GET') await calendar(settings, request, response, url.searchParams);
    else if (path === endpoint) sendJson(response, 405, { error: 'method_not_allowed' }, { allow: 'POST' });
    else if (path === `${endpoint}/slots` || path === `${endpoint}/calendar.ics`) sendJson(response, 405, { error: 'method_not_allowed' }, { allow: 'GET' });
    else if (path.startsWith(`${endpoint}/`)) sendJson(response, 404, { error: 'not_found' });
    else return false;
    return true;
  }

  return async function handle(request, response) {
    const settings = options.settings();
    if (!settings) return false;
    const { endpoint } = settings;
    const url = new URL(request.url ?? '/', 'http://localhost');
    const path = url.pathname;
    try {
      return await route(settings, request, response, url, endpoint, path);
    } catch (error) {
      if (!(error instanceof StoreUnavailable) || response.headersSent) throw error;
      sendJson(response, 503, { error: 'storage_failed' }, { 'retry-after': '60' });
      return true;
    }
  };
}

/** Options of `createSiteBookingHandler`. */
export interface SiteBookingOptions {
  trustProxy?: boolean;
  /** The store bookings are committed to (one per process). */
  store: StoreSource;
}

/**
 * The booking handler of a site, following the config of the moment (`currentConfig`: `site
 * dev`'s last good build, `site serve --admin`'s after each save): its rules are derived once per
 * config, and while there is no config, the site has no `booking:`, or it books through an
 * external provider (`booking.url`), every request is passed on. The rate limit is kept across
 * changes of the config; the bookings are the store's (`options.store`). The calendar file's words are the
 * messages `booking.calendarSummary` and `booking.calendarDescription` of the booking's locale.
 */
export function createSiteBookingHandler(currentConfig: () => ResolvedConfig | undefined, options: SiteBookingOptions): BookingHandler {
  let derived: { config: ResolvedConfig; settings: BookingSettings } | undefined;
  const settings = (): BookingSettings | undefined => {
    const config = currentConfig();
    const builtIn = config && builtInBookingOf(config);
    if (!config || !builtIn) return undefined;
    if (derived?.config !== config) derived = { config, settings: bookingSettingsOf(config, builtIn) };
    return derived.settings;
  };
  const handle = createBookingHandler({ store: options.store, trustProxy: options.trustProxy, settings });
  return (request, response) => {
    const config = currentConfig();
    if (!config || !builtInBookingOf(config)) return Promise.resolve(false);
    return handle(request, response);
  };
}

/** The booking settings of a config. */
function bookingSettingsOf(config: ResolvedConfig, { booking, email }: BuiltInBooking): BookingSettings {
  const urls = urlsOf(config);
  return {
    endpoint: booking.endpoint,
    rules: slotRulesOf(config),
    days: booking.days,
    allowedOrigins: [config.site.origin],
    resultPage: (locale, outcome) => urls.bookingResult(outcome, locale),
    async calendarText(locale) {
      // Read when a calendar file is asked for (rarely): the messages may have changed since the config did.
      // The build has checked them; a problem here leaves the calendar file with the site's name.
      const messages = await loadMessages(config, createDiagnostics());
      const values = { ...copyValuesOf(config), company: config.site.name };
      const message = (key: string) => lookupMessage(messages[locale] ?? messages[config.site.defaultLocale] ?? {}, key, values) ?? config.site.name;
      return { summary: message('booking.calendarSummary'), description: message('booking.calendarDescription') };
    },
    domain: new URL(config.site.origin).hostname,
    organizer: email,
  };
}

function cookieOf(request: IncomingMessage, name: string): string | undefined {
  for (const part of String(request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}
