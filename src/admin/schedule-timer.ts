/**
 * The one timer of the live site (live-site.ts): set for the instant the next scheduled
 * translation of the last good build appears, so `site serve --admin` rebuilds then by itself,
 * without a save or a restart. It is set again after every build (a save may schedule, move or
 * publish a post); setTimeout waits at most 24.8 days, so a later instant is reached in steps.
 * An instant whose rebuild failed is not tried again by the timer: the site stays as it was until
 * a save builds it, and that build shows every post whose day has come.
 */
import { appearsAt, type ScheduledTranslation } from '../content/schedule.js';

/** The time and a timer; tests pass a fake one and move its time on. */
export interface Clock {
  now(): number;
  setTimer(callback: () => void, ms: number): unknown;
  clearTimer(timer: unknown): void;
}

/** The process's clock; its timer does not keep the process alive. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer: (callback, ms) => setTimeout(callback, ms).unref(),
  clearTimer: (timer) => clearTimeout(timer as NodeJS.Timeout),
};

/** The longest delay setTimeout takes (2³¹ − 1 ms, 24.8 days); a longer one fires at once. */
export const longestTimerMs = 2 ** 31 - 1;

/** The timer: `arm` after each good build, `close` when the site stops. */
export interface ScheduleTimer {
  /** Sets the timer for the next scheduled translation of the last good build, clearing any earlier one. */
  arm(): void;
  /** Clears the timer and waits for a rebuild it started. */
  close(): Promise<void>;
}

/** What the timer reads of the site and what it does when a day comes. */
export interface ScheduleTimerSite {
  /** The scheduled translations of the last good build, in the order they appear, and the site's time zone. */
  schedule(): { scheduled: readonly ScheduledTranslation[]; timeZone: string } | undefined;
  /** Rebuilds because `appearing` are due; resolves false when the build failed (the served site stays as it was). */
  due(appearing: ScheduledTranslation[]): Promise<boolean>;
}

/** Creates the timer of `site`. */
export function createScheduleTimer(clock: Clock, site: ScheduleTimerSite): ScheduleTimer {
  let timer: unknown;
  let closed = false;
  let running: Promise<unknown> = Promise.resolve();
  // The latest instant whose rebuild failed: the timer leaves it (and any before it) to a save.
  let failedAt = -Infinity;

  const clear = () => {
    if (timer !== undefined) clock.clearTimer(timer);
    timer = undefined;
  };

  const self: ScheduleTimer = {
    arm() {
      clear();
      const schedule = site.schedule();
      if (closed || !schedule) return;
      const next = schedule.scheduled
        .map((post) => ({ post, at: appearsAt(post.date, schedule.timeZone) }))
        .filter(({ at }) => at > failedAt);
      if (!next.length) return;
      const at = next[0]!.at;
      timer = clock.setTimer(
        () => {
          timer = undefined;
          // Woken early by the cap of a long wait: wait again.
          if (clock.now() < at) return self.arm();
          const appearing = next.filter((item) => item.at <= clock.now()).map(({ post }) => post);
          running = site
            .due(appearing)
            .catch(() => false)
            .then((ok) => {
              if (ok) return;
              // A good build arms the timer itself; after a failed one, the later posts still wait for theirs.
              failedAt = Math.max(failedAt, at);
              self.arm();
            });
        },
        Math.min(Math.max(at - clock.now(), 0), longestTimerMs),
      );
    },
    async close() {
      closed = true;
      clear();
      await running.catch(() => undefined);
    },
  };
  return self;
}
