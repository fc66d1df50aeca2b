/**
 * A `postgres` SqlDriver on PGlite (Postgres compiled to WebAssembly, in this process), for the
 * tests of the Postgres dialect on a machine where no Postgres server can start. It behaves as the
 * postgres.js driver does (numbered placeholders, integers as numbers, nested transactions as
 * savepoints) but has one connection: what needs two (two processes booking at once) needs a
 * real server.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import type { SqlDriver, SqlExecutor, SqlResult, SqlRow, SqlValue } from '../../src/store/driver';
import { toPostgresPlaceholders } from '../../src/store/postgres';

/** Opens a new, empty in-memory database (with btree_gist available, as Debian's postgresql has it). */
export async function openPglite(): Promise<SqlDriver> {
  const db = await PGlite.create({
    extensions: { btree_gist },
    parsers: {
      20: (raw: string) => (Number.isSafeInteger(Number(raw)) ? Number(raw) : BigInt(raw)),
      1700: (raw: string) => Number(raw),
    },
  });
  // PGlite runs one statement at a time and queues the others behind an open transaction, so a
  // statement of the transaction's own work must go to the transaction or it waits for ever.
  const current = new AsyncLocalStorage<{ tx: Transaction; savepoints: number }>();

  async function run(on: PGlite | Transaction, text: string, params: readonly SqlValue[]): Promise<SqlResult> {
    const result = await on.query<Record<string, unknown>>(toPostgresPlaceholders(text), [...params]);
    const rows = result.rows.map((row) => {
      const out: SqlRow = {};
      for (const [name, value] of Object.entries(row)) {
        out[name] =
          typeof value === 'boolean'
            ? Number(value)
            : value instanceof Date
              ? value.toISOString()
              : (value as SqlValue);
      }
      return out;
    });
    return { rows, changes: result.affectedRows ?? rows.length };
  }

  function executorOn(tx: Transaction): SqlExecutor {
    return { dialect: 'postgres', execute: (text, params = []) => run(tx, text, params) };
  }

  return {
    dialect: 'postgres',
    execute(text, params = []) {
      return run(current.getStore()?.tx ?? db, text, params);
    },
    async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      const outer = current.getStore();
      if (!outer) return db.transaction((tx) => current.run({ tx, savepoints: 0 }, () => work(executorOn(tx))));
      const name = `nested_${++outer.savepoints}`;
      await outer.tx.query(`SAVEPOINT ${name}`);
      try {
        const value = await work(executorOn(outer.tx));
        await outer.tx.query(`RELEASE SAVEPOINT ${name}`);
        return value;
      } catch (error) {
        await outer.tx.query(`ROLLBACK TO SAVEPOINT ${name}`);
        throw error;
      }
    },
    async close() {
      // The suites close their store and the helper closes what it opened: closing twice is fine.
      if (!db.closed) await db.close();
    },
  };
}
