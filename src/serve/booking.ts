/**
 * The built-in meeting booking's server side in `site serve` (used when `booking.url` is not set):
 * the adapter between Node's http and the booking's rules (forms/booking.ts, the same ones the
 * host functions apply): the slots, a booking (JSON, or a plain form POST answered with a 303 to
 * the localized booked or failed page, the latter with why: `bookingResultOf`), the calendar file. The front checks (origin, media type,
 * size) are the contact form's (`readSubmission`). The bookings are the store's (src/store/): one
 * slot, one booking, whether requests reach one process or two servers on one database; the
 * slots offered are read from it at each request, so a booking deleted in the inbox frees its
 * slot at once. A database that cannot answer is a 503, and the form keeps what was typed.
 *
 * The rules (slot length, opening hours, time zone, days ahead, the calendar file's words, and
 * whether the built-in booking is on at all) are asked for at every request, so a change of the
 * config applies at once; the rate limit (per process) stays as it is.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ResolvedConfig } from '../config/load.js';
import { slotRulesOf } from '../booking/rules.js';
import { builtInBookingOf, type BuiltInBooking } from '../config/booking.js';
import { storageFailed } from '../forms/answer.js';
import {
  bookingCalendar,
  bookingEndpointLimits,
  bookingResultOf,
  bookSlot,
  calendarIdOf,
  listFreeSlots,
  routeBooking,
  type BookingTerms,
  type CalendarText,
} from '../forms/booking.js';
import type { Notifier } from '../notify/notifier.js';
import { loadSiteWords } from '../notify/site-words.js';
import { urlsOf } from '../routes/urls.js';
import { StoreUnavailable } from '../store/driver.js';
import type { StoreSource } from '../store/source.js';
import { createRateLimiter } from './rate-limit.js';
import { clientAddress } from './request.js';
import { readSubmission, sendAnswer, sendSubmissionAnswer, type FormEndpointOptions } from './form-request.js';

/** What the booking handler applies at a moment: derived from the config of that moment. */
export interface BookingSettings extends BookingTerms {
  /** Origins whose pages may post (the site's `site.origin`). */
  allowedOrigins?: readonly string[];
  /** Where a plain form POST lands: the booked or failed page of a locale. */
  resultPage(locale: string, outcome: 'booked' | 'failed'): string;
  /** The calendar file's words in a locale: its title and description. */
  calendarText(locale: string): CalendarText | Promise<CalendarText>;
}

/** Options of the booking handler (`rateLimit` counts booking attempts). */
export interface BookingHandlerOptions extends Omit<FormEndpointOptions, 'allowedOrigins'> {
  /** The settings now, asked at every request; undefined when the built-in booking is off (requests are passed on). */
  settings(): BookingSettings | undefined;
  /** Told of each stored booking (notify/notifier.ts); the answer does not wait for it. */
  notifier?: Pick<Notifier, 'booking'>;
}

/** A booking handler: it answers requests under the endpoint (true) and passes on the rest (false). */
export type BookingHandler = (request: IncomingMessage, response: ServerResponse) => Promise<boolean>;

/** Creates the handler; it answers requests under the endpoint of the settings of the moment and passes on the rest. */
export function createBookingHandler(options: BookingHandlerOptions): BookingHandler {
  const now = options.now ?? Date.now;
  const budget = createRateLimiter({
    limit: options.rateLimit ?? bookingEndpointLimits.rateLimit,
    windowMs: options.rateWindowMs ?? bookingEndpointLimits.rateWindowMs,
    maxKeys: options.maxClients,
    now,
  });
  const store = () => options.store.get();

  async function book(settings: BookingSettings, request: IncomingMessage, response: ServerResponse) {
    const submission = await readSubmission(request, response, {
      allowedOrigins: settings.allowedOrigins ?? [],
      trustProxy: options.trustProxy,
      maxBytes: options.maxBytes ?? bookingEndpointLimits.maxBytes,
    });
    if (!submission) return;
    const answer = await bookSlot(submission.fields, {
      terms: settings,
      store,
      now: now(),
      client: clientAddress(request, options),
      budget,
      secure: 'encrypted' in request.socket,
      booked: (id, booking) => void options.notifier?.booking(id, booking),
    });
    sendSubmissionAnswer(response, answer, submission, () =>
      bookingResultOf(answer, {
        booked: settings.resultPage(submission.locale, 'booked'),
        failed: settings.resultPage(submission.locale, 'failed'),
      }),
    );
  }

  async function route(
    settings: BookingSettings,
    request: IncomingMessage,
    response: ServerResponse,
    url: URL,
    below: string,
  ) {
    const asked = routeBooking(below, request.method ?? 'GET');
    if (asked === 'book') return book(settings, request, response);
    const context = { terms: settings, store, now: now() };
    if (asked === 'slots') return sendAnswer(response, await listFreeSlots(url.searchParams, context));
    if (asked === 'calendar')
      return sendAnswer(
        response,
        await bookingCalendar(
          calendarIdOf(url.searchParams, String(request.headers.cookie ?? '')),
          context,
          settings.calendarText,
        ),
      );
    sendAnswer(response, asked);
  }

  return async function handle(request, response) {
    const settings = options.settings();
    if (!settings) return false;
    const { endpoint } = settings;
    const url = new URL(request.url ?? '/', 'http://localhost');
    const path = url.pathname;
    if (path !== endpoint && !path.startsWith(`${endpoint}/`)) return false;
    try {
      await route(settings, request, response, url, path.slice(endpoint.length + 1));
    } catch (error) {
      if (!(error instanceof StoreUnavailable) || response.headersSent) throw error;
      sendAnswer(response, storageFailed);
    }
    return true;
  };
}

/** Options of `createSiteBookingHandler`. */
export interface SiteBookingOptions {
  trustProxy?: boolean;
  /** The store bookings are committed to (one per process). */
  store: StoreSource;
  /** Told of each stored booking. */
  notifier?: Pick<Notifier, 'booking'>;
}

/**
 * The booking handler of a site, following the config of the moment (`currentConfig`: `site
 * dev`'s last good build, `site serve --admin`'s after each save): its rules are derived once per
 * config, and while there is no config, the site has no `booking:`, or it books through an
 * external provider (`booking.url`), every request is passed on. The rate limit is kept across
 * changes of the config; the bookings are the store's (`options.store`). The calendar file's words are the
 * messages `booking.calendarSummary` and `booking.calendarDescription` of the booking's locale.
 */
export function createSiteBookingHandler(
  currentConfig: () => ResolvedConfig | undefined,
  options: SiteBookingOptions,
): BookingHandler {
  let derived: { config: ResolvedConfig; settings: BookingSettings } | undefined;
  const settings = (): BookingSettings | undefined => {
    const config = currentConfig();
    const builtIn = config && builtInBookingOf(config);
    if (!config || !builtIn) return undefined;
    if (derived?.config !== config) derived = { config, settings: bookingSettingsOf(config, builtIn) };
    return derived.settings;
  };
  const handle = createBookingHandler({
    store: options.store,
    trustProxy: options.trustProxy,
    settings,
    notifier: options.notifier,
  });
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
    // Read when a calendar file is asked for (rarely): the messages may have changed since the config did.
    calendarText: async (locale) => (await loadSiteWords(config)).calendar(locale),
    domain: new URL(config.site.origin).hostname,
    organizer: email,
  };
}
