/**
 * The two helpers every stage of the pipeline uses: a memo of stage outputs, each kept with the key
 * it was made from and the diagnostics its making recorded, so a stage whose key has not changed is
 * not redone and its problems are still reported; and the clock that times each stage of a run.
 */
import { createDiagnostics, type Diagnostics } from '../diagnostics.js';
import { collectSiteErrors, type SiteError } from '../errors.js';

/** A stage output as last made: its value (when it could be made), the diagnostics its making recorded, and its key. */
export interface Loaded<T> {
  value: T | undefined;
  diagnostics: SiteError[];
  from: string;
}

/** One run of the pipeline: its view of the memo, its diagnostics, what it made again, and the time of each stage. */
export interface StageRun {
  /**
   * The output `name` made from `from`: the kept one when it was made from the same key, else
   * made now by `make`, which records its problems in the collector it is given or throws
   * SiteErrors (anything else is thrown on and nothing is kept). Either way the output's
   * diagnostics are added to the run's. `input` names it in `reloaded` when it is made again.
   */
  load<T>(
    name: string,
    from: string,
    make: (diagnostics: Diagnostics) => Promise<T | undefined> | T | undefined,
    input?: string,
  ): Promise<Loaded<T>>;
  /** Forgets the kept outputs whose names `test` accepts (a post that is gone, say). */
  forget(test: (name: string) => boolean): void;
  /** Runs one stage and records how long it took under `stage`. */
  time<T>(stage: string, work: () => Promise<T> | T): Promise<T>;
  /** The diagnostics of this run: those of every output it loaded (made now or kept), and those its stages record. */
  readonly diagnostics: Diagnostics;
  /** The inputs made again in this run, by the `input` names given to `load`. */
  readonly reloaded: ReadonlySet<string>;
  /** Milliseconds per stage, in the order the stages ran. */
  readonly timings: Record<string, number>;
  /** Milliseconds since the run began. */
  elapsed(): number;
}

/** Stage outputs kept from one run to the next. */
export interface StageMemo {
  /** Begins a run. */
  begin(): StageRun;
  /** Forgets the kept outputs whose names `test` accepts, so the next run makes them again. */
  forget(test: (name: string) => boolean): void;
}

const round = (ms: number) => Math.round(ms * 10) / 10;

/** Creates an empty memo. */
export function createStageMemo(): StageMemo {
  // Promises, so a run that asks for an output another one is still making waits for it.
  const kept = new Map<string, { from: string; loaded: Promise<Loaded<unknown>> }>();
  const forget = (test: (name: string) => boolean) => {
    for (const name of [...kept.keys()]) if (test(name)) kept.delete(name);
  };

  return {
    forget,
    begin() {
      const started = performance.now();
      const reloaded = new Set<string>();
      const timings: Record<string, number> = {};
      const diagnostics = createDiagnostics();
      const report = <T>(loaded: Loaded<T>) => {
        diagnostics.add(...loaded.diagnostics);
        return loaded;
      };
      return {
        diagnostics,
        reloaded,
        timings,
        forget,
        elapsed: () => round(performance.now() - started),
        load<T>(
          name: string,
          from: string,
          make: (diagnostics: Diagnostics) => Promise<T | undefined> | T | undefined,
          input?: string,
        ): Promise<Loaded<T>> {
          const current = kept.get(name);
          if (current && current.from === from) return (current.loaded as Promise<Loaded<T>>).then(report);
          if (input) reloaded.add(input);
          const loaded = (async (): Promise<Loaded<T>> => {
            const own = createDiagnostics();
            try {
              const value = await make(own);
              return { value, diagnostics: own.list(), from };
            } catch (error) {
              const found = collectSiteErrors(error);
              if (!found) throw error;
              own.add(...found);
              return { value: undefined, diagnostics: own.list(), from };
            }
          })();
          const entry = { from, loaded };
          kept.set(name, entry);
          loaded.catch(() => {
            if (kept.get(name) === entry) kept.delete(name);
          });
          return loaded.then(report);
        },
        async time<T>(stage: string, work: () => Promise<T> | T): Promise<T> {
          const start = performance.now();
          try {
            return await work();
          } finally {
            timings[stage] = round(performance.now() - start);
          }
        },
      };
    },
  };
}

const ids = new WeakMap<object, number>();
let lastId = 0;

/** A number for an object, the same as long as the object lives: for keys made from outputs kept by identity. */
export function idOf(value: object): number {
  let id = ids.get(value);
  if (id === undefined) {
    id = ++lastId;
    ids.set(value, id);
  }
  return id;
}

/** Whether two values are the same as JSON. */
export function sameJson(a: unknown, b: unknown): boolean {
  return a === b || (a !== undefined && b !== undefined && JSON.stringify(a) === JSON.stringify(b));
}
