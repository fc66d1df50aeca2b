/** The page a meeting booking sent without JavaScript lands on when it was failed. */
import type { PageProps } from 'typed-site/template';
import { BookingResult, bookingResultMeta } from '../layout/BookingResult';

export default function BookingFailed({ site }: PageProps) {
  return <BookingResult site={site} outcome="failed" />;
}

export function meta({ site }: PageProps) {
  return bookingResultMeta(site, 'failed');
}
