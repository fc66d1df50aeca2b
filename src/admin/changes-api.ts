/**
 * `GET /api/admin/changes?limit=N`: the audit log (`.site/audit.jsonl`) newest first, for admins:
 * `{ items: [{ time, user, action, slug?, locale?, id?, kind?, count? }], more }`. Only the fields
 * that say who did what to which post or inbox item are given (not the content hashes, nor the
 * client address of a failed sign-in); `more` says older entries were left out (default 200, at
 * most 1000). A line a crash cut short is skipped.
 */
import { readFile } from 'node:fs/promises';
import type { AdminRoute } from './api.js';
import { sendJson } from './http.js';

/** One change as the API gives it. */
export interface ChangeEntry {
  time: string;
  user: string;
  action: string;
  slug?: string;
  locale?: string;
  id?: string;
  kind?: string;
  count?: number;
}

/** Entries given when the request names no limit, and at most. */
export const changesLimits = { default: 200, max: 1000 } as const;

const detailFields = ['slug', 'locale', 'id', 'kind'] as const;

/** The entries of the audit log's text, newest first (the log is appended in time order). */
export function readChanges(text: string): ChangeEntry[] {
  const entries: ChangeEntry[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (typeof record !== 'object' || record === null || typeof record.time !== 'string' || typeof record.action !== 'string') continue;
    const entry: ChangeEntry = { time: record.time, user: typeof record.user === 'string' ? record.user : '', action: record.action };
    for (const field of detailFields) if (typeof record[field] === 'string') entry[field] = record[field] as string;
    if (typeof record.count === 'number') entry.count = record.count;
    entries.push(entry);
  }
  return entries.reverse();
}

/** The route of the changes view; `file` is the audit log. */
export function createChangesRoute(file: string): AdminRoute {
  return {
    method: 'GET',
    pattern: /^changes$/,
    role: 'admin',
    async handle({ request, response }) {
      const asked = new URL(request.url ?? '/', 'http://admin').searchParams.get('limit');
      const limit = asked && /^\d{1,4}$/.test(asked) && Number(asked) > 0 ? Math.min(Number(asked), changesLimits.max) : changesLimits.default;
      const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return '';
        throw error;
      });
      const entries = readChanges(text);
      sendJson(response, 200, { items: entries.slice(0, limit), more: entries.length > limit });
    },
  };
}
