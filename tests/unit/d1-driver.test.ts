/**
 * The d1 driver (src/store/d1.ts) over a stand-in for a D1 binding: an in-memory SQLite database
 * of @libsql/client behind D1's `prepare().bind().all()` and `batch()`. What it shows: the store's
 * migrations and bookings run on it; a transaction is one batch (all or nothing); a read after a
 * write and a write's result inside a transaction are refused rather than answered wrongly; a
 * failure of the database itself is StoreUnavailable. The real D1 is tested in
 * tests/targets/wrangler.test.ts.
 */
import { createClient, type Client, type InValue } from '@libsql/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoreUnavailable } from '../../src/store/driver';
import { openD1, type D1Database, type D1Result, type D1Statement } from '../../src/store/d1';
import { createStore } from '../../src/store/store';
import { latestVersion } from '../../src/store/migrations';

/** A D1 binding over a libSQL client, answering as D1 does ({ results, meta: { changes } }). */
function fakeD1(client: Client, fail?: () => Error | undefined): D1Database {
  const statement = (sql: string, args: InValue[] = []): D1Statement & { sql: string; args: InValue[] } => ({
    sql,
    args,
    bind: (...values: unknown[]) => statement(sql, values as InValue[]),
    async all(): Promise<D1Result> {
      const error = fail?.();
      if (error) throw error;
      const result = await client.execute({ sql, args });
      return {
        results: result.rows.map((row) => Object.fromEntries(result.columns.map((column) => [column, row[column]]))),
        meta: { changes: result.rowsAffected },
      };
    },
  });
  return {
    prepare: (sql) => statement(sql),
    async batch(statements) {
      const error = fail?.();
      if (error) throw error;
      const results = await client.batch(
        statements.map((item) => ({
          sql: (item as ReturnType<typeof statement>).sql,
          args: (item as ReturnType<typeof statement>).args,
        })),
        'write',
      );
      return results.map((result) => ({ results: [], meta: { changes: result.rowsAffected } }));
    },
  };
}

let client: Client;
beforeEach(() => {
  client = createClient({ url: ':memory:' });
});
afterEach(() => client.close());

const booking = (slotStart: string, slotEnd: string, email = 'ada@example.com') => ({
  slotStart,
  slotEnd,
  start: slotStart,
  end: slotEnd,
  bookedAt: '2026-01-01T00:00:00.000Z',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email,
});

describe('the d1 driver', () => {
  it('runs the store: migrations once, one booking per slot, the taken slots, a booking by id', async () => {
    const database = fakeD1(client);
    const store = await createStore(openD1(database));
    // A second instance of the worker finds the schema made.
    await createStore(openD1(database));
    expect((await client.execute('SELECT count(*) AS n FROM schema_migrations')).rows[0]!.n).toBe(latestVersion);
    const first = await store.book(booking('2026-03-02T08:00:00.000Z', '2026-03-02T08:30:00.000Z'));
    expect(first.booked).toBe(true);
    expect(
      await store.book(booking('2026-03-02T08:00:00.000Z', '2026-03-02T08:30:00.000Z', 'grace@example.com')),
    ).toEqual({ booked: false });
    expect(await store.takenSlots('2026-03-02T00:00:00.000Z', '2026-03-03T00:00:00.000Z')).toEqual([
      { slotStart: '2026-03-02T08:00:00.000Z', slotEnd: '2026-03-02T08:30:00.000Z' },
    ]);
    expect(await store.findBooking((first as { id: string }).id)).toMatchObject({
      slotStart: '2026-03-02T08:00:00.000Z',
      locale: 'en',
    });
  });

  it('keeps versions of saved files, capped per item (two statements: D1 reads no write inside a batch)', async () => {
    const store = await createStore(openD1(fakeD1(client)));
    const version = (n: number) => ({
      kind: 'page' as const,
      item: 'landing/no',
      at: `2026-03-02T08:00:0${n}.000Z`,
      by: 'anna@example.com',
      summary: 'hero.heading',
      files: { 'content/pages/landing/no.yaml': `heading: ${n}\n` },
    });
    const ids = [
      await store.addVersion(version(1), 2),
      await store.addVersion(version(2), 2),
      await store.addVersion(version(3), 2),
    ];
    expect((await store.listVersions('page', 'landing/no')).map((entry) => entry.id)).toEqual([ids[2], ids[1]]);
    expect((await store.findVersion('page', 'landing/no', ids[1]!))?.files).toEqual({
      'content/pages/landing/no.yaml': 'heading: 2\n',
    });
  });

  it('runs a transaction as one batch: all of it or nothing', async () => {
    const driver = openD1(fakeD1(client));
    await driver.execute('CREATE TABLE t (id TEXT PRIMARY KEY)');
    await driver.transaction(async (tx) => {
      expect((await tx.execute('SELECT count(*) AS n FROM t')).rows[0]!.n).toBe(0);
      await tx.execute('INSERT INTO t (id) VALUES (?)', ['a']);
      await tx.execute('INSERT INTO t (id) VALUES (?)', ['b']);
    });
    await expect(
      driver.transaction(async (tx) => {
        await tx.execute('INSERT INTO t (id) VALUES (?)', ['c']);
        await tx.execute('INSERT INTO t (id) VALUES (?)', ['a']);
      }),
    ).rejects.toThrow(/UNIQUE/);
    expect((await driver.execute('SELECT id FROM t ORDER BY id')).rows.map((row) => row.id)).toEqual(['a', 'b']);
  });

  it("refuses a read after a write, and a write's result, inside a transaction", async () => {
    const driver = openD1(fakeD1(client));
    await driver.execute('CREATE TABLE t (id TEXT PRIMARY KEY)');
    await expect(
      driver.transaction(async (tx) => {
        await tx.execute('INSERT INTO t (id) VALUES (?)', ['a']);
        await tx.execute('SELECT id FROM t');
      }),
    ).rejects.toThrow(/read before the first write/);
    await expect(
      driver.transaction(async (tx) => (await tx.execute('INSERT INTO t (id) VALUES (?) RETURNING id', ['a'])).rows),
    ).rejects.toThrow(/known only once/);
    expect((await driver.execute('SELECT count(*) AS n FROM t')).rows[0]!.n).toBe(0);
  });

  it('makes a failure of the database StoreUnavailable, and leaves a refused statement as it is', async () => {
    let failure: Error | undefined;
    const driver = openD1(fakeD1(client, () => failure));
    await expect(driver.execute('SELECT * FROM nowhere')).rejects.not.toBeInstanceOf(StoreUnavailable);
    failure = new Error('D1_ERROR: Network connection lost.');
    await expect(driver.execute('SELECT 1')).rejects.toBeInstanceOf(StoreUnavailable);
  });
});
