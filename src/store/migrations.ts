/**
 * The store's schema, as numbered migrations. Each migration has its statements for each dialect
 * (`sqlite`, which libSQL and Cloudflare D1 share, and `postgres`); they differ only in column
 * types and the audit log's sequence. A migration is applied once, in one transaction with the
 * row that records it in `schema_migrations`, so a database is always at a whole version.
 *
 * Rules the store relies on (see store.ts): times are ISO 8601 text in UTC from `toISOString()`
 * (fixed width, so text order is time order), booleans 0/1, ids text. A migration, once
 * released, is never edited: a change is a new number.
 */
import type { SqlDialect } from './driver.js';

/** One step of the schema. */
export interface Migration {
  version: number;
  /** What it does, in a few words (printed by `site db migrate` and `site db status`). */
  name: string;
  statements: Readonly<Record<SqlDialect, readonly string[]>>;
}

/** The table that records what was applied; created before any migration runs. */
export const migrationsTable: Readonly<Record<SqlDialect, string>> = {
  sqlite:
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  postgres:
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
};

/**
 * The tables of migration 1, written once for both dialects: `{serial}` is the audit log's
 * ordering key, the only type the dialects spell differently.
 */
function firstSchema(serial: string): string[] {
  return [
    // What the contact form stored. `received_at` is null only for an imported line that told no time.
    `CREATE TABLE contact_messages (
      id TEXT PRIMARY KEY,
      received_at TEXT,
      first_name TEXT NOT NULL DEFAULT '',
      last_name TEXT NOT NULL DEFAULT '',
      email TEXT NOT NULL DEFAULT '',
      company TEXT NOT NULL DEFAULT '',
      type TEXT,
      subject TEXT NOT NULL DEFAULT '',
      message TEXT NOT NULL DEFAULT '',
      locale TEXT NOT NULL DEFAULT 'en',
      page TEXT NOT NULL DEFAULT '/',
      handled_at TEXT,
      handled_by TEXT
    )`,
    'CREATE INDEX contact_messages_received ON contact_messages (received_at)',
    // One booking per slot: `slot_start` is the slot's start instant in UTC, unique (the index
    // below), so two requests for one slot, from any process, cannot both insert. Deleting the row
    // frees the slot at once: no status column, since the inbox's delete is a deletion (privacy).
    `CREATE TABLE bookings (
      id TEXT PRIMARY KEY,
      slot_start TEXT NOT NULL,
      slot_end TEXT NOT NULL,
      start TEXT NOT NULL,
      "end" TEXT NOT NULL,
      booked_at TEXT,
      first_name TEXT NOT NULL DEFAULT '',
      last_name TEXT NOT NULL DEFAULT '',
      email TEXT NOT NULL DEFAULT '',
      company TEXT NOT NULL DEFAULT '',
      note TEXT NOT NULL DEFAULT '',
      locale TEXT NOT NULL DEFAULT 'en',
      handled_at TEXT,
      handled_by TEXT,
      double_booked INTEGER NOT NULL DEFAULT 0
    )`,
    // `double_booked` is 1 only for an imported booking of a slot the JSON-lines store had
    // already given away (two processes on one data folder could do that): it is kept, outside
    // the rule, so that no request is lost. Partial unique indexes: SQLite, D1 and Postgres alike.
    'CREATE UNIQUE INDEX bookings_one_per_slot ON bookings (slot_start) WHERE double_booked = 0',
    'CREATE INDEX bookings_slot_end ON bookings (slot_end)',
    `CREATE TABLE accounts (
      email TEXT PRIMARY KEY,
      role TEXT NOT NULL,
      password_hash TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`,
    // A session is found by the SHA-256 of its cookie's token: the database never holds a token
    // that would sign anyone in. `account_stamp` ends it when its account's password or role changes.
    `CREATE TABLE sessions (
      token_hash TEXT PRIMARY KEY,
      email TEXT NOT NULL,
      role TEXT NOT NULL,
      csrf_token TEXT NOT NULL,
      account_stamp TEXT,
      created_at TEXT NOT NULL,
      last_seen_at TEXT NOT NULL
    )`,
    'CREATE INDEX sessions_email ON sessions (email)',
    'CREATE INDEX sessions_last_seen ON sessions (last_seen_at)',
    // The sign-in budgets' windows: one row per counted attempt, under its budget's key.
    `CREATE TABLE sign_in_attempts (
      id TEXT PRIMARY KEY,
      key TEXT NOT NULL,
      at TEXT NOT NULL
    )`,
    'CREATE INDEX sign_in_attempts_key ON sign_in_attempts (key, at)',
    'CREATE INDEX sign_in_attempts_at ON sign_in_attempts (at)',
    // The audit log, in the order it was written; `record` is the whole entry as JSON.
    `CREATE TABLE audit_log (
      seq ${serial},
      time TEXT NOT NULL,
      actor TEXT NOT NULL,
      action TEXT NOT NULL,
      record TEXT NOT NULL
    )`,
  ];
}

/**
 * Postgres only: bookings never overlap. SQLite and D1 take one writer at a time, so `book`'s
 * NOT EXISTS sees every booking committed before its insert. Postgres runs inserts side by side
 * (read committed): two bookings of overlapping slots of different lengths (the meeting length
 * changed) would both pass the NOT EXISTS, each not seeing the other's uncommitted row. An
 * exclusion constraint on the span [slot_start, slot_end) makes the second wait and
 * `ON CONFLICT DO NOTHING` refuse it (booked: false), not an error. The span is a range of text
 * in byte order, not of timestamptz: casting text to a time depends on settings, which an index
 * may not, while the times are fixed-width UTC text, so text order is time order. Range types and
 * GiST are core Postgres: no extension (not even btree_gist) is needed.
 */
const bookingsNeverOverlap = [
  'CREATE TYPE booking_span AS RANGE (subtype = text, collation = "C")',
  'ALTER TABLE bookings ADD CONSTRAINT bookings_never_overlap EXCLUDE USING gist (booking_span(slot_start, slot_end) WITH &&) WHERE (double_booked = 0)',
];

/**
 * The table of migration 3: what a file held before each admin save (admin/history.ts). `kind`
 * and `item` name what was saved (`entry` `blog/a-post/en`, `page` `landing/no`, `settings`
 * `site.config.yaml`); `files` is a JSON object of each written file's previous text by its path
 * in the project (settings saves may write messages and page copy too); `seq`, the order, is
 * the version's id.
 */
function savedVersions(serial: string): string[] {
  return [
    `CREATE TABLE saved_versions (
      seq ${serial},
      kind TEXT NOT NULL,
      item TEXT NOT NULL,
      saved_at TEXT NOT NULL,
      saved_by TEXT NOT NULL,
      summary TEXT NOT NULL,
      files TEXT NOT NULL
    )`,
    'CREATE INDEX saved_versions_item ON saved_versions (kind, item, seq)',
  ];
}

/**
 * The table of migration 4: editors' saves of published entries held for an admin's review
 * (admin/review.ts). `base_version` is the file's version the change was made against (an
 * approval of a change whose file has moved on is refused); `new_text` the entry's whole text.
 */
function pendingChanges(serial: string): string[] {
  return [
    `CREATE TABLE pending_changes (
      seq ${serial},
      collection TEXT NOT NULL,
      slug TEXT NOT NULL,
      locale TEXT NOT NULL,
      base_version TEXT NOT NULL,
      new_text TEXT NOT NULL,
      made_by TEXT NOT NULL,
      made_at TEXT NOT NULL,
      status TEXT NOT NULL,
      decided_by TEXT,
      decided_at TEXT,
      note TEXT
    )`,
    'CREATE INDEX pending_changes_status ON pending_changes (status, seq)',
  ];
}

/** Every migration, in order. */
export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'contact messages, bookings, accounts, sessions, sign-in attempts, audit log',
    statements: {
      sqlite: firstSchema('INTEGER PRIMARY KEY AUTOINCREMENT'),
      postgres: [...firstSchema('BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY'), ...bookingsNeverOverlap],
    },
  },
  {
    version: 2,
    // The page a meeting was booked from, as contact messages have it (the inbox names it and its audience).
    name: 'the page of each booking',
    statements: {
      sqlite: ["ALTER TABLE bookings ADD COLUMN page TEXT NOT NULL DEFAULT '/'"],
      postgres: ["ALTER TABLE bookings ADD COLUMN page TEXT NOT NULL DEFAULT '/'"],
    },
  },
  {
    version: 3,
    name: 'the versions the admin kept of saved files',
    statements: {
      sqlite: savedVersions('INTEGER PRIMARY KEY AUTOINCREMENT'),
      postgres: savedVersions('BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY'),
    },
  },
  {
    version: 4,
    name: "editors' changes held for review",
    statements: {
      sqlite: pendingChanges('INTEGER PRIMARY KEY AUTOINCREMENT'),
      postgres: pendingChanges('BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY'),
    },
  },
  {
    version: 5,
    // What the notifications of each message and booking did (src/notify/): JSON, null when none were due.
    name: 'the delivery of notifications',
    statements: {
      sqlite: [
        'ALTER TABLE contact_messages ADD COLUMN delivery TEXT',
        'ALTER TABLE bookings ADD COLUMN delivery TEXT',
      ],
      postgres: [
        'ALTER TABLE contact_messages ADD COLUMN delivery TEXT',
        'ALTER TABLE bookings ADD COLUMN delivery TEXT',
      ],
    },
  },
];

/** The version a database is at once every migration is applied. */
export const latestVersion = migrations[migrations.length - 1]!.version;
