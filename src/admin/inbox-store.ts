/**
 * The admin inbox on disk: the contact submissions and booking requests `site serve` (and
 * `site dev`) stored in the data folder (contact.dataDir), with their handled state.
 *
 * Design, so that nothing a visitor sent is lost while the server keeps accepting more:
 *
 * - The stores' lines are never edited in place. An item's id comes from its line (see
 *   inbox-records.ts), and its handled state lives in a small file of its own beside them,
 *   `inbox-state.json` (id → when and by whom), replaced atomically (temp file, fsync, rename)
 *   under its own lock. Marking an item handled never touches the stores.
 * - A deletion (and `site admin prune-inbox`) rewrites a store with `rewriteJsonLines`: under the
 *   same per-file lock the store's appends take (one queue per file in the process, a lock file
 *   across processes), it reads the file, writes the lines it keeps to a temp file in the same
 *   folder, fsyncs it and renames it into place. An append that arrives meanwhile waits for the
 *   lock and lands in the new file. Afterwards the removed ids leave the state file; a crash in
 *   between leaves only a stale id there, which names nothing and is dropped at the next change.
 * - Reading the list takes no lock: appends and renames are whole, and a line being appended is
 *   at worst not yet complete, so it is skipped until the next read.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bookingsFile } from '../serve/booking.js';
import { contactSubmissionsFile } from '../serve/contact.js';
import { withFileLock } from '../serve/file-lock.js';
import { readJsonLines, rewriteJsonLines } from '../serve/jsonl-store.js';
import { inboxKinds, type InboxItem, type InboxKind } from '../islands/inbox-filter.js';
import { writeFileAtomic } from './atomic-file.js';
import { compareNewestFirst, itemOf, kindOfId, readInboxLines, retainedFromOf, type InboxState } from './inbox-records.js';

/** The file of the handled state, in the data folder. */
export const inboxStateFile = 'inbox-state.json';

/** The store of each kind, in the data folder. */
export const inboxFiles: Readonly<Record<InboxKind, string>> = { contact: contactSubmissionsFile, booking: bookingsFile };

/** What pruning did to one store. */
export interface PruneCount {
  file: string;
  removed: number;
  kept: number;
  /** Lines kept because they tell no time (unreadable, or without a date). */
  undated: number;
}

/** The inbox of one data folder. */
export interface Inbox {
  /** Every readable item of both stores, newest first. */
  list(): Promise<InboxItem[]>;
  /** Marks an item handled or not; the item, or undefined when no item has that id. */
  setHandled(id: string, handled: boolean, by: string): Promise<InboxItem | undefined>;
  /** Deletes one item; the item deleted, or undefined when no item has that id. */
  remove(id: string): Promise<InboxItem | undefined>;
  /** Deletes every item whose retention counts from before `before` (ms since the epoch; see `retainedFromOf`), in both stores. */
  prune(before: number): Promise<PruneCount[]>;
}

/** Opens the inbox of `dataDir`. */
export function createInbox(dataDir: string, options: { now?: () => number } = {}): Inbox {
  const now = options.now ?? Date.now;
  const stateFile = join(dataDir, inboxStateFile);
  const storeOf = (kind: InboxKind) => join(dataDir, inboxFiles[kind]);

  async function readState(): Promise<InboxState> {
    const text = await readFile(stateFile, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (text === undefined) return { handled: {} };
    const parsed = JSON.parse(text) as Partial<InboxState>;
    return { handled: typeof parsed.handled === 'object' && parsed.handled !== null ? parsed.handled : {} };
  }

  /** Changes the state under its lock (written only when it changed); `known` (when given) drops the entries of ids no store holds any more. */
  function changeState(change: (state: InboxState) => void, known?: ReadonlySet<string>): Promise<void> {
    return withFileLock(stateFile, async () => {
      const state = await readState();
      const before = JSON.stringify(state);
      change(state);
      if (known) for (const id of Object.keys(state.handled)) if (!known.has(id)) delete state.handled[id];
      if (JSON.stringify(state) !== before) await writeFileAtomic(stateFile, `${JSON.stringify(state, null, 2)}\n`, 0o600);
    });
  }

  async function itemsOf(kind: InboxKind, state: InboxState): Promise<InboxItem[]> {
    return readInboxLines(kind, await readJsonLines(storeOf(kind))).map((line) => itemOf(kind, line, state));
  }

  async function find(id: string): Promise<InboxItem | undefined> {
    const kind = kindOfId(id);
    if (!kind) return undefined;
    return (await itemsOf(kind, await readState())).find((item) => item.id === id);
  }

  return {
    async list() {
      const state = await readState();
      const items = (await Promise.all(inboxKinds.map((kind) => itemsOf(kind, state)))).flat();
      return items.sort(compareNewestFirst);
    },

    async setHandled(id, handled, by) {
      if (!(await find(id))) return undefined;
      await changeState((state) => {
        if (handled) state.handled[id] = { at: new Date(now()).toISOString(), by };
        else delete state.handled[id];
      });
      return find(id);
    },

    async remove(id) {
      const kind = kindOfId(id);
      if (!kind) return undefined;
      const state = await readState();
      const removed = await rewriteJsonLines(storeOf(kind), (lines) => {
        const target = readInboxLines(kind, lines).find((line) => line.id === id);
        if (!target) return { lines: undefined, result: undefined };
        return { lines: lines.filter((_, index) => index !== target.index), result: itemOf(kind, target, state) };
      });
      if (removed) await changeState((current) => void delete current.handled[id]);
      return removed;
    },

    async prune(before) {
      const counts: PruneCount[] = [];
      const known = new Set<string>();
      for (const kind of inboxKinds) {
        const file = storeOf(kind);
        counts.push(await rewriteJsonLines(file, (lines) => {
          const readable = new Map(readInboxLines(kind, lines).map((line) => [line.index, line]));
          const kept: Buffer[] = [];
          let removed = 0;
          let undated = 0;
          lines.forEach((bytes, index) => {
            const line = readable.get(index);
            const from = line && retainedFromOf(kind, line.record);
            if (from !== undefined && from < before) return void removed++;
            if (from === undefined && bytes.length > 0) undated++;
            if (bytes.length > 0) kept.push(bytes);
          });
          const count = { file: inboxFiles[kind], removed, kept: kept.length, undated };
          return { lines: removed > 0 ? kept : undefined, result: count };
        }));
        for (const line of readInboxLines(kind, await readJsonLines(file))) known.add(line.id);
      }
      if (counts.some((count) => count.removed > 0)) await changeState(() => undefined, known);
      return counts;
    },
  };
}
