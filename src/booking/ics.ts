/**
 * A booked meeting as an iCalendar file (RFC 5545) that calendar apps import: one VEVENT with
 * times in UTC (no time-zone block needed), text escaped, lines folded at 75 octets, CRLF endings.
 */

/** What the calendar file says. */
export interface CalendarEvent {
  /** Unique id of the booking; with `domain` it makes the event's UID. */
  id: string;
  domain: string;
  /** Start and end instants (epoch ms). */
  start: number;
  end: number;
  /** When the booking was made (epoch ms): the event's DTSTAMP. */
  stamp: number;
  summary: string;
  description?: string;
  location?: string;
  /** The organiser's e-mail address. */
  organizer?: string;
}

/** The text of an .ics file holding `event`. */
export function createIcs(event: CalendarEvent): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:-//${escapeText(event.domain)}//booking//EN`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:${escapeText(event.id)}@${escapeText(event.domain)}`,
    `DTSTAMP:${utc(event.stamp)}`,
    `DTSTART:${utc(event.start)}`,
    `DTEND:${utc(event.end)}`,
    `SUMMARY:${escapeText(event.summary)}`,
    ...(event.description ? [`DESCRIPTION:${escapeText(event.description)}`] : []),
    ...(event.location ? [`LOCATION:${escapeText(event.location)}`] : []),
    ...(event.organizer ? [`ORGANIZER:mailto:${event.organizer.replace(/[^\w.@+-]/g, '')}`] : []),
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return lines.map(fold).join('\r\n') + '\r\n';
}

function utc(instant: number): string {
  return new Date(instant)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/** Escapes TEXT values: backslash, semicolon, comma and newlines (RFC 5545 3.3.11). */
function escapeText(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

/** Folds a content line longer than 75 octets, without splitting a UTF-8 character. */
function fold(line: string): string {
  const parts: string[] = [];
  let current = '';
  let size = 0;
  for (const char of line) {
    const bytes = utf8Length(char);
    const limit = parts.length === 0 ? 75 : 74;
    if (size + bytes > limit) {
      parts.push(current);
      current = '';
      size = 0;
    }
    current += char;
    size += bytes;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

/**
 * The UTF-8 length of one character, from its code point: the booking functions of the static
 * hosts make calendar files too, on runtimes without Node's Buffer.
 */
function utf8Length(char: string): number {
  const point = char.codePointAt(0)!;
  return point < 0x80 ? 1 : point < 0x800 ? 2 : point < 0x10000 ? 3 : 4;
}

/** What the calendar file of a stored booking reads of it. */
export interface StoredBookingTimes {
  id: string;
  slotStart: string;
  slotEnd: string;
  bookedAt?: string | null;
}

/**
 * The calendar file of a stored booking, as `site serve` and the host functions send it: the
 * slot, stamped when it was booked, with the site's words for it.
 */
export function bookingIcs(
  booking: StoredBookingTimes,
  site: { domain: string; organizer?: string },
  text: { summary: string; description: string },
): string {
  return createIcs({
    id: booking.id,
    domain: site.domain,
    start: Date.parse(booking.slotStart),
    end: Date.parse(booking.slotEnd),
    stamp: Date.parse(booking.bookedAt ?? booking.slotStart),
    summary: text.summary,
    description: text.description,
    organizer: site.organizer,
  });
}
