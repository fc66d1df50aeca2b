/** The slot rules of a site's built-in booking: its time zone and slot length, the company's opening days and hours. */
import { builtInBookingOf } from '../config/booking.js';
import type { SiteConfig } from '../config/schema.js';
import type { SlotRules } from './slots.js';

/** The rules `listSlots` and the booking endpoint apply for `config`; throws for a site without the built-in booking. */
export function slotRulesOf(config: Pick<SiteConfig, 'booking' | 'company'>): SlotRules {
  const builtIn = builtInBookingOf(config);
  if (!builtIn)
    throw new Error('slotRulesOf needs the built-in booking: `booking:` without `url:`, and company.openingHours');
  const { days, opens, closes } = builtIn.openingHours;
  return { timeZone: builtIn.booking.timeZone, weekdays: days, opens, closes, minutes: builtIn.booking.minutes };
}
