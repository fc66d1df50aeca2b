/** The company's contact details and opening hours, from the config. */
import type { SiteContext } from 'typed-site/template';
import { companyOf, openingHoursOf } from './site-facts';

/**
 * "Mon–Fri 9:00–17:00 CET/CEST", "Man.–fre. kl. 09.00–17.00 norsk tid": the config's hours in the
 * words and clock of the page's messages. `{timeZone}` is the short name of the hours' zone (an
 * IANA name, company.openingHours.timeZone) on `date`; without one, as a static page needs it
 * all year, its winter and summer names ("CET/CEST"), each from Intl, not written by hand.
 */
export function openingHoursText(site: SiteContext, date?: Date): string {
  const hours = openingHoursOf(site);
  const day = (code: string) => site.t(`weekdays.${code}`);
  const clock = (value: string) => {
    const [hh = '', mm = ''] = value.split(':');
    return site.t('contactDetails.clock', { hh, h: String(Number(hh)), mm });
  };
  const days = hours.days.length > 1 ? `${day(hours.days[0]!)}–${day(hours.days.at(-1)!)}` : day(hours.days[0]!);
  const text = site.t('contactDetails.hoursText', {
    days,
    opens: clock(hours.opens),
    closes: clock(hours.closes),
    timeZone: zoneAbbreviation(hours.timeZone, site.config.locales[site.locale]!.intl, date),
  });
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Dates in the middle of winter and of summer (either hemisphere's), to name a zone's two times. */
const seasons = [new Date('2026-01-15T12:00:00Z'), new Date('2026-07-15T12:00:00Z')];

/** "CEST" for Europe/Oslo in July, "CET/CEST" with no date; a zone Intl does not know is written as given. */
export function zoneAbbreviation(timeZone: string, intl: string, date?: Date): string {
  const name = (at: Date) => {
    try {
      return new Intl.DateTimeFormat(intl, { timeZone, timeZoneName: 'short' })
        .formatToParts(at)
        .find((part) => part.type === 'timeZoneName')!.value;
    } catch {
      return timeZone;
    }
  };
  return [...new Set((date ? [date] : seasons).map(name))].join('/');
}

export function CompanyDetails({ site, heading, text }: { site: SiteContext; heading: string; text: string }) {
  const company = companyOf(site);
  return (
    <aside className="company-details" aria-labelledby="company-details-heading">
      <h2 id="company-details-heading">{heading}</h2>
      <p>{text}</p>
      <dl>
        <div>
          <dt>{site.t('contactDetails.email')}</dt>
          <dd>
            <a href={`mailto:${company.email}`}>{company.email}</a>
          </dd>
        </div>
        <div>
          <dt>{site.t('contactDetails.address')}</dt>
          <dd>
            {company.legalName}, {company.address.street}, {company.address.postalCode} {company.address.city}
          </dd>
        </div>
        {company.orgNumber !== undefined && (
          <div>
            <dt>{site.t('contactDetails.orgNumber')}</dt>
            <dd>{company.orgNumber}</dd>
          </div>
        )}
        <div>
          <dt>{site.t('contactDetails.hours')}</dt>
          <dd>{openingHoursText(site)}</dd>
        </div>
      </dl>
    </aside>
  );
}
