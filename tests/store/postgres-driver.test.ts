/**
 * The postgres driver on its own: placeholders, the values rows come back with, transactions
 * (nested ones, and the driver called inside one), and a server that is down or silent becoming
 * StoreUnavailable without the password in any message. The same checks run on PGlite, the
 * fallback where no server can start.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreUnavailable, type SqlDriver } from '../../src/store/driver';
import { describePostgresUrl, openPostgres, toPostgresPlaceholders } from '../../src/store/postgres';
import { openPglite } from '../helpers/pglite-driver';
import { startTestPostgres } from '../helpers/postgres';

describe('toPostgresPlaceholders', () => {
  it('numbers the placeholders in order', () => {
    expect(toPostgresPlaceholders('INSERT INTO t (a, b) VALUES (?, ?) RETURNING id')).toBe(
      'INSERT INTO t (a, b) VALUES ($1, $2) RETURNING id',
    );
  });

  it('leaves a ? inside strings, quoted identifiers and comments', () => {
    const text = `SELECT '?', 'it''s ?', E'\\'?', "col?", $$?$$, $tag$ ? $tag$ -- ?\n, ? /* ? /* ? */ ? */ FROM t WHERE a = ?`;
    expect(toPostgresPlaceholders(text)).toBe(
      `SELECT '?', 'it''s ?', E'\\'?', "col?", $$?$$, $tag$ ? $tag$ -- ?\n, $1 /* ? /* ? */ ? */ FROM t WHERE a = $2`,
    );
  });

  it('does not take $1 or a name ending in $ for a dollar quote', () => {
    expect(toPostgresPlaceholders('SELECT a$ , ? , $1')).toBe('SELECT a$ , $1 , $1');
  });
});

describe('describePostgresUrl', () => {
  it('names host, port and database, never the password', () => {
    expect(describePostgresUrl('postgres://site:s3cret@db.example:6543/mendwise')).toBe('db.example:6543/mendwise');
    expect(describePostgresUrl('postgresql://site:s3cret@db.example/mendwise')).toBe('db.example:5432/mendwise');
  });

  it('refuses what is not a Postgres URL without repeating it', () => {
    expect(() => describePostgresUrl('site:s3cret@db')).toThrow(StoreUnavailable);
    expect(() => describePostgresUrl('site:s3cret@db')).not.toThrow(/s3cret/);
    expect(() => describePostgresUrl('mysql://site:s3cret@db/x')).toThrow(/mysql:/);
  });
});

const postgres = await startTestPostgres();
afterAll(() => postgres.stop());

/** The driver behaviour both drivers of the Postgres dialect share. */
function describeDialect(name: string, open: () => Promise<SqlDriver>) {
  describe(name, () => {
    let db: SqlDriver;
    beforeAll(async () => {
      db = await open();
      await db.execute(
        'CREATE TABLE things (id TEXT PRIMARY KEY, n INTEGER NOT NULL, big BIGINT, done INTEGER NOT NULL DEFAULT 0)',
      );
    });

    it('inserts with ON CONFLICT DO NOTHING and counts the rows changed', async () => {
      expect(
        (await db.execute('INSERT INTO things (id, n) VALUES (?, ?) ON CONFLICT DO NOTHING', ['a', 1])).changes,
      ).toBe(1);
      expect(
        (await db.execute('INSERT INTO things (id, n) VALUES (?, ?) ON CONFLICT DO NOTHING', ['a', 2])).changes,
      ).toBe(0);
      const returned = await db.execute('INSERT INTO things (id, n, big) VALUES (?, ?, ?) RETURNING id, n, big', [
        'b',
        2,
        2n ** 40n,
      ]);
      expect(returned).toEqual({ rows: [{ id: 'b', n: 2, big: 2 ** 40 }], changes: 1 });
      expect((await db.execute('UPDATE things SET done = 1 WHERE id IN (?, ?)', ['a', 'b'])).changes).toBe(2);
    });

    it('reads counts and sums as numbers, and an int8 beyond 2^53 as a bigint', async () => {
      const { rows } = await db.execute(
        'SELECT count(*) AS count, sum(n) AS total, sum(big) AS big_total, max(done) AS done FROM things',
      );
      expect(rows).toEqual([{ count: 2, total: 3, big_total: 2 ** 40, done: 1 }]);
      const huge = await db.execute('SELECT CAST(? AS BIGINT) AS huge', [2n ** 60n]);
      expect(huge.rows[0]!.huge).toBe(2n ** 60n);
    });

    it('commits a transaction that resolves and rolls back one that throws', async () => {
      await db.transaction(async (tx) => {
        await tx.execute('INSERT INTO things (id, n) VALUES (?, ?)', ['c', 3]);
      });
      await expect(
        db.transaction(async (tx) => {
          await tx.execute('INSERT INTO things (id, n) VALUES (?, ?)', ['d', 4]);
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      const { rows } = await db.execute('SELECT id FROM things ORDER BY id');
      expect(rows.map((row) => row.id)).toEqual(['a', 'b', 'c']);
    });

    it('runs the driver called inside a transaction on its connection, and a nested one as a savepoint', async () => {
      await db.transaction(async (tx) => {
        await tx.execute('INSERT INTO things (id, n) VALUES (?, ?)', ['e', 5]);
        // On another connection this would not see row e.
        expect((await db.execute('SELECT count(*) AS count FROM things WHERE id = ?', ['e'])).rows).toEqual([
          { count: 1 },
        ]);
        await expect(
          db.transaction(async (inner) => {
            await inner.execute('INSERT INTO things (id, n) VALUES (?, ?)', ['f', 6]);
            throw new Error('inner fails');
          }),
        ).rejects.toThrow('inner fails');
        await db.transaction((inner) => inner.execute('INSERT INTO things (id, n) VALUES (?, ?)', ['g', 7]));
      });
      const { rows } = await db.execute('SELECT id FROM things WHERE id IN (?, ?, ?) ORDER BY id', ['e', 'f', 'g']);
      expect(rows.map((row) => row.id)).toEqual(['e', 'g']);
    });

    it('lets an error of the statement through as it is', async () => {
      const error = await db
        .execute('INSERT INTO things (id, n) VALUES (?, ?)', ['a', 1])
        .catch((caught: unknown) => caught);
      expect(error).not.toBeInstanceOf(StoreUnavailable);
      expect(error).toMatchObject({ code: '23505' });
    });
  });
}

describeDialect(
  postgres.server ? 'postgres.js on a real server' : `postgres dialect on PGlite (${postgres.noServerReason})`,
  () => postgres.openDatabase(),
);
describeDialect('PGlite', openPglite);

describe('postgres.js when the server is not there', () => {
  it.skipIf(!postgres.server)(
    `a stopped server is StoreUnavailable, without the password${postgres.server ? '' : ` (skipped: ${postgres.noServerReason})`}`,
    async () => {
      const url = await postgres.server!.createDatabase();
      const password = new URL(url).password;
      // A port that was just free: nothing listens there.
      const closed = await new Promise<number>((resolve) => {
        const probe = createServer().listen(0, '127.0.0.1', () => {
          const port = (probe.address() as { port: number }).port;
          probe.close(() => resolve(port));
        });
      });
      const db = await openPostgres(url.replace(/:\d+\//, `:${closed}/`));
      const error = await db.execute('SELECT 1').catch((caught: unknown) => caught);
      await db.close();
      expect(error).toBeInstanceOf(StoreUnavailable);
      expect((error as Error).message).toMatch(/127\.0\.0\.1:\d+\/test_\d+ is unavailable \(ECONNREFUSED\)/);
      expect(inspect(error, { depth: 5 })).not.toContain(password);
    },
  );

  it('a name that resolves to two addresses, neither listening, is StoreUnavailable', async () => {
    // localhost is ::1 and 127.0.0.1: Node reports both refusals in one AggregateError.
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const port = (probe.address() as { port: number }).port;
        probe.close(() => resolve(port));
      });
    });
    const db = await openPostgres(`postgres://site:s3cret-pw@localhost:${closed}/site`);
    const error = await db.execute('SELECT 1').catch((caught: unknown) => caught);
    await db.close();
    expect(error).toBeInstanceOf(StoreUnavailable);
    expect((error as Error).message).toContain(`localhost:${closed}/site is unavailable`);
  });

  it('a server that accepts but never answers is StoreUnavailable after the connect timeout', async () => {
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    const db = await openPostgres(`postgres://site:s3cret-pw@127.0.0.1:${port}/site`, { connectTimeoutSeconds: 1 });
    const started = Date.now();
    const error = await db.transaction((tx) => tx.execute('SELECT 1')).catch((caught: unknown) => caught);
    const waited = Date.now() - started;
    await db.close();
    for (const socket of sockets) socket.destroy();
    silent.close();
    expect(error).toBeInstanceOf(StoreUnavailable);
    expect((error as Error).message).toContain('CONNECT_TIMEOUT');
    expect(inspect(error, { depth: 5 })).not.toContain('s3cret-pw');
    expect(waited).toBeLessThan(5_000);
  });

  it.skipIf(!postgres.server)(
    `a wrong password is StoreUnavailable naming the sign-in, not the password${postgres.server ? '' : ` (skipped: ${postgres.noServerReason})`}`,
    async () => {
      const url = new URL(await postgres.server!.createDatabase());
      url.password = 'not-the-password';
      const db = await openPostgres(url.href);
      const error = await db.execute('SELECT 1').catch((caught: unknown) => caught);
      await db.close();
      expect(error).toBeInstanceOf(StoreUnavailable);
      expect((error as Error).message).toMatch(/28P01.*password authentication failed/);
      expect(inspect(error, { depth: 5 })).not.toContain('not-the-password');
    },
  );
});
