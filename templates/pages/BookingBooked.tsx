/** The page a meeting booking sent without JavaScript lands on when it was booked. */
import type { PageProps } from 'typed-site/template';
import { BookingResult, bookingResultMeta } from '../layout/BookingResult';

export default function BookingBooked({ site }: PageProps) {
  return <BookingResult site={site} outcome="booked" />;
}

export function meta({ site }: PageProps) {
  return bookingResultMeta(site, 'booked');
}
