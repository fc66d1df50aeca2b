/**
 * The health of a store's database while a server runs, for its log: every request that finds the
 * database unable to answer is a 503 (the forms keep what was typed), and a log line for each of
 * them would bury the rest, while none at all (as before) left an operator with a server that
 * answered 503 to every form and said nothing. So a fault is said once, when it starts (and again
 * if its cause changes), with its cause (driver.ts `StoreFault`: down, full, corrupt, busy), and
 * once more when the database answers again, with how many statements failed meanwhile.
 */
import { StoreUnavailable, type SqlDriver, type SqlExecutor, type StoreFault } from './driver.js';

/** A change of the database's health: it started failing, or it answers again. */
export type StoreHealthChange =
  | { state: 'failing'; fault: StoreFault; detail: string }
  | { state: 'recovered'; fault: StoreFault; failures: number; ms: number };

/**
 * Whether a statement only reads: a disk that is full, or a lock held by another process, still
 * lets it through, so only a write that succeeds shows such a fault is over.
 */
const readsOnly = (sql: string) => /^\s*(SELECT|PRAGMA)\b/i.test(sql);

/** `driver`, telling `onChange` when its database starts failing and when it answers again. */
export function watchDriver(
  driver: SqlDriver,
  onChange: (change: StoreHealthChange) => void,
  now: () => number = Date.now,
): SqlDriver {
  let failing: { fault: StoreFault; since: number; failures: number } | undefined;

  function failed(error: unknown): void {
    if (!(error instanceof StoreUnavailable)) return;
    if (failing?.fault !== error.fault) {
      failing = { fault: error.fault, since: now(), failures: 0 };
      onChange({ state: 'failing', fault: error.fault, detail: error.message });
    }
    failing.failures++;
  }

  function succeeded(wrote: boolean): void {
    if (!failing) return;
    // A database that is reached at all is no longer down; a full or busy one, or a damaged page, needs a write to tell.
    if (!wrote && failing.fault !== 'down') return;
    const { fault, failures, since } = failing;
    failing = undefined;
    onChange({ state: 'recovered', fault, failures, ms: now() - since });
  }

  async function watch<T>(wrote: boolean, work: () => Promise<T>): Promise<T> {
    try {
      const result = await work();
      succeeded(wrote);
      return result;
    } catch (error) {
      failed(error);
      throw error;
    }
  }

  return {
    dialect: driver.dialect,
    execute: (sql, params) => watch(!readsOnly(sql), () => driver.execute(sql, params)),
    transaction: <T>(work: (tx: SqlExecutor) => Promise<T>) => watch(true, () => driver.transaction(work)),
    close: () => driver.close(),
  };
}

/** A change of health as one line for the server's log: what fails and why, or that it is over. */
export function describeHealthChange(change: StoreHealthChange, database: string): string {
  const why: Record<StoreFault, string> = {
    down: 'cannot be reached or written',
    full: 'is full (its disk or quota)',
    corrupt: 'is damaged (corrupt pages)',
    busy: 'is held by another process past the wait',
  };
  if (change.state === 'failing') {
    return `the database ${database} ${why[change.fault]}: requests that read or write it are answered 503 until it answers again (${change.detail})`;
  }
  return `the database ${database} answers again, after ${change.failures} failed statement${change.failures === 1 ? '' : 's'} in ${(change.ms / 1000).toFixed(1)} s while it ${why[change.fault]}`;
}
