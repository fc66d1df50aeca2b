/**
 * Watches the inputs of a site with chokidar and hands over the changes in batches: events that
 * arrive within `debounceMs` of each other (an editor's save can be several) make one batch.
 */
import { basename } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { FileChange } from './rebuild.js';

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
  return name === 'node_modules' || name === '.git' || name === '.DS_Store' || name.startsWith('.#') || /(~|\.sw[px]|\.tmp)$/.test(name);
}

/** Starts watching `paths` (files or folders, absolute). */
export function watchInputs(paths: readonly string[], options: WatchOptions): InputWatcher {
  const debounceMs = options.debounceMs ?? 5;
  let watched = [...new Set(paths)];
  const watcher: FSWatcher = watch(watched, { ignoreInitial: true, ignored: isIgnored });
  let pending: FileChange[] = [];
  let timer: NodeJS.Timeout | undefined;

  const flush = () => {
    timer = undefined;
    const batch = pending;
    pending = [];
    if (batch.length) options.onChanges(batch);
  };
  const add = (change: FileChange) => {
    pending.push(change);
    if (timer) clearTimeout(timer);
    timer = setTimeout(flush, debounceMs);
  };
  watcher.on('all', (event, path) => add({ path, directory: event === 'addDir' || event === 'unlinkDir' }));
  watcher.on('error', (error) => options.onError?.(error));
  const ready = new Promise<void>((done) => watcher.once('ready', () => done()));

  return {
    ready,
    setPaths(next) {
      const wanted = [...new Set(next)];
      const removed = watched.filter((path) => !wanted.includes(path));
      const added = wanted.filter((path) => !watched.includes(path));
      if (removed.length) watcher.unwatch(removed);
      if (added.length) watcher.add(added);
      watched = wanted;
    },
    async close() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      pending = [];
      await watcher.close();
    },
  };
}
