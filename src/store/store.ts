/**
 * The store: everything visitors and admins write (contact messages, bookings, the inbox's
 * handled state, accounts, sessions, sign-in budgets, the audit log), in one database, written
 * once against `SqlDriver` (driver.ts) in the SQL that SQLite, D1 and Postgres share.
 *
 * What holds across processes holds in the database, not in memory: one booking per slot is the
 * bookings table's unique index (`INSERT … ON CONFLICT DO NOTHING`), a sign-in budget is counted
 * and claimed in one statement, a session is a row. Times are ISO 8601 text in UTC (fixed width:
 * text order is time order), booleans 0/1, ids text.
 *
 * No Node APIs here: the cloudflare target's functions bundle this module with a D1 driver.
 */
import type { SqlDialect, SqlDriver, SqlExecutor, SqlRow, SqlValue } from './driver.js';
import { latestVersion, migrations, migrationsTable, type Migration } from './migrations.js';
import type { InboxItem, InboxKind } from '../islands/inbox-filter.js';

/** What an account may do (admin/accounts.ts names them). */
export type StoredRole = 'editor' | 'admin';

/** A contact message as the contact endpoint stores it. */
export interface ContactRecord {
  receivedAt: string;
  firstName: string;
  lastName: string;
  email: string;
  company?: string;
  type?: string;
  subject?: string;
  message: string;
  locale?: string;
  page?: string;
}

/** A booking to store: the slot (its instants in UTC and as shown, with the zone's offset) and who is coming. */
export interface NewBooking {
  /** The slot's start and end instants, ISO 8601 UTC (`toISOString()`): the one-per-slot key. */
  slotStart: string;
  slotEnd: string;
  /** The slot's start and end as the API shows them, with the site's zone offset. */
  start: string;
  end: string;
  bookedAt: string;
  firstName: string;
  lastName: string;
  email: string;
  company?: string;
  note?: string;
  locale?: string;
  /** The page the meeting was booked from ("/" for bookings from before it was kept). */
  page?: string;
}

/** A stored booking, as the calendar file needs it. */
export interface StoredBooking {
  id: string;
  slotStart: string;
  slotEnd: string;
  start: string;
  end: string;
  bookedAt: string | null;
  locale: string;
}

/** What delivering a notification to one channel (a webhook, the team's mail, the visitor's) did. */
export interface ChannelDelivery {
  ok: boolean;
  attempts: number;
  /** Why it failed, without any secret. */
  error?: string;
}

/** What the notifications of a message or booking did: pending while they are sent, then sent (every channel) or failed (some). */
export interface DeliveryRecord {
  status: 'pending' | 'sent' | 'failed';
  /** When it was last tried (ISO 8601, UTC). */
  at: string;
  /** Each channel's outcome, by name (`webhook-1`, `team`, `visitor`). */
  channels: Record<string, ChannelDelivery>;
}

/** What `book` did: booked (with the new id) or refused because the slot, or part of it, is taken. */
export type BookResult = { booked: true; id: string } | { booked: false };

/** A slot someone booked: its instants in UTC. */
export interface TakenSlot {
  slotStart: string;
  slotEnd: string;
}

/** One account. */
export interface StoredAccount {
  email: string;
  role: StoredRole;
  passwordHash: string;
  created: string;
}

/** One session row: found by the hash of its token, never by the token. */
export interface StoredSession {
  tokenHash: string;
  email: string;
  role: StoredRole;
  csrfToken: string;
  /** The hash of the account's role and password hash when it signed in (none for `site dev`). */
  accountStamp: string | null;
  createdAt: string;
  lastSeenAt: string;
}

/** The instants before which a session has expired: last seen before `idleBefore`, or made before `createdBefore`. */
export interface SessionCutoffs {
  idleBefore: string;
  createdBefore: string;
}

/** A sign-in budget to claim a place in: its key (the caller hashes what it names) and how many places a window holds. */
export interface AttemptClaim {
  key: string;
  limit: number;
}

/** A budget claimed over its own window: the places since `since` count. */
export interface WindowedClaim extends AttemptClaim {
  since: string;
}

/**
 * A change of the sign-in budgets, as `updateAttempts` applies many in one transaction: an
 * attempt's claim of a place in each of its budgets at `at` (all or none), places given back, or
 * a budget cleared.
 */
export type AttemptChange =
  { claim: readonly WindowedClaim[]; at: string } | { release: readonly string[] } | { clear: string };

/** One entry of the audit log. */
export interface AuditEntry {
  time: string;
  user: string;
  action: string;
  [detail: string]: unknown;
}

/** What a version of a saved file is of: a collection entry, a page's copy, the settings. */
export type VersionKind = 'entry' | 'page' | 'settings';

/** A version to keep: what a save replaced. */
export interface NewVersion {
  kind: VersionKind;
  /** The item's key (`<collection>/<slug>/<locale>`, `<content id>/<locale>`, `site.config.yaml`). */
  item: string;
  at: string;
  by: string;
  /** What the save changed, in a line. */
  summary: string;
  /** Each written file's previous text, by its path in the project. */
  files: Record<string, string>;
}

/** A kept version: its id (the order of saving) and what was kept. */
export interface StoredVersion extends Omit<NewVersion, 'kind' | 'item'> {
  id: string;
}

/** A pending change's state: waiting, or decided by an admin (admin/review.ts). */
export type PendingStatus = 'pending' | 'approved' | 'rejected';

/** An editor's save of a published entry held for an admin's review (admin/review.ts). */
export interface NewPendingChange {
  collection: string;
  slug: string;
  locale: string;
  /** The file's version (ETag) the change was made against. */
  base: string;
  /** The entry's whole new text. */
  text: string;
  by: string;
  at: string;
}

/** A held change as the store keeps it. */
export interface StoredPendingChange extends NewPendingChange {
  id: string;
  status: PendingStatus;
  decidedBy: string | null;
  decidedAt: string | null;
  note: string | null;
}

/** What pruning did to one kind of item. */
export interface PruneCount {
  kind: InboxKind;
  removed: number;
  kept: number;
  /** Items kept because they tell no time. */
  undated: number;
}

/** Where the schema is: the version, and the migrations not applied yet. */
export interface SchemaStatus {
  version: number;
  applied: { version: number; name: string; appliedAt: string }[];
  pending: Migration[];
}

/** What the JSON-lines files held, for the one import into an empty store (legacy-import.ts reads them). */
export interface LegacyData {
  contacts: ({ id: string; handledAt?: string; handledBy?: string } & Partial<ContactRecord>)[];
  bookings: ({ id: string; handledAt?: string; handledBy?: string } & NewBooking)[];
  accounts: StoredAccount[];
  audit: AuditEntry[];
}

/** How many rows the import wrote. */
export interface ImportCounts {
  contacts: number;
  bookings: number;
  accounts: number;
  audit: number;
}

/** The store's tables, for `site db status`. */
export const storeTables = [
  'contact_messages',
  'bookings',
  'accounts',
  'sessions',
  'sign_in_attempts',
  'audit_log',
  'saved_versions',
  'pending_changes',
] as const;

/** The store. Every method is one statement or one transaction, so it holds across processes. */
export interface Store {
  readonly dialect: SqlDialect;

  /** Stores a contact message (a random id); resolves once committed. */
  addContactMessage(record: ContactRecord): Promise<{ id: string }>;

  /** Books a slot unless it, or part of it, is taken: decided by the database, once for all processes. */
  book(booking: NewBooking): Promise<BookResult>;
  /** The booked slots that overlap [from, to) (instants in UTC). */
  takenSlots(from: string, to: string): Promise<TakenSlot[]>;
  /** A booking by its id. */
  findBooking(id: string): Promise<StoredBooking | undefined>;

  /** Every item of the inbox (contact messages and bookings), newest first; of one kind, or handled or not, when asked. */
  listInbox(filter?: { kind?: '' | InboxKind; handled?: '' | 'handled' | 'unhandled' }): Promise<InboxItem[]>;
  /** One item by its inbox id (`contact-…`, `booking-…`). */
  findInboxItem(id: string): Promise<InboxItem | undefined>;
  /** Marks an item handled (at `at`, by `by`) or not; the item, or undefined when no item has that id. */
  setHandled(id: string, handled: boolean, by: string, at: string): Promise<InboxItem | undefined>;
  /** Records what the notifications of an item did; false when no item has that id. */
  setDelivery(id: string, delivery: DeliveryRecord): Promise<boolean>;
  /** What the notifications of an item did, or undefined (none were due, or no such item). */
  findDelivery(id: string): Promise<DeliveryRecord | undefined>;
  /** Deletes an item (a booking's slot is free at once); the item deleted, or undefined. */
  deleteInboxItem(id: string): Promise<InboxItem | undefined>;
  /** Deletes the items whose retention counts from before `before` (contact: received; booking: the later of its end and when it was booked). */
  pruneInbox(before: string): Promise<PruneCount[]>;

  listAccounts(): Promise<StoredAccount[]>;
  findAccount(email: string): Promise<StoredAccount | undefined>;
  /** Adds an account; false when the email has one. */
  addAccount(account: StoredAccount): Promise<boolean>;
  /** Sets an account's password hash (only if it still is `previousHash`, when given); false when nothing changed. */
  setPasswordHash(email: string, passwordHash: string, previousHash?: string): Promise<boolean>;
  /** Removes an account and its sessions; false when there was none. */
  removeAccount(email: string): Promise<boolean>;

  /** Starts a session, deleting the one it replaces (rotation at sign-in) and the expired ones. */
  createSession(session: StoredSession, cutoffs: SessionCutoffs, replacing?: string): Promise<void>;
  /** The live session of a token hash, its `lastSeenAt` moved to `now` (undefined when unknown or expired). */
  touchSession(tokenHash: string, now: string, cutoffs: SessionCutoffs): Promise<StoredSession | undefined>;
  /** The live session of a token hash, without marking it used. */
  peekSession(tokenHash: string, cutoffs: SessionCutoffs): Promise<StoredSession | undefined>;
  deleteSession(tokenHash: string): Promise<void>;
  /** Ends every session of an account. */
  deleteSessionsOf(email: string): Promise<void>;

  /**
   * Claims one place in each budget at `at`, counting the places claimed since `since`, in one
   * statement: every budget has room and gets its row, or none does (undefined). The ids are for
   * `releaseAttempts`.
   */
  claimAttempts(claims: readonly AttemptClaim[], at: string, since: string): Promise<string[] | undefined>;
  /** The time of the `nth` newest place of `key` claimed since `since` (what frees a full budget first), or undefined. */
  nthNewestAttempt(key: string, nth: number, since: string): Promise<string | undefined>;
  /** Gives places back (attempts that turned out right, or were never checked). */
  releaseAttempts(ids: readonly string[]): Promise<void>;
  /** Clears a budget (a right password clears its account's failures). */
  clearAttempts(key: string): Promise<void>;
  /**
   * Applies the changes in their order in one transaction, so a flood of sign-ins costs a few
   * commits rather than several each: each claim counts the places of those before it, as
   * `claimAttempts` one after another would. Gives, per change, a claim's new place ids (undefined
   * when a budget is full: then it took none) and undefined for the others.
   */
  updateAttempts(changes: readonly AttemptChange[]): Promise<(string[] | undefined)[]>;

  /** Appends an entry to the audit log; resolves once committed. */
  appendAudit(entry: AuditEntry): Promise<void>;
  /** The newest `limit` entries, newest first, and whether older ones were left out. */
  listAudit(limit: number): Promise<{ entries: AuditEntry[]; more: boolean }>;

  /** Keeps a version, then drops the item's oldest beyond the newest `keep`; the new version's id. */
  addVersion(version: NewVersion, keep: number): Promise<string>;
  /** An item's versions, newest first, without their files. */
  listVersions(kind: VersionKind, item: string): Promise<Omit<StoredVersion, 'files'>[]>;
  /** One version of an item, with its files, or undefined. */
  findVersion(kind: VersionKind, item: string, id: string): Promise<StoredVersion | undefined>;

  /** Holds a change, replacing the same author's pending one of the same entry; the new change's id. */
  holdChange(change: NewPendingChange): Promise<string>;
  /** The pending changes (of one author, when `by` is given), oldest first. */
  listPendingChanges(by?: string): Promise<StoredPendingChange[]>;
  /** One change, whatever its status, or undefined. */
  findChange(id: string): Promise<StoredPendingChange | undefined>;
  /** Marks a pending change approved or rejected; false when it was no longer pending. */
  decideChange(
    id: string,
    status: Exclude<PendingStatus, 'pending'>,
    by: string,
    at: string,
    note: string | null,
  ): Promise<boolean>;

  /** Rows per table. */
  counts(): Promise<Record<(typeof storeTables)[number], number>>;
  /** Whether nothing was ever stored (the moment to import the JSON-lines files). */
  isEmpty(): Promise<boolean>;
  /** Writes what the JSON-lines files held, in one transaction, keeping every id; undefined (and nothing written) when the store is not empty. */
  importLegacy(data: LegacyData): Promise<ImportCounts | undefined>;

  close(): Promise<void>;
}

/** Options of `createStore`. */
export interface CreateStoreOptions {
  /** Apply pending migrations first (default true; `site db status` looks without changing). */
  migrate?: boolean;
}

/** Opens the store on a driver, applying the pending migrations first (unless told not to). */
export async function createStore(driver: SqlDriver, options: CreateStoreOptions = {}): Promise<Store> {
  if (options.migrate !== false) await migrate(driver);
  return storeOn(driver);
}

/** The version of a database and what is pending, without changing it. */
export async function schemaStatus(db: SqlExecutor): Promise<SchemaStatus> {
  await db.execute(migrationsTable[db.dialect]);
  const { rows } = await db.execute('SELECT version, name, applied_at FROM schema_migrations ORDER BY version');
  const applied = rows.map((row) => ({
    version: Number(row.version),
    name: text(row.name),
    appliedAt: text(row.applied_at),
  }));
  const done = new Set(applied.map((row) => row.version));
  return {
    version: applied.length ? Math.max(...done) : 0,
    applied,
    pending: migrations.filter((migration) => !done.has(migration.version)),
  };
}

/** Takes the lock that one process at a time migrates a Postgres database under (a fixed key, released at commit). */
const postgresMigrationLock = 'SELECT pg_advisory_xact_lock(2902029001)';

/**
 * Applies the pending migrations, each in its own transaction with its record; returns the ones
 * applied. Two processes starting at once both try: the second's insert of the record fails the
 * primary key and rolls its copy back, so it re-reads and finds nothing left to do.
 */
export async function migrate(driver: SqlDriver): Promise<Migration[]> {
  const applied: Migration[] = [];
  // On Postgres, two processes creating schema_migrations at once fail even with IF NOT EXISTS
  // (the second's catalogue insert collides), and so do two copies of a migration's CREATE TYPE:
  // an advisory lock held to the end of each transaction makes the second wait for the first.
  if (driver.dialect === 'postgres') {
    await driver.transaction(async (tx) => {
      await tx.execute(postgresMigrationLock);
      await tx.execute(migrationsTable.postgres);
    });
  }
  for (let attempt = 0; ; attempt++) {
    const { pending } = await schemaStatus(driver);
    if (!pending.length) return applied;
    const next = pending[0]!;
    try {
      await driver.transaction(async (tx) => {
        if (driver.dialect === 'postgres') await tx.execute(postgresMigrationLock);
        const { rows } = await tx.execute('SELECT version FROM schema_migrations WHERE version = ?', [next.version]);
        if (rows.length) return;
        for (const statement of next.statements[driver.dialect]) await tx.execute(statement);
        await tx.execute('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)', [
          next.version,
          next.name,
          new Date().toISOString(),
        ]);
        applied.push(next);
      });
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}

/** Whether the schema is at the version this build knows (`site db status`). */
export function isCurrent(status: SchemaStatus): boolean {
  return status.version >= latestVersion && status.pending.length === 0;
}

function text(value: SqlValue | undefined): string {
  return value === null || value === undefined ? '' : typeof value === 'string' ? value : String(value);
}

function optionalText(value: SqlValue | undefined): string | null {
  return value === null || value === undefined ? null : text(value);
}

/**
 * Claims one place in each budget at `at`, each counting its own window, in one statement: every
 * budget has room and gets its row, or none does (undefined).
 */
async function claimPlaces(
  on: SqlExecutor,
  claims: readonly WindowedClaim[],
  at: string,
): Promise<string[] | undefined> {
  if (!claims.length) return [];
  const ids = claims.map(() => randomId());
  const rows = claims.map(() => 'SELECT ? AS id, ? AS key, ? AS at').join(' UNION ALL ');
  const room = claims.map(() => '(SELECT count(*) FROM sign_in_attempts WHERE key = ? AND at > ?) < ?').join(' AND ');
  const params: SqlValue[] = [
    ...claims.flatMap((claim, index) => [ids[index]!, claim.key, at]),
    ...claims.flatMap((claim) => [claim.key, claim.since, claim.limit]),
  ];
  const { rows: inserted } = await on.execute(
    `INSERT INTO sign_in_attempts (id, key, at) SELECT id, key, at FROM (${rows}) AS claimed WHERE ${room} RETURNING id`,
    params,
  );
  return inserted.length === claims.length ? ids : undefined;
}

/** A random id: 128 bits, as text. */
function randomId(): string {
  return globalThis.crypto.randomUUID();
}

const contactColumns = [
  'id',
  'received_at',
  'first_name',
  'last_name',
  'email',
  'company',
  'type',
  'subject',
  'message',
  'locale',
  'page',
  'handled_at',
  'handled_by',
] as const;
const bookingColumns = [
  'id',
  'slot_start',
  'slot_end',
  'start',
  '"end"',
  'booked_at',
  'first_name',
  'last_name',
  'email',
  'company',
  'note',
  'locale',
  'handled_at',
  'handled_by',
  'double_booked',
  'page',
] as const;

/** The inbox fields of a row, as the JSON-lines items named them. */
const contactFields: readonly [string, string][] = [
  ['firstName', 'first_name'],
  ['lastName', 'last_name'],
  ['email', 'email'],
  ['company', 'company'],
  ['type', 'type'],
  ['subject', 'subject'],
  ['message', 'message'],
  ['locale', 'locale'],
  ['page', 'page'],
];
const bookingFields: readonly [string, string][] = [
  ['start', 'start'],
  ['end', 'end'],
  ['firstName', 'first_name'],
  ['lastName', 'last_name'],
  ['email', 'email'],
  ['company', 'company'],
  ['note', 'note'],
  ['locale', 'locale'],
  ['page', 'page'],
];

function itemOfRow(kind: InboxKind, row: SqlRow): InboxItem {
  const item: InboxItem = {
    id: `${kind}-${text(row.id)}`,
    kind,
    receivedAt: text(kind === 'contact' ? row.received_at : row.booked_at),
    handled: row.handled_at !== null && row.handled_at !== undefined,
  };
  for (const [field, column] of kind === 'contact' ? contactFields : bookingFields) {
    const value = row[column];
    if (value !== null && value !== undefined) item[field] = text(value);
  }
  if (item.handled) item.handledAt = text(row.handled_at);
  const delivery = deliveryOfRow(row);
  if (delivery) {
    item.delivery = delivery.status;
    item.deliveryAt = delivery.at;
    const errors = Object.values(delivery.channels).flatMap((channel) => (channel.error ? [channel.error] : []));
    if (errors.length) item.deliveryError = errors.join('; ');
  }
  return item;
}

/** The delivery record of a row, or undefined when it has none (or one this version cannot read). */
function deliveryOfRow(row: SqlRow): DeliveryRecord | undefined {
  if (typeof row.delivery !== 'string') return undefined;
  try {
    const record = JSON.parse(row.delivery) as DeliveryRecord;
    return typeof record === 'object' && record !== null && typeof record.status === 'string' ? record : undefined;
  } catch {
    return undefined;
  }
}

/** The table and row id an inbox id names, or undefined. */
function rowOfItemId(id: string): { kind: InboxKind; table: string; rowId: string } | undefined {
  const match = /^(contact|booking)-(.{1,80})$/.exec(id);
  if (!match) return undefined;
  const kind = match[1] as InboxKind;
  return { kind, table: kind === 'contact' ? 'contact_messages' : 'bookings', rowId: match[2]! };
}

/** Newest first, then by id, so the order is the same every time (as inbox-records.ts sorted the JSON lines). */
function compareNewestFirst(a: InboxItem, b: InboxItem): number {
  if (a.receivedAt !== b.receivedAt) return a.receivedAt < b.receivedAt ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function sessionOfRow(row: SqlRow): StoredSession {
  return {
    tokenHash: text(row.token_hash),
    email: text(row.email),
    role: text(row.role) as StoredRole,
    csrfToken: text(row.csrf_token),
    accountStamp: optionalText(row.account_stamp),
    createdAt: text(row.created_at),
    lastSeenAt: text(row.last_seen_at),
  };
}

function versionOfRow(row: SqlRow): Omit<StoredVersion, 'files'> {
  return { id: text(row.seq), at: text(row.saved_at), by: text(row.saved_by), summary: text(row.summary) };
}

function changeOfRow(row: SqlRow): StoredPendingChange {
  const maybe = (value: SqlValue | undefined) => (value === null || value === undefined ? null : text(value));
  return {
    id: text(row.seq),
    collection: text(row.collection),
    slug: text(row.slug),
    locale: text(row.locale),
    base: text(row.base_version),
    text: text(row.new_text),
    by: text(row.made_by),
    at: text(row.made_at),
    status: text(row.status) as PendingStatus,
    decidedBy: maybe(row.decided_by),
    decidedAt: maybe(row.decided_at),
    note: maybe(row.note),
  };
}

function accountOfRow(row: SqlRow): StoredAccount {
  return {
    email: text(row.email),
    role: text(row.role) as StoredRole,
    passwordHash: text(row.password_hash),
    created: text(row.created_at),
  };
}

function placeholders(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}

function contactValues(
  id: string,
  record: Partial<ContactRecord>,
  handledAt: string | null = null,
  handledBy: string | null = null,
): SqlValue[] {
  return [
    id,
    record.receivedAt ?? null,
    record.firstName ?? '',
    record.lastName ?? '',
    record.email ?? '',
    record.company ?? '',
    record.type ?? null,
    record.subject ?? '',
    record.message ?? '',
    record.locale ?? 'en',
    record.page ?? '/',
    handledAt,
    handledBy,
  ];
}

function bookingValues(
  id: string,
  booking: NewBooking,
  handledAt: string | null = null,
  handledBy: string | null = null,
  doubleBooked = 0,
): SqlValue[] {
  return [
    id,
    booking.slotStart,
    booking.slotEnd,
    booking.start,
    booking.end,
    booking.bookedAt,
    booking.firstName,
    booking.lastName,
    booking.email,
    booking.company ?? '',
    booking.note ?? '',
    booking.locale ?? 'en',
    handledAt,
    handledBy,
    doubleBooked,
    booking.page ?? '/',
  ];
}

function storeOn(driver: SqlDriver): Store {
  const db = driver;
  const one = async (sql: string, params: readonly SqlValue[] = []) => (await db.execute(sql, params)).rows[0];

  async function countOf(table: string, where = '', params: SqlValue[] = []): Promise<number> {
    const row = await one(`SELECT count(*) AS n FROM ${table}${where ? ` WHERE ${where}` : ''}`, params);
    return Number(row?.n ?? 0);
  }

  const store: Store = {
    dialect: driver.dialect,

    async addContactMessage(record) {
      const id = randomId();
      await db.execute(
        `INSERT INTO contact_messages (${contactColumns.join(', ')}) VALUES (${placeholders(contactColumns.length)})`,
        contactValues(id, record),
      );
      return { id };
    },

    async book(booking) {
      const id = randomId();
      // One statement: the row goes in only if no booked meeting overlaps the slot (a meeting
      // booked when slots had another length may cover part of it), and the unique index on
      // slot_start refuses a second booking of the same slot whatever raced it.
      const { rows } = await db.execute(
        `INSERT INTO bookings (${bookingColumns.join(', ')})
         SELECT ${placeholders(bookingColumns.length)}
         WHERE NOT EXISTS (SELECT 1 FROM bookings WHERE slot_start < ? AND slot_end > ?)
         ON CONFLICT DO NOTHING RETURNING id`,
        [...bookingValues(id, booking), booking.slotEnd, booking.slotStart],
      );
      return rows.length ? { booked: true, id } : { booked: false };
    },

    async takenSlots(from, to) {
      const { rows } = await db.execute(
        'SELECT slot_start, slot_end FROM bookings WHERE slot_start < ? AND slot_end > ? ORDER BY slot_start',
        [to, from],
      );
      return rows.map((row) => ({ slotStart: text(row.slot_start), slotEnd: text(row.slot_end) }));
    },

    async findBooking(id) {
      const row = await one(
        'SELECT id, slot_start, slot_end, start, "end", booked_at, locale FROM bookings WHERE id = ?',
        [id],
      );
      if (!row) return undefined;
      return {
        id: text(row.id),
        slotStart: text(row.slot_start),
        slotEnd: text(row.slot_end),
        start: text(row.start),
        end: text(row.end),
        bookedAt: optionalText(row.booked_at),
        locale: text(row.locale) || 'en',
      };
    },

    async listInbox(filter = {}) {
      const handled =
        filter.handled === 'handled'
          ? ' WHERE handled_at IS NOT NULL'
          : filter.handled === 'unhandled'
            ? ' WHERE handled_at IS NULL'
            : '';
      const items: InboxItem[] = [];
      if (filter.kind !== 'booking')
        items.push(
          ...(await db.execute(`SELECT * FROM contact_messages${handled}`)).rows.map((row) =>
            itemOfRow('contact', row),
          ),
        );
      if (filter.kind !== 'contact')
        items.push(
          ...(await db.execute(`SELECT * FROM bookings${handled}`)).rows.map((row) => itemOfRow('booking', row)),
        );
      return items.sort(compareNewestFirst);
    },

    async findInboxItem(id) {
      const target = rowOfItemId(id);
      if (!target) return undefined;
      const row = await one(`SELECT * FROM ${target.table} WHERE id = ?`, [target.rowId]);
      return row && itemOfRow(target.kind, row);
    },

    async setHandled(id, handled, by, at) {
      const target = rowOfItemId(id);
      if (!target) return undefined;
      const { rows } = await db.execute(
        `UPDATE ${target.table} SET handled_at = ?, handled_by = ? WHERE id = ? RETURNING *`,
        handled ? [at, by, target.rowId] : [null, null, target.rowId],
      );
      return rows[0] && itemOfRow(target.kind, rows[0]);
    },

    async setDelivery(id, delivery) {
      const target = rowOfItemId(id);
      if (!target) return false;
      const result = await db.execute(`UPDATE ${target.table} SET delivery = ? WHERE id = ?`, [
        JSON.stringify(delivery),
        target.rowId,
      ]);
      return result.changes > 0;
    },

    async findDelivery(id) {
      const target = rowOfItemId(id);
      if (!target) return undefined;
      const row = await one(`SELECT delivery FROM ${target.table} WHERE id = ?`, [target.rowId]);
      return row && deliveryOfRow(row);
    },

    async deleteInboxItem(id) {
      const target = rowOfItemId(id);
      if (!target) return undefined;
      const { rows } = await db.execute(`DELETE FROM ${target.table} WHERE id = ? RETURNING *`, [target.rowId]);
      return rows[0] && itemOfRow(target.kind, rows[0]);
    },

    async pruneInbox(before) {
      return driver.transaction(async (tx) => {
        const contacts = await tx.execute('DELETE FROM contact_messages WHERE received_at < ?', [before]);
        // A meeting is kept until it is over and its request is old enough, as the privacy policy words it.
        const bookings = await tx.execute(
          'DELETE FROM bookings WHERE slot_end < ? AND (booked_at IS NULL OR booked_at < ?)',
          [before, before],
        );
        const count = async (table: string, where: string) =>
          Number((await tx.execute(`SELECT count(*) AS n FROM ${table}${where}`)).rows[0]?.n ?? 0);
        return [
          {
            kind: 'contact',
            removed: contacts.changes,
            kept: await count('contact_messages', ''),
            undated: await count('contact_messages', ' WHERE received_at IS NULL'),
          },
          { kind: 'booking', removed: bookings.changes, kept: await count('bookings', ''), undated: 0 },
        ];
      });
    },

    async listAccounts() {
      return (await db.execute('SELECT * FROM accounts ORDER BY email')).rows.map(accountOfRow);
    },

    async findAccount(email) {
      const row = await one('SELECT * FROM accounts WHERE email = ?', [email]);
      return row && accountOfRow(row);
    },

    async addAccount(account) {
      const { rows } = await db.execute(
        'INSERT INTO accounts (email, role, password_hash, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING email',
        [account.email, account.role, account.passwordHash, account.created],
      );
      return rows.length > 0;
    },

    async setPasswordHash(email, passwordHash, previousHash) {
      const { changes } =
        previousHash === undefined
          ? await db.execute('UPDATE accounts SET password_hash = ? WHERE email = ?', [passwordHash, email])
          : await db.execute('UPDATE accounts SET password_hash = ? WHERE email = ? AND password_hash = ?', [
              passwordHash,
              email,
              previousHash,
            ]);
      return changes > 0;
    },

    async removeAccount(email) {
      return driver.transaction(async (tx) => {
        await tx.execute('DELETE FROM sessions WHERE email = ?', [email]);
        return (await tx.execute('DELETE FROM accounts WHERE email = ?', [email])).changes > 0;
      });
    },

    async createSession(session, cutoffs, replacing) {
      await driver.transaction(async (tx) => {
        await tx.execute('DELETE FROM sessions WHERE last_seen_at <= ? OR created_at <= ?', [
          cutoffs.idleBefore,
          cutoffs.createdBefore,
        ]);
        if (replacing) await tx.execute('DELETE FROM sessions WHERE token_hash = ?', [replacing]);
        await tx.execute(
          'INSERT INTO sessions (token_hash, email, role, csrf_token, account_stamp, created_at, last_seen_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
          [
            session.tokenHash,
            session.email,
            session.role,
            session.csrfToken,
            session.accountStamp,
            session.createdAt,
            session.lastSeenAt,
          ],
        );
      });
    },

    async touchSession(tokenHash, now, cutoffs) {
      const { rows } = await db.execute(
        'UPDATE sessions SET last_seen_at = ? WHERE token_hash = ? AND last_seen_at > ? AND created_at > ? RETURNING *',
        [now, tokenHash, cutoffs.idleBefore, cutoffs.createdBefore],
      );
      return rows[0] && sessionOfRow(rows[0]);
    },

    async peekSession(tokenHash, cutoffs) {
      const row = await one('SELECT * FROM sessions WHERE token_hash = ? AND last_seen_at > ? AND created_at > ?', [
        tokenHash,
        cutoffs.idleBefore,
        cutoffs.createdBefore,
      ]);
      return row && sessionOfRow(row);
    },

    async deleteSession(tokenHash) {
      await db.execute('DELETE FROM sessions WHERE token_hash = ?', [tokenHash]);
    },

    async deleteSessionsOf(email) {
      await db.execute('DELETE FROM sessions WHERE email = ?', [email]);
    },

    async claimAttempts(claims, at, since) {
      if (!claims.length) return [];
      const claim = async (on: SqlExecutor) => {
        // Rows past every window are dropped as the table is used, so it holds 15 minutes of attempts at most.
        await on.execute('DELETE FROM sign_in_attempts WHERE at <= ?', [since]);
        return claimPlaces(
          on,
          claims.map((budget) => ({ ...budget, since })),
          at,
        );
      };
      // SQLite runs one writer at a time, so the statement counts every claim committed before it.
      // Postgres runs claims side by side (read committed): each would count before the others
      // commit, and three guesses sent at once all got into a budget of two. A lock per budget,
      // held to commit, makes the claims of one budget take turns; taken in key order, so two
      // claims never wait for each other.
      if (driver.dialect !== 'postgres') return claim(db);
      return driver.transaction(async (tx) => {
        for (const key of [...new Set(claims.map((claim) => claim.key))].sort())
          await tx.execute('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [key]);
        return claim(tx);
      });
    },

    async updateAttempts(changes) {
      if (!changes.length) return [];
      const claims = changes.flatMap((change) => ('claim' in change ? change.claim : []));
      const apply = async (on: SqlExecutor) => {
        // Rows past the longest window are dropped as the table is used, so it holds that much at most.
        if (claims.length)
          await on.execute('DELETE FROM sign_in_attempts WHERE at <= ?', [
            claims.map((claim) => claim.since).reduce((a, b) => (a < b ? a : b)),
          ]);
        const results: (string[] | undefined)[] = [];
        for (const change of changes) {
          if ('claim' in change) results.push(await claimPlaces(on, change.claim, change.at));
          else {
            if ('release' in change && change.release.length)
              await on.execute(
                `DELETE FROM sign_in_attempts WHERE id IN (${placeholders(change.release.length)})`,
                change.release,
              );
            if ('clear' in change) await on.execute('DELETE FROM sign_in_attempts WHERE key = ?', [change.clear]);
            results.push(undefined);
          }
        }
        return results;
      };
      // As in claimAttempts: on Postgres, a lock per budget held to commit makes the claims of
      // other servers take turns with these; taken in key order, so two batches never wait for each other.
      return driver.transaction(async (tx) => {
        if (driver.dialect === 'postgres') {
          for (const key of [...new Set(claims.map((claim) => claim.key))].sort())
            await tx.execute('SELECT pg_advisory_xact_lock(hashtextextended(?, 0))', [key]);
        }
        return apply(tx);
      });
    },

    async nthNewestAttempt(key, nth, since) {
      const row = await one(
        'SELECT at FROM sign_in_attempts WHERE key = ? AND at > ? ORDER BY at DESC LIMIT 1 OFFSET ?',
        [key, since, Math.max(0, nth - 1)],
      );
      return row ? text(row.at) : undefined;
    },

    async releaseAttempts(ids) {
      if (ids.length) await db.execute(`DELETE FROM sign_in_attempts WHERE id IN (${placeholders(ids.length)})`, ids);
    },

    async clearAttempts(key) {
      await db.execute('DELETE FROM sign_in_attempts WHERE key = ?', [key]);
    },

    async appendAudit(entry) {
      await db.execute('INSERT INTO audit_log (time, actor, action, record) VALUES (?, ?, ?, ?)', [
        entry.time,
        entry.user,
        entry.action,
        JSON.stringify(entry),
      ]);
    },

    async listAudit(limit) {
      const { rows } = await db.execute('SELECT record FROM audit_log ORDER BY seq DESC LIMIT ?', [limit + 1]);
      const entries = rows.slice(0, limit).flatMap((row) => {
        try {
          return [JSON.parse(text(row.record)) as AuditEntry];
        } catch {
          return [];
        }
      });
      return { entries, more: rows.length > limit };
    },

    async addVersion(version, keep) {
      // Two statements, not a transaction: D1 cannot read an insert's RETURNING inside its batch,
      // and the cap is the same whoever trims it, so a trim raced by another save is harmless.
      const { rows } = await db.execute(
        'INSERT INTO saved_versions (kind, item, saved_at, saved_by, summary, files) VALUES (?, ?, ?, ?, ?, ?) RETURNING seq',
        [version.kind, version.item, version.at, version.by, version.summary, JSON.stringify(version.files)],
      );
      await db.execute(
        'DELETE FROM saved_versions WHERE kind = ? AND item = ? AND seq NOT IN (SELECT seq FROM saved_versions WHERE kind = ? AND item = ? ORDER BY seq DESC LIMIT ?)',
        [version.kind, version.item, version.kind, version.item, keep],
      );
      return text(rows[0]?.seq);
    },

    async listVersions(kind, item) {
      const { rows } = await db.execute(
        'SELECT seq, saved_at, saved_by, summary FROM saved_versions WHERE kind = ? AND item = ? ORDER BY seq DESC',
        [kind, item],
      );
      return rows.map(versionOfRow);
    },

    async findVersion(kind, item, id) {
      if (!/^\d{1,18}$/.test(id)) return undefined;
      const row = await one('SELECT * FROM saved_versions WHERE kind = ? AND item = ? AND seq = ?', [
        kind,
        item,
        Number(id),
      ]);
      return row && { ...versionOfRow(row), files: JSON.parse(text(row.files)) as Record<string, string> };
    },

    async holdChange(change) {
      // Two statements, as addVersion: a save of the same entry by the same author is serialised by the admin's queue.
      await db.execute(
        "DELETE FROM pending_changes WHERE collection = ? AND slug = ? AND locale = ? AND made_by = ? AND status = 'pending'",
        [change.collection, change.slug, change.locale, change.by],
      );
      const { rows } = await db.execute(
        "INSERT INTO pending_changes (collection, slug, locale, base_version, new_text, made_by, made_at, status) VALUES (?, ?, ?, ?, ?, ?, ?, 'pending') RETURNING seq",
        [change.collection, change.slug, change.locale, change.base, change.text, change.by, change.at],
      );
      return text(rows[0]?.seq);
    },

    async listPendingChanges(by) {
      const { rows } =
        by === undefined
          ? await db.execute("SELECT * FROM pending_changes WHERE status = 'pending' ORDER BY seq")
          : await db.execute("SELECT * FROM pending_changes WHERE status = 'pending' AND made_by = ? ORDER BY seq", [
              by,
            ]);
      return rows.map(changeOfRow);
    },

    async findChange(id) {
      if (!/^\d{1,18}$/.test(id)) return undefined;
      const row = await one('SELECT * FROM pending_changes WHERE seq = ?', [Number(id)]);
      return row && changeOfRow(row);
    },

    async decideChange(id, status, by, at, note) {
      if (!/^\d{1,18}$/.test(id)) return false;
      const { rows } = await db.execute(
        "UPDATE pending_changes SET status = ?, decided_by = ?, decided_at = ?, note = ? WHERE seq = ? AND status = 'pending' RETURNING seq",
        [status, by, at, note, Number(id)],
      );
      return rows.length > 0;
    },

    async counts() {
      const counts = {} as Record<(typeof storeTables)[number], number>;
      for (const table of storeTables) counts[table] = await countOf(table);
      return counts;
    },

    async isEmpty() {
      const row = await one(`SELECT ${storeTables.map((table) => `(SELECT count(*) FROM ${table})`).join(' + ')} AS n`);
      return Number(row?.n ?? 0) === 0;
    },

    async importLegacy(data) {
      return driver.transaction(async (tx) => {
        const { rows } = await tx.execute(
          `SELECT ${storeTables.map((table) => `(SELECT count(*) FROM ${table})`).join(' + ')} AS n`,
        );
        if (Number(rows[0]?.n ?? 0) > 0) return undefined;
        for (const contact of data.contacts) {
          await tx.execute(
            `INSERT INTO contact_messages (${contactColumns.join(', ')}) VALUES (${placeholders(contactColumns.length)})`,
            contactValues(contact.id, contact, contact.handledAt ?? null, contact.handledBy ?? null),
          );
        }
        for (const booking of data.bookings) {
          // Two processes on one data folder could book one slot twice under the JSON-lines
          // store; both requests are kept, the later one marked so the one-per-slot rule holds for every new booking.
          // Overlapping, not only equal, as `book` decides (and Postgres's exclusion constraint
          // refuses): a meeting length changed under the old store leaves bookings that overlap.
          const { rows: clash } = await tx.execute(
            'SELECT 1 AS taken FROM bookings WHERE slot_start < ? AND slot_end > ? AND double_booked = 0',
            [booking.slotEnd, booking.slotStart],
          );
          await tx.execute(
            `INSERT INTO bookings (${bookingColumns.join(', ')}) VALUES (${placeholders(bookingColumns.length)})`,
            bookingValues(
              booking.id,
              booking,
              booking.handledAt ?? null,
              booking.handledBy ?? null,
              clash.length ? 1 : 0,
            ),
          );
        }
        for (const account of data.accounts) {
          await tx.execute('INSERT INTO accounts (email, role, password_hash, created_at) VALUES (?, ?, ?, ?)', [
            account.email,
            account.role,
            account.passwordHash,
            account.created,
          ]);
        }
        for (const entry of data.audit) {
          await tx.execute('INSERT INTO audit_log (time, actor, action, record) VALUES (?, ?, ?, ?)', [
            entry.time,
            entry.user,
            entry.action,
            JSON.stringify(entry),
          ]);
        }
        return {
          contacts: data.contacts.length,
          bookings: data.bookings.length,
          accounts: data.accounts.length,
          audit: data.audit.length,
        };
      });
    },

    close: () => driver.close(),
  };
  return store;
}
