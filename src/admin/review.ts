/**
 * Review before publishing (`admin.review: true`). An editor's save of a published entry is
 * checked like any save but not written: it is held in the store as a pending change, made
 * against the file's version then, and the site keeps the published text until an admin decides:
 *
 *   GET  reviews                  → { changes: [{ id, collection, slug, locale, by, at, diff }] }
 *        (admins see every pending change, editors their own)
 *   POST reviews/<id>/approve { note? } → the change written through the entry's own save (checked
 *        again, audited, published, kept in the history, rebuilt); 409 when the file changed since
 *   POST reviews/<id>/reject  { note? } → nothing written
 *
 * Both decisions are audited (`review-approve`, `review-reject`) with the note. One pending
 * change per entry and author: a new save replaces the author's earlier one. New entries, drafts,
 * scheduled entries and admins' saves are never held (nothing of theirs is published yet, or the
 * saver may publish).
 */
import type { ResolvedConfig } from '../config/load.js';
import { isPublished } from '../content/collections.js';
import type { StoreSource } from '../store/source.js';
import type { StoredPendingChange } from '../store/store.js';
import type { AdminRequest, AdminRoute } from './api.js';
import type { AuditLog } from './audit-log.js';
import { readFrontMatter } from './front-matter-edit.js';
import { sendJson } from './http.js';
import { fileDiff } from './text-diff.js';

/** The pending changes of the process's store. */
export interface Review {
  source: StoreSource;
  now: () => number;
}

/** The review of the store of `source`. */
export function createReview(source: StoreSource, now: () => number = Date.now): Review {
  return { source, now };
}

/** Whether a save of an entry whose file now holds `existing` must wait for an admin. */
export function mustHold(config: ResolvedConfig, context: AdminRequest, existing: string, today: string): boolean {
  if (!config.admin.review || context.session.role !== 'editor') return false;
  const data = readFrontMatter(existing);
  return data.draft !== true && typeof data.date === 'string' && isPublished(data.date, today);
}

/** Holds `text` as the session's pending change of an entry and answers 202 `{ pending: { id, by, at } }`. */
export async function holdChange(review: Review, context: AdminRequest, entry: { collection: string; slug: string; locale: string; base: string }, text: string): Promise<void> {
  const at = new Date(review.now()).toISOString();
  const id = await (await review.source.get()).holdChange({ ...entry, text, by: context.session.email, at });
  sendJson(context.response, 202, { pending: { id, by: context.session.email, at } });
}

/** The pending changes of an entry, as its GET shows them. */
export async function pendingOf(review: Review, entry: { collection: string; slug: string; locale: string }): Promise<{ id: string; by: string; at: string }[]> {
  const changes = await (await review.source.get()).listPendingChanges();
  return changes.filter((change) => change.collection === entry.collection && change.slug === entry.slug && change.locale === entry.locale).map(({ id, by, at }) => ({ id, by, at }));
}

/** Options of `reviewRoutes`. */
export interface ReviewRoutesOptions {
  review: Review;
  audit: AuditLog;
  /** The collection these routes decide for (a change of another is not theirs: 404). */
  collection: string;
  /** The entry's file text and version now (undefined when it is gone). */
  read(change: StoredPendingChange): Promise<{ text: string; version: string } | undefined>;
  /** Writes the change through the entry's own save, answering the request; whether it was written. */
  save(context: AdminRequest, change: StoredPendingChange, file: { text: string; version: string }): Promise<boolean>;
}

/** The note of a decision's body: a string of at most 2,000 characters, or none. */
function noteOf(fields: Record<string, unknown>): string | null | undefined {
  if (fields.note === undefined || fields.note === null || fields.note === '') return null;
  return typeof fields.note === 'string' && fields.note.length <= 2_000 ? fields.note : undefined;
}

/** The review routes of one collection's entries. */
export function reviewRoutes(options: ReviewRoutesOptions): AdminRoute[] {
  const { review, audit, collection } = options;
  const store = () => review.source.get();

  const list: AdminRoute = {
    method: 'GET',
    pattern: /^reviews$/,
    role: 'editor',
    async handle(context) {
      const pending = await (await store()).listPendingChanges(context.session.role === 'admin' ? undefined : context.session.email);
      const changes = [];
      for (const change of pending.filter((each) => each.collection === collection)) {
        const file = await options.read(change);
        const name = `${change.slug} (${change.locale})`;
        changes.push({ id: change.id, collection, slug: change.slug, locale: change.locale, by: change.by, at: change.at, stale: file?.version !== change.base, diff: fileDiff(name, file?.text ?? '', change.text, ['published', 'pending'], 4) });
      }
      sendJson(context.response, 200, { changes });
    },
  };

  /** A decision route: finds the pending change and its note, answering 400/404/409 when it cannot be decided. */
  const decide = (verb: 'approve' | 'reject', act: (context: AdminRequest, change: StoredPendingChange, note: string | null) => Promise<void>): AdminRoute => ({
    method: 'POST',
    pattern: new RegExp(`^reviews/(\\d{1,18})/${verb}$`),
    role: 'admin',
    async handle(context) {
      const note = noteOf(await context.body());
      if (note === undefined) return sendJson(context.response, 400, { error: 'invalid_body', message: 'send { "note": "<text>" } of at most 2000 characters, or no note' });
      const change = await (await store()).findChange(context.params[0]!);
      if (!change || change.collection !== collection) return sendJson(context.response, 404, { error: 'not_found', message: 'there is no such change waiting for review' });
      if (change.status !== 'pending') return sendJson(context.response, 409, { error: 'decided', message: `this change was already ${change.status}` });
      await act(context, change, note);
    },
  });

  const record = async (context: AdminRequest, change: StoredPendingChange, action: string, note: string | null) => {
    const decided = await (await store()).decideChange(change.id, action === 'review-approve' ? 'approved' : 'rejected', context.session.email, new Date(review.now()).toISOString(), note);
    if (decided) await audit.append({ user: context.session.email, action, slug: change.slug, locale: change.locale, collection, change: change.id, author: change.by, note });
  };

  const approve = decide('approve', async (context, change, note) => {
    const file = await options.read(change);
    if (!file || file.version !== change.base) return sendJson(context.response, 409, { error: 'stale', message: 'the entry changed since this change was made: ask its author to save it again' });
    if (await options.save(context, change, file)) await record(context, change, 'review-approve', note);
  });
  const reject = decide('reject', async (context, change, note) => {
    await record(context, change, 'review-reject', note);
    sendJson(context.response, 200, { rejected: true });
  });
  return [list, approve, reject];
}
