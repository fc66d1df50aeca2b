/** Book a 30-minute meeting: agenda, opening hours, the external booking link and a way to write instead. */
import { localBusiness, type PageProps } from 'site/template';
import { openingHoursText } from '../layout/CompanyDetails';
import { audienceBase } from '../layout/paths';
import { hero, meta, text, z } from '../layout/schemas';
import { ButtonLink, Hero, Section } from '../layout/ui';

export const content = z.strictObject({
  ...meta,
  hero,
  agenda: z.strictObject({ heading: text, items: z.array(text).min(1) }),
  hours: z.strictObject({ heading: text, text }),
  bookCta: text,
  contactPrompt: text,
  contactCta: text,
});
type Content = z.infer<typeof content>;

export default function BookMeeting({ page, content, site }: PageProps<Content>) {
  const base = audienceBase(page, site);
  return (
    <>
      <Hero eyebrow={content.hero.eyebrow} heading={content.hero.heading} lead={content.hero.lead}>
        <ButtonLink href={site.config.booking.url} rel="noopener">{content.bookCta}</ButtonLink>
      </Hero>
      <Section>
        <div className="split">
          <div>
            <h2>{content.agenda.heading}</h2>
            <ul className="checklist">
              {content.agenda.items.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          </div>
          <aside className="card meeting-card" aria-labelledby="hours-heading">
            <h2 id="hours-heading">{content.hours.heading}</h2>
            <p className="meeting-hours">{openingHoursText(site)}</p>
            <ButtonLink href={site.config.booking.url} rel="noopener">{content.bookCta}</ButtonLink>
            <p className="meeting-contact">
              {content.contactPrompt} <a href={site.href(`${base}/contactus`)}>{content.contactCta}</a>
            </p>
          </aside>
        </div>
      </Section>
    </>
  );
}

export function structuredData({ page, site }: PageProps<Content>) {
  return [localBusiness(site.config, site.config.site.origin + page.url)];
}
