/**
 * Book a meeting (booking.minutes long): agenda and opening hours, and either the external booking link
 * (`booking.url`) or the built-in booking form, with a way to write instead. The booking form
 * needs a server that keeps one booking per slot: `site serve`, or a static host's booking function
 * (`output.functions.booking`); where there is none (GitHub Pages, or a host without the function)
 * the page shows the contact form with the meeting as its subject instead, which works there.
 */
import {
  bookingConfirmationMailed,
  builtInBookingAnswered,
  localBusiness,
  slotRulesOf,
  slotTimes,
  type PageProps,
} from 'typed-site/template';
import BookingForm, { type BookingFormProps } from '../islands/BookingForm';
import ContactForm from '../islands/ContactForm';
import { openingHoursText } from '../layout/CompanyDetails';
import { Island } from 'typed-site/template';
import { audienceBase } from '../layout/paths';
import { bookingOf } from '../layout/site-facts';
import { hero, meta, text, z } from '../layout/schemas';
import { ButtonLink, Hero, Section } from '../layout/ui';
import { contactFormProps } from './Contact';

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
  const external = bookingOf(site).url;
  const bookHref = external ?? '#booking';
  const bookingServer = builtInBookingAnswered(site.config);
  return (
    <>
      <Hero eyebrow={content.hero.eyebrow} heading={content.hero.heading} lead={content.hero.lead}>
        <ButtonLink href={bookHref} rel={external ? 'noopener' : undefined}>
          {content.bookCta}
        </ButtonLink>
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
            {external && (
              <ButtonLink href={external} rel="noopener">
                {content.bookCta}
              </ButtonLink>
            )}
            <p className="meeting-contact">
              {content.contactPrompt} <a href={site.href(`${base}/contactus`)}>{content.contactCta}</a>
            </p>
          </aside>
        </div>
      </Section>
      {!external && (
        <Section id="booking" tone="muted">
          {bookingServer ? (
            <Island
              name="BookingForm"
              component={BookingForm}
              props={bookingFormProps(page.url, page.audience, site)}
            />
          ) : (
            <Island
              name="ContactForm"
              component={ContactForm}
              props={{
                ...contactFormProps(page.url, page.audience, site),
                subject: site.t('contactForm.meetingSubject'),
              }}
            />
          )}
        </Section>
      )}
    </>
  );
}

/** The booking form's props: labels in the page's language, the endpoint and the slot rules. */
export function bookingFormProps(
  pageUrl: string,
  audience: string | undefined,
  site: PageProps['site'],
): BookingFormProps {
  const { t, config } = site;
  const booking = (key: string) => t(`booking.${key}`);
  const contact = (key: string) => t(`contactForm.${key}`);
  const clock = (minutes: number) =>
    `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
  const contactForm = contactFormProps(pageUrl, audience, site);
  return {
    idPrefix: 'booking',
    endpoint: bookingOf(site).endpoint,
    locale: site.locale,
    page: pageUrl,
    intl: config.locales[site.locale]!.intl,
    timeZone: bookingOf(site).timeZone,
    days: bookingOf(site).days,
    times: slotTimes(slotRulesOf(config)).map(clock),
    labels: {
      legend: booking('legend'),
      day: booking('day'),
      time: booking('time'),
      date: booking('date'),
      timeNoScript: booking('timeNoScript'),
      timesIn: booking('timesIn'),
      yourTime: booking('yourTime'),
      yourZone: booking('yourZone'),
      clock: booking('clock'),
      when: booking('when'),
      slot: booking('slot'),
      firstName: contact('firstName'),
      lastName: contact('lastName'),
      email: contact('email'),
      company: contact('company'),
      note: booking('note'),
      requiredMarker: contact('requiredMarker'),
      requiredNote: contact('requiredNote'),
      submit: booking('submit'),
      sending: booking('sending'),
      honeypot: contact('honeypot'),
      calendar: booking('calendar'),
    },
    messages: {
      loading: booking('loading'),
      waitForSlots: booking('waitForSlots'),
      noSlots: booking('noSlots'),
      chooseSlot: booking('chooseSlot'),
      missingTitle: contact('missingTitle'),
      missingText: contact('missingText'),
      checkTitle: contact('checkTitle'),
      checkText: contact('checkText'),
      required: contact('fieldRequired'),
      invalidEmail: contact('invalidEmail'),
      tooLong: contact('tooLong'),
      takenTitle: booking('takenTitle'),
      takenText: booking('takenText'),
      errorTitle: contact('errorTitle'),
      errorText: booking('errorText'),
      bookedTitle: booking('bookedTitle'),
      // Only a site that mails the visitor a confirmation may promise one.
      bookedText: booking(bookingConfirmationMailed(site.config) ? 'bookedText' : 'bookedTextNoEmail'),
      unavailableTitle: booking('unavailableTitle'),
      unavailableText: booking('unavailableText'),
    },
    contactForm: { ...contactForm, idPrefix: 'booking-contact', subject: contact('meetingSubject') },
  };
}

export function structuredData({ page, site }: PageProps<Content>) {
  return [localBusiness(site.config, site.config.site.origin + page.url)];
}
