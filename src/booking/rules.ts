/** The slot rules of a site's built-in booking: its time zone and slot length, the company's opening days and hours. */
import type { BookingConfig, SiteConfig } from '../config/schema.js';
import type { SlotRules } from './slots.js';

/** The built-in booking of a config: its settings and the company's opening hours and e-mail. */
export interface BuiltInBooking {
  booking: BookingConfig;
  openingHours: NonNullable<NonNullable<SiteConfig['company']>['openingHours']>;
  email: string;
}

/**
 * The built-in booking of `config`, or undefined when the site has none: no `booking:`, or a
 * booking provider's page (`booking.url`). The config check (load.ts) has made sure a built-in
 * booking comes with company.openingHours.
 */
export function builtInBookingOf(config: Pick<SiteConfig, 'booking' | 'company'>): BuiltInBooking | undefined {
  const { booking, company } = config;
  if (!booking || booking.url !== undefined || !company?.openingHours) return undefined;
  return { booking, openingHours: company.openingHours, email: company.email };
}

/** The hosts whose functions can answer the built-in booking (`output.functions.booking`). */
export const bookingFunctionTargets = ['netlify', 'cloudflare', 'vercel'] as const;

/**
 * Whether the output of `config` answers its built-in booking: `site serve` does (the node target),
 * and so do the functions of netlify, cloudflare and vercel with `output.functions.booking: true`.
 * Where it is false, a book-meeting page offers the contact form instead, which works on every host.
 */
export function builtInBookingAnswered(config: Pick<SiteConfig, 'booking' | 'company' | 'output'>): boolean {
  if (!builtInBookingOf(config)) return false;
  const { target, functions } = config.output;
  return target === 'node' || (functions.booking && (bookingFunctionTargets as readonly string[]).includes(target));
}

/** The rules `listSlots` and the booking endpoint apply for `config`; throws for a site without the built-in booking. */
export function slotRulesOf(config: Pick<SiteConfig, 'booking' | 'company'>): SlotRules {
  const builtIn = builtInBookingOf(config);
  if (!builtIn) throw new Error('slotRulesOf needs the built-in booking: `booking:` without `url:`, and company.openingHours');
  const { days, opens, closes } = builtIn.openingHours;
  return { timeZone: builtIn.booking.timeZone, weekdays: days, opens, closes, minutes: builtIn.booking.minutes };
}
