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
 * data folder, as for contact submissions). A slot that overlaps a booked meeting is taken too.
 *
 * The rules (slot length, opening hours, time zone, days ahead, the calendar file's words, and
 * whether the built-in booking is on at all) are asked for at every request, so a change of the
 * config applies at once; the bookings and the rate limit stay as they are.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { ResolvedConfig } from '../config/load.js';
import { createIcs } from '../booking/ics.js';
import { builtInBookingOf, slotRulesOf, type BuiltInBooking } from '../booking/rules.js';
import { createDiagnostics } from '../diagnostics.js';
import { copyValuesOf, loadMessages, lookupMessage } from '../content/messages.js';
import { urlsOf } from '../routes/urls.js';
import { addDays, dateIn, isDate, listSlots, nextFreeSlots, overlapsBooked, parseInstant, slotAtLocal, slotStartingAt, type BookedTime, type SlotRules } from '../booking/slots.js';
import { validateBooking } from '../islands/booking-schema.js';
import { createJsonLinesStore } from './jsonl-store.js';
import { createRateLimiter } from './rate-limit.js';
import { clientAddress } from './request.js';
import { readSubmission, sendJson, type FormEndpointOptions } from './form-request.js';

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

/** A booking handler: it answers requests under the endpoint (true) and passes on the rest (false). */
export type BookingHandler = (request: IncomingMessage, response: ServerResponse) => Promise<boolean>;

/** Creates the handler; it answers requests under the endpoint of the settings of the moment and passes on the rest. */
export function createBookingHandler(options: BookingHandlerOptions): BookingHandler {
  const now = options.now ?? Date.now;
  const limiter = createRateLimiter({ limit: options.rateLimit ?? 5, windowMs: options.rateWindowMs ?? 60_000, maxKeys: options.maxClients, now });
  const file = join(options.dataDir, bookingsFile);
  const store = createJsonLinesStore(file, { fileSystem: options.fileSystem });
  // Start instant → the booked meeting's time; filled from the file once, then kept in step with every append.
  const taken = new Map<number, BookedTime>();
  const byId = new Map<string, StoredBooking>();
  // The booked times as `listSlots` takes them, made again after a change of `taken`.
  let bookedTimes: BookedTime[] | undefined;
  const loaded = loadBookings(file).then((bookings) => {
    for (const booking of bookings) remember(booking);
  });

  function remember(booking: StoredBooking) {
    const start = parseInstant(booking.start);
    const end = parseInstant(booking.end);
    if (start === undefined || end === undefined) return;
    taken.set(start, { start, end });
    byId.set(booking.id, booking);
    bookedTimes = undefined;
  }

  function forget(booking: StoredBooking) {
    taken.delete(parseInstant(booking.start)!);
    byId.delete(booking.id);
    bookedTimes = undefined;
  }

  const booked = (): readonly BookedTime[] => (bookedTimes ??= [...taken.values()]);

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
    const days = start > end ? 0 : Math.round((Date.parse(end) - Date.parse(start)) / 86_400_000) + 1;
    sendJson(response, 200, { timeZone: rules.timeZone, slots: listSlots(rules, { from: start, days, taken: booked(), now: now() }) });
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
    const checked = validateBooking(fields);
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
    await loaded;
    // Claimed before the first await below: a second request for this slot sees it taken. A
    // meeting booked when slots had another length may cover part of this one.
    if (overlapsBooked(taken.values(), slot.instant, parseInstant(slot.end)!)) {
      finish(409, { error: 'slot_taken', next: nextFreeSlots(rules, slot.instant, nextSlotsOffered, { days: settings.days, taken: booked() }) });
      return;
    }
    const booking: StoredBooking = { id: randomUUID(), start: slot.start, end: slot.end, locale, bookedAt: new Date(time).toISOString() };
    remember(booking);
    try {
      await store.append({ ...booking, ...checked.data, start: slot.start });
    } catch {
      forget(booking);
      finish(503, { error: 'storage_failed' }, { 'retry-after': '60' });
      return;
    }
    const secure = 'encrypted' in request.socket ? '; Secure' : '';
    finish(201, { id: booking.id, start: booking.start, end: booking.end }, {
      'set-cookie': `${cookieName}=${booking.id}; Path=${settings.endpoint}; Max-Age=${settings.days * 86_400}; HttpOnly; SameSite=Lax${secure}`,
    });
  }

  async function calendar(settings: BookingSettings, request: IncomingMessage, response: ServerResponse, query: URLSearchParams) {
    await loaded;
    const id = query.get('id') ?? cookieOf(request, cookieName);
    const booking = id ? byId.get(id) : undefined;
    if (!booking) {
      sendJson(response, 404, { error: 'not_found' });
      return;
    }
    const text = await settings.calendarText(booking.locale);
    const ics = createIcs({
      id: booking.id,
      domain: settings.domain,
      start: parseInstant(booking.start)!,
      end: parseInstant(booking.end)!,
      stamp: Date.parse(booking.bookedAt),
      summary: text.summary,
      description: text.description,
      organizer: settings.organizer,
    });
    response.writeHead(200, {
      'content-type': 'text/calendar; charset=utf-8',
      'content-disposition': `attachment; filename="meeting-${booking.start.slice(0, 10)}.ics"`,
      'cache-control': 'no-store',
    });
    response.end(ics);
  }

  return async function handle(request, response) {
    const settings = options.settings();
    if (!settings) return false;
    const { endpoint } = settings;
    const url = new URL(request.url ?? '/', 'http://localhost');
    const path = url.pathname;
    if (path === endpoint && request.method === 'POST') await book(settings, request, response);
    else if (path === `${endpoint}/slots` && (request.method === 'GET' || request.method === 'HEAD')) {
      await loaded;
      await slots(settings, response, url.searchParams);
    } else if (path === `${endpoint}/calendar.ics` && request.method === 'GET') await calendar(settings, request, response, url.searchParams);
    else if (path === endpoint) sendJson(response, 405, { error: 'method_not_allowed' }, { allow: 'POST' });
    else if (path === `${endpoint}/slots` || path === `${endpoint}/calendar.ics`) sendJson(response, 405, { error: 'method_not_allowed' }, { allow: 'GET' });
    else if (path.startsWith(`${endpoint}/`)) sendJson(response, 404, { error: 'not_found' });
    else return false;
    return true;
  };
}

/** Options of `createSiteBookingHandler`. */
export interface SiteBookingOptions {
  trustProxy?: boolean;
  /** A data folder that does not follow the config (`site serve` checked the one it started with); default: the config's. */
  dataDir?: string;
}

/**
 * The booking handler of a site, following the config of the moment (`currentConfig`: `site
 * dev`'s last good build, `site serve --admin`'s after each save): its rules are derived once per
 * config, and while there is no config, the site has no `booking:`, or it books through an
 * external provider (`booking.url`), every request is passed on. The bookings and the rate limit are kept across
 * changes of the config (a new data folder has its own). The calendar file's words are the
 * messages `booking.calendarSummary` and `booking.calendarDescription` of the booking's locale.
 */
export function createSiteBookingHandler(currentConfig: () => ResolvedConfig | undefined, options: SiteBookingOptions = {}): BookingHandler {
  let derived: { config: ResolvedConfig; settings: BookingSettings } | undefined;
  const settings = (): BookingSettings | undefined => {
    const config = currentConfig();
    const builtIn = config && builtInBookingOf(config);
    if (!config || !builtIn) return undefined;
    if (derived?.config !== config) derived = { config, settings: bookingSettingsOf(config, builtIn) };
    return derived.settings;
  };
  let current: { dataDir: string; handle: BookingHandler } | undefined;
  return (request, response) => {
    const config = currentConfig();
    if (!config || !builtInBookingOf(config)) return Promise.resolve(false);
    const dataDir = options.dataDir ?? config.dirs.data;
    if (current?.dataDir !== dataDir) current = { dataDir, handle: createBookingHandler({ dataDir, trustProxy: options.trustProxy, settings }) };
    return current.handle(request, response);
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
