/**
 * Scheduled entries: a translation dated after today is left out of the site until its day, and
 * appears at the first instant of that day in the site's time zone (`site.timeZone`, UTC unless
 * the config says otherwise). Entries are dated by day, so that instant is 00:00 there (or, in a
 * zone whose clocks skip midnight, the instant they jump to). The instants come from `Intl`, so a
 * summer-time change falls on the right day without hand-made offsets.
 */
import { dateIn, formatZoned, isDate, localInstants } from '../booking/slots.js';

/** A translation left out because its date has not come yet. */
export interface ScheduledTranslation {
  collection: string;
  slug: string;
  locale: string;
  title: string;
  /** Its front matter's ISO date. */
  date: string;
  /** The source file, relative to the working directory. */
  file: string;
}

/** Today's ISO date in `timeZone`: the day up to which dated entries are published. */
export function todayIn(timeZone: string, now: number = Date.now()): string {
  return dateIn(now, timeZone);
}

/** The instant (epoch ms) a translation dated `date` appears: the first instant of that day in `timeZone`. */
export function appearsAt(date: string, timeZone: string): number {
  // A quarter of an hour is the finest step a zone's clocks have ever jumped by.
  for (let minutes = 0; minutes < 24 * 60; minutes += 15) {
    const [first] = localInstants(date, minutes, timeZone);
    if (first !== undefined) return first;
  }
  throw new Error(`${date} has no time in ${timeZone}`);
}

/**
 * When a translation dated `date` appears, in ISO 8601 as the clocks of `timeZone` show it
 * ("2030-06-01T00:00:00+02:00"); undefined when it is shown already (dated `today` or before) or
 * `date` is no date.
 */
export function scheduledAt(date: string, timeZone: string, today: string): string | undefined {
  return isDate(date) && date > today ? formatZoned(appearsAt(date, timeZone), timeZone) : undefined;
}

/** The scheduled translations in the order they appear (by date, then collection, slug and locale). */
export function sortScheduled(list: readonly ScheduledTranslation[]): ScheduledTranslation[] {
  const key = (post: ScheduledTranslation) => [post.date, post.collection, post.slug, post.locale].join('\u0000');
  return [...list].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** One line naming when a scheduled translation appears: `"Title" (blog/slug, en) appears 2030-06-01 00:00 Europe/Oslo (+02:00)`. */
export function describeScheduled(post: ScheduledTranslation, timeZone: string): string {
  const zoned = formatZoned(appearsAt(post.date, timeZone), timeZone);
  return `"${post.title}" (${post.collection}/${post.slug}, ${post.locale}) appears ${zoned.slice(0, 10)} ${zoned.slice(11, 16)} ${timeZone} (${zoned.slice(19)})`;
}
