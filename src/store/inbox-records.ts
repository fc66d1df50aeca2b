/**
 * The admin inbox's pure part: the ids of the JSON-lines files of earlier versions (which the
 * first start imports into the store, src/store/legacy-import.ts, keeping them), the CSV export,
 * and the ages of `site admin prune-inbox`.
 *
 * Ids of the JSON-lines files: a booking names itself (`id`, made when it was stored), so its
 * item is `booking-<id>`. A contact submission had no id: its item is `contact-<hash>`, from the
 * SHA-256 of the line's bytes. Two byte-identical lines (one visitor, the same millisecond) are
 * told apart by their order: `.2`, `.3` after the second and third. Items stored since have a
 * random id (a UUID) of the store.
 */
import { createHash } from 'node:crypto';
import type { InboxItem, InboxKind } from '../islands/inbox-filter.js';

/** A readable line of a store: where it is, its item's id, and the record it holds. */
export interface InboxLine {
  index: number;
  id: string;
  record: Record<string, unknown>;
}

const bookingIdPattern = /^[A-Za-z0-9-]{8,64}$/;

/** The shape of every item id (kind, dash, name): what the API's routes accept. */
export const inboxIdPattern = /^(contact|booking)-[A-Za-z0-9_.-]{1,80}$/;

/** The kind an id names, or undefined when it is not an inbox id. */
export function kindOfId(id: string): InboxKind | undefined {
  if (!inboxIdPattern.test(id)) return undefined;
  return id.startsWith('contact-') ? 'contact' : 'booking';
}

/** The readable lines of a store of `kind` with their ids; lines that are not a JSON object (a line a crash cut short) are left out. */
export function readInboxLines(kind: InboxKind, lines: readonly Buffer[]): InboxLine[] {
  const seen = new Map<string, number>();
  const found: InboxLine[] = [];
  lines.forEach((line, index) => {
    let record: unknown;
    try {
      record = JSON.parse(line.toString('utf8'));
    } catch {
      return;
    }
    if (typeof record !== 'object' || record === null || Array.isArray(record)) return;
    const own = (record as Record<string, unknown>).id;
    const base =
      kind === 'booking' && typeof own === 'string' && bookingIdPattern.test(own)
        ? `booking-${own}`
        : `${kind}-${createHash('sha256').update(line).digest('base64url').slice(0, 22)}`;
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    found.push({ index, id: count === 1 ? base : `${base}.${count}`, record: record as Record<string, unknown> });
  });
  return found;
}

/** The columns of the CSV export, in order. */
export const csvColumns = [
  'id',
  'kind',
  'receivedAt',
  'handled',
  'handledAt',
  'firstName',
  'lastName',
  'email',
  'company',
  'type',
  'subject',
  'message',
  'start',
  'end',
  'note',
  'locale',
  'page',
] as const;

/**
 * One CSV cell: text that a spreadsheet would run as a formula (starting with =, +, -, @, a tab or
 * a carriage return) gets a leading apostrophe; a cell with a quote, comma or line break is quoted,
 * its quotes doubled (RFC 4180).
 */
export function csvCell(value: unknown): string {
  let text = value === undefined || value === null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The items as CSV: a header row of `csvColumns`, one row per item, CRLF line ends, a byte-order mark so spreadsheets read it as UTF-8. */
export function toCsv(items: readonly InboxItem[]): string {
  const rows = [
    csvColumns.join(','),
    ...items.map((item) => csvColumns.map((column) => csvCell(item[column])).join(',')),
  ];
  return `\uFEFF${rows.join('\r\n')}\r\n`;
}

/** An age as `site admin prune-inbox --older-than` takes it: a whole number of days, weeks or months. */
export interface Age {
  count: number;
  unit: 'd' | 'w' | 'm';
}

/** Parses `12m`, `30d`, `8w`; undefined for anything else (no unit, zero, a fraction, a sign, over 9999). */
export function parseAge(text: string): Age | undefined {
  const match = /^([1-9]\d{0,3})([dwm])$/.exec(text.trim());
  return match ? { count: Number(match[1]), unit: match[2] as Age['unit'] } : undefined;
}

/** The instant `age` before `now` (UTC): months are calendar months, the day kept or, past the month's end, its last day (31 March − 1m = 28 or 29 February). */
export function cutoffOf(age: Age, now: number): number {
  if (age.unit !== 'm') return now - age.count * (age.unit === 'w' ? 7 : 1) * 86_400_000;
  const date = new Date(now);
  const months = date.getUTCFullYear() * 12 + date.getUTCMonth() - age.count;
  const year = Math.floor(months / 12);
  const month = months - year * 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(
    year,
    month,
    Math.min(date.getUTCDate(), lastDay),
    date.getUTCHours(),
    date.getUTCMinutes(),
    date.getUTCSeconds(),
    date.getUTCMilliseconds(),
  );
}
