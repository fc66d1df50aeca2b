/**
 * The list of a collection's posts, fast at tens of thousands: each translation's front matter
 * is kept between requests and read again only when its file changed (a watcher on the
 * collection's folder says which post's folder did; without one, its size, time or inode by one
 * `lstat`), and so are a folder's translation records; the pending changes are read once per
 * list, not once per translation. A list asked with `?limit=`, `offset`, `status`, `locale`,
 * `category` or `q` is filtered and paged here (`pageOfPosts`), as the screen filters it, and
 * answered `{ posts, total }`.
 */
import { lstatSync, watch } from 'node:fs';
import { join, sep } from 'node:path';
import { readFile } from 'node:fs/promises';
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
  /** Follows the changes under `folder` (a collection's), so that what is kept of it needs no look at the disk. */
  watch(folder: string): void;
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
 * Creates an empty cache (one per collection's routes). Under a watched folder, what is kept is
 * trusted until the watcher names a change in its post's folder: tens of thousands of `lstat`s
 * take longer than the rest of the list. Without a watcher (it could not start, or failed), each
 * file is looked at (one `lstat`) before what is kept of it is used.
 */
export function createPostListCache(): PostListCache {
  const files = new Map<string, { stamp: string; listed: ListedFile | undefined }>();
  const records = new Map<string, { stamp: string; records: TranslationRecords }>();
  const posts = new Map<string, { key: readonly unknown[]; post: ListedPost }>();
  const watched = new Set<string>();
  /** Raised by every change a watcher names: what was read before it is not kept after it. */
  let changes = 0;
  const trusted = (path: string) => {
    for (const folder of watched) if (path.startsWith(folder + sep)) return true;
    return false;
  };

  /** Forgets what is kept of a post's folder (and of the folder itself). */
  function forget(folder: string) {
    changes++;
    for (const map of [files, records, posts] as Map<string, unknown>[])
      for (const key of map.keys()) if (key === folder || key.startsWith(folder + sep)) map.delete(key);
  }

  return {
    async file(path) {
      const kept = files.get(path);
      if (kept && trusted(path)) return kept.listed;
      const since = changes;
      const info = lstatSync(path, { throwIfNoEntry: false });
      const stamp = info?.isFile() ? stampOf(info) : 'none';
      if (kept?.stamp === stamp) return kept.listed;
      const bytes = stamp === 'none' ? undefined : await readFile(path).catch(() => undefined);
      const listed = bytes && {
        data: readFrontMatter(bytes.toString('utf8')),
        version: versionOf(bytes),
        blob: blobOf(bytes),
      };
      if (since === changes) files.set(path, { stamp, listed });
      return listed;
    },
    async records(folder) {
      const kept = records.get(folder);
      if (kept && trusted(folder)) return kept.records;
      const since = changes;
      const info = lstatSync(translationRecordsFile(folder), { throwIfNoEntry: false });
      const stamp = info?.isFile() ? stampOf(info) : 'none';
      if (kept?.stamp === stamp) return kept.records;
      const read = stamp === 'none' ? {} : await readTranslationRecords(folder);
      if (since === changes) records.set(folder, { stamp, records: read });
      return read;
    },
    keptPost(folder, key) {
      const kept = posts.get(folder);
      return kept && trusted(folder) && kept.key.every((part, index) => part === key[index]) ? kept.post : undefined;
    },
    keepPost(folder, key, post, since) {
      if (trusted(folder) && since === changes) posts.set(folder, { key, post });
    },
    changes(folder) {
      return watched.has(folder) ? changes : undefined;
    },
    watch(folder) {
      if (watched.has(folder)) return;
      try {
        const watcher = watch(folder, { recursive: true, persistent: false }, (_event, name) => {
          // A change names a path under the folder: its post's folder (the first part) is read again.
          if (typeof name !== 'string' || !name) return forget(folder);
          forget(join(folder, name.split(sep)[0]!));
        });
        watcher.on('error', () => {
          watched.delete(folder);
          forget(folder);
          watcher.close();
        });
        watched.add(folder);
      } catch {
        // No watcher here (a platform or a file system without one): every file is looked at.
      }
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
