/**
 * The admin inbox's pure part: the lines of the contact and booking stores as items with stable
 * ids, the CSV export, and the ages of `site admin prune-inbox`.
 *
 * Ids: a booking names itself (`id`, made when it was stored), so its item is `booking-<id>`. A
 * contact submission has no id, and its line is never rewritten to give it one: its item is
 * `contact-<hash>`, from the SHA-256 of the line's bytes, which never change. Two byte-identical
 * lines (one visitor, the same millisecond) are told apart by their order: `.2`, `.3` after the
 * second and third.
 */
import { createHash } from 'node:crypto';
import type { InboxItem, InboxKind } from '../islands/inbox-filter.js';

/** A readable line of a store: where it is, its item's id, and the record it holds. */
export interface InboxLine {
  index: number;
  id: string;
  record: Record<string, unknown>;
}

/** Fields of a stored record that the item gives under its own names (or not at all). */
const ownFields = new Set(['id', 'kind', 'receivedAt', 'bookedAt', 'handled', 'handledAt']);
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
    const base = kind === 'booking' && typeof own === 'string' && bookingIdPattern.test(own) ? `booking-${own}` : `${kind}-${createHash('sha256').update(line).digest('base64url').slice(0, 22)}`;
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    found.push({ index, id: count === 1 ? base : `${base}.${count}`, record: record as Record<string, unknown> });
  });
  return found;
}

/** When a record was received (a contact's `receivedAt`, a booking's `bookedAt`), or undefined when it does not say. */
export function receivedAtOf(kind: InboxKind, record: Record<string, unknown>): string | undefined {
  const value = kind === 'booking' ? record.bookedAt : record.receivedAt;
  return typeof value === 'string' && Number.isFinite(Date.parse(value)) ? value : undefined;
}

/**
 * The instant a record's retention counts from (what `site admin prune-inbox` compares with its
 * cutoff), as the privacy policy words it: a contact message from when it was received, a meeting
 * request from the meeting (its end, or its start), or from when it was received if that is later.
 * Undefined when the record tells no time.
 */
export function retainedFromOf(kind: InboxKind, record: Record<string, unknown>): number | undefined {
  const times = [receivedAtOf(kind, record), ...(kind === 'booking' ? [record.end, record.start] : [])]
    .filter((value): value is string => typeof value === 'string')
    .map((value) => Date.parse(value))
    .filter((time) => Number.isFinite(time));
  return times.length ? Math.max(...times) : undefined;
}

/** The handled state kept beside the stores (inbox-state.json): item id → when and by whom. */
export interface InboxState {
  handled: Record<string, { at: string; by: string }>;
}

/** The item of a line: its text, number and true/false fields, its id, kind, time and handled state. */
export function itemOf(kind: InboxKind, line: InboxLine, state: InboxState): InboxItem {
  const item: InboxItem = { id: line.id, kind, receivedAt: receivedAtOf(kind, line.record) ?? '', handled: false };
  for (const [key, value] of Object.entries(line.record)) {
    if (ownFields.has(key)) continue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') item[key] = value;
  }
  const handled = Object.hasOwn(state.handled, line.id) ? state.handled[line.id] : undefined;
  if (handled) {
    item.handled = true;
    item.handledAt = handled.at;
  }
  return item;
}

/** Newest first (by time received, then by id, so the order is the same every time). */
export function compareNewestFirst(a: InboxItem, b: InboxItem): number {
  if (a.receivedAt !== b.receivedAt) return a.receivedAt < b.receivedAt ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The columns of the CSV export, in order. */
export const csvColumns = ['id', 'kind', 'receivedAt', 'handled', 'handledAt', 'firstName', 'lastName', 'email', 'company', 'type', 'subject', 'message', 'start', 'end', 'note', 'locale', 'page'] as const;

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
  const rows = [csvColumns.join(','), ...items.map((item) => csvColumns.map((column) => csvCell(item[column])).join(','))];
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
  return Date.UTC(year, month, Math.min(date.getUTCDate(), lastDay), date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds(), date.getUTCMilliseconds());
}
