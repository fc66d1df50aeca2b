/** The company's contact details and opening hours, from the config. */
import type { SiteContext } from 'typed-site/template';
import { companyOf, openingHoursOf } from './site-facts';

/** "Mon–Fri 9:00–17:00 CET", "Man.–fre. kl. 09.00–17.00 CET": the config's hours in the words and clock of the page's messages. */
export function openingHoursText(site: SiteContext): string {
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
    timeZone: hours.timeZone,
  });
  return text.charAt(0).toUpperCase() + text.slice(1);
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
