/**
 * What a sign-in attempt must get through before its password is hashed, so that neither guesses
 * sent in parallel nor a flood of them can do what one at a time cannot:
 *
 * - **Counted before the hash, in the store.** An attempt takes its place in the limits of its
 *   account (address and e-mail: 5 in 15 minutes) and of its address alone (whatever e-mail it
 *   names: 20 in 15 minutes) before the slow check starts, in one statement of the store (so the
 *   windows hold across a restart and across the processes on one database; the budgets are kept
 *   under a hash of the address and e-mail, never the address itself), so 30 guesses sent at once meet a full budget after the
 *   fifth, not after all 30 were checked. A success takes back only its own place, and clears the
 *   account's earlier failures only when no other attempt of that account is still being checked.
 * - **Counted in few commits.** The claims, and the places given back, that arrive while the
 *   store writes the ones before them go to it together, in their order, as one transaction
 *   (`Store.updateAttempts`): each still counts the ones before it, and an attempt goes on only
 *   once its places are committed. On SQLite a commit is fsync'd on the event loop (libsql runs
 *   on it), so a flood of 200 sign-ins made 600-odd commits, back to back, and no page was served
 *   meanwhile; now it makes a few.
 * - **Few in flight per account.** At most 2 attempts of one account are checked at a time (in
 *   this process's memory, as are the hashing places below: they guard this process's threads).
 * - **Few hashes at all.** A password check is scrypt with 128 MB, run on libuv's thread pool (4
 *   threads), which the static files' reads share: at most 2 checks run at once, so two threads
 *   stay free for everything else; a few more wait their turn, briefly; past that an attempt is
 *   answered 503 with Retry-After, at once, without a hash.
 */
import { createHash } from 'node:crypto';
import type { StoreSource } from '../store/source.js';
import type { AttemptChange } from '../store/store.js';

/** A budget: attempts per window. */
export interface AttemptBudget {
  limit: number;
  windowMs: number;
}

/** Options of `createSignInLimits`. */
export interface SignInLimitsOptions {
  /** Per address and account (default 5 in 15 minutes). */
  perAccount?: AttemptBudget;
  /** Per address, whatever the account (default 20 in 15 minutes). */
  perAddress?: AttemptBudget;
  /** Attempts of one account checked at once (default 2). */
  accountInFlight?: number;
  /** Password checks running at once, whatever the account (default 2). */
  hashesInFlight?: number;
  /** Attempts waiting for a check to finish (default 8); more are refused with 503. */
  waiting?: number;
  /** How long an attempt waits for its turn before it is refused with 503 (default 10 s). */
  waitMs?: number;
  now?: () => number;
}

/** Why an attempt is refused before its check: 429 (its budget is spent) or 503 (the server is busy checking others). */
export interface Refusal {
  status: 429 | 503;
  retryAfterMs: number;
}

/** An attempt that got through: run its check with `check`, then say how it went. */
export interface Attempt {
  /** Runs the password check in one of the few places for hashes (it may wait for one); a Refusal when none came free in time. */
  check<T>(work: () => Promise<T>): Promise<T | Refusal>;
  /** The password was right: this attempt's own count is taken back. */
  succeeded(): Promise<void>;
  /** The attempt is over (call once, whatever happened). */
  end(): void;
}

/** The gate of one admin API. */
export interface SignInLimits {
  /** Claims an attempt of `account` (any string naming it: an e-mail, or "" for a sign-in link) from `address`: counted now. */
  begin(address: string, account: string): Promise<Attempt | Refusal>;
  /** Password checks running now (for tests and the stress report). */
  readonly hashing: number;
  /** The most that ever ran at once. */
  readonly peakHashing: number;
}

/** The defaults. */
export const signInBudgets = {
  perAccount: { limit: 5, windowMs: 15 * 60_000 },
  perAddress: { limit: 20, windowMs: 15 * 60_000 },
  accountInFlight: 2,
  hashesInFlight: 2,
  waiting: 8,
  waitMs: 10_000,
};

/** Whether a value is a refusal (rather than an attempt or a check's result). */
export function isRefusal(value: unknown): value is Refusal {
  return (
    typeof value === 'object' &&
    value !== null &&
    'status' in value &&
    'retryAfterMs' in value &&
    ((value as Refusal).status === 429 || (value as Refusal).status === 503)
  );
}

/** A budget's key in the store: what it counts, hashed (the store holds no address nor e-mail). */
function budgetKey(kind: 'address' | 'account', ...parts: string[]): string {
  return `${kind}:${createHash('sha256').update(parts.join('\n')).digest('base64url')}`;
}

/** Changes of the budgets written in one transaction at most (each a statement of a few dozen microseconds). */
const changesPerCommit = 100;

/**
 * Sends the changes of the budgets to the store in turns: those that arrive while a turn is
 * written go together in the next one (a group commit). Each change's promise gives its result.
 */
function createAttemptWriter(source: StoreSource): (change: AttemptChange) => Promise<string[] | undefined> {
  let waiting: { change: AttemptChange; settle(result: string[] | undefined): void; fail(error: unknown): void }[] = [];
  let writing = false;
  async function write(): Promise<void> {
    while (waiting.length) {
      const turn = waiting.slice(0, changesPerCommit);
      waiting = waiting.slice(turn.length);
      try {
        const results = await (await source.get()).updateAttempts(turn.map((entry) => entry.change));
        turn.forEach((entry, index) => entry.settle(results[index]));
      } catch (error) {
        for (const entry of turn) entry.fail(error);
      }
    }
    writing = false;
  }
  return (change) =>
    new Promise((settle, fail) => {
      waiting.push({ change, settle, fail });
      if (writing) return;
      writing = true;
      // One turn of the event loop first, so the requests read in it share the first commit too.
      setImmediate(() => void write());
    });
}

/** Creates the gate; its budgets are counted in `source`'s store. */
export function createSignInLimits(source: StoreSource, options: SignInLimitsOptions = {}): SignInLimits {
  const settings = { ...signInBudgets, ...options };
  const now = options.now ?? Date.now;
  const writeAttempts = createAttemptWriter(source);
  const inFlight = new Map<string, number>();
  const queue: (() => void)[] = [];
  let hashing = 0;
  let peakHashing = 0;

  const busy = (): Refusal => ({ status: 503, retryAfterMs: 2_000 });

  /** Waits for a place to hash; false when none came free in time or too many wait already. */
  function acquire(): Promise<boolean> {
    if (hashing < settings.hashesInFlight) {
      hashing++;
      peakHashing = Math.max(peakHashing, hashing);
      return Promise.resolve(true);
    }
    if (queue.length >= settings.waiting) return Promise.resolve(false);
    return new Promise((resolve) => {
      const turn = () => {
        clearTimeout(timer);
        hashing++;
        peakHashing = Math.max(peakHashing, hashing);
        resolve(true);
      };
      const timer = setTimeout(() => {
        queue.splice(queue.indexOf(turn), 1);
        resolve(false);
      }, settings.waitMs);
      timer.unref?.();
      queue.push(turn);
    });
  }

  function release() {
    hashing--;
    queue.shift()?.();
  }

  /** Milliseconds until a full budget has room again: when the place that fills it leaves its window. */
  async function retryAfter(claims: { key: string; limit: number; windowMs: number }[], time: number): Promise<number> {
    const store = await source.get();
    let wait = 1;
    for (const claim of claims) {
      const since = new Date(time - claim.windowMs).toISOString();
      const nth = await store.nthNewestAttempt(claim.key, claim.limit, since);
      if (nth) wait = Math.max(wait, claim.windowMs - (time - Date.parse(nth)));
    }
    return wait;
  }

  return {
    async begin(address, account) {
      const accountKey = `${address}\n${account}`;
      const running = inFlight.get(accountKey) ?? 0;
      if (running >= settings.accountInFlight) return { status: 429, retryAfterMs: 1_000 };
      const claims = [
        { key: budgetKey('address', address), ...settings.perAddress },
        { key: budgetKey('account', address, account), ...settings.perAccount },
      ];
      // Counted as in flight before the first await: a second attempt of the account in this tick sees it.
      inFlight.set(accountKey, running + 1);
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        const left = (inFlight.get(accountKey) ?? 1) - 1;
        if (left > 0) inFlight.set(accountKey, left);
        else inFlight.delete(accountKey);
      };
      const time = now();
      let places: string[] | undefined;
      try {
        // Both budgets at once, each over its own window: a place in each, or in none.
        places = await writeAttempts({
          claim: claims.map((claim) => ({
            key: claim.key,
            limit: claim.limit,
            since: new Date(time - claim.windowMs).toISOString(),
          })),
          at: new Date(time).toISOString(),
        });
      } catch (error) {
        end();
        throw error;
      }
      if (!places) {
        end();
        return { status: 429, retryAfterMs: await retryAfter(claims, time) };
      }
      const own = places;
      let checked = false;
      const forgive = async () => {
        await writeAttempts({ release: own });
      };
      return {
        async check(work) {
          if (!(await acquire())) {
            // Never checked: it costs its account nothing.
            await forgive();
            return busy();
          }
          checked = true;
          try {
            return await work();
          } finally {
            release();
          }
        },
        async succeeded() {
          if (!checked) return;
          await forgive();
          // Earlier failures are cleared, but never while another guess of this account is still being checked.
          if ((inFlight.get(accountKey) ?? 0) <= 1) await writeAttempts({ clear: claims[1]!.key });
        },
        end,
      };
    },
    get hashing() {
      return hashing;
    },
    get peakHashing() {
      return peakHashing;
    },
  };
}
