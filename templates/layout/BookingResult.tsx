/** The page a booking form sent without JavaScript lands on: booked (with the calendar file) or failed. */
import { bookingConfirmationMailed, type PageMeta, type SiteContext } from 'typed-site/template';
import { bookingOf } from './site-facts';

/** Why a booking sent without script failed, as the server names it (`bookingFailureOf`): taken, not a slot, a field, the server. */
const failureReasons = ['taken', 'time', 'fields', 'busy'] as const;

export function BookingResult({ site, outcome }: { site: SiteContext; outcome: 'booked' | 'failed' }) {
  const { t } = site;
  return (
    <div className="container narrow" role="status">
      <div className={`banner banner-${outcome === 'booked' ? 'success' : 'error'}`}>
        <h1 className="banner-title">{t(`booking.${outcome}Title`)}</h1>
        {outcome === 'booked' ? (
          <p>{t(bookedPageTextKey(site))}</p>
        ) : (
          <>
            {/* The server names why in the fragment (#failed-taken …): that reason shows instead of the general text. */}
            <p className="failed-general">{t('booking.failedText')}</p>
            {failureReasons.map((reason) => (
              <p key={reason} id={`failed-${reason}`} className="failed-reason">
                {t(`booking.failed${reason.charAt(0).toUpperCase()}${reason.slice(1)}`)}
              </p>
            ))}
          </>
        )}
      </div>
      <div className="actions actions-long">
        {/* The server names the booking with a cookie, so this link works without script. */}
        {outcome === 'booked' && (
          <a className="button button-primary" href={`${bookingOf(site).endpoint}/calendar.ics`} download="meeting.ics">
            {t('booking.calendar')}
          </a>
        )}
        {outcome === 'failed' && (
          <a className="button button-primary" href="#booking">
            {t('booking.chooseAgain')}
          </a>
        )}
        <a className="button button-secondary" href={site.href('/contactus')}>
          {t('booking.writeInstead')}
        </a>
      </div>
    </div>
  );
}

/** Title and description of a result page. */
export function bookingResultMeta(site: SiteContext, outcome: 'booked' | 'failed'): PageMeta {
  return {
    title: site.t(`booking.${outcome}Title`),
    description: site.t(outcome === 'booked' ? bookedPageTextKey(site) : 'booking.failedText'),
  };
}

/** The booked page's words: they promise the meeting's details by e-mail only when the server sends them (`notifications.email` on `site serve`). */
function bookedPageTextKey(site: SiteContext): string {
  return bookingConfirmationMailed(site.config) ? 'booking.bookedPageText' : 'booking.bookedPageTextNoEmail';
}
