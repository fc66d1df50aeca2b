/**
 * Questions the config answers about its built-in booking: whether the site has one (`booking:`
 * without a provider's `url:`, with the company's opening hours), and whether its output answers it
 * on the host it is built for. Here, below everything that reads a config, so the config check
 * (load.ts) and the booking's own rules (booking/rules.ts) ask the same.
 */
import type { BookingConfig, SiteConfig } from './schema.js';

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

/**
 * Whether a booked visitor is mailed a confirmation: `site serve` (the node target) sends one when
 * the config has `notifications.email`; the functions of the static hosts send no mail. Only then
 * may a page promise the meeting's details by e-mail.
 */
export function bookingConfirmationMailed(config: Pick<SiteConfig, 'notifications' | 'output'>): boolean {
  return Boolean(config.notifications?.email) && config.output.target === 'node';
}
