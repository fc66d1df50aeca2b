/**
 * `GET /api/admin/changes?limit=N`: the audit log (the store's `audit_log`) newest first, for admins:
 * `{ items: [{ time, user, action, collection?, slug?, locale?, id?, kind?, count?, to?, page?, image?, paths?, author?, note? }], more }`.
 * Only the fields that say who did what to which post, inbox item, page's copy or settings (`paths`:
 * the settings or texts changed; `collection`: the collection of an entry's change; `to`: a renamed post's new slug; `page`: a page's content id; `image`: the media library's image file; `author`, `note`:
 * whose held change a review decided, and the admin's note) are given (not the content hashes, nor the
 * client address of a failed sign-in); `more` says older entries were left out (default 200, at
 * most 1000).
 */
import type { AdminRoute } from './api.js';
import { sendJson } from './http.js';
import type { StoreSource } from '../store/source.js';

/** One change as the API gives it. */
export interface ChangeEntry {
  time: string;
  user: string;
  action: string;
  collection?: string;
  slug?: string;
  locale?: string;
  id?: string;
  kind?: string;
  count?: number;
  to?: string;
  page?: string;
  image?: string;
  paths?: string[];
  author?: string;
  note?: string;
}

/** Entries given when the request names no limit, and at most. */
export const changesLimits = { default: 200, max: 1000 } as const;

const detailFields = ['collection', 'slug', 'locale', 'id', 'kind', 'to', 'page', 'image', 'author', 'note'] as const;

/** The changes view's entry of a stored audit entry: who did what to which post, inbox item or page, nothing else. */
export function changeOf(record: Record<string, unknown>): ChangeEntry {
  const entry: ChangeEntry = {
    time: String(record.time),
    user: typeof record.user === 'string' ? record.user : '',
    action: String(record.action),
  };
  for (const field of detailFields) if (typeof record[field] === 'string') entry[field] = record[field] as string;
  if (typeof record.count === 'number') entry.count = record.count;
  if (Array.isArray(record.paths))
    entry.paths = record.paths.filter((path): path is string => typeof path === 'string');
  return entry;
}

/** The route of the changes view, reading the audit log of `source`'s store. */
export function createChangesRoute(source: StoreSource): AdminRoute {
  return {
    method: 'GET',
    pattern: /^changes$/,
    role: 'admin',
    async handle({ request, response }) {
      const asked = new URL(request.url ?? '/', 'http://admin').searchParams.get('limit');
      const limit =
        asked && /^\d{1,4}$/.test(asked) && Number(asked) > 0
          ? Math.min(Number(asked), changesLimits.max)
          : changesLimits.default;
      const { entries, more } = await (await source.get()).listAudit(limit);
      sendJson(response, 200, { items: entries.map(changeOf), more });
    },
  };
}
