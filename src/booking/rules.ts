/** The slot rules of a site's built-in booking: its time zone and slot length, the company's opening days and hours. */
import type { SiteConfig } from '../config/schema.js';
import type { SlotRules } from './slots.js';

/** The rules `listSlots` and the booking endpoint apply for `config`. */
export function slotRulesOf(config: Pick<SiteConfig, 'booking' | 'company'>): SlotRules {
  const { days, opens, closes } = config.company.openingHours;
  return { timeZone: config.booking.timeZone, weekdays: days, opens, closes, minutes: config.booking.minutes };
}
