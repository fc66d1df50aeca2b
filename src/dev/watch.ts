/**
 * Watches the inputs of a site with chokidar and hands over the changes in batches: events that
 * arrive within `debounceMs` of each other (an editor's save can be several) make one batch.
 * chokidar loses a watched folder that is deleted (and says nothing when it comes back), so a
 * second, shallow watcher looks at the folders that hold the watched paths: when one of them
 * goes or returns, that is reported as a change of the whole folder and the folder is watched anew.
 */
import { statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { FSWatcher } from 'chokidar';
import { lazyPackage } from '../lazy-package.js';
import type { FileChange } from './rebuild.js';

const chokidar = lazyPackage<typeof import('chokidar')>('chokidar');

/** A running watcher. */
export interface InputWatcher {
  /** Resolves once the initial scan is done and changes are reported. */
  ready: Promise<void>;
  /** Watches exactly these paths from now on. */
  setPaths(paths: readonly string[]): void;
  close(): Promise<void>;
}

/** Options of `watchInputs`. */
export interface WatchOptions {
  debounceMs?: number;
  /** Called with each batch of changes. */
  onChanges(changes: FileChange[]): void;
  onError?(error: unknown): void;
}

/** Editor droppings and folders that are never input. */
export function isIgnored(path: string): boolean {
  const name = basename(path);
  return (
    name === 'node_modules' ||
    name === '.git' ||
    name === '.DS_Store' ||
    name.startsWith('.#') ||
    /(~|\.sw[px]|\.tmp)$/.test(name)
  );
}

/** How long after reporting a file it is checked for a write still under way, in ms. */
const settleMs = 100;

/** A file's size and modification time, or "gone". */
function stampOf(path: string): string {
  try {
    const { size, mtimeMs } = statSync(path);
    return `${size} ${mtimeMs}`;
  } catch {
    return 'gone';
  }
}

/** Starts watching `paths` (files or folders, absolute). */
export function watchInputs(paths: readonly string[], options: WatchOptions): InputWatcher {
  const debounceMs = options.debounceMs ?? 5;
  let watched = [...new Set(paths)];
  const createWatcher = (): FSWatcher => {
    const instance = chokidar().watch(watched, { ignoreInitial: true, ignored: isIgnored });
    instance.on('all', (event, path) => add({ path, directory: event === 'addDir' || event === 'unlinkDir' }));
    instance.on('error', (error) => options.onError?.(error));
    return instance;
  };
  const parentsOf = (list: readonly string[]) => [...new Set(list.map((path) => dirname(path)))];
  let parents = parentsOf(watched);
  const parentWatcher: FSWatcher = chokidar().watch(parents, { ignoreInitial: true, depth: 0, ignored: isIgnored });
  let pending: FileChange[] = [];
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const flush = () => {
    timer = undefined;
    const batch = pending;
    pending = [];
    if (!batch.length) return;
    // A file still being written when the change is reported (truncated, its bytes not yet there,
    // the writer descheduled on a busy machine) may be read half-written, and chokidar may send no
    // further event for the rest of the write: a file whose size or time differs a moment later is
    // reported again.
    const stamps = batch
      .filter((change) => !change.directory)
      .map((change) => [change.path, stampOf(change.path)] as const);
    options.onChanges(batch);
    if (stamps.length) {
      setTimeout(() => {
        for (const [path, stamp] of stamps) if (stampOf(path) !== stamp) add({ path, directory: false });
      }, settleMs).unref();
    }
  };
  const add = (change: FileChange) => {
    if (closed) return;
    pending.push(change);
    if (timer) clearTimeout(timer);
    timer = setTimeout(flush, debounceMs);
  };
  let watcher = createWatcher();
  parentWatcher.on('all', (event, path) => {
    if (!watched.includes(path)) return;
    if (event === 'add' || event === 'addDir') {
      // Watched anew, by a fresh watcher (unwatching and adding one path again could leave it
      // unwatched under load). Its files arrive with it and are read by the rebuild this reports;
      // chokidar arms the watchers inside it asynchronously, and a file changed before they are
      // armed sends no event, so the folder is reported again once the watcher is ready (a rebuild
      // that finds nothing changed reloads nothing).
      const old = watcher;
      const fresh = createWatcher();
      watcher = fresh;
      void old.close();
      fresh.once('ready', () => {
        if (watcher === fresh && watched.includes(path)) add({ path, directory: event === 'addDir' });
      });
    }
    if (event !== 'change') add({ path, directory: event === 'addDir' || event === 'unlinkDir' });
  });
  parentWatcher.on('error', (error) => options.onError?.(error));
  const ready = Promise.all([
    new Promise<void>((done) => watcher.once('ready', () => done())),
    new Promise<void>((done) => parentWatcher.once('ready', () => done())),
  ]).then(() => undefined);

  return {
    ready,
    setPaths(next) {
      const wanted = [...new Set(next)];
      const removed = watched.filter((path) => !wanted.includes(path));
      const added = wanted.filter((path) => !watched.includes(path));
      if (removed.length) watcher.unwatch(removed);
      if (added.length) watcher.add(added);
      watched = wanted;
      const nextParents = parentsOf(wanted);
      const goneParents = parents.filter((path) => !nextParents.includes(path));
      const newParents = nextParents.filter((path) => !parents.includes(path));
      if (goneParents.length) parentWatcher.unwatch(goneParents);
      if (newParents.length) parentWatcher.add(newParents);
      parents = nextParents;
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      pending = [];
      await Promise.all([watcher.close(), parentWatcher.close()]);
    },
  };
}
