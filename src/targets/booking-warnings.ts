/**
 * Why a build's book-meeting pages offer the contact form instead of the built-in booking, said
 * once per build: a static host with no booking function. Pure: from the config alone.
 */
import { bookingFunctionTargets, builtInBookingOf } from '../config/booking.js';
import type { ResolvedConfig } from '../config/load.js';
import { SiteError } from '../errors.js';

/** The warning of a config whose output cannot answer its built-in booking, or whose booking switch does nothing. */
export function bookingWarnings(config: ResolvedConfig): SiteError[] {
  const { target, functions } = config.output;
  if (target === 'node') return [];
  const builtIn = builtInBookingOf(config);
  const warning = (field: string, message: string, hint: string) => [
    new SiteError({ code: 'BOOKING_FALLBACK', severity: 'warning', file: config.file, field, message, hint }),
  ];
  if (!builtIn) {
    if (!functions.booking || !config.booking) return [];
    return warning(
      'output.functions.booking',
      'output.functions.booking is on, but the site books through booking.url: no booking function is written',
      'Remove output.functions.booking, or remove booking.url to offer the built-in booking.',
    );
  }
  if (!(bookingFunctionTargets as readonly string[]).includes(target)) {
    return warning(
      'booking',
      `GitHub Pages runs no functions, so the book-meeting pages offer the contact form instead of the built-in booking`,
      "Set booking.url to a booking provider's page, or publish on netlify, cloudflare or vercel with output.functions.booking: true.",
    );
  }
  if (functions.booking) return [];
  const database =
    target === 'cloudflare'
      ? `a D1 database bound as ${functions.d1Binding}`
      : `the postgres:// URL of a database in the host's variable ${functions.databaseUrlEnv}`;
  return warning(
    'booking',
    `the book-meeting pages offer the contact form instead of the built-in booking: the ${target} target answers the booking only with a booking function`,
    `Set output.functions.booking: true and give the function ${database} (see docs/deploying.md, "Booking on a static host"); or set booking.url to a booking provider's page.`,
  );
}
