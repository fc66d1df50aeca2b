/**
 * The engine's forms, the package entry `typed-site/islands`: `ContactForm` and `BookingForm`
 * (islands: a site's template renders them with `Island` of typed-site/template, and the build
 * bundles their client entry from the package's own sources, src/islands/forms/, only for a site
 * whose templates import them), the props each takes, `contactFormProps` and `bookingFormProps`
 * to fill those props in from the page and the config, and the engine's copy of their words.
 * A site with its own templates/islands/ContactForm.tsx (or BookingForm.tsx) keeps its own: an
 * island of the site replaces the engine's of the same name. docs/forms.md is the guide.
 */
import { slotRulesOf } from './booking/rules.js';
import { bookingConfirmationMailed, builtInBookingOf } from './config/booking.js';
import { slotTimes } from './booking/slots.js';
import type { PageProps } from './render/types.js';
import { templateError } from './render/template-diagnostic.js';
import type { BookingFormProps } from './islands/forms/BookingForm.js';
import type { ContactFormProps } from './islands/forms/ContactForm.js';
import { bookingFormText } from './islands/forms/form-copy.js';

export { default as ContactForm, type ContactFormProps } from './islands/forms/ContactForm.js';
export { default as BookingForm, type BookingFormProps } from './islands/forms/BookingForm.js';
export {
  bookingFormText,
  contactFormText,
  formCopy,
  formCopyOf,
  type BookingFormText,
  type ContactFormText,
  type FormCopy,
} from './islands/forms/form-copy.js';

/**
 * The contact form's props for a page: the config's endpoint (`contact.endpoint`), the page's
 * locale and URL, and the config's enquiry types (`contact.types`) with their labels, the messages
 * `contactForm.types.<type>`; `more` adds to them or replaces them (`text`, `subject`, `id`…).
 */
export function contactFormProps(
  { page, site }: Pick<PageProps, 'page' | 'site'>,
  more: Partial<ContactFormProps> = {},
): ContactFormProps {
  const { contact } = site.config;
  const types =
    contact.types.length > 0
      ? Object.fromEntries(contact.types.map((type) => [type, site.t(`contactForm.types.${type}`)]))
      : undefined;
  return { endpoint: contact.endpoint, locale: site.locale, page: page.url, ...(types ? { types } : {}), ...more };
}

/**
 * The booking form's props for a page: the built-in booking's endpoint, time zone, days ahead and
 * a day's start times (`booking:` and company.openingHours), the page's locale, its `intl` and URL;
 * `more` adds to them or replaces them (`contactHref`, `text`, `id`…). A site without the built-in
 * booking (no `booking:`, or `booking.url`) stops the page with a TEMPLATE_REJECTED error.
 */
export function bookingFormProps(
  { page, site }: Pick<PageProps, 'page' | 'site'>,
  more: Partial<BookingFormProps> = {},
): BookingFormProps {
  const { config } = site;
  const builtIn = builtInBookingOf(config);
  if (!builtIn) {
    return templateError('the booking form needs the built-in booking, which this site does not have', {
      hint: 'Add `booking:` (without `url:`) and company.openingHours to site.config.yaml, or link to booking.url instead of rendering BookingForm.',
    });
  }
  const clock = (minutes: number) =>
    `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
  return {
    endpoint: builtIn.booking.endpoint,
    locale: site.locale,
    intl: config.locales[site.locale]?.intl ?? site.locale,
    page: page.url,
    timeZone: builtIn.booking.timeZone,
    days: builtIn.booking.days,
    times: slotTimes(slotRulesOf(config)).map(clock),
    ...more,
    // Only a site that mails the visitor a confirmation may say it will write.
    ...(bookingConfirmationMailed(config)
      ? {}
      : { text: { bookedText: bookingFormText(site.locale).bookedSavedText, ...more.text } }),
  };
}
