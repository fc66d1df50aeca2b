/**
 * The list of a collection's posts, fast at tens of thousands: each translation's front matter
 * is kept between requests and read again only when its file changed (a watcher on the
 * collection's folder says which post's folder did; without one, its size, time or inode by one
 * `lstat`), and so are a folder's translation records; the pending changes are read once per
 * list, not once per translation. A list asked with `?limit=`, `offset`, `status`, `locale`,
 * `category` or `q` is filtered and paged here (`pageOfPosts`), as the screen filters it, and
 * answered `{ posts, total }`.
 */
import { lstatSync, watch, type FSWatcher } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { readdir, readFile } from 'node:fs/promises';
import { readFrontMatter } from './front-matter-edit.js';
import { versionOf } from './post-files.js';
import { blobOf } from './translation-origins.js';
import { readTranslationRecords, translationRecordsFile, type TranslationRecords } from './translations.js';

/** A translation's file as the list needs it: its front matter, version and git blob id (translation-origins.ts compares it, without the text). */
export interface ListedFile {
  data: Record<string, unknown>;
  version: string;
  blob: string;
}

/** Reads a translation's file or a folder's records, again only when it changed. */
export interface PostListCache {
  /** The file's front matter and version; undefined when it is missing or not a plain file (a symbolic link is never followed). */
  file(path: string): Promise<ListedFile | undefined>;
  /** The translation records of a post's folder (translations.ts). */
  records(folder: string): Promise<TranslationRecords>;
  /**
   * Follows the changes under `folder` (a collection's), so that what is kept of it needs no look
   * at the disk; resolves once each post's folder is watched.
   */
  watch(folder: string): Promise<void>;
  /**
   * A post as the list showed it, for the same `key` (the config and the day it was made for),
   * while the watcher has named no change in its folder since; undefined otherwise.
   */
  keptPost(folder: string, key: readonly unknown[]): ListedPost | undefined;
  /** Keeps a post read when the cache's `changes()` was `since`: not when the watcher named a change meanwhile (it may be older than the file). */
  keepPost(folder: string, key: readonly unknown[], post: ListedPost, since: number): void;
  /**
   * How many changes the watchers named so far; undefined when `folder` has no watcher (what is
   * kept of it is looked at again each time, and a listing under way is no one else's answer).
   */
  changes(folder: string): number | undefined;
}

/** What identifies a file's state without reading it. */
function stampOf(info: { mtimeMs: number; size: number; ino: number } | undefined): string {
  return info ? `${info.mtimeMs}:${info.size}:${info.ino}` : 'none';
}

/**
 * Creates an empty cache (one per collection's routes). What is kept of a post's folder is trusted
 * until its watcher names a change there: tens of thousands of `lstat`s take longer than the rest
 * of the list. Each post's folder has a watcher of its own, and the collection's folder one for the
 * folders made, moved or removed in it (not Node's recursive watch, which on Linux lists and
 * watches every file at once, synchronously: 15 s with 20,000 posts, the server answering nothing
 * meanwhile). Without a watcher (it could not start, or failed), each file is looked at (one
 * `lstat`) before what is kept of it is used.
 */
export function createPostListCache(): PostListCache {
  /** What is kept, by post folder: its files, its translation records, and the post as listed. */
  interface Kept {
    files: Map<string, { stamp: string; listed: ListedFile | undefined }>;
    records?: { stamp: string; records: TranslationRecords };
    post?: { key: readonly unknown[]; post: ListedPost };
  }
  const kept = new Map<string, Kept>();
  const keptOf = (folder: string) => {
    let entry = kept.get(folder);
    if (!entry) kept.set(folder, (entry = { files: new Map() }));
    return entry;
  };
  /** The collection folders watched, each with the watchers of its posts' folders (and the setting up of those). */
  const watched = new Map<string, { posts: Map<string, FSWatcher>; ready: Promise<void> }>();
  /** Raised by every change a watcher names: what was read before it is not kept after it. */
  let changes = 0;
  /** Whether a post's folder has its watcher, so what is kept of it is up to date. */
  const trusted = (postFolder: string) => {
    const collection = watched.get(dirname(postFolder));
    return collection !== undefined && collection.posts.has(postFolder);
  };

  /** Forgets what is kept of a post's folder. */
  function forget(folder: string) {
    changes++;
    kept.delete(folder);
  }

  /** Watches a post's folder again (a new watcher: the name may stand for another folder now), or stops when it is none. */
  function watchPost(
    collection: string,
    posts: Map<string, FSWatcher>,
    folder: string,
    isFolder: boolean,
    first = false,
  ) {
    posts.get(folder)?.close();
    posts.delete(folder);
    // Watched for the first time: nothing read of it is kept, nor being read (the list waits for `ready`).
    if (!first) forget(folder);
    if (!isFolder || !watched.has(collection)) return;
    try {
      const watcher = watch(folder, { persistent: false }, () => forget(folder));
      watcher.on('error', () => {
        watcher.close();
        if (posts.get(folder) === watcher) posts.delete(folder);
        forget(folder);
      });
      posts.set(folder, watcher);
    } catch {
      // No watcher for this one (the system's limit, say): its files are looked at each time.
    }
  }

  /** Stops watching a collection's folder: every file is looked at again. */
  function unwatch(collection: string, top: FSWatcher) {
    const entry = watched.get(collection);
    top.close();
    if (!entry) return;
    watched.delete(collection);
    for (const watcher of entry.posts.values()) watcher.close();
    for (const folder of kept.keys()) if (dirname(folder) === collection) forget(folder);
  }

  return {
    async file(path) {
      const folder = dirname(path);
      const entry = kept.get(folder)?.files.get(path);
      if (entry && trusted(folder)) return entry.listed;
      const since = changes;
      const info = lstatSync(path, { throwIfNoEntry: false });
      const stamp = info?.isFile() ? stampOf(info) : 'none';
      if (entry?.stamp === stamp) return entry.listed;
      const bytes = stamp === 'none' ? undefined : await readFile(path).catch(() => undefined);
      const listed = bytes && {
        data: readFrontMatter(bytes.toString('utf8')),
        version: versionOf(bytes),
        blob: blobOf(bytes),
      };
      if (since === changes) keptOf(folder).files.set(path, { stamp, listed });
      return listed;
    },
    async records(folder) {
      const entry = kept.get(folder)?.records;
      if (entry && trusted(folder)) return entry.records;
      const since = changes;
      const info = lstatSync(translationRecordsFile(folder), { throwIfNoEntry: false });
      const stamp = info?.isFile() ? stampOf(info) : 'none';
      if (entry?.stamp === stamp) return entry.records;
      const read = stamp === 'none' ? {} : await readTranslationRecords(folder);
      if (since === changes) keptOf(folder).records = { stamp, records: read };
      return read;
    },
    keptPost(folder, key) {
      const entry = kept.get(folder)?.post;
      return entry && trusted(folder) && entry.key.every((part, index) => part === key[index]) ? entry.post : undefined;
    },
    keepPost(folder, key, post, since) {
      if (trusted(folder) && since === changes) keptOf(folder).post = { key, post };
    },
    changes(folder) {
      return watched.has(folder) ? changes : undefined;
    },
    watch(folder) {
      const running = watched.get(folder);
      if (running) return running.ready;
      const posts = new Map<string, FSWatcher>();
      let top: FSWatcher;
      try {
        // A post's folder made, moved or removed: named here, and watched (again) or no more.
        top = watch(folder, { persistent: false }, (_event, name) => {
          if (typeof name !== 'string' || !name || name.includes(sep)) {
            for (const each of kept.keys()) if (dirname(each) === folder) forget(each);
            return;
          }
          const post = join(folder, name);
          watchPost(folder, posts, post, lstatSync(post, { throwIfNoEntry: false })?.isDirectory() === true);
        });
        top.on('error', () => unwatch(folder, top));
      } catch {
        // No watcher here (a platform or a file system without one): every file is looked at.
        return Promise.resolve();
      }
      // The posts' folders, a few hundred at a time: the server keeps answering meanwhile.
      const ready = (async () => {
        const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
        for (let start = 0; start < entries.length; start += 500) {
          for (const entry of entries.slice(start, start + 500)) {
            const post = join(folder, entry.name);
            if (entry.isDirectory() && !posts.has(post)) watchPost(folder, posts, post, true, true);
          }
          await new Promise((resolve) => setImmediate(resolve));
        }
      })();
      watched.set(folder, { posts, ready });
      return ready;
    },
  };
}

/** One post of the list: its slug and each locale's translation as the list shows it. */
export interface ListedPost {
  slug: string;
  translations: Record<string, { title?: unknown; status: string; category?: unknown; [key: string]: unknown }>;
}

/** What a paged list asks for: the screen's filters, and the page. */
export interface PostListQuery {
  limit: number;
  offset: number;
  /** `draft`, `scheduled`, `published`, `missing`, or '' for any. */
  status: string;
  /** Only this locale's translation is looked at, or '' for all. */
  locale: string;
  /** The taxonomy's term (the collection's category field), or ''. */
  category: string;
  /** Text in the slug or a title (case ignored), or ''. */
  search: string;
}

/** The most posts one page holds. */
export const maxPageSize = 500;
/** A page's size when `limit` is not given. */
const defaultPageSize = 50;

/** The paged query of a list's URL, or undefined when it asks for none (the whole list, as before: an array). */
export function postListQueryOf(query: URLSearchParams): PostListQuery | undefined {
  const keys = ['limit', 'offset', 'status', 'locale', 'category', 'q'];
  if (!keys.some((key) => query.has(key))) return undefined;
  const number = (key: string, fallback: number, max: number) => {
    const value = Number(query.get(key) ?? fallback);
    return Number.isInteger(value) && value >= 0 ? Math.min(value, max) : fallback;
  };
  return {
    limit: Math.max(1, number('limit', defaultPageSize, maxPageSize)),
    offset: number('offset', 0, Number.MAX_SAFE_INTEGER),
    status: query.get('status') ?? '',
    locale: query.get('locale') ?? '',
    category: query.get('category') ?? '',
    search: (query.get('q') ?? '').trim().toLowerCase().slice(0, 200),
  };
}

/** Whether a post is shown under the query's filters (those of the collection's screen). */
export function matchesPostQuery(post: ListedPost, query: PostListQuery): boolean {
  const translations = query.locale
    ? [post.translations[query.locale]].filter((translation) => translation !== undefined)
    : Object.values(post.translations);
  if (query.status && !translations.some((translation) => translation.status === query.status)) return false;
  if (query.category) {
    const terms = Object.values(post.translations).flatMap((translation) =>
      Array.isArray(translation.category) ? translation.category : [translation.category],
    );
    if (!terms.includes(query.category)) return false;
  }
  if (!query.search) return true;
  return (
    post.slug.includes(query.search) ||
    Object.values(post.translations).some(
      (translation) => typeof translation.title === 'string' && translation.title.toLowerCase().includes(query.search),
    )
  );
}

/** The page of the posts the query asks for, and how many match it in all. */
export function pageOfPosts(
  posts: readonly ListedPost[],
  query: PostListQuery,
): { posts: ListedPost[]; total: number } {
  const matched = posts.filter((post) => matchesPostQuery(post, query));
  return { posts: matched.slice(query.offset, query.offset + query.limit), total: matched.length };
}
