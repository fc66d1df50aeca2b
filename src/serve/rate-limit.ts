/**
 * A sliding-window rate limiter keyed by client (an address, or an address and an account). Only
 * what the caller counts with `hit` uses up the budget, so rejected input costs nothing. Keys
 * whose window has passed are pruned as the table is used, and the table never holds more than
 * `maxKeys` clients: past that, the least recently counted client is forgotten first.
 */

/** Options of `createRateLimiter`. */
export interface RateLimitOptions {
  /** Hits allowed per key within a window. */
  limit: number;
  windowMs: number;
  /** Keys kept at most (default 10,000). */
  maxKeys?: number;
  now?: () => number;
}

/** A rate limiter. */
export interface RateLimiter {
  /** Milliseconds until `key` may be counted again, or 0 when it may be now. */
  retryAfter(key: string): number;
  /** Counts one hit for `key`; returns its stamp, for `forgive`. */
  hit(key: string): number;
  /** Takes back the one hit of `key` counted at `stamp` (an attempt that turned out fine), leaving the others. */
  forgive(key: string, stamp: number): void;
  /** Forgets `key` (a successful sign-in clears its failures). */
  reset(key: string): void;
  /** Keys currently held. */
  readonly size: number;
}

/** Creates a limiter. */
export function createRateLimiter(options: RateLimitOptions): RateLimiter {
  const { limit, windowMs } = options;
  const maxKeys = options.maxKeys ?? 10_000;
  const now = options.now ?? Date.now;
  // key → times of its hits, oldest first; Map order is the order of each key's latest hit.
  const hits = new Map<string, number[]>();
  let nextPrune = 0;

  const recent = (key: string, time: number): number[] => {
    const times = hits.get(key);
    if (!times) return [];
    const start = times.findIndex((stamp) => time - stamp < windowMs);
    if (start === -1) {
      hits.delete(key);
      return [];
    }
    if (start > 0) times.splice(0, start);
    return times;
  };

  /** Drops every key whose window has passed; runs at most once per window, or when the table is full. */
  const prune = (time: number) => {
    if (time < nextPrune && hits.size < maxKeys) return;
    nextPrune = time + windowMs;
    for (const [key, times] of hits) if (time - times[times.length - 1]! >= windowMs) hits.delete(key);
    while (hits.size >= maxKeys) hits.delete(hits.keys().next().value!);
  };

  return {
    retryAfter(key) {
      const time = now();
      const times = recent(key, time);
      if (times.length < limit) return 0;
      return Math.max(1, windowMs - (time - times[times.length - limit]!));
    },
    hit(key) {
      const time = now();
      prune(time);
      const times = recent(key, time);
      times.push(time);
      hits.delete(key);
      hits.set(key, times);
      return time;
    },
    forgive(key, stamp) {
      const times = hits.get(key);
      const index = times?.lastIndexOf(stamp) ?? -1;
      if (index === -1) return;
      times!.splice(index, 1);
      if (!times!.length) hits.delete(key);
    },
    reset(key) {
      hits.delete(key);
    },
    get size() {
      return hits.size;
    },
  };
}
