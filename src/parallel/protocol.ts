/** The messages between the main thread and the workers of the pool. */

/** What a worker can do. */
export type JobKind = 'markdown' | 'render' | 'compress' | 'social';

/** Main thread → worker. */
export type WorkerRequest =
  /** The data every chunk of a job needs, sent once per worker and job. */
  | { type: 'setup'; job: number; kind: JobKind; setup: unknown }
  | { type: 'chunk'; job: number; chunk: number; items: unknown[] }
  /** The job is over: the worker drops its setup. */
  | { type: 'end'; job: number };

/** Worker → main thread. */
export type WorkerReply =
  | { type: 'result'; job: number; chunk: number; results: unknown[] }
  /** An unexpected failure (a bug, not bad input: input problems come back inside results). */
  | { type: 'error'; job: number; chunk: number; message: string; stack?: string };
