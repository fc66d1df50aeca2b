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
 *
 * A folder whose files stat otherwise (a second checkout, a CI runner that restored the cache)
 * is kept when it holds the same files with the same bytes (their SHA-256, read before it was
 * loaded): its files are read, but neither parsed nor looked up, and its snapshot takes the new
 * stamps. The proof of a kept folder is its files' hashes, the same in every checkout. A value
 * that names the project's folder (an image by its absolute path) is kept for that folder only.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, type BigIntStats } from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { namesFolder, type DiskCache } from '../cache/disk-cache.js';

/** A folder last changed this recently is not kept (2 s: the coarsest common clock, FAT's). */
export const settleMs = 2000;

/** A file's size, modification and change times in nanoseconds and inode, as text. */
const stampText = (stats: BigIntStats) => `${stats.size} ${stats.mtimeNs} ${stats.ctimeNs} ${stats.ino}`;

/** The stamp of a file, undefined when it is gone. */
function stampOf(path: string): string | undefined {
  const stats = statSync(path, { bigint: true, throwIfNoEntry: false });
  return stats && stampText(stats);
}

/** The stamps of a folder ("") and of each file in it, by name, and the hash of each file's bytes. */
export interface FolderStamps {
  stamps: [string, string][];
  hashes: [string, string][];
}

/** What is kept of a folder: its stamps and hashes before it was loaded, and the value loaded. */
interface Snapshot<T> extends FolderStamps {
  value: T;
  /** The project folder, when the value names it (an entry's image, by its absolute path): then only that folder's builds take it. */
  root?: string;
}

const hashOf = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('base64url');

/** The names of the files of a folder, sorted. */
const fileNames = (folder: string) =>
  readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name)
    .sort();

/** Values kept by folder, in a namespace of the build cache. */
export interface FolderSnapshots<T> {
  /**
   * The value kept under `key` for `folder`, when the folder and its files stat as they did then
   * or hold the same bytes (then `restamp`: its snapshot should take the folder's stamps now),
   * with a proof of it: the same proof, the same key and files, so the same value.
   */
  read(key: string, folder: string): { value: T; proof: string; restamp: boolean } | undefined;
  /**
   * The stamps of `folder` now, taken before it is loaded (an edit during the load then shows at
   * the next build); undefined when it or one of its files changed within `settleMs`.
   */
  stamps(folder: string): FolderStamps | undefined;
  /** Keeps `value` under `key`, with the stamps taken before it was loaded. */
  write(key: string, stamps: FolderStamps, value: T): void;
}

/** The proof of the snapshot kept under `key` with these hashes: its key and its files' bytes. */
export const snapshotProof = (key: string, { hashes }: Pick<FolderStamps, 'hashes'>) =>
  `${key} ${JSON.stringify(hashes)}`;

/** Folder snapshots in `cache` (a pack: each build keeps those it used). */
export function folderSnapshots<T>(cache: DiskCache, root: string): FolderSnapshots<T> {
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
      if (snapshot.root !== undefined && snapshot.root !== root) return undefined;
      const proof = snapshotProof(key, snapshot);
      if (snapshot.stamps.every(([name, stamp]) => stampOf(join(folder, name)) === stamp))
        return { value: snapshot.value, proof, restamp: false };
      return sameBytes(folder, snapshot.hashes) ? { value: snapshot.value, proof, restamp: true } : undefined;
    },
    stamps(folder) {
      const settled = BigInt(Date.now() - settleMs) * 1_000_000n;
      const stamps: [string, string][] = [];
      const hashes: [string, string][] = [];
      try {
        const names = fileNames(folder);
        for (const name of ['', ...names]) {
          const stats = statSync(join(folder, name), { bigint: true });
          if (stats.ctimeNs > settled || stats.mtimeNs > settled) return undefined;
          stamps.push([name, stampText(stats)]);
        }
        for (const name of names) hashes.push([name, hashOf(readFileSync(join(folder, name)))]);
      } catch {
        return undefined;
      }
      return { stamps, hashes };
    },
    write(key, { stamps, hashes }, value) {
      const names = namesFolder(serialize(value), root);
      void cache.write(key, serialize({ stamps, hashes, value, ...(names ? { root } : {}) } satisfies Snapshot<T>));
    },
  };
}

/** Whether `folder` holds exactly the files of `hashes`, with those bytes. */
function sameBytes(folder: string, hashes: readonly [string, string][]): boolean {
  try {
    const names = fileNames(folder);
    return (
      names.length === hashes.length &&
      hashes.every(([name, hash], index) => names[index] === name && hashOf(readFileSync(join(folder, name))) === hash)
    );
  } catch {
    return false;
  }
}
