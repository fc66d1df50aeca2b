/**
 * The built-in booking on the web `Request`/`Response` API, as the host functions run it: the
 * adapter between the host's request and the booking's rules (forms/booking.ts, the same ones
 * `site serve` applies), over the store on whatever database the host gives the function (D1 on
 * Cloudflare, Postgres elsewhere): the slots, a booking (a plain form POST is answered with a 303
 * to the booked or failed page of its language, the latter with why: `bookingResultOf`), the calendar file. What stays here is the
 * host's: the request and response, the store opened once per running instance, a rate limit
 * per instance, and the host's log, which says why a database could not answer (503).
 *
 * The rules (slot length, opening hours, time zone, days ahead) and the calendar file's words are
 * the config's and messages' at build time. Web APIs only: bundled into the functions.
 */
import { storageFailed } from '../../forms/answer.js';
import {
  bookingCalendar,
  bookingResultOf,
  bookSlot,
  calendarIdOf,
  listFreeSlots,
  routeBooking,
  type BookingStore,
  type CalendarText,
} from '../../forms/booking.js';
import type { SlotRules } from '../../booking/slots.js';
import { createRateLimiter } from '../../serve/rate-limit.js';
import {
  answerResponse,
  logToHost,
  notifyFromHost,
  readWebForm,
  inLocale,
  submissionResponse,
  type HostContext,
  type HostNotifications,
  type WebHandler,
} from './web-endpoint.js';
import type { WebhookPolicy } from '../../notify/webhooks.js';

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
  /** The calendar file's words per locale; unknown locales get the default's. */
  calendarText: Record<string, CalendarText>;
  /** Where the database is: the variable of its URL (Netlify, Vercel) and the D1 binding (Cloudflare). */
  database: { urlEnv: string; d1Binding: string };
  /** The webhooks of `notifications:` each booking is POSTed to, if any. */
  notify?: HostNotifications;
}

/**
 * Opens the store of a request's environment; called once per running instance of the function
 * (again after a failure). It throws a `StoreUnavailable` for a database that is missing or down.
 */
export type OpenBookingStore = (
  env: Record<string, unknown>,
  settings: BookingEndpointSettings,
) => Promise<BookingStore>;

/** Options that tests set; a deployed function uses the defaults. */
export interface BookingEndpointOptions {
  now?: () => number;
  fetch?: typeof fetch;
  notifyPolicy?: WebhookPolicy;
}

/** Creates the handler of the booking endpoint and the paths below it. */
export function createBookingEndpoint(
  settings: BookingEndpointSettings,
  open: OpenBookingStore,
  options: BookingEndpointOptions = {},
): WebHandler {
  const now = options.now ?? Date.now;
  const budget = createRateLimiter({ limit: settings.rateLimit, windowMs: settings.rateWindowMs, now });
  const terms = {
    endpoint: settings.path,
    rules: settings.rules,
    days: settings.days,
    domain: settings.domain,
    organizer: settings.organizer,
  };
  const calendarText = (locale: string) => inLocale(settings.calendarText, locale, settings.defaultLocale);
  let opened: Promise<BookingStore> | undefined;

  // One store per running instance, opened by its first request that needs it (migrations
  // included); a failure is not kept, so the next request tries again.
  function storeOf(env: Record<string, unknown>): Promise<BookingStore> {
    opened ??= open(env, settings).catch((error: unknown) => {
      opened = undefined;
      throw error;
    });
    return opened;
  }

  async function book(request: Request, context: HostContext): Promise<Response> {
    const read = await readWebForm(request, settings);
    if (read instanceof Response) return read;
    const answer = await bookSlot(read.fields, {
      terms,
      store: () => storeOf(context.env),
      now: now(),
      client: context.client,
      budget,
      secure: new URL(request.url).protocol === 'https:',
      booked: (id, booking) =>
        notifyFromHost(settings.notify, { kind: 'booking', id, fields: booking }, context.env, settings.path, {
          fetch: options.fetch,
          policy: options.notifyPolicy,
        }),
      reportStoreFailure: (error) =>
        logToHost(
          `${settings.path}: the booking could not be stored: ${error instanceof Error ? error.message : String(error)}`,
        ),
    });
    return submissionResponse(answer, read, () =>
      bookingResultOf(answer, inLocale(settings.resultPages, read.fields.locale, settings.defaultLocale)),
    );
  }

  return async function handle(request, context) {
    const url = new URL(request.url);
    const asked = routeBooking(belowOf(url.pathname, settings), request.method);
    const bookingContext = { terms, store: () => storeOf(context.env), now: now() };
    try {
      if (asked === 'book') return await book(request, context);
      if (asked === 'slots') return answerResponse(await listFreeSlots(url.searchParams, bookingContext));
      if (asked === 'calendar')
        return answerResponse(
          await bookingCalendar(
            calendarIdOf(url.searchParams, request.headers.get('cookie') ?? ''),
            bookingContext,
            calendarText,
          ),
        );
      return answerResponse(asked);
    } catch (error) {
      // The store could not be opened or read (a missing binding or variable, a database down):
      // 503, and the host's log says why. The booking form offers the contact form then.
      logToHost(`${settings.path}: ${error instanceof Error ? error.message : String(error)}`);
      return answerResponse(storageFailed);
    }
  };
}

/**
 * The part of a request's path below the booking's ("", "slots", "calendar.ics"). A host may hand
 * the function the path it was rewritten to (Netlify: /.netlify/functions/booking/slots) rather
 * than the one the visitor asked for: there it is what follows the function's name.
 */
function belowOf(pathname: string, settings: Pick<BookingEndpointSettings, 'path' | 'name'>): string {
  const path = pathname.replace(/\/+$/, '');
  if (path === settings.path || path.startsWith(`${settings.path}/`)) return path.slice(settings.path.length + 1);
  const name = `/${settings.name}`;
  const at = path.lastIndexOf(name);
  return at === -1 ? path : path.slice(at + name.length + 1);
}
