/**
 * A pool of worker threads for the CPU-heavy stages (Markdown, page rendering). A job's items are
 * cut into chunks on one queue; the workers, and the main thread when the job gives a local
 * runner, take chunks until none are left, so the pool stays busy however uneven the chunks are.
 * Results come back in item order whoever computed them, so output does not depend on timing.
 * A job with a time budget is stopped past it by ending the workers that run it.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { generatorRoot } from '../cache/disk-cache.js';
import type { JobKind, WorkerReply, WorkerRequest } from './protocol.js';

/** One job for the pool. */
export interface PoolJob<T, R> {
  kind: JobKind;
  /** Sent once to each worker that takes part (the render input, for instance). */
  setup?: unknown;
  items: readonly T[];
  /** Items per chunk: small enough to share the work out, large enough to amortise messages. */
  chunkSize: number;
  /** Runs a chunk on the main thread from the job's start; without it only the workers take chunks (until a `PoolRun.join`). */
  local?: LocalRunner<T, R>;
  /**
   * Milliseconds the job may take once it starts (waiting for the jobs before it does not count):
   * past them it fails with a JobOverBudget and the pool's workers, still busy with it, are ended
   * (the next job starts new ones). Only the workers can be stopped, so a job with a budget has no
   * `local` runner and cannot be joined.
   */
  budgetMs?: number;
  /**
   * Chunks each worker is given at once while no lane of the main thread takes part (default 2,
   * the least that keeps a worker busy while its reply waits). A worker is given its next chunk
   * by the main thread's event loop: a job that runs while the main thread is busy with long
   * synchronous turns (the social images while the pages render) gives it more, so it does not
   * wait. Once a lane of the main thread takes part, a worker is given chunks again only as it
   * has fewer than 2, so the chunks left are shared rather than queued.
   */
  ahead?: number;
  /** Told the number of items of each chunk done, as it is done (for progress). */
  onChunk?: (items: number) => void;
  /**
   * Given each chunk's results as they come, with the index of its first item: a caller can use
   * and let go of them before the whole job is done (the Markdown of 10,000 posts is one job).
   */
  onResults?: (first: number, results: R[]) => void;
  /** false: the results are only given to `onResults`, and `run` returns none (default true). */
  keepResults?: boolean;
  /** Let go of each chunk's items once it is done (the caller lets go of `items` too): the Markdown sources of a large site. */
  releaseItems?: boolean;
}

/** A job stopped because it went past its `budgetMs`. */
export class JobOverBudget extends Error {
  constructor(readonly budgetMs: number) {
    super(`the job took more than ${budgetMs} ms`);
  }
}

/** Runs a chunk of a job on the main thread. */
export type LocalRunner<T, R> = (chunk: T[]) => R[] | Promise<R[]>;

/** A job given to the pool, which the main thread can join while it runs. */
export interface PoolRun<T, R> {
  /** The results in item order, once every chunk is done. */
  readonly results: Promise<R[]>;
  /** Items of the chunks no thread has taken yet: every item while the job waits for those before it, none once it failed. */
  remaining(): number;
  /**
   * Makes the main thread take the job's chunks too, with `local`, until none are left (from the
   * job's start, for a job still waiting its turn): for a caller that had other work when it gave
   * the job and is free now. A failure of `local` fails the job; a job already done ignores it.
   */
  join(local: LocalRunner<T, R>): void;
}

/** A pool of worker threads; `close` ends them. */
export interface WorkerPool {
  /** Number of worker threads. */
  readonly size: number;
  /** Runs a job (after the jobs before it) and returns its results in item order. */
  run<T, R>(job: PoolJob<T, R>): Promise<R[]>;
  /** Gives a job as `run` does, and returns it as it runs, for the main thread to `join` later. */
  submit<T, R>(job: PoolJob<T, R>): PoolRun<T, R>;
  /** Starts the workers now rather than on the first job, so they load their script meanwhile. */
  start(): void;
  /** Ends the workers once the jobs given so far are done. */
  close(): Promise<void>;
  /** Ends the workers now: the job they run, and those waiting, fail. */
  terminate(): Promise<void>;
}

/** Worker threads to start so that, with the main thread, every core has one thread of work. */
export function defaultPoolSize(): number {
  return Math.max(0, availableParallelism() - 1);
}

interface Slot {
  worker: Worker;
  /** Jobs whose setup this worker has received. */
  jobs: Set<number>;
}

/**
 * The scripts a pool's workers can run: lib/worker.js (Markdown and pages; it loads React and
 * the page stages, 0.3 s before its first reply), lib/compress-worker.js (zlib alone, 50 ms) or
 * lib/social-worker.js (satori and sharp, for the social images).
 */
export type WorkerScript = 'worker.js' | 'compress-worker.js' | 'social-worker.js';

/** Creates a pool of `size` worker threads running `script`, started on its first job or by `start`. */
export function createWorkerPool(size: number, script: WorkerScript = 'worker.js'): WorkerPool {
  let slots: Slot[] | undefined;
  let nextJob = 0;
  let closed = false;
  let ended = false;
  /** Fails the running job (set while one runs). */
  let stopJob: ((error: Error) => void) | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  const start = (): Slot[] => {
    if (!slots) {
      const path = workerScript(script);
      slots = Array.from({ length: size }, () => ({ worker: new Worker(path), jobs: new Set<number>() }));
      // Workers keep the process alive only while a job runs, so an unclosed pool never holds an exit.
      for (const slot of slots) slot.worker.unref();
    }
    return slots;
  };

  const runJob = async <T, R>(job: PoolJob<T, R>, lanes: Lanes<T, R>): Promise<R[]> => {
    if (ended) throw new Error('the worker pool was ended');
    const all = start();
    const id = nextJob++;
    const { chunks } = lanes;
    const results: R[][] = new Array(chunks.length);
    const cleanups: (() => void)[] = [];
    let timer: NodeJS.Timeout | undefined;
    let overBudget = false;
    for (const slot of all) slot.worker.ref();
    try {
      await new Promise<void>((resolve, reject) => {
        let pending = chunks.length;
        let failed = false;
        if (pending === 0) return resolve();
        const finish = (index: number, value: R[]) => {
          if (job.keepResults !== false) results[index] = value;
          job.onChunk?.(chunks[index]!.length);
          if (job.releaseItems) chunks[index] = [];
          try {
            job.onResults?.(index * job.chunkSize, value);
          } catch (error) {
            fail(error);
          }
          if (--pending === 0) resolve();
        };
        const fail = (error: unknown) => {
          if (!failed) reject(error);
          failed = true;
          // No thread takes another chunk: `remaining` says so.
          lanes.next = chunks.length;
        };
        stopJob = fail;
        const budgetMs = job.budgetMs;
        if (budgetMs !== undefined) {
          timer = setTimeout(() => {
            overBudget = true;
            fail(new JobOverBudget(budgetMs));
          }, budgetMs);
        }
        const inFlight = new Map<Slot, number>();
        const feed = (slot: Slot) => {
          if (failed || lanes.next >= chunks.length) return;
          const index = lanes.next++;
          inFlight.set(slot, (inFlight.get(slot) ?? 0) + 1);
          if (!slot.jobs.has(id)) {
            slot.jobs.add(id);
            post(slot, { type: 'setup', job: id, kind: job.kind, setup: job.setup });
          }
          post(slot, { type: 'chunk', job: id, chunk: index, items: chunks[index]! });
        };
        let localLanes = 0;
        const feedUpTo = (slot: Slot) => {
          const window = localLanes > 0 ? 2 : Math.max(2, job.ahead ?? 2);
          while (!failed && lanes.next < chunks.length && (inFlight.get(slot) ?? 0) < window) feed(slot);
        };
        for (const slot of all) {
          const onMessage = (reply: WorkerReply) => {
            if (reply.job !== id) return;
            if (reply.type === 'error') return fail(Object.assign(new Error(reply.message), { stack: reply.stack }));
            inFlight.set(slot, inFlight.get(slot)! - 1);
            finish(reply.chunk, reply.results as R[]);
            feedUpTo(slot);
          };
          const onError = (error: Error) => fail(error);
          slot.worker.on('message', onMessage);
          slot.worker.on('error', onError);
          cleanups.push(() => slot.worker.off('message', onMessage).off('error', onError));
          // Two chunks in flight at least: a worker never waits for the main thread (busy with a
          // chunk of its own) to hear its reply before it has the next one.
          feedUpTo(slot);
        }
        lanes.addLocal = (local) => {
          localLanes++;
          void (async () => {
            while (!failed && lanes.next < chunks.length) {
              const index = lanes.next++;
              try {
                finish(index, await local(chunks[index]!));
              } catch (error) {
                fail(error);
              }
              // Let the workers' replies in before taking the next chunk.
              await new Promise((done) => setImmediate(done));
            }
          })();
        };
        for (const local of lanes.early.splice(0)) lanes.addLocal(local);
      });
    } finally {
      lanes.addLocal = undefined;
      lanes.next = chunks.length;
      stopJob = undefined;
      clearTimeout(timer);
      for (const cleanup of cleanups) cleanup();
      if (overBudget) {
        // A worker busy with a chunk hears no message until the chunk is done: only ending it stops it.
        if (slots === all) slots = undefined;
        await Promise.all(all.map((slot) => slot.worker.terminate()));
      } else {
        for (const slot of all) {
          if (slot.jobs.delete(id)) post(slot, { type: 'end', job: id });
          slot.worker.unref();
        }
      }
    }
    return job.keepResults === false ? [] : results.flat();
  };

  const submit = <T, R>(job: PoolJob<T, R>): PoolRun<T, R> => {
    const chunks: T[][] = [];
    for (let index = 0; index < job.items.length; index += job.chunkSize)
      chunks.push(job.items.slice(index, index + job.chunkSize));
    const lanes: Lanes<T, R> = { chunks, next: 0, early: job.local ? [job.local] : [] };
    const join = (local: LocalRunner<T, R>) => {
      if (job.budgetMs !== undefined) throw new Error('a job with a time budget cannot run chunks on the main thread');
      if (lanes.addLocal) lanes.addLocal(local);
      else if (lanes.next < chunks.length) lanes.early.push(local);
    };
    const remaining = () => chunks.slice(lanes.next).reduce((sum, chunk) => sum + chunk.length, 0);
    if (closed) {
      lanes.next = chunks.length;
      return { results: Promise.reject(new Error('the worker pool is closed')), remaining, join };
    }
    if (job.budgetMs !== undefined && job.local) {
      lanes.next = chunks.length;
      return {
        results: Promise.reject(new Error('a job with a time budget cannot run chunks on the main thread')),
        remaining,
        join,
      };
    }
    const results = queue.then(() => runJob(job, lanes));
    queue = results.catch(() => undefined);
    return { results, remaining, join };
  };

  return {
    size,
    start() {
      if (!closed) start();
    },
    run: (job) => submit(job).results,
    submit,
    async close() {
      closed = true;
      await queue;
      const ending = slots ?? [];
      slots = undefined;
      await Promise.all(ending.map((slot) => slot.worker.terminate()));
    },
    async terminate() {
      closed = ended = true;
      stopJob?.(new Error('the worker pool was ended'));
      const ending = slots ?? [];
      slots = undefined;
      await Promise.all(ending.map((slot) => slot.worker.terminate()));
    },
  };
}

/** A job's chunks, and the main thread's lanes on them. */
interface Lanes<T, R> {
  chunks: T[][];
  /** The first chunk no thread has taken. */
  next: number;
  /** Starts a lane of the main thread on the job (set while it runs). */
  addLocal?: (local: LocalRunner<T, R>) => void;
  /** Lanes joined before the job started. */
  early: LocalRunner<T, R>[];
}

function post(slot: Slot, message: WorkerRequest): void {
  slot.worker.postMessage(message);
}

/**
 * A worker's script in lib/, built with lib/index.js by the one compile step (scripts/build-lib.js),
 * whether the pool runs in the CLI, a script or the tests.
 */
function workerScript(name: WorkerScript): string {
  const script = join(generatorRoot(), 'lib', name);
  if (!existsSync(script)) throw new Error(`${script} is missing: run \`npm run prepare\` to build lib/`);
  return script;
}
