/**
 * The built-in booking's rules, the one copy that `site serve` (serve/booking.ts) and the host
 * functions (targets/runtime/booking-endpoint.ts) both apply, each behind its own adapter:
 *
 * - `GET <endpoint>/slots?from=YYYY-MM-DD&days=N` → `{ timeZone, slots: [{ start, end }] }`, the
 *   free slots of the bookable window only (today and the next `days` − 1 days);
 * - `POST <endpoint>` → 201 `{ id, start, end }` and the booking's cookie; 400 (fields, or a slot
 *   that does not exist, is past or lies beyond the window); 409 `{ next }` when the slot, or part
 *   of it, is taken, with the next free slots of the window; 429; 503 when the store cannot keep it;
 * - `GET <endpoint>/calendar.ics?id=…` (or the cookie) → the booking as an iCalendar file, 404.
 *
 * Refusals come before the client's budget is spent, and the budget before the store is asked.
 * The store decides whether a slot is free (book is one statement that its unique rule decides),
 * so two requests for one slot never both get a 201. No Node APIs here: the functions bundle it.
 */
import { bookingIcs } from '../booking/ics.js';
import {
  addDays,
  dateIn,
  isDate,
  listSlots,
  nextFreeSlots,
  parseInstant,
  slotAtLocal,
  slotStartingAt,
  type BookedTime,
  type SlotRules,
} from '../booking/slots.js';
import { validateBooking } from '../islands/booking-schema.js';
import { honeypotField } from '../islands/contact-schema.js';
import type { NewBooking, Store } from '../store/store.js';
import { spendBudget, storageFailed, withPlainPage, type ClientBudget, type FormAnswer } from './answer.js';

/** What the rules know of a site's booking: from the config of the moment (`site serve`) or baked in at build (the functions). */
export interface BookingTerms {
  /** The API's path (`booking.endpoint`): POST here, slots and the calendar file below it; the cookie's path. */
  endpoint: string;
  rules: SlotRules;
  /** How many days ahead slots are offered and may be booked (`booking.days`). */
  days: number;
  /** The site's host name, for the calendar event's UID. */
  domain: string;
  /** The organiser's e-mail address in the calendar file. */
  organizer?: string;
}

/** What the booking needs of the store. */
export type BookingStore = Pick<Store, 'book' | 'takenSlots' | 'findBooking'>;

/** What a request to the booking API comes with besides itself. */
export interface BookingContext {
  terms: BookingTerms;
  /** The store, opened when it is first needed: a request refused before storage never opens it. */
  store(): Promise<BookingStore>;
  /** The time of the request (epoch ms). */
  now: number;
}

/** The calendar file's words in a locale. */
export interface CalendarText {
  summary: string;
  description: string;
}

/**
 * The booking endpoint's limits, the same in `site serve` and in the host functions: a 16 KB body,
 * 5 booking attempts a minute per client (counted per process, or per running instance of a function).
 */
export const bookingEndpointLimits = { maxBytes: 16 * 1024, rateLimit: 5, rateWindowMs: 60_000 } as const;

/** The cookie a booking sets, naming it for the calendar file. */
export const bookingCookie = 'site-booking';
/** Free slots offered after a refused (taken) one. */
const nextSlotsOffered = 5;
/** The longest window the slots endpoint answers, in days. */
const maxDaysAsked = 90;
const dayMs = 86_400_000;

/** What a request below the endpoint asks for, or the answer that refuses it: `below` is the path after the endpoint's ("", "slots", "calendar.ics"). */
export function routeBooking(below: string, method: string): 'book' | 'slots' | 'calendar' | FormAnswer {
  if (below === '')
    return method === 'POST'
      ? 'book'
      : { status: 405, body: { error: 'method_not_allowed' }, headers: { allow: 'POST' } };
  if (below === 'slots')
    return method === 'GET' || method === 'HEAD'
      ? 'slots'
      : { status: 405, body: { error: 'method_not_allowed' }, headers: { allow: 'GET' } };
  if (below === 'calendar.ics')
    return method === 'GET'
      ? 'calendar'
      : { status: 405, body: { error: 'method_not_allowed' }, headers: { allow: 'GET' } };
  return { status: 404, body: { error: 'not_found' } };
}

/** The days from `first` to `last` (dates), both counted; 0 when `last` is before `first`. */
function daysFrom(first: string, last: string): number {
  return first > last ? 0 : Math.round((Date.parse(last) - Date.parse(first)) / dayMs) + 1;
}

/** The meetings booked in `days` days from `firstDay`, with a day's margin either side for the zone's offset. */
async function bookedFrom(store: BookingStore, firstDay: string, days: number): Promise<BookedTime[]> {
  const from = new Date(Date.parse(firstDay) - dayMs).toISOString();
  const to = new Date(Date.parse(firstDay) + (days + 2) * dayMs).toISOString();
  return (await store.takenSlots(from, to)).map((slot) => ({
    start: Date.parse(slot.slotStart),
    end: Date.parse(slot.slotEnd),
  }));
}

/** The answer to `GET <endpoint>/slots`: the free slots asked for that lie in the bookable window. */
export async function listFreeSlots(
  query: URLSearchParams,
  { terms, store, now }: BookingContext,
): Promise<FormAnswer> {
  const { rules } = terms;
  const today = dateIn(now, rules.timeZone);
  const from = query.get('from') ?? today;
  const daysText = query.get('days') ?? String(terms.days);
  if (!isDate(from) || !/^\d{1,3}$/.test(daysText) || Number(daysText) < 1 || Number(daysText) > maxDaysAsked) {
    return { status: 400, body: { error: 'invalid_query', expected: `from=YYYY-MM-DD&days=1..${maxDaysAsked}` } };
  }
  const lastBookable = addDays(today, terms.days - 1);
  const lastAsked = addDays(from, Number(daysText) - 1);
  const start = from < today ? today : from;
  const days = daysFrom(start, lastAsked < lastBookable ? lastAsked : lastBookable);
  const taken = days > 0 ? await bookedFrom(await store(), start, days) : [];
  return {
    status: 200,
    body: { timeZone: rules.timeZone, slots: listSlots(rules, { from: start, days, taken, now }) },
  };
}

/** What a booking request comes with besides its context. */
export interface BookOptions extends BookingContext {
  /** Who sent it (for the budget). */
  client: string;
  budget: ClientBudget;
  /** Whether it came over HTTPS: the cookie is then `Secure`. */
  secure: boolean;
  /** Told why the store could not keep a booking (the host functions write it to the host's log). */
  reportStoreFailure?(error: unknown): void;
  /**
   * Told of each booking once it is stored, before the answer: `site serve` starts its
   * notifications and returns at once; a host function awaits its webhooks (its host may stop it
   * once it has answered). What it throws is its own: the booking stands.
   */
  booked?(id: string, booking: NewBooking): void | Promise<void>;
}

/** The answer to `POST <endpoint>` with the fields sent (JSON, or a plain form's `date` and `time` instead of `start`). */
export async function bookSlot(fields: Record<string, unknown>, options: BookOptions): Promise<FormAnswer> {
  const { terms, now } = options;
  const { rules } = terms;
  // A bot gets the answer of a success and nothing is stored.
  if (typeof fields[honeypotField] === 'string' && fields[honeypotField] !== '')
    return { status: 201, body: { id: crypto.randomUUID(), start: '', end: '' } };
  const { [honeypotField]: _honeypot, date, time, ...submitted } = fields;
  // A form without script names the slot by its local date and time.
  if (submitted.start === undefined && typeof date === 'string' && typeof time === 'string')
    submitted.start = slotAtLocal(date, time, rules)?.start ?? `${date}T${time}`;
  const checked = validateBooking(withPlainPage(submitted));
  if ('fieldErrors' in checked) return { status: 400, body: { error: 'invalid_fields', fields: checked.fieldErrors } };
  const slot = slotStartingAt(checked.data.start, rules);
  const lastBookable = addDays(dateIn(now, rules.timeZone), terms.days - 1);
  if (!slot || slot.instant <= now || dateIn(slot.instant, rules.timeZone) > lastBookable)
    return { status: 400, body: { error: 'invalid_fields', fields: { start: 'unavailable' } } };
  const refused = spendBudget(options.budget, options.client);
  if (refused) return refused;
  const { firstName, lastName, email, company, note, locale, page } = checked.data;
  let store: BookingStore;
  let result: Awaited<ReturnType<BookingStore['book']>>;
  const booking: NewBooking = {
    slotStart: new Date(slot.instant).toISOString(),
    slotEnd: new Date(parseInstant(slot.end)!).toISOString(),
    start: slot.start,
    end: slot.end,
    bookedAt: new Date(now).toISOString(),
    firstName,
    lastName,
    email,
    company,
    note,
    locale,
    page,
  };
  try {
    store = await options.store();
    result = await store.book(booking);
  } catch (error) {
    options.reportStoreFailure?.(error);
    return storageFailed;
  }
  if (!result.booked) {
    // The next free slots of the window, from the refused one's day; none when the store cannot say which are free.
    const slotDay = dateIn(slot.instant, rules.timeZone);
    const days = daysFrom(slotDay, lastBookable);
    const taken = await bookedFrom(store, slotDay, days).catch(() => undefined);
    return {
      status: 409,
      body: {
        error: 'slot_taken',
        next: taken ? nextFreeSlots(rules, slot.instant, nextSlotsOffered, { days, taken }) : [],
      },
    };
  }
  await Promise.resolve(options.booked?.(result.id, booking)).catch(() => undefined);
  const secure = options.secure ? '; Secure' : '';
  return {
    status: 201,
    body: { id: result.id, start: slot.start, end: slot.end },
    headers: {
      'set-cookie': `${bookingCookie}=${result.id}; Path=${terms.endpoint}; Max-Age=${terms.days * 86_400}; HttpOnly; SameSite=Lax${secure}`,
    },
  };
}

/**
 * Why a booking was refused, as the fragment of the failed page a plain form post lands on
 * (`/book-meeting/failed/#failed-taken`), so that page can say it without script (CSS `:target`):
 * `taken`, booked by someone else first (409); `time`, not a free time of the offered days (a
 * weekend, the past, outside the hours); `fields`, a field missing or wrong; `busy`, the server
 * could not take it now (429, 503).
 */
export function bookingFailureOf(answer: FormAnswer): `failed-${'taken' | 'time' | 'fields' | 'busy'}` {
  if (answer.status === 409) return 'failed-taken';
  if (answer.status !== 400) return 'failed-busy';
  const fields = (answer.body as { fields?: Record<string, string> }).fields ?? {};
  return Object.keys(fields).every((name) => name === 'start') ? 'failed-time' : 'failed-fields';
}

/** Where a plain form post of a booking lands: the booked page, or the failed page with why (`bookingFailureOf`). */
export function bookingResultOf(answer: FormAnswer, pages: { booked: string; failed: string }): string {
  return answer.status === 201 ? pages.booked : `${pages.failed}#${bookingFailureOf(answer)}`;
}

/** The booking id a calendar request names: its `id` parameter, else the booking's cookie in the `Cookie` header. */
export function calendarIdOf(query: URLSearchParams, cookieHeader: string): string | undefined {
  const id = query.get('id');
  if (id !== null) return id;
  for (const part of cookieHeader.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === bookingCookie) return value.join('=');
  }
  return undefined;
}

/** The answer to `GET <endpoint>/calendar.ics`: the booking `id` names as an iCalendar file (times only, nothing about the visitor), or 404. */
export async function bookingCalendar(
  id: string | undefined,
  { terms, store }: BookingContext,
  calendarText: (locale: string) => CalendarText | Promise<CalendarText>,
): Promise<FormAnswer> {
  const booking = id && /^[A-Za-z0-9-]{8,64}$/.test(id) ? await (await store()).findBooking(id) : undefined;
  if (!booking) return { status: 404, body: { error: 'not_found' } };
  return {
    status: 200,
    body: bookingIcs(booking, terms, await calendarText(booking.locale)),
    headers: {
      'content-type': 'text/calendar; charset=utf-8',
      'content-disposition': `attachment; filename="meeting-${booking.start.slice(0, 10)}.ics"`,
      'cache-control': 'no-store',
    },
  };
}
