/**
 * The `d1` driver: the store on a Cloudflare D1 database, as the cloudflare target's booking
 * function sees it (a binding such as `env.DB`). D1 is SQLite, so the store's `sqlite` statements
 * run as they are. Web APIs only: it is bundled into the worker.
 *
 * D1 has no interactive transactions (no BEGIN, and a worker cannot hold a connection across
 * awaits); what it has is `batch`, a list of statements run atomically. So `transaction` collects
 * the writes of `work` and sends them as one batch when `work` resolves: a migration and the row
 * that records it land together or not at all. Reads inside run at once, and only before the
 * first write (after it, they could not see the writes they follow: refused with an error); a
 * write's own result (its rows, its count of changes) is known only after the batch, so reading it
 * inside `work` is refused too, rather than answered with a made-up zero. The store's one promise
 * that matters across requests, one booking per slot, is the schema's UNIQUE rule, which D1
 * enforces for every statement whatever the transaction.
 */
import {
  StoreUnavailable,
  type SqlDriver,
  type SqlExecutor,
  type SqlResult,
  type SqlRow,
  type SqlValue,
} from './driver.js';

/** A prepared statement of D1 (Cloudflare's `D1PreparedStatement`), as far as the driver needs it. */
export interface D1Statement {
  bind(...values: unknown[]): D1Statement;
  all(): Promise<D1Result>;
}

/** What D1 answers for a statement. */
export interface D1Result {
  results?: Record<string, unknown>[];
  meta?: { changes?: number };
}

/** A D1 database binding (Cloudflare's `D1Database`), as far as the driver needs it. */
export interface D1Database {
  prepare(sql: string): D1Statement;
  batch(statements: D1Statement[]): Promise<D1Result[]>;
}

/** Whether `value` looks like a D1 binding (what a misnamed binding is not). */
export function isD1Database(value: unknown): value is D1Database {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as D1Database).prepare === 'function' &&
    typeof (value as D1Database).batch === 'function'
  );
}

/** A driver over a D1 binding. */
export function openD1(database: D1Database): SqlDriver {
  const prepare = (sql: string, params: readonly SqlValue[]) => database.prepare(sql).bind(...params.map(toD1));
  // Transactions of one worker instance run one after another, as they would on one connection.
  let queue: Promise<unknown> = Promise.resolve();

  const driver: SqlDriver = {
    dialect: 'sqlite',
    execute: (sql, params = []) => run(() => prepare(sql, params).all()).then(resultOf),
    transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      const turn = queue.then(async () => {
        const writes: { statement: D1Statement; settle(result: SqlResult): void }[] = [];
        const tx: SqlExecutor = {
          dialect: 'sqlite',
          async execute(sql, params = []) {
            if (isRead(sql)) {
              if (writes.length)
                throw new Error(
                  'D1 runs a transaction as one batch: read before the first write (this read would not see the writes before it)',
                );
              return resultOf(await run(() => prepare(sql, params).all()));
            }
            let settled: SqlResult | undefined;
            writes.push({ statement: prepare(sql, params), settle: (result) => (settled = result) });
            return {
              get rows() {
                return (settled ?? notYet()).rows;
              },
              get changes() {
                return (settled ?? notYet()).changes;
              },
            };
          },
        };
        const value = await work(tx);
        if (writes.length) {
          const results = await run(() => database.batch(writes.map(({ statement }) => statement)));
          writes.forEach(({ settle }, index) => settle(resultOf(results[index] ?? {})));
        }
        return value;
      });
      queue = turn.catch(() => undefined);
      return turn;
    },
    close: () => Promise.resolve(),
  };
  return driver;
}

function notYet(): never {
  throw new Error("D1 runs a transaction as one batch: a write's result is known only once the transaction has ended");
}

/** SELECT (and WITH … SELECT) statements, which return rows and change nothing. */
function isRead(sql: string): boolean {
  return /^\s*(select|with\b(?![\s\S]*\b(insert|update|delete)\b))/i.test(sql);
}

/** D1 takes no bigint and wants bytes as an ArrayBuffer. */
function toD1(value: SqlValue): unknown {
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (value instanceof Uint8Array) return value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength);
  return value;
}

function resultOf(result: D1Result): SqlResult {
  const rows = (result.results ?? []).map((row): SqlRow => {
    const out: SqlRow = {};
    for (const [name, value] of Object.entries(row))
      out[name] = Array.isArray(value) ? Uint8Array.from(value as number[]) : (value as SqlValue);
    return out;
  });
  return { rows, changes: result.meta?.changes ?? 0 };
}

/**
 * Runs a call to D1; a failure of the database itself (overloaded, the network to it lost, a
 * reset) becomes StoreUnavailable, so the function answers 503 and the form keeps what was typed.
 * A refusal of the statement (a constraint, a syntax error, a missing table) stays what it is.
 */
async function run<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/constraint|syntax error|no such (table|column)|SQLITE_(CONSTRAINT|ERROR)|datatype mismatch/i.test(message))
      throw error;
    throw new StoreUnavailable(`D1: ${message}`, { cause: error });
  }
}
