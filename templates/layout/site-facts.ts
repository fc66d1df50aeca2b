/**
 * The config facts the Mendwise templates rely on. The engine makes `company` and `booking`
 * optional; this site has both, and a template that shows them says so plainly when one is missing.
 */
import type { SiteContext } from 'typed-site/template';

type Config = SiteContext['config'];

/** The company facts; throws when site.config.yaml has no `company:`. */
export function companyOf(site: Pick<SiteContext, 'config'>): NonNullable<Config['company']> {
  const { company } = site.config;
  if (!company) throw new Error('this template shows the company: add company: to site.config.yaml');
  return company;
}

/** The company's opening hours; throws when site.config.yaml has no company.openingHours. */
export function openingHoursOf(
  site: Pick<SiteContext, 'config'>,
): NonNullable<NonNullable<Config['company']>['openingHours']> {
  const hours = companyOf(site).openingHours;
  if (!hours) throw new Error('this template shows the opening hours: add company.openingHours to site.config.yaml');
  return hours;
}

/** The booking settings; throws when site.config.yaml has no `booking:`. */
export function bookingOf(site: Pick<SiteContext, 'config'>): NonNullable<Config['booking']> {
  const { booking } = site.config;
  if (!booking) throw new Error('this template books meetings: add booking: to site.config.yaml');
  return booking;
}
