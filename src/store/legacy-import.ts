/**
 * The first start on a store: what the JSON-lines files of earlier versions held is imported once,
 * in one transaction, keeping every id the inbox and the admins knew (a contact message's
 * `contact-<hash of its line>`, a booking's own id), then each file is renamed aside
 * (`contact-submissions.jsonl.imported-2025-06-01`), never deleted. Only an empty store imports:
 * a second start finds the files gone, or the store full, and does nothing.
 *
 * The files: `<contact.dataDir>/contact-submissions.jsonl`, `booking-requests.jsonl` and
 * `inbox-state.json` (the handled state), `.site/admins.json` (accounts) and `.site/audit.jsonl`.
 */
import { readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { readInboxLines } from './inbox-records.js';
import { parseInstant } from '../booking/slots.js';
import { SiteError } from '../errors.js';
import { adminStateFolder } from '../state-paths.js';
import type { AuditEntry, ContactRecord, ImportCounts, LegacyData, NewBooking, Store, StoredAccount } from './store.js';

/** The old files, in the data folder and in .site/. */
export const legacyFiles = {
  contacts: 'contact-submissions.jsonl',
  bookings: 'booking-requests.jsonl',
  inboxState: 'inbox-state.json',
  accounts: 'admins.json',
  audit: 'audit.jsonl',
} as const;

/** Where the old files of a site are. */
export interface LegacyPlaces {
  /** contact.dataDir. */
  dataDir: string;
  /** The project folder (its .site/ holds the accounts and the audit log). */
  projectRoot: string;
}

/** What the import did: the counts, and the files renamed aside (old path → new path). */
export interface ImportReport {
  counts: ImportCounts;
  renamed: [string, string][];
  /** Lines left behind in the renamed files because they could not be read (a line a crash cut short). */
  skipped: number;
}

function pathsOf(places: LegacyPlaces) {
  const state = adminStateFolder(places.projectRoot);
  return {
    contacts: join(places.dataDir, legacyFiles.contacts),
    bookings: join(places.dataDir, legacyFiles.bookings),
    inboxState: join(places.dataDir, legacyFiles.inboxState),
    accounts: join(state, legacyFiles.accounts),
    audit: join(state, legacyFiles.audit),
  };
}

async function readIfThere(file: string): Promise<Buffer | undefined> {
  try {
    return await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SiteError({
      code: 'STORE_IMPORT',
      message: `cannot read ${file}: ${(error as Error).message}`,
      file,
      cause: error,
    });
  }
}

/** The lines of a JSON-lines file, without their newlines. */
function linesOf(bytes: Buffer | undefined): Buffer[] {
  if (!bytes) return [];
  const lines: Buffer[] = [];
  let start = 0;
  while (start < bytes.length) {
    const end = bytes.indexOf(0x0a, start);
    lines.push(bytes.subarray(start, end === -1 ? bytes.length : end));
    if (end === -1) break;
    start = end + 1;
  }
  return lines;
}

const textOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The instant of a time text as the store keeps it (UTC, ISO 8601), or undefined. */
function utcOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const instant = parseInstant(value) ?? Date.parse(value);
  return Number.isFinite(instant) ? new Date(instant).toISOString() : undefined;
}

/**
 * Imports the old files into an empty store and renames them aside; undefined when there is
 * nothing to import (no old files) or the store already holds data (then the files are left as
 * they are).
 */
export async function importLegacyFiles(
  store: Store,
  places: LegacyPlaces,
  now: Date = new Date(),
): Promise<ImportReport | undefined> {
  const paths = pathsOf(places);
  const [contactBytes, bookingBytes, stateBytes, accountBytes, auditBytes] = await Promise.all(
    [paths.contacts, paths.bookings, paths.inboxState, paths.accounts, paths.audit].map(readIfThere),
  );
  const present = Object.entries({
    contacts: contactBytes,
    bookings: bookingBytes,
    inboxState: stateBytes,
    accounts: accountBytes,
    audit: auditBytes,
  })
    .filter(([, bytes]) => bytes !== undefined)
    .map(([name]) => name as keyof typeof paths);
  if (!present.length || !(await store.isEmpty())) return undefined;

  let handled: Record<string, { at?: string; by?: string }> = {};
  if (stateBytes) {
    try {
      const parsed = JSON.parse(stateBytes.toString('utf8')) as { handled?: unknown };
      if (typeof parsed.handled === 'object' && parsed.handled !== null) handled = parsed.handled as typeof handled;
    } catch {
      throw new SiteError({
        code: 'STORE_IMPORT',
        message: 'the inbox state file is not valid JSON',
        file: paths.inboxState,
      });
    }
  }
  const handledOf = (itemId: string) => {
    const entry = Object.hasOwn(handled, itemId) ? handled[itemId] : undefined;
    return entry && typeof entry.at === 'string'
      ? { handledAt: entry.at, handledBy: typeof entry.by === 'string' ? entry.by : '' }
      : {};
  };

  let skipped = 0;
  const contactLines = linesOf(contactBytes);
  const contacts: LegacyData['contacts'] = readInboxLines('contact', contactLines).map((line) => {
    const record = line.record;
    const fields: Partial<ContactRecord> = {
      receivedAt: utcOf(record.receivedAt),
      firstName: textOf(record.firstName),
      lastName: textOf(record.lastName),
      email: textOf(record.email),
      company: textOf(record.company),
      type: textOf(record.type),
      subject: textOf(record.subject),
      message: textOf(record.message),
      locale: textOf(record.locale),
      page: textOf(record.page),
    };
    return { id: line.id.slice('contact-'.length), ...fields, ...handledOf(line.id) };
  });
  skipped += contactLines.filter((line) => line.length > 0).length - contacts.length;

  const bookingLines = linesOf(bookingBytes);
  const bookings: LegacyData['bookings'] = [];
  const readableBookings = readInboxLines('booking', bookingLines);
  for (const line of readableBookings) {
    const record = line.record;
    const slotStart = utcOf(record.start);
    const slotEnd = utcOf(record.end);
    if (!slotStart || !slotEnd) {
      skipped++;
      continue;
    }
    const booking: NewBooking = {
      slotStart,
      slotEnd,
      start: String(record.start),
      end: String(record.end),
      bookedAt: utcOf(record.bookedAt) ?? slotStart,
      firstName: textOf(record.firstName) ?? '',
      lastName: textOf(record.lastName) ?? '',
      email: textOf(record.email) ?? '',
      company: textOf(record.company),
      note: textOf(record.note),
      locale: textOf(record.locale),
      page: textOf(record.page),
    };
    bookings.push({ id: line.id.slice('booking-'.length), ...booking, ...handledOf(line.id) });
  }
  skipped += bookingLines.filter((line) => line.length > 0).length - readableBookings.length;

  let accounts: StoredAccount[] = [];
  if (accountBytes) {
    let data: { accounts?: unknown };
    try {
      data = JSON.parse(accountBytes.toString('utf8')) as { accounts?: unknown };
    } catch {
      throw new SiteError({
        code: 'STORE_IMPORT',
        message: 'the admin accounts file is not valid JSON',
        file: paths.accounts,
      });
    }
    if (!Array.isArray(data.accounts))
      throw new SiteError({
        code: 'STORE_IMPORT',
        message: 'the admin accounts file has no "accounts" list',
        file: paths.accounts,
      });
    accounts = (data.accounts as Record<string, unknown>[])
      .filter(
        (account) =>
          typeof account?.email === 'string' &&
          (account.role === 'editor' || account.role === 'admin') &&
          typeof account.passwordHash === 'string',
      )
      .map((account) => ({
        email: String(account.email),
        role: account.role as StoredAccount['role'],
        passwordHash: String(account.passwordHash),
        created: textOf(account.created) ?? now.toISOString(),
      }));
  }

  const audit: AuditEntry[] = [];
  for (const line of linesOf(auditBytes)) {
    if (!line.length) continue;
    try {
      const record = JSON.parse(line.toString('utf8')) as Record<string, unknown>;
      if (typeof record.time === 'string' && typeof record.action === 'string')
        audit.push({ ...record, time: record.time, user: textOf(record.user) ?? '', action: record.action });
      else skipped++;
    } catch {
      skipped++;
    }
  }

  const counts = await store.importLegacy({ contacts, bookings, accounts, audit });
  if (!counts) return undefined;
  const stamp = now.toISOString().slice(0, 10);
  const renamed: [string, string][] = [];
  for (const name of present) {
    const from = paths[name];
    let to = `${from}.imported-${stamp}`;
    for (
      let n = 2;
      await readFile(to).then(
        () => true,
        () => false,
      );
      n++
    )
      to = `${from}.imported-${stamp}-${n}`;
    await rename(from, to);
    renamed.push([from, to]);
  }
  return { counts, renamed, skipped };
}
