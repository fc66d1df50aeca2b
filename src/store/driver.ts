/**
 * The one door between the store (what visitors and admins write) and a database. The store's
 * code is written once, in the SQL that SQLite, libSQL, Cloudflare D1 and Postgres share
 * (`?` placeholders, `INSERT … ON CONFLICT DO NOTHING`, `RETURNING`); each database is a driver of
 * this shape:
 *
 *   sqlite    @libsql/client on a local file (the default: `<contact.dataDir>/site.db`)
 *   postgres  postgres.js, for DATABASE_URL or `storage.url` (placeholders become $1, $2 …)
 *   d1        a Cloudflare D1 binding, in the cloudflare target's functions
 *
 * Booleans are stored as 0 and 1, times as ISO 8601 text in UTC, so every driver reads the same
 * values back.
 */

/** A value a statement takes or a row holds. */
export type SqlValue = string | number | bigint | null | Uint8Array;

/** A row as the driver returns it: column name to value. */
export type SqlRow = Record<string, SqlValue>;

/** The SQL dialect of a driver, for the few statements that differ (schema types, locking). */
export type SqlDialect = 'sqlite' | 'postgres';

/** What a statement returned: its rows (for SELECT and RETURNING) and how many rows it changed. */
export interface SqlResult {
  rows: SqlRow[];
  changes: number;
}

/** Runs statements. */
export interface SqlExecutor {
  readonly dialect: SqlDialect;
  /** Runs one statement with `?` placeholders. */
  execute(sql: string, params?: readonly SqlValue[]): Promise<SqlResult>;
}

/** A connection to one database. */
export interface SqlDriver extends SqlExecutor {
  /**
   * Runs `work` in one transaction (on SQLite `BEGIN IMMEDIATE`, so two processes queue rather
   * than fail), committed when it resolves and rolled back when it throws. Statements of other
   * callers wait until it ends.
   */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /** Closes the connection (pending statements finish first). */
  close(): Promise<void>;
}

/**
 * Why a database cannot answer: `down` (cannot be reached, opened or written: a server away, a
 * file or folder that cannot be written, an I/O error), `full` (its disk or quota), `corrupt`
 * (its pages are damaged), `busy` (another process held its lock past the wait, or a statement
 * ran past its time).
 */
export type StoreFault = 'down' | 'full' | 'corrupt' | 'busy';

/**
 * A problem with the database itself (down, locked past the busy timeout, disk full), as opposed
 * to a request the store refuses: the servers answer it 503, and the forms keep what was typed.
 */
export class StoreUnavailable extends Error {
  /** What is wrong, for the log (health.ts): one line per fault, not per request. */
  readonly fault: StoreFault;

  constructor(message: string, options?: { cause?: unknown; fault?: StoreFault }) {
    super(message, options);
    this.name = 'StoreUnavailable';
    this.fault = options?.fault ?? 'down';
  }
}
