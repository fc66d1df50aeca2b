/**
 * Which database a site's store is in, and opening it: the environment variable DATABASE_URL
 * first, then the config's `storage.url`, then the SQLite file `<contact.dataDir>/site.db`. A
 * postgres:// address loads the Postgres driver (postgres.js) only then, so a site on SQLite never
 * loads it. An address is never printed with its password (`describeDatabase`).
 */
import { join } from 'node:path';
import type { ResolvedConfig } from '../config/load.js';
import { SiteError } from '../errors.js';
import { StoreUnavailable, type SqlDriver } from './driver.js';
import { openSqlite } from './sqlite.js';
import { createStore, type CreateStoreOptions, type Store } from './store.js';

/** The SQLite file of a data folder. */
export const databaseFileName = 'site.db';

/** The files SQLite keeps beside the database (never served, never in an output folder). */
export const databaseFileNames = [databaseFileName, `${databaseFileName}-wal`, `${databaseFileName}-shm`, `${databaseFileName}-journal`] as const;

/** Where a site's store is: a SQLite file, or a server's address. */
export type DatabaseLocation = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; from: 'DATABASE_URL' | 'storage.url' };

/** The database of a config (DATABASE_URL, then storage.url, then `<contact.dataDir>/site.db`). */
export function databaseOf(config: Pick<ResolvedConfig, 'dirs'> & { storage?: { url?: string } }, env: NodeJS.ProcessEnv = process.env): DatabaseLocation {
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
  let module: { openPostgres(url: string): Promise<SqlDriver> };
  try {
    // A file the postgres branch adds; held in a variable so a build without it still compiles.
    const specifier = './postgres.js';
    module = (await import(specifier)) as typeof module;
  } catch {
    throw new SiteError({ code: 'STORE_URL', message: `${location.from} names a Postgres database, but Postgres support is not built into this build of typed-site`, hint: 'Unset DATABASE_URL and storage.url to use the SQLite file, or install a build with Postgres support.' });
  }
  return module.openPostgres(location.url);
}

/** Opens the store of a config (migrations applied unless told not to); a database that cannot be opened is a SiteError naming it. */
export async function openStoreFor(config: Pick<ResolvedConfig, 'dirs'> & { storage?: { url?: string } }, options: CreateStoreOptions = {}): Promise<Store> {
  const location = databaseOf(config);
  let driver: SqlDriver;
  try {
    driver = await openDriver(location);
  } catch (error) {
    throw unavailable(error, location);
  }
  try {
    return await createStore(driver, options);
  } catch (error) {
    await driver.close().catch(() => undefined);
    throw unavailable(error, location);
  }
}

function unavailable(error: unknown, location: DatabaseLocation): unknown {
  if (error instanceof SiteError) return error;
  const reason = error instanceof StoreUnavailable || error instanceof Error ? error.message : String(error);
  return new SiteError({ code: 'STORE_UNAVAILABLE', message: `cannot open the database ${describeDatabase(location)}: ${location.kind === 'postgres' ? reason.replaceAll(location.url, redactUrl(location.url)) : reason}`, file: location.kind === 'sqlite' ? location.file : undefined, cause: error });
}
