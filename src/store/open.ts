/**
 * Which database a site's store is in, and opening it: the environment variable DATABASE_URL
 * first, then the config's `storage.url`, then the SQLite file `<contact.dataDir>/site.db`. A
 * postgres:// address loads the Postgres driver (postgres.js) only then, so a site on SQLite never
 * loads it. An address is never printed with its password (`describeDatabase`).
 */
import { statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { ResolvedConfig } from '../config/load.js';
import { SiteError } from '../errors.js';
import { StoreUnavailable, type SqlDriver, type SqlExecutor } from './driver.js';
import { watchDriver, type StoreHealthChange } from './health.js';
import { openSqlite } from './sqlite.js';
import { createStore, storeTables, type CreateStoreOptions, type Store } from './store.js';

/** The SQLite file of a data folder. */
export const databaseFileName = 'site.db';

/** The files SQLite keeps beside the database (never served, never in an output folder). */
export const databaseFileNames = [
  databaseFileName,
  `${databaseFileName}-wal`,
  `${databaseFileName}-shm`,
  `${databaseFileName}-journal`,
] as const;

/** Where a site's store is: a SQLite file, or a server's address. */
export type DatabaseLocation =
  { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; from: 'DATABASE_URL' | 'storage.url' };

/** The database of a config (DATABASE_URL, then storage.url, then `<contact.dataDir>/site.db`). */
export function databaseOf(
  config: Pick<ResolvedConfig, 'dirs'> & { storage?: { url?: string } },
  env: NodeJS.ProcessEnv = process.env,
): DatabaseLocation {
  const fromEnv = env.DATABASE_URL?.trim();
  const url = fromEnv || config.storage?.url;
  const from = fromEnv ? 'DATABASE_URL' : 'storage.url';
  if (!url) return { kind: 'sqlite', file: join(config.dirs.data, databaseFileName) };
  if (/^postgres(ql)?:\/\//.test(url)) return { kind: 'postgres', url, from };
  throw new SiteError({
    code: 'STORE_URL',
    message: `${from} is ${/^libsql:/.test(url) ? 'a libsql:// address, which this build cannot open yet' : 'not a postgres:// address'}: ${redactUrl(url)}`,
    field: from === 'storage.url' ? 'storage.url' : undefined,
  });
}

/** An address without its password (and user), for messages and `site db status`. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//***@');
  }
}

/** The database as a person reads it: the file, or the address without its password. */
export function describeDatabase(location: DatabaseLocation): string {
  return location.kind === 'sqlite' ? location.file : `${redactUrl(location.url)} (from ${location.from})`;
}

/** Opens the driver of a location. */
export async function openDriver(location: DatabaseLocation): Promise<SqlDriver> {
  if (location.kind === 'sqlite') return openSqlite(location.file);
  // postgres.ts loads postgres.js only when it opens, so a site on SQLite never loads it.
  const { openPostgres } = await import('./postgres.js');
  return openPostgres(location.url);
}

/** Options of `openStoreFor`. */
export interface OpenStoreOptions extends CreateStoreOptions {
  /** Told when the database starts failing (requests are answered 503) and when it answers again (health.ts). */
  health?: (change: StoreHealthChange) => void;
}

/**
 * Opens the store of a config (migrations applied unless told not to) and checks it (`checkStore`);
 * a database that cannot be opened is STORE_UNAVAILABLE, one that is damaged STORE_DAMAGED, both
 * naming it and what to do.
 */
export async function openStoreFor(
  config: Pick<ResolvedConfig, 'dirs'> & { storage?: { url?: string } },
  options: OpenStoreOptions = {},
): Promise<Store> {
  const location = databaseOf(config);
  refuseEmptyFile(location);
  let driver: SqlDriver;
  try {
    driver = await openDriver(location);
  } catch (error) {
    throw unavailable(error, location);
  }
  const watched = options.health ? watchDriver(driver, options.health) : driver;
  try {
    const store = await createStore(watched, options);
    if (options.migrate !== false) await checkStore(watched, location);
    return store;
  } catch (error) {
    await driver.close().catch(() => undefined);
    throw unavailable(error, location);
  }
}

/**
 * Refuses a SQLite file of 0 bytes (STORE_DAMAGED). A file cut to nothing opens as a new, empty
 * database, and the accounts and messages it held would be gone without a word; a first start that
 * never got to write leaves one too, and is told so. Checked before anything opens it: even a look
 * (`site db status`) writes the table of migrations into an empty file.
 */
export function refuseEmptyFile(location: DatabaseLocation): void {
  if (location.kind === 'sqlite' && statSync(location.file, { throwIfNoEntry: false })?.size === 0) {
    throw damaged(
      location.file,
      'is empty (0 bytes): whatever it held (accounts, messages, bookings) is gone, and opening it would make a new, empty store in its place',
      ' If it is the file of a first start that was cut short, delete it and start again.',
    );
  }
}

/**
 * Whether a store's database is whole, as far as a look at start can tell: on SQLite, `PRAGMA
 * quick_check` (every page readable and well formed, every row where its table says; it reads
 * the whole file, a few milliseconds a megabyte); on any, every table of the schema there (unless
 * `tables: false`). Throws STORE_DAMAGED saying what is wrong.
 */
export async function checkStore(
  driver: SqlExecutor,
  location: DatabaseLocation,
  options: { tables?: boolean } = {},
): Promise<void> {
  const where = describeDatabase(location);
  if (driver.dialect === 'sqlite') {
    const { rows } = await driver.execute('PRAGMA quick_check(5)');
    const problems = rows.map((row) => String(Object.values(row)[0])).filter((line) => line !== 'ok');
    if (problems.length) throw damaged(where, `is damaged: ${problems.join('; ')}`);
  }
  // Only a schema with every migration applied has every table (`site db status` may look at one behind).
  if (options.tables === false) return;
  const present =
    driver.dialect === 'sqlite'
      ? await driver.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
      : await driver.execute(
          'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()',
        );
  const names = new Set(present.rows.map((row) => String(row.name)));
  const missing = storeTables.filter((table) => !names.has(table));
  if (missing.length)
    throw damaged(
      where,
      `is damaged: its schema is recorded as applied, but ${missing.length === 1 ? 'the table' : 'the tables'} ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not there`,
    );
}

/** STORE_DAMAGED for the database `where`, with what to do, the file named. */
export function damaged(where: string, what: string, more = ''): SiteError {
  const file = isAbsolute(where) ? where : undefined;
  return new SiteError({
    code: 'STORE_DAMAGED',
    message: `the database ${where} ${what}; nothing was started on it`,
    ...(file ? { file } : {}),
    hint: file
      ? `Stop every server on it, keep it aside (mv ${file} ${file}.damaged), copy the last file \`site db backup\` wrote to ${file}, and look at it with \`site db status\`; with no backup, start without the file (a new, empty store: add the accounts again with site admin add-user).${more}`
      : `Restore the database from its last dump (pg_restore of a \`site db backup\`) and look at it with \`site db status\`.${more}`,
  });
}

function unavailable(error: unknown, location: DatabaseLocation): unknown {
  if (error instanceof SiteError) return error;
  if (error instanceof StoreUnavailable && error.fault === 'corrupt')
    return damaged(describeDatabase(location), `is damaged: ${error.message}`);
  const reason = error instanceof StoreUnavailable || error instanceof Error ? error.message : String(error);
  return new SiteError({
    code: 'STORE_UNAVAILABLE',
    message: `cannot open the database ${describeDatabase(location)}: ${location.kind === 'postgres' ? reason.replaceAll(location.url, redactUrl(location.url)) : reason}`,
    file: location.kind === 'sqlite' ? location.file : undefined,
    cause: error,
  });
}
