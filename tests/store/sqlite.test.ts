/** The store's suite on SQLite, and what only the SQLite driver does: private files, WAL, two connections on one file, 503 when locked. */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StoreUnavailable } from '../../src/store/driver';
import { openSqlite } from '../../src/store/sqlite';
import { createStore } from '../../src/store/store';
import { bookingAt, describeStore } from './store-suite';

const folders: string[] = [];
async function freshFolder(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'site-store-'));
  folders.push(folder);
  return folder;
}
afterAll(async () => {
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

describeStore('sqlite', async () => openSqlite(join(await freshFolder(), 'data', 'site.db')));

describe('the sqlite driver', () => {
  it('creates the database 0600 in a folder it creates 0700, in WAL mode with full sync', async () => {
    const folder = join(await freshFolder(), 'data');
    const driver = await openSqlite(join(folder, 'site.db'));
    try {
      expect((await stat(folder)).mode & 0o777).toBe(0o700);
      expect((await stat(join(folder, 'site.db'))).mode & 0o777).toBe(0o600);
      expect((await driver.execute('PRAGMA journal_mode')).rows[0]).toEqual({ journal_mode: 'wal' });
      expect((await driver.execute('PRAGMA synchronous')).rows[0]).toEqual({ synchronous: 2 });
      expect((await driver.execute('PRAGMA foreign_keys')).rows[0]).toEqual({ foreign_keys: 1 });
    } finally {
      await driver.close();
    }
  });

  it('shares one file between two connections (two processes): one booking per slot, and a delete seen by both', async () => {
    const file = join(await freshFolder(), 'site.db');
    const [a, b] = [await createStore(await openSqlite(file)), await createStore(await openSqlite(file))];
    try {
      const results = await Promise.all([
        ...Array.from({ length: 5 }, () => a.book(bookingAt('2030-03-01T09:00:00Z'))),
        ...Array.from({ length: 5 }, () => b.book(bookingAt('2030-03-01T09:00:00Z'))),
      ]);
      const booked = results.filter((result) => result.booked);
      expect(booked).toHaveLength(1);
      const id = (booked[0] as { id: string }).id;
      expect(await b.deleteInboxItem(`booking-${id}`)).toBeDefined();
      expect(await a.takenSlots('2030-03-01T00:00:00.000Z', '2030-03-02T00:00:00.000Z')).toEqual([]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('commits every write that resolved, also on a connection that met the write lock of another', async () => {
    // A libsql connection whose statement failed with SQLITE_BUSY kept a transaction open and
    // never committed what it wrote next: the driver drops such a connection.
    const file = join(await freshFolder(), 'site.db');
    const [pruning, adding] = [await createStore(await openSqlite(file)), await createStore(await openSqlite(file))];
    try {
      const message = (n: number) => ({
        receivedAt: new Date().toISOString(),
        firstName: `during${n}`,
        lastName: 'X',
        email: 'x@visitor.example',
        message: 'Hi',
      });
      for (let round = 0; round < 5; round++) {
        await Promise.all([
          pruning.pruneInbox('2000-01-01T00:00:00.000Z'),
          ...Array.from({ length: 20 }, (_, n) => adding.addContactMessage(message(n))),
        ]);
      }
      const reader = await createStore(await openSqlite(file));
      expect(await reader.listInbox()).toHaveLength(100);
      await reader.close();
    } finally {
      await pruning.close();
      await adding.close();
    }
  });

  it('lets the event loop turn between queued statements, so pages are answered between commits', async () => {
    // libsql runs a statement (its fsync included) on the event loop, and answers with a settled
    // promise: 100 statements queued at once ran back to back in one turn, and no request was read meanwhile.
    const store = await createStore(await openSqlite(join(await freshFolder(), 'site.db')));
    try {
      let done = 0;
      const writes = Array.from({ length: 100 }, (_, n) =>
        store.appendAudit({ time: '2030-01-01T00:00:00.000Z', user: 'x', action: `queued ${n}` }).then(() => done++),
      );
      const doneAtNextTurn = await new Promise<number>((resolve) => setImmediate(() => resolve(done)));
      await Promise.all(writes);
      expect(done).toBe(100);
      expect(doneAtNextTurn).toBeLessThan(10);
    } finally {
      await store.close();
    }
  });

  it('answers StoreUnavailable once another connection has held the write lock past the busy timeout', async () => {
    const file = join(await freshFolder(), 'site.db');
    const holder = await openSqlite(file);
    const store = await createStore(holder);
    const waiting = await createStore(await openSqlite(file, { busyTimeoutMs: 200 }));
    let release!: () => void;
    const held = holder.transaction(async (tx) => {
      await tx.execute('INSERT INTO audit_log (time, actor, action, record) VALUES (?, ?, ?, ?)', [
        '2030-01-01T00:00:00.000Z',
        'x',
        'held',
        '{}',
      ]);
      await new Promise<void>((done) => (release = done));
    });
    try {
      await new Promise((done) => setTimeout(done, 20));
      const started = Date.now();
      await expect(
        waiting.addContactMessage({
          receivedAt: '2030-01-01T00:00:00.000Z',
          firstName: 'a',
          lastName: 'b',
          email: 'a@b.co',
          message: 'm',
        }),
      ).rejects.toBeInstanceOf(StoreUnavailable);
      expect(Date.now() - started).toBeGreaterThanOrEqual(180);
    } finally {
      release();
      await held;
      await waiting.close();
      await store.close();
    }
  });
});
