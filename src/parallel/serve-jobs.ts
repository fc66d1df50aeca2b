/**
 * The worker side of the pool's protocol: answers the main thread's chunks with the handler of
 * their job, made once per job from its setup. Each worker script (src/worker.ts,
 * src/compress-worker.ts) calls it with what it can do.
 */
import { parentPort } from 'node:worker_threads';
import type { JobKind, WorkerReply, WorkerRequest } from './protocol.js';

/** Computes the results of one chunk of a job. */
export type JobHandler = (items: unknown[]) => unknown[] | Promise<unknown[]>;

/** Serves the pool's requests on this worker thread. */
export function serveJobs(createHandler: (kind: JobKind, setup: unknown) => Promise<JobHandler>): void {
  const port = parentPort!;
  const handlers = new Map<number, Promise<JobHandler>>();
  port.on('message', (message: WorkerRequest) => {
    if (message.type === 'setup') {
      const handler = createHandler(message.kind, message.setup);
      handler.catch(() => undefined);
      handlers.set(message.job, handler);
    } else if (message.type === 'end') {
      handlers.delete(message.job);
    } else {
      const { job, chunk, items } = message;
      void (async () => {
        let reply: WorkerReply;
        try {
          const handler = await handlers.get(job);
          if (!handler) throw new Error(`no setup for job ${job}`);
          reply = { type: 'result', job, chunk, results: await handler(items) };
        } catch (error) {
          reply = {
            type: 'error',
            job,
            chunk,
            message: error instanceof Error ? error.message : String(error),
            stack: error instanceof Error ? error.stack : undefined,
          };
        }
        port.postMessage(reply);
      })();
    }
  });
}
