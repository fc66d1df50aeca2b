/**
 * The page a meeting booking sent without JavaScript lands on when it failed: why (the server
 * names it in the fragment, `#failed-taken` …, shown by CSS `:target`), and the booking form
 * again, so the times are right there.
 */
import { Island, type PageProps } from 'typed-site/template';
import BookingForm from '../islands/BookingForm';
import { BookingResult, bookingResultMeta } from '../layout/BookingResult';
import { bookingOf } from '../layout/site-facts';
import { Section } from '../layout/ui';
import { bookingFormProps } from './BookMeeting';

export default function BookingFailed({ page, site }: PageProps) {
  // With an external booking service (`booking.url`) the site has no form of its own to offer again.
  const builtIn = !bookingOf(site).url;
  return (
    <>
      <BookingResult site={site} outcome="failed" />
      {builtIn && (
        <Section id="booking" tone="muted">
          <Island name="BookingForm" component={BookingForm} props={bookingFormProps(page.url, page.audience, site)} />
        </Section>
      )}
    </>
  );
}

export function meta({ site }: PageProps) {
  return bookingResultMeta(site, 'failed');
}
