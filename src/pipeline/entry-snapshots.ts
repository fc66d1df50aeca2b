/**
 * Entry folders kept from an earlier `site build` by the stat of their files, as Make, Hugo and
 * Eleventy trust a file's modification time: an entry folder whose files all stat as they did
 * when it loaded cleanly before (same size, modification and change time to the nanosecond,
 * same inode) and that gained or lost no file (the folder's own times) is that entry as it
 * loaded then, and is neither read, checked nor looked up in the Markdown cache again. A file that
 * stats differently is loaded as before, and its content decides.
 *
 * The blind spot is the known one: a file rewritten with the same size within one tick of the
 * file system's clock, after the build that stated it. The change time, which no tool can set
 * (`touch -d` restores the modification time, and moves the change time), narrows it to that
 * tick; and a folder changed less than `settleMs` before the build is not kept, so the rewrite
 * would have to come within a tick of a stat that is itself at least that old: only an edit
 * lost to a clock going backwards could match. `site build --no-cache` trusts no stat.
 */
import { readdirSync, statSync, type BigIntStats } from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { DiskCache } from '../cache/disk-cache.js';

/** A folder last changed this recently is not kept (2 s: the coarsest common clock, FAT's). */
export const settleMs = 2000;

/** A file's size, modification and change times in nanoseconds and inode, as text. */
const stampText = (stats: BigIntStats) => `${stats.size} ${stats.mtimeNs} ${stats.ctimeNs} ${stats.ino}`;

/** The stamp of a file, undefined when it is gone. */
function stampOf(path: string): string | undefined {
  const stats = statSync(path, { bigint: true, throwIfNoEntry: false });
  return stats && stampText(stats);
}

/** The stamps of a folder ("") and of each file in it, by name. */
export type FolderStamps = [string, string][];

/** What is kept of a folder: its stamps before it was loaded, and the value loaded. */
interface Snapshot<T> {
  stamps: FolderStamps;
  value: T;
}

/** Values kept by folder, in a namespace of the build cache. */
export interface FolderSnapshots<T> {
  /**
   * The value kept under `key` for `folder`, when the folder and its files stat as they did then,
   * with a proof of it: the same proof, the same key and stamps, so the same value.
   */
  read(key: string, folder: string): { value: T; proof: string } | undefined;
  /**
   * The stamps of `folder` now, taken before it is loaded (an edit during the load then shows at
   * the next build); undefined when it or one of its files changed within `settleMs`.
   */
  stamps(folder: string): FolderStamps | undefined;
  /** Keeps `value` under `key`, with the stamps taken before it was loaded. */
  write(key: string, stamps: FolderStamps, value: T): void;
}

/** Folder snapshots in `cache` (a pack: each build keeps those it used). */
export function folderSnapshots<T>(cache: DiskCache): FolderSnapshots<T> {
  return {
    read(key, folder) {
      const stored = cache.readSync(key);
      if (!stored) return undefined;
      let snapshot: Snapshot<T>;
      try {
        snapshot = deserialize(stored) as Snapshot<T>;
      } catch {
        return undefined;
      }
      for (const [name, stamp] of snapshot.stamps) if (stampOf(join(folder, name)) !== stamp) return undefined;
      return { value: snapshot.value, proof: `${key} ${JSON.stringify(snapshot.stamps)}` };
    },
    stamps(folder) {
      const settled = BigInt(Date.now() - settleMs) * 1_000_000n;
      const stamps: FolderStamps = [];
      try {
        const names = readdirSync(folder, { withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => entry.name).sort();
        for (const name of ['', ...names]) {
          const stats = statSync(join(folder, name), { bigint: true });
          if (stats.ctimeNs > settled || stats.mtimeNs > settled) return undefined;
          stamps.push([name, stampText(stats)]);
        }
      } catch {
        return undefined;
      }
      return stamps;
    },
    write(key, stamps, value) {
      void cache.write(key, serialize({ stamps, value } satisfies Snapshot<T>));
    },
  };
}
