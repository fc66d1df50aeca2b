/**
 * How far a long build is: each stage that works through many units (pages rendered, files
 * written, pages indexed, cards drawn, files compressed) counts them towards its total on a
 * counter, and whoever prints progress (the CLI's logger) reads the counters. A tick is one
 * addition and one look at the clock; nothing is formatted unless it is printed.
 */

/** One stage's count of units done towards its total. */
export interface ProgressCounter {
  /** Adds `count` units done (default 1). */
  tick(count?: number): void;
  /** The stage is over (whether or not every unit was counted). */
  end(): void;
}

/** Where the stages of a build report how far they are. */
export interface Progress {
  /** Begins counting `total` units of `stage`, named `unit` ("pages", "files") in what is printed. */
  begin(stage: string, total: number, unit: string): ProgressCounter;
}

const idle: ProgressCounter = { tick() {}, end() {} };

/** Progress that goes nowhere: the default of a pipeline, `--quiet`, `site dev` and the admin. */
export const noProgress: Progress = { begin: () => idle };
