/** A store for a test: the SQLite file of a temp data folder (never the project's own data/). */
import { join } from 'node:path';
import { openSqlite } from '../../src/store/sqlite';
import { fixedStoreSource, type StoreSource } from '../../src/store/source';
import { createStore } from '../../src/store/store';

/** The store of `dataDir` (its site.db), as the servers take it; close it after. */
export async function storeIn(dataDir: string): Promise<StoreSource> {
  return fixedStoreSource(await createStore(await openSqlite(join(dataDir, 'site.db'))));
}

const camel = (column: string) => column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/**
 * The rows of a table of the store in `dataDir`, in the order they were written (SQLite's rowid),
 * with camelCase keys and without empty columns (null): what the JSON-lines files held as lines.
 */
export async function storedRows(
  dataDir: string,
  table: 'contact_messages' | 'bookings' | 'audit_log' | 'accounts' | 'sessions',
): Promise<Record<string, unknown>[]> {
  const driver = await openSqlite(join(dataDir, 'site.db'));
  try {
    await createStore(driver);
    const { rows } = await driver.execute(`SELECT * FROM ${table} ORDER BY rowid`);
    return rows.map((row) =>
      Object.fromEntries(
        Object.entries(row)
          .filter(([, value]) => value !== null)
          .map(([key, value]) => [key === 'received_at' ? 'receivedAt' : camel(key), value]),
      ),
    );
  } finally {
    await driver.close();
  }
}

/** A store in a new temp folder, removed when it is closed. */
export async function tempStore(): Promise<StoreSource> {
  const { mkdtemp, rm } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const folder = await mkdtemp(join(tmpdir(), 'site-test-store-'));
  const source = await storeIn(folder);
  return {
    get: () => source.get(),
    async close() {
      await source.close();
      await rm(folder, { recursive: true, force: true });
    },
  };
}

/** The audit log of the store in `dataDir`, oldest first (as the JSON-lines log was appended). */
export async function auditEntries(dataDir: string): Promise<Record<string, unknown>[]> {
  return (await storedRows(dataDir, 'audit_log')).map(
    (row) => JSON.parse(String(row.record)) as Record<string, unknown>,
  );
}
