/**
 * The store on Postgres: what holds across processes holds with two processes on one server
 * (exactly one booking per slot, no two meetings overlapping when their lengths differ, the
 * migrations applied once when both start at once), and a server that goes down makes the store
 * unavailable (a 503), not a crash. On a machine with no Postgres binaries these tests are skipped
 * by name (tests/helpers/postgres.ts); the dialect itself still runs on PGlite in
 * postgres-driver.test.ts, and the store's whole suite (store-suite.ts) runs on PGlite here.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SiteError } from '../../src/errors';
import { StoreUnavailable } from '../../src/store/driver';
import { latestVersion } from '../../src/store/migrations';
import { openPostgres } from '../../src/store/postgres';
import { backupPostgres } from '../../src/store/postgres-backup';
import { createStore } from '../../src/store/store';
import { outputRoot, repoRoot } from '../helpers/paths';
import { startPostgresServer, startTestPostgres } from '../helpers/postgres';
import { describeStore } from './store-suite';

const postgres = await startTestPostgres();
afterAll(() => postgres.stop());
const needsServer = postgres.server ? '' : ` (skipped: ${postgres.noServerReason})`;

// The same suite as SQLite's, each test on a new database of the server (or a new PGlite).
describeStore(postgres.server ? 'postgres' : `postgres on PGlite (${postgres.noServerReason})`, () =>
  postgres.openDatabase(),
);

/** The booking process, bundled once: the child runs plain JavaScript, its packages from node_modules. */
let processScript = '';
beforeAll(async () => {
  if (!postgres.server) return;
  await mkdir(outputRoot, { recursive: true });
  processScript = join(outputRoot, `book-slots-process-${process.pid}.mjs`);
  await build({
    entryPoints: [join(repoRoot, 'tests/store/book-slots-process.ts')],
    outfile: processScript,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    logLevel: 'error',
  });
});

/** Starts the booking process; resolves when it is ready, with `go()` that starts it and resolves with how many it booked. */
async function startBookingProcess(
  url: string,
  first: string,
  count: number,
  minutes: number,
): Promise<{ go(): Promise<number> }> {
  const child = spawn(process.execPath, [processScript, first, String(count), String(minutes)], {
    cwd: repoRoot,
    env: { ...process.env, DATABASE_URL: url },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => {
    const line = await lines.next();
    if (line.done) throw new Error(`the booking process ended early:\n${stderr}`);
    return line.value;
  };
  expect(await next()).toBe('ready');
  return {
    async go() {
      child.stdin.write('go\n');
      const result = JSON.parse(await next()) as { booked: number };
      child.stdin.end();
      return result.booked;
    },
  };
}

describe('two processes on one Postgres database', () => {
  it.skipIf(!postgres.server)(
    `booking the same 200 slots at once get exactly 200 bookings between them, one per slot${needsServer}`,
    async () => {
      const url = await postgres.server!.createDatabase();
      const first = '2031-03-03T08:00:00.000Z';
      // Both open the store on an empty database at the same moment: the migrations race too.
      const processes = await Promise.all([
        startBookingProcess(url, first, 200, 30),
        startBookingProcess(url, first, 200, 30),
      ]);
      const booked = await Promise.all(processes.map((child) => child.go()));
      expect(booked[0]! + booked[1]!).toBe(200);

      const db = await openPostgres(url);
      const { rows } = await db.execute(
        'SELECT count(*) AS bookings, count(DISTINCT slot_start) AS slots FROM bookings',
      );
      const versions = await db.execute('SELECT version FROM schema_migrations ORDER BY version');
      await db.close();
      expect(rows).toEqual([{ bookings: 200, slots: 200 }]);
      expect(versions.rows.map((row) => row.version)).toEqual(
        Array.from({ length: latestVersion }, (_, index) => index + 1),
      );
    },
  );

  it.skipIf(!postgres.server)(
    `booking 30- and 45-minute slots over the same hours at once never overlap${needsServer}`,
    async () => {
      const url = await postgres.server!.createDatabase();
      await (await createStore(await openPostgres(url))).close();
      const first = '2031-03-03T08:00:00.000Z';
      // The meeting length changed while a second server still offers the old one: 120 half-hour
      // slots and 80 slots of 45 minutes cover the same 60 hours, and most pairs overlap.
      const processes = await Promise.all([
        startBookingProcess(url, first, 120, 30),
        startBookingProcess(url, first, 80, 45),
      ]);
      const booked = await Promise.all(processes.map((child) => child.go()));

      const db = await openPostgres(url);
      const overlaps = await db.execute(
        'SELECT count(*) AS n FROM bookings a JOIN bookings b ON a.id < b.id AND a.slot_start < b.slot_end AND b.slot_start < a.slot_end',
      );
      const total = await db.execute('SELECT count(*) AS n FROM bookings');
      await db.close();
      expect(overlaps.rows).toEqual([{ n: 0 }]);
      expect(total.rows[0]!.n).toBe(booked[0]! + booked[1]!);
      expect(booked[0]! + booked[1]!).toBeGreaterThanOrEqual(80);
    },
  );
});

describe('opening the store', () => {
  it.skipIf(!postgres.server)(
    `three stores (each its own pool) migrating an empty database at once all open (10 rounds)${needsServer}`,
    async () => {
      // Without the store's advisory lock, about one round in five failed here: concurrent
      // CREATE TABLE IF NOT EXISTS collide in Postgres's catalogue.
      const failures: string[] = [];
      for (let round = 0; round < 10; round++) {
        const url = await postgres.server!.createDatabase();
        const drivers = await Promise.all([1, 2, 3].map(() => openPostgres(url)));
        const opened = await Promise.allSettled(drivers.map((driver) => createStore(driver)));
        for (const result of opened) if (result.status === 'rejected') failures.push((result.reason as Error).message);
        await Promise.all(drivers.map((driver) => driver.close()));
      }
      expect(failures).toEqual([]);
    },
  );

  it('imports old bookings that overlap (a changed meeting length), marking the later one', async () => {
    const store = await createStore(await postgres.openDatabase());
    const who = {
      firstName: 'A',
      lastName: 'L',
      email: 'a@example.com',
      start: '',
      end: '',
      bookedAt: '2030-12-01T00:00:00.000Z',
    };
    const counts = await store.importLegacy({
      contacts: [],
      accounts: [],
      audit: [],
      bookings: [
        { id: 'half-hour', slotStart: '2031-01-01T10:00:00.000Z', slotEnd: '2031-01-01T10:30:00.000Z', ...who },
        { id: 'three-quarters', slotStart: '2031-01-01T10:15:00.000Z', slotEnd: '2031-01-01T11:00:00.000Z', ...who },
      ],
    });
    expect(counts).toMatchObject({ bookings: 2 });
    expect(await store.takenSlots('2031-01-01T00:00:00.000Z', '2031-01-02T00:00:00.000Z')).toHaveLength(2);
    expect(
      await store.book({ ...who, slotStart: '2031-01-01T10:45:00.000Z', slotEnd: '2031-01-01T11:15:00.000Z' }),
    ).toEqual({ booked: false });
    await store.close();
  });
});

describe('sign-in budgets under concurrent claims', () => {
  it.skipIf(!postgres.server)(
    `let exactly the budget through, from two pools at once (20 rounds of 10 claims for 2 places)${needsServer}`,
    async () => {
      const url = await postgres.server!.createDatabase();
      const stores = [await createStore(await openPostgres(url)), await createStore(await openPostgres(url))];
      const granted: number[] = [];
      for (let round = 0; round < 20; round++) {
        const claims = [
          { key: `address:${round}`, limit: 5 },
          { key: `account:${round}`, limit: 2 },
        ];
        const results = await Promise.all(
          Array.from({ length: 10 }, (_, index) =>
            stores[index % 2]!.claimAttempts(claims, '2031-01-01T10:00:00.000Z', '2031-01-01T09:45:00.000Z'),
          ),
        );
        granted.push(results.filter(Boolean).length);
      }
      await Promise.all(stores.map((store) => store.close()));
      expect(granted).toEqual(Array(20).fill(2));
    },
  );
});

describe('one booking being written while another overlaps it', () => {
  it.skipIf(!postgres.server)(
    `waits for the first to commit, then is refused (the exclusion constraint, not only NOT EXISTS)${needsServer}`,
    async () => {
      const url = await postgres.server!.createDatabase();
      const second = await createStore(await openPostgres(url));
      const meeting = {
        start: '',
        end: '',
        bookedAt: '2031-01-01T00:00:00.000Z',
        firstName: 'A',
        lastName: 'L',
        email: 'a@example.com',
      };
      let commit!: () => void;
      const held = new Promise<void>((resolve) => (commit = resolve));
      let bookedInside!: () => void;
      const inside = new Promise<void>((resolve) => (bookedInside = resolve));
      // The first booking (10:00-10:30) is written in a transaction that stays open.
      const firstDriver = await openPostgres(url);
      const firstBooking = firstDriver.transaction(async (tx) => {
        const { rows } = await tx.execute(
          'INSERT INTO bookings (id, slot_start, slot_end, start, "end", booked_at, first_name, last_name, email) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id',
          [
            'held',
            '2031-01-01T10:00:00.000Z',
            '2031-01-01T10:30:00.000Z',
            '',
            '',
            meeting.bookedAt,
            'A',
            'L',
            'a@example.com',
          ],
        );
        bookedInside();
        await held;
        return rows.length;
      });
      await inside;
      // A 45-minute slot from 10:15 overlaps it. Its NOT EXISTS cannot see the uncommitted row;
      // without the constraint it would be booked at once.
      const overlapping = second.book({
        ...meeting,
        slotStart: '2031-01-01T10:15:00.000Z',
        slotEnd: '2031-01-01T11:00:00.000Z',
      });
      const early = await Promise.race([
        overlapping,
        new Promise((resolve) => setTimeout(() => resolve('still waiting'), 500)),
      ]);
      expect(early).toBe('still waiting');
      commit();
      expect(await firstBooking).toBe(1);
      expect(await overlapping).toEqual({ booked: false });
      // A slot that only touches it (10:30-11:15) is free.
      expect(
        await second.book({ ...meeting, slotStart: '2031-01-01T10:30:00.000Z', slotEnd: '2031-01-01T11:15:00.000Z' }),
      ).toMatchObject({ booked: true });
      await Promise.all([second.close(), firstDriver.close()]);
    },
  );
});

describe('a Postgres server that goes down', () => {
  it.skipIf(!postgres.server)(
    `makes the store unavailable: StoreUnavailable (a 503), without the password${needsServer}`,
    async () => {
      const own = await startPostgresServer(postgres.server!.binDir);
      try {
        const store = await createStore(await openPostgres(own.url, { connectTimeoutSeconds: 2 }));
        await store.addContactMessage({
          receivedAt: new Date().toISOString(),
          firstName: 'Ada',
          lastName: 'L',
          email: 'ada@example.com',
          message: 'Before',
        });
        await own.stop();
        const error = await store
          .addContactMessage({
            receivedAt: new Date().toISOString(),
            firstName: 'Ada',
            lastName: 'L',
            email: 'ada@example.com',
            message: 'While down',
          })
          .catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(StoreUnavailable);
        expect((error as Error).message).not.toContain(new URL(own.url).password);
        const booking = await store
          .book({
            slotStart: '2031-01-01T09:00:00.000Z',
            slotEnd: '2031-01-01T09:30:00.000Z',
            start: '',
            end: '',
            bookedAt: new Date().toISOString(),
            firstName: 'A',
            lastName: 'L',
            email: 'a@example.com',
          })
          .catch((caught: unknown) => caught);
        expect(booking).toBeInstanceOf(StoreUnavailable);
        await store.close();
      } finally {
        await own.stop();
      }
    },
  );

  it.skipIf(!postgres.server)(
    `that was never up refuses to open the store with StoreUnavailable${needsServer}`,
    async () => {
      const url = new URL(await postgres.server!.createDatabase());
      url.port = '1';
      const driver = await openPostgres(url.href);
      const error = await createStore(driver).catch((caught: unknown) => caught);
      await driver.close();
      expect(error).toBeInstanceOf(StoreUnavailable);
    },
  );
});

describe('site db backup on Postgres (pg_dump)', () => {
  it.skipIf(!postgres.server)(`writes a private dump that pg_restore reads back whole${needsServer}`, async () => {
    const url = await postgres.server!.createDatabase();
    const store = await createStore(await openPostgres(url));
    await store.addContactMessage({
      receivedAt: '2031-01-01T09:00:00.000Z',
      firstName: 'Ada',
      lastName: 'L',
      email: 'ada@example.com',
      message: 'Keep me',
    });
    await store.book({
      slotStart: '2031-01-02T09:00:00.000Z',
      slotEnd: '2031-01-02T09:30:00.000Z',
      start: '',
      end: '',
      bookedAt: '2031-01-01T09:00:00.000Z',
      firstName: 'Ada',
      lastName: 'L',
      email: 'ada@example.com',
    });
    const folder = await mkdtemp(join(outputRoot, 'pg-backup-'));
    const file = join(folder, 'site.dump');
    const backup = await backupPostgres(url, file);
    expect(backup.bytes).toBeGreaterThan(0);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    await expect(backupPostgres(url, file)).rejects.toThrow(/EEXIST/);

    const restored = new URL(await postgres.server!.createDatabase());
    const password = decodeURIComponent(restored.password);
    restored.password = '';
    const pgRestore = existsSync(join(postgres.server!.binDir, 'pg_restore'))
      ? join(postgres.server!.binDir, 'pg_restore')
      : 'pg_restore';
    execFileSync(pgRestore, ['--no-owner', `--dbname=${restored.href}`, file], {
      env: { ...process.env, PGPASSWORD: password },
      stdio: 'pipe',
    });
    restored.password = password;
    const copy = await createStore(await openPostgres(restored.href));
    expect(await copy.counts()).toEqual(await store.counts());
    // The exclusion constraint came back with the tables.
    expect(
      await copy.book({
        slotStart: '2031-01-02T09:15:00.000Z',
        slotEnd: '2031-01-02T10:00:00.000Z',
        start: '',
        end: '',
        bookedAt: '2031-01-01T09:00:00.000Z',
        firstName: 'B',
        lastName: 'L',
        email: 'b@example.com',
      }),
    ).toEqual({ booked: false });
    await Promise.all([store.close(), copy.close()]);
  });

  it('gives pg_dump the password in its environment, never on its command line', async () => {
    const folder = await mkdtemp(join(outputRoot, 'pg-backup-'));
    const fake = join(folder, 'pg_dump');
    await writeFile(
      fake,
      `#!/bin/sh\nprintf '%s\\n' "$@" > '${folder}/argv'\nprintf '%s' "$PGPASSWORD" > '${folder}/password'\n`,
    );
    await chmod(fake, 0o755);
    await backupPostgres(
      'postgres://site:p%40ss%3Aword@db.example:6543/mendwise?sslmode=require',
      join(folder, 'site.dump'),
      { pgDump: fake },
    );
    const argv = await readFile(join(folder, 'argv'), 'utf8');
    expect(argv).not.toMatch(/p%40ss|p@ss/);
    expect(argv).toContain('--dbname=postgres://site@db.example:6543/mendwise?sslmode=require');
    expect(await readFile(join(folder, 'password'), 'utf8')).toBe('p@ss:word');
  });

  it('without pg_dump, or when it fails, says what to do and leaves no file', async () => {
    const folder = await mkdtemp(join(outputRoot, 'pg-backup-'));
    const missing = await backupPostgres('postgres://site:pw@db.example/mendwise', join(folder, 'a.dump'), {
      pgDump: join(folder, 'no-pg_dump'),
    }).catch((caught: unknown) => caught);
    expect(missing).toBeInstanceOf(SiteError);
    expect((missing as SiteError).message).toBe(
      `cannot back up db.example:5432/mendwise: pg_dump is not at ${join(folder, 'no-pg_dump')}`,
    );
    expect((missing as SiteError).hint).toMatch(/apt-get install postgresql-client/);
    await expect(stat(join(folder, 'a.dump'))).rejects.toThrow(/ENOENT/);
    const failing = join(folder, 'pg_dump');
    await writeFile(
      failing,
      '#!/bin/sh\necho "pg_dump: error: connection to server failed: password pw refused" >&2\nexit 1\n',
    );
    await chmod(failing, 0o755);
    const failed = await backupPostgres('postgres://site:pw@db.example/mendwise', join(folder, 'b.dump'), {
      pgDump: failing,
    }).catch((caught: unknown) => caught);
    expect((failed as SiteError).code).toBe('STORE_UNAVAILABLE');
    expect((failed as SiteError).message).toBe(
      'cannot back up db.example:5432/mendwise: pg_dump: error: connection to server failed: password *** refused',
    );
    await expect(stat(join(folder, 'b.dump'))).rejects.toThrow(/ENOENT/);
  });
});
