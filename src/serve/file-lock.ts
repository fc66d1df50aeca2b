/**
 * One writer per file at a time: in this process, tasks on one file run one after another (a
 * queue per resolved path, shared by every store of that file); across processes (the server and
 * `site admin prune-inbox`), the task also holds a lock file beside it, `.<name>.lock`, created
 * exclusively and holding the owner's pid. A lock file whose owner is gone (no such process, or
 * this process's pid on a lock it does not hold: an earlier process's) or older than `staleMs` was
 * left by a crash and is taken over; otherwise a task waits for it at most `waitMs`, then fails.
 */
import { mkdir, open, readFile, realpath, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

/** Options of `withFileLock`. */
export interface FileLockOptions {
  /** How long a task waits for another process's lock before failing (default 10 s). */
  waitMs?: number;
  /** A lock file older than this is taken over whoever wrote it (default 30 s; no task holds it that long). */
  staleMs?: number;
}

const queues = new Map<string, Promise<unknown>>();
/** The lock files this process holds now, by real path (two spellings of one folder are one lock). */
const held = new Set<string>();

/** The lock file of `file`: a dot-file beside it. */
export function lockFileOf(file: string): string {
  return join(dirname(file), `.${basename(file)}.lock`);
}

/** Runs `task` while holding `file`'s lock (in this process and across processes); resolves or rejects with the task. */
export function withFileLock<T>(file: string, task: () => Promise<T>, options: FileLockOptions = {}): Promise<T> {
  const key = resolve(file);
  const previous = queues.get(key) ?? Promise.resolve();
  const run = previous.then(() => holdingLock(key, task, options));
  const settled = run.then(() => undefined, () => undefined);
  queues.set(key, settled);
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key);
  });
  return run;
}

async function holdingLock<T>(file: string, task: () => Promise<T>, options: FileLockOptions): Promise<T> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const lock = join(await realpath(dirname(file)), basename(lockFileOf(file)));
  await acquire(lock, options.waitMs ?? 10_000, options.staleMs ?? 30_000);
  held.add(lock);
  try {
    return await task();
  } finally {
    held.delete(lock);
    await rm(lock, { force: true });
  }
}

async function acquire(lock: string, waitMs: number, staleMs: number): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(lock, 'wx', 0o600);
      try {
        await handle.writeFile(`${process.pid}\n`);
      } catch (error) {
        // A lock without its owner's pid would hold everyone off until it goes stale.
        await handle.close();
        await rm(lock, { force: true });
        throw error;
      }
      await handle.close();
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (await isStale(lock, staleMs)) {
      await rm(lock, { force: true });
      continue;
    }
    if (Date.now() >= deadline) {
      throw Object.assign(new Error(`${lock} is held by another process`), { code: 'ELOCKED' });
    }
    await new Promise((done) => setTimeout(done, Math.min(5 * 2 ** attempt, 100)));
  }
}

async function isStale(lock: string, staleMs: number): Promise<boolean> {
  let text: string;
  let modified: number;
  try {
    [text, modified] = await Promise.all([readFile(lock, 'utf8'), stat(lock).then((stats) => stats.mtimeMs)]);
  } catch {
    // Gone meanwhile: try to create it again.
    return false;
  }
  if (Date.now() - modified > staleMs) return true;
  const pid = Number.parseInt(text, 10);
  // Created but its pid not written yet: a live owner, unless it stays that way past staleMs.
  if (!Number.isInteger(pid) || pid <= 0) return false;
  // A lock with this process's pid that it does not hold is an earlier process's (a restarted container's pid 1).
  if (pid === process.pid) return !held.has(lock);
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
