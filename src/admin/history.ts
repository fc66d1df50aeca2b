/**
 * History and restore of the admin's saves. Every save of an entry, a page's copy or the settings
 * keeps what the files held before it in the store (`saved_versions`, in both modes: publishing to
 * git does not change it), with who saved, when and what changed; the newest `keptVersions` of
 * an item are kept, and deleting an entry leaves its versions. Each item's API adds, under its own
 * address, the routes `historyRoutes` makes:
 *
 *   GET  <item>/history        → { versions: [{ id, by, at, summary, changes }] }, newest first
 *        (`changes`: what that save changed, in words: change-words.ts)
 *   GET  <item>/history/<id>   → { id, by, at, summary, files, diff, changes } (the diff and the
 *        changes: the files now → that version, what restoring it would change)
 *   POST <item>/restore { version } with If-Match → the version's files saved again through the
 *        item's own save (checked, audited as `restore`, published, rebuilt, and itself kept as a version)
 *
 * Files are named by their path in the project (relative to the config's root), so a version
 * names the same file whatever folder the server was started from.
 */
import { relative, sep } from 'node:path';
import type { StoreSource } from '../store/source.js';
import type { StoredVersion, VersionKind } from '../store/store.js';
import type { AdminRequest, AdminRoute } from './api.js';
import type { ChangeInWords } from './change-words.js';
import { readFrontMatter, splitPost } from './front-matter-edit.js';
import { sendJson } from './http.js';
import { fileDiff } from './text-diff.js';

/** How many versions of one item the store keeps (older ones are dropped as new ones come). */
export const keptVersions = 50;

/** The versions of saved files, in the process's store. */
export interface History {
  /** Keeps the files a save of `item` replaced, by `by`, with a line saying what it changed. */
  record(kind: VersionKind, item: string, by: string, summary: string, files: Record<string, string>): Promise<void>;
  list(kind: VersionKind, item: string): Promise<Omit<StoredVersion, 'files'>[]>;
  find(kind: VersionKind, item: string, id: string): Promise<StoredVersion | undefined>;
}

/** The history in the store of `source`. */
export function createHistory(source: StoreSource, now: () => number = Date.now, keep = keptVersions): History {
  return {
    async record(kind, item, by, summary, files) {
      await (
        await source.get()
      ).addVersion({ kind, item, at: new Date(now()).toISOString(), by, summary, files }, keep);
    },
    list: async (kind, item) => (await source.get()).listVersions(kind, item),
    find: async (kind, item, id) => (await source.get()).findVersion(kind, item, id),
  };
}

/** A file's path in the project, as versions name it: relative to the site's root, with slashes. */
export function projectPath(root: string, file: string): string {
  return relative(root, file).split(sep).join('/');
}

/**
 * The dotted keys whose values differ between two parsed documents (YAML copy, front matter, a
 * config): what a save changed, in words. A list counts as one value.
 */
export function changedKeys(before: unknown, after: unknown, prefix = ''): string[] {
  const isMap = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  if (!isMap(before) || !isMap(after))
    return JSON.stringify(before) === JSON.stringify(after) ? [] : [prefix || '(all)'];
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return keys.flatMap((key) => changedKeys(before[key], after[key], prefix ? `${prefix}.${key}` : key));
}

/** The summary of a save that changed `keys`: the first few (names, no words of any language). */
export function summaryOf(keys: readonly string[]): string {
  return keys.length > 5 ? `${keys.slice(0, 5).join(', ')}, …` : keys.join(', ');
}

/** What a save of an entry changed: its front matter fields, and `body`. */
export function entrySummary(before: string, after: string): string {
  const body = splitPost(before).body === splitPost(after).body ? [] : ['body'];
  return summaryOf([...changedKeys(readFrontMatter(before), readFrontMatter(after)), ...body]);
}

/** An item a request's path names. */
export interface HistoryItem {
  /** The item's key in the store. */
  item: string;
  /** Its files now, by path in the project (a file that is gone: absent). */
  files: Record<string, string>;
}

/** Options of `historyRoutes`. */
export interface HistoryRoutesOptions {
  history: History;
  kind: VersionKind;
  /** The item's address under /api/admin/, as a pattern's source (its groups are the route's params). */
  address: string;
  role: AdminRoute['role'];
  /** The item of a request and its files now; answered (400, 404, 503) and undefined when there is none. */
  open(context: AdminRequest): Promise<HistoryItem | undefined>;
  /**
   * Saves `version`'s files through the item's own save, answering the request: 409 when its
   * If-Match is not the current version, 422 when the check refuses them, 200 as a save answers.
   */
  restore(context: AdminRequest, version: StoredVersion): Promise<void>;
  /** The changes in words from one set of the item's files to another (by path in the project; a missing file: none). */
  describe?(before: Record<string, string>, after: Record<string, string>): Promise<ChangeInWords[]>;
}

/**
 * What each save of a list of versions (newest first) changed: a version holds the files before its
 * save, and a file's text after it is the next newer version's that holds the file (a save keeps only
 * the files it changed), else the file now.
 */
export function versionsAfter(
  versions: readonly Pick<StoredVersion, 'files'>[],
  now: Record<string, string>,
): Record<string, string>[] {
  const later: Record<string, string> = { ...now };
  const after: Record<string, string>[] = [];
  for (const version of versions) {
    after.push(Object.fromEntries(Object.keys(version.files).map((path) => [path, later[path] ?? ''])));
    Object.assign(later, version.files);
  }
  return after;
}

/** A line diff of the files now against a version's, file by file: what restoring it would change. */
export function versionDiff(version: Record<string, string>, now: Record<string, string>): string {
  return Object.keys(version)
    .sort()
    .map((path) => fileDiff(path, now[path] ?? '', version[path]!, ['now', 'this version'], 4))
    .join('');
}

/** The history routes of one kind of item. */
export function historyRoutes(options: HistoryRoutesOptions): AdminRoute[] {
  const { history, kind, role } = options;
  const list: AdminRoute = {
    method: 'GET',
    pattern: new RegExp(`^${options.address}/history$`),
    role,
    async handle(context) {
      const found = await options.open(context);
      if (!found) return;
      const versions = await history.list(kind, found.item);
      if (!options.describe) return sendJson(context.response, 200, { versions });
      const full = await Promise.all(versions.map((version) => history.find(kind, found.item, version.id)));
      const after = versionsAfter(
        full.map((version) => ({ files: version?.files ?? {} })),
        found.files,
      );
      const described = [];
      for (const [index, version] of versions.entries())
        described.push({ ...version, changes: await options.describe(full[index]?.files ?? {}, after[index]!) });
      sendJson(context.response, 200, { versions: described });
    },
  };
  const show: AdminRoute = {
    method: 'GET',
    pattern: new RegExp(`^${options.address}/history/([^/]+)$`),
    role,
    async handle(context) {
      const found = await options.open(context);
      if (!found) return;
      const version = await history.find(kind, found.item, context.params[context.params.length - 1]!);
      if (!version)
        return sendJson(context.response, 404, {
          error: 'not_found',
          message: 'there is no such version of this item',
        });
      const now = Object.fromEntries(Object.keys(version.files).map((path) => [path, found.files[path] ?? '']));
      sendJson(context.response, 200, {
        ...version,
        diff: versionDiff(version.files, found.files),
        ...(options.describe ? { changes: await options.describe(now, version.files) } : {}),
      });
    },
  };
  const restore: AdminRoute = {
    method: 'POST',
    pattern: new RegExp(`^${options.address}/restore$`),
    role,
    async handle(context) {
      if (!context.request.headers['if-match'])
        return sendJson(context.response, 428, {
          error: 'if_match_required',
          message: 'send the version you are replacing in If-Match',
        });
      const { version: id } = await context.body();
      if (typeof id !== 'string' && typeof id !== 'number')
        return sendJson(context.response, 400, {
          error: 'invalid_body',
          message: 'send { "version": <id> } of a version in the history',
        });
      const found = await options.open(context);
      if (!found) return;
      const version = await history.find(kind, found.item, String(id));
      if (!version)
        return sendJson(context.response, 404, {
          error: 'not_found',
          message: 'there is no such version of this item',
        });
      if (Object.entries(version.files).every(([path, text]) => found.files[path] === text))
        return sendJson(context.response, 400, {
          error: 'unchanged',
          message: 'the files are already as this version has them',
        });
      await options.restore(context, version);
    },
  };
  return [list, show, restore];
}
