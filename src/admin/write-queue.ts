/**
 * The admin's one queue of writes (issue 47): every API that changes files (posts and every
 * collection's entries, page copy, settings and categories, media) runs its read-check-write under
 * `serialiseWrites`, naming the files and folders it reads to decide and then writes. Two tasks
 * that name the same file, or a folder and a file inside it, run one after the other, in the order
 * they asked; others run at once. Paths are compared by their real absolute path (symbolic links
 * resolved, for a file not made yet those of its nearest existing folder), so a post saved through
 * the blog's alias and through its collection's address, or the config written by a rename's
 * redirects and by the settings, is one file to the queue.
 *
 * The queue is the process's own, not one per API or per server: a file is the process's. A task
 * asks once for everything it needs, and never asks again while it runs (a task that waits inside
 * another for a path a later one holds would wait for ever).
 */
import { realpath } from 'node:fs/promises';
import { basename, dirname, resolve, sep } from 'node:path';

/** A task holding its paths (their real paths, once resolved), until `done` settles. */
interface Holder {
  paths: Promise<readonly string[]>;
  done: Promise<void>;
}

/** The tasks running or waiting, in the order they asked. */
const holders = new Set<Holder>();

/**
 * Runs `task` once no earlier task that names one of `paths` (or a folder above or a file inside
 * one) is running or waiting, and gives its result. "Earlier" is the order of the calls: the tasks
 * asked before this one are taken at once, before any path is resolved, so a path that resolves
 * slowly (a symbolic link) cannot let a later task overtake.
 */
export async function serialiseWrites<T>(paths: string | readonly string[], task: () => Promise<T>): Promise<T> {
  const earlier = [...holders];
  let release!: () => void;
  const holder: Holder = {
    paths: Promise.all((typeof paths === 'string' ? [paths] : paths).map(realPathOf)),
    done: new Promise<void>((resolve) => (release = resolve)),
  };
  holders.add(holder);
  try {
    const own = await holder.paths;
    const blocking: Promise<void>[] = [];
    for (const other of earlier) {
      const theirs = await other.paths.catch((): readonly string[] => []);
      if (theirs.some((path) => own.some((mine) => overlaps(path, mine)))) blocking.push(other.done);
    }
    await Promise.all(blocking);
    return await task();
  } finally {
    holders.delete(holder);
    release();
  }
}

/** Whether two real paths are one, or one is a folder holding the other. */
function overlaps(a: string, b: string): boolean {
  return a === b || b.startsWith(a.endsWith(sep) ? a : a + sep) || a.startsWith(b.endsWith(sep) ? b : b + sep);
}

/** The path with symbolic links resolved, as far as it exists. */
async function realPathOf(path: string): Promise<string> {
  const absolute = resolve(path);
  try {
    return await realpath(absolute);
  } catch {
    const parent = dirname(absolute);
    return parent === absolute ? absolute : resolve(await realPathOf(parent), basename(absolute));
  }
}
