/**
 * The `sqlite` driver: a local database file through @libsql/client (prebuilt, no compiler at
 * install). Settings, and why:
 *
 * - `journal_mode=WAL`: readers never wait for the writer, and two processes (two `site serve`,
 *   or a server and `site admin prune-inbox`) share the file safely.
 * - `synchronous=FULL`: in WAL mode, NORMAL skips the fsync at each commit and a power cut can
 *   lose the last commits. A 201 promises the message is on disk, so every commit is fsync'd, as
 *   the JSON-lines store fsync'd every line.
 * - The busy wait is done here, not inside SQLite: libsql runs statements synchronously on the
 *   event loop, so SQLite's own busy_timeout would freeze the whole server while another process
 *   writes. SQLite waits at most `busySliceMs` itself; past that the statement is retried after
 *   a pause, until `busyTimeoutMs` (5 s) has passed, then the caller gets StoreUnavailable (503).
 * - `foreign_keys=ON`, one connection per process with statements queued in order, so a
 *   transaction (BEGIN IMMEDIATE: two processes queue rather than fail) never shares its
 *   connection with anything else; each statement waits for a turn of the event loop, so the
 *   server answers requests between two of them.
 * - The file is created 0600 in a folder created 0700 (the WAL and shared-memory files SQLite
 *   makes beside it take the database's mode).
 */
import { chmod, mkdir, open, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Client, InArgs, ResultSet, Transaction } from '@libsql/client';
import {
  StoreUnavailable,
  type SqlDriver,
  type SqlExecutor,
  type SqlResult,
  type SqlRow,
  type SqlValue,
  type StoreFault,
} from './driver.js';

/** Options of `openSqlite`. */
export interface SqliteOptions {
  /** How long a statement waits for another process's write before it fails (default 5000 ms). */
  busyTimeoutMs?: number;
}

/** How long SQLite itself waits for a lock before handing back to the event loop. */
const busySliceMs = 25;

/** SQLite's primary result codes that mean the database, not the statement, is the problem. */
const unavailableCodes = new Set([
  5 /* BUSY */, 6 /* LOCKED */, 7 /* NOMEM */, 8 /* READONLY */, 10 /* IOERR */, 11 /* CORRUPT */, 13 /* FULL */,
  14 /* CANTOPEN */, 15 /* PROTOCOL */, 26 /* NOTADB */,
]);

/** The primary result code of a libsql error, if it carries one. */
function resultCodeOf(error: unknown): number | undefined {
  const raw = (error as { rawCode?: unknown }).rawCode;
  if (typeof raw === 'number') return raw & 0xff;
  const code = String((error as { code?: unknown }).code ?? '');
  const named: Record<string, number> = {
    SQLITE_BUSY: 5,
    SQLITE_LOCKED: 6,
    SQLITE_READONLY: 8,
    SQLITE_IOERR: 10,
    SQLITE_CORRUPT: 11,
    SQLITE_FULL: 13,
    SQLITE_CANTOPEN: 14,
    SQLITE_NOTADB: 26,
  };
  for (const [name, value] of Object.entries(named)) if (code === name || code.startsWith(`${name}_`)) return value;
  return undefined;
}

const isBusy = (error: unknown) => {
  const code = resultCodeOf(error);
  return code === 5 || code === 6;
};

/** What a primary result code says is wrong with the database. */
function faultOf(code: number | undefined): StoreFault {
  if (code === 13) return 'full';
  if (code === 11 || code === 26) return 'corrupt';
  if (code === 5 || code === 6) return 'busy';
  return 'down';
}

/** The error a caller sees: StoreUnavailable for a database that cannot answer now, the error itself for a statement it refused. */
function translate(error: unknown, file: string): unknown {
  if (error instanceof StoreUnavailable) return error;
  const code = resultCodeOf(error);
  const closed = (error as { code?: unknown }).code === 'CLIENT_CLOSED';
  if (closed || (code !== undefined && unavailableCodes.has(code))) {
    return new StoreUnavailable(`the database ${file} cannot be written now: ${(error as Error).message}`, {
      cause: error,
      fault: faultOf(code),
    });
  }
  return error;
}

function resultOf(result: ResultSet): SqlResult {
  const rows = result.rows.map((row) => {
    const plain: SqlRow = {};
    result.columns.forEach((column, index) => {
      const value = row[index];
      plain[column] = value instanceof ArrayBuffer ? new Uint8Array(value) : (value as SqlValue);
    });
    return plain;
  });
  return { rows, changes: result.rowsAffected };
}

/**
 * Creates the database's folder (0700) and file (0600) when missing, and narrows a file that is
 * wider, by path. An existing database is never opened here: on Linux, closing any descriptor of
 * a file drops every POSIX lock the process holds on it, so an open and close beside a live
 * connection (a second store of the same file in one process) would silently take away SQLite's
 * locks, and another process could then write under it and corrupt the file.
 */
async function preparePrivateFile(file: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  try {
    // Only a file made here and now is opened: no connection of this process can hold a lock on it.
    await (await open(file, 'wx', 0o600)).close();
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const { mode } = await stat(file);
  if ((mode & 0o077) !== 0) await chmod(file, 0o600);
}

/** Opens (creating when missing) the SQLite database at `file`. */
export async function openSqlite(file: string, options: SqliteOptions = {}): Promise<SqlDriver> {
  const busyTimeoutMs = options.busyTimeoutMs ?? 5_000;
  try {
    await preparePrivateFile(file);
  } catch (error) {
    throw new StoreUnavailable(`cannot create the database ${file}: ${(error as Error).message}`, { cause: error });
  }
  /** A new connection with the settings above (all but WAL are per connection). */
  async function connect(): Promise<Client> {
    // Loaded on the first connection: libsql's native binding took 64 ms of every command's start,
    // `site build` included, which never opens the store.
    const { createClient } = await import('@libsql/client');
    const opened = createClient({ url: pathToFileURL(file).href, concurrency: 1 });
    try {
      await opened.execute(`PRAGMA busy_timeout = ${busySliceMs}`);
      await opened.execute('PRAGMA journal_mode = WAL');
      await opened.execute('PRAGMA synchronous = FULL');
      await opened.execute('PRAGMA foreign_keys = ON');
    } catch (error) {
      opened.close();
      throw error;
    }
    return opened;
  }

  let client: Client | undefined;
  /**
   * A connection that saw an error from the database itself is dropped and a new one made: a
   * libsql connection whose statement failed with SQLITE_BUSY stays inside a transaction it does
   * not report (measured: its next writes "succeed" and are never committed, and it holds the
   * write lock), so it is never used again.
   */
  const connection = async () => (client ??= await connect());
  const drop = () => {
    client?.close();
    client = undefined;
  };

  /** Runs `attempt` again while the database is busy, pausing between tries, for at most busyTimeoutMs. */
  async function whileBusy<T>(attempt: (db: Client) => Promise<T>): Promise<T> {
    const deadline = Date.now() + busyTimeoutMs;
    for (let round = 0; ; round++) {
      try {
        return await attempt(await connection());
      } catch (error) {
        const code = resultCodeOf(error);
        if (code !== undefined && unavailableCodes.has(code)) drop();
        if (!isBusy(error) || Date.now() >= deadline) throw translate(error, file);
        await new Promise((done) => setTimeout(done, Math.min(2 ** round, 50)));
      }
    }
  }

  // One connection: the statements of this process run one after another, a transaction's all
  // together. Each waits for a turn of the event loop first: libsql runs a statement (its fsync
  // included) on this thread and answers with a settled promise, so statements queued at once ran
  // back to back in one turn, and no request was read until the last had committed (a flood of
  // sign-ins held every page for a second and more). Between two of them, the server answers.
  let queue: Promise<unknown> = Promise.resolve();
  const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
  function inTurn<T>(task: () => Promise<T>): Promise<T> {
    const run = queue.then(nextTurn).then(task);
    queue = run.catch(() => undefined);
    return run;
  }

  const execute = (sql: string, params: readonly SqlValue[] = []) =>
    whileBusy(async (db) => resultOf(await db.execute({ sql, args: params as InArgs })));

  try {
    await whileBusy(async () => undefined);
  } catch (error) {
    throw translate(error, file);
  }

  let closed = false;
  return {
    dialect: 'sqlite',
    execute(sql, params) {
      return inTurn(() => execute(sql, params));
    },
    transaction(work) {
      return inTurn(async () => {
        const tx: Transaction = await whileBusy((db) => db.transaction('write'));
        const executor: SqlExecutor = {
          dialect: 'sqlite',
          // Inside BEGIN IMMEDIATE this process holds the write lock: nothing is busy any more.
          execute: async (sql, params = []) => {
            try {
              return resultOf(await tx.execute({ sql, args: params as InArgs }));
            } catch (error) {
              const code = resultCodeOf(error);
              if (code !== undefined && unavailableCodes.has(code)) failed = true;
              throw translate(error, file);
            }
          },
        };
        let failed = false;
        try {
          const result = await work(executor);
          await tx.commit();
          return result;
        } catch (error) {
          await tx.rollback().catch(() => undefined);
          const code = resultCodeOf(error);
          if (failed || (code !== undefined && unavailableCodes.has(code))) drop();
          throw translate(error, file);
        } finally {
          tx.close();
        }
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      await queue;
      drop();
    },
  };
}
