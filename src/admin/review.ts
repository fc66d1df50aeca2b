/**
 * Review before publishing (`admin.review: true`): an editor publishes nothing alone. Every change
 * of an editor that would change the public site is checked like any change but not made: it is
 * held in the store as a pending change, made against the item's version then, and the site stays
 * as it is until an admin decides. Held are, for an editor:
 *
 *   - an entry's save, new translation or restore, when its text before or after the change is on
 *     the site now or on its date (anything but a draft: a draft made public, a scheduled post
 *     moved to a past date and a new translation of a published post all count);
 *   - the deletion of such a translation;
 *   - an entry's rename, when any of its translations is such (its addresses move, and the
 *     redirects go into the config);
 *   - a page's texts (every page's copy is on the site);
 *   - an image's alt text and focal point (on the site wherever it is used, now or later).
 *
 * Admins' changes are made at once. Each API decides its own changes with `reviewRoutes`:
 *
 *   GET  <prefix>reviews          → { changes: [{ id, slug, locale, by, at, kind, stale, diff, … }] }
 *        (admins see every pending change, editors their own)
 *   POST <prefix>reviews/<id>/approve { note? } → the change made through the API's own code, as
 *        the admin (checked again, audited, published, kept in the history, rebuilt); 409 when the
 *        item changed since
 *   POST <prefix>reviews/<id>/reject  { note? } → nothing made
 *
 * Both decisions are audited (`review-approve`, `review-reject`) with the note. One pending change
 * per item and author: a new change replaces the author's earlier one. Every API's changes are in
 * one queue too (`reviewQueueRoutes`: `GET review-queue`, `POST review-queue/<id>/approve|reject`),
 * which decides each through its API's own routes.
 *
 * How a change is kept in the store's `pending_changes` (collection, slug, locale, base, text):
 *
 *   an entry's new text        <collection>, slug, locale, its file's version ('' for none), the text
 *   an entry's deletion        the same, with the text '' (an entry's text is never empty: none is no file)
 *   an entry's rename          <collection>, the old slug, locale '' (the whole entry), '', the new slug
 *   a page's texts             `pagesScope`, the page's content id, locale, its version, the file's new text
 *   an image's sidecar         `mediaScope`, the image's id, '', the sidecar's version, its new text
 *
 * (`:` is in no collection's name, so the scopes never meet an entry's changes.)
 */
import type { ResolvedConfig } from '../config/load.js';
import type { StoreSource } from '../store/source.js';
import type { StoredPendingChange } from '../store/store.js';
import type { AdminRequest, AdminRoute } from './api.js';
import type { AuditLog } from './audit-log.js';
import { readFrontMatter } from './front-matter-edit.js';
import type { ChangeInWords } from './change-words.js';
import { sendJson } from './http.js';

/** The store's collection of the changes of pages' texts (pages-api.ts). */
export const pagesScope = ':pages';
/** The store's collection of the changes of images' sidecars (media-library.ts). */
export const mediaScope = ':media';
/** The store's collection of editors' changes of the settings (settings-api.ts). */
export const settingsScope = ':settings';
/** The locale of a change of a whole entry (a rename). */
export const wholeEntry = '';

/** The pending changes of the process's store, and the APIs that decide them (by scope: the one queue asks them). */
export interface Review {
  source: StoreSource;
  now: () => number;
  /** Each scope's review options, as its API's `reviewRoutes` registered them. */
  scopes: Map<string, ReviewRoutesOptions>;
  /** Makes the routes of a scope not made yet (a collection's are made on first use), so it registers. */
  load?(scope: string): void;
}

/** The review of the store of `source`. */
export function createReview(source: StoreSource, now: () => number = Date.now): Review {
  return { source, now, scopes: new Map() };
}

/**
 * Whether a change must wait for an admin: review is on, an editor made it, and it `affectsSite`
 * (the public site, before or after the change, shows what it changes).
 */
export function mustHold(config: ResolvedConfig, context: AdminRequest, affectsSite: boolean): boolean {
  return config.admin.review && context.session.role === 'editor' && affectsSite;
}

/**
 * Whether an entry's text is on the public site, now or on its date by itself: any text but a
 * draft's (undefined or '': no file). A front matter that does not read counts as public: the
 * safe side.
 */
export function isPublicEntry(text: string | undefined): boolean {
  if (!text) return false;
  try {
    return readFrontMatter(text).draft !== true;
  } catch {
    return true;
  }
}

/** Holds `text` as the session's pending change of an item and answers 202 `{ pending: { id, by, at } }`. */
export async function holdChange(
  review: Review,
  context: AdminRequest,
  item: { collection: string; slug: string; locale: string; base: string },
  text: string,
): Promise<void> {
  const at = new Date(review.now()).toISOString();
  const id = await (await review.source.get()).holdChange({ ...item, text, by: context.session.email, at });
  sendJson(context.response, 202, { pending: { id, by: context.session.email, at } });
}

/** The pending changes of an item, as its GET shows them. */
export async function pendingOf(
  review: Review,
  item: { collection: string; slug: string; locale: string },
): Promise<{ id: string; by: string; at: string }[]> {
  const changes = await (await review.source.get()).listPendingChanges();
  return changes
    .filter(
      (change) => change.collection === item.collection && change.slug === item.slug && change.locale === item.locale,
    )
    .map(({ id, by, at }) => ({ id, by, at }));
}

/** What a pending change does, as the list shows it besides its id, item, author and time. */
export interface HeldChangeView {
  kind: 'save' | 'delete' | 'rename';
  /** Whether the item changed since the change was made (an approval is then refused). */
  stale: boolean;
  /** The files as they are now against the change. */
  diff: string;
  /** The same in words (change-words.ts), where the API words its items. */
  changes?: ChangeInWords[];
  /** The item in words (a page, an image). */
  name?: string;
  [detail: string]: unknown;
}

/** Options of `reviewRoutes`. */
export interface ReviewRoutesOptions {
  review: Review;
  audit: AuditLog;
  /** The store's collection of the changes these routes decide (an entry collection, `pagesScope`, `mediaScope`): another's are not theirs (404). */
  scope: string;
  /** Before `reviews` in the routes' paths ('' for a collection's, `pages/`, `media/`). */
  prefix?: string;
  /** The change as the list shows it. */
  view(change: StoredPendingChange): Promise<HeldChangeView>;
  /** Makes the change through the API's own code as the deciding admin, answering the request; whether it was made (answered 200). */
  apply(context: AdminRequest, change: StoredPendingChange): Promise<boolean>;
  /** The fields that name the change's item in the audit entry of a decision (default: collection, slug, locale). */
  auditOf?(change: StoredPendingChange): Promise<Record<string, unknown>>;
}

/** The note of a decision's body: a string of at most 2,000 characters, or none. */
function noteOf(fields: Record<string, unknown>): string | null | undefined {
  if (fields.note === undefined || fields.note === null || fields.note === '') return null;
  return typeof fields.note === 'string' && fields.note.length <= 2_000 ? fields.note : undefined;
}

/** A change as the lists show it: its id, item, language, author, time, and what its API says of it. */
async function listed(options: ReviewRoutesOptions, change: StoredPendingChange) {
  return {
    id: change.id,
    slug: change.slug,
    locale: change.locale,
    by: change.by,
    at: change.at,
    ...(await options.view(change)),
  };
}

/** The pending changes a reader sees: an admin every one, an editor their own. */
async function pendingFor(review: Review, context: AdminRequest): Promise<StoredPendingChange[]> {
  return (await review.source.get()).listPendingChanges(
    context.session.role === 'admin' ? undefined : context.session.email,
  );
}

/**
 * Decides a pending change (`approve`: made through its API's own code; `reject`: nothing made),
 * answering the request; the decision is audited with the note. 400 for a note that is not one,
 * 404 for no such change (or another scope's: `scope`), 409 for one decided already.
 */
async function decide(
  review: Review,
  audit: AuditLog,
  context: AdminRequest,
  id: string,
  verb: 'approve' | 'reject',
  scope?: string,
): Promise<void> {
  const note = noteOf(await context.body());
  if (note === undefined)
    return sendJson(context.response, 400, {
      error: 'invalid_body',
      message: 'send { "note": "<text>" } of at most 2000 characters, or no note',
    });
  const store = await review.source.get();
  const change = await store.findChange(id);
  if (change && !review.scopes.has(change.collection)) review.load?.(change.collection);
  const options = change && review.scopes.get(change.collection);
  if (!change || !options || (scope !== undefined && change.collection !== scope))
    return sendJson(context.response, 404, {
      error: 'not_found',
      message: 'there is no such change waiting for review',
    });
  if (change.status !== 'pending')
    return sendJson(context.response, 409, {
      error: 'decided',
      message: `this change was already ${change.status}`,
    });
  const auditOf =
    options.auditOf ??
    (async (held: StoredPendingChange) => ({ slug: held.slug, locale: held.locale, collection: options.scope }));
  const record = async (action: 'review-approve' | 'review-reject') => {
    const decided = await store.decideChange(
      change.id,
      action === 'review-approve' ? 'approved' : 'rejected',
      context.session.email,
      new Date(review.now()).toISOString(),
      note,
    );
    if (decided)
      await audit.append({
        user: context.session.email,
        action,
        ...(await auditOf(change)),
        change: change.id,
        author: change.by,
        note,
      });
  };
  if (verb === 'approve') {
    if (await options.apply(context, change)) await record('review-approve');
    return;
  }
  await record('review-reject');
  sendJson(context.response, 200, { rejected: true });
}

/** The review routes of one API's items (and its registration for the one queue, `reviewQueueRoutes`). */
export function reviewRoutes(options: ReviewRoutesOptions): AdminRoute[] {
  const { review, audit, scope } = options;
  const prefix = options.prefix ?? '';
  review.scopes.set(scope, options);

  const list: AdminRoute = {
    method: 'GET',
    pattern: new RegExp(`^${prefix}reviews$`),
    role: 'editor',
    async handle(context) {
      const changes = [];
      for (const change of (await pendingFor(review, context)).filter((each) => each.collection === scope))
        changes.push(await listed(options, change));
      sendJson(context.response, 200, { changes });
    },
  };

  const decision = (verb: 'approve' | 'reject'): AdminRoute => ({
    method: 'POST',
    pattern: new RegExp(`^${prefix}reviews/(\\d{1,18})/${verb}$`),
    role: 'admin',
    handle: (context) => decide(review, audit, context, context.params[0]!, verb, scope),
  });
  return [list, decision('approve'), decision('reject')];
}

/** What kind of item a change's scope holds, as the queue names it. */
function kindOf(scope: string, view: HeldChangeView): string {
  const what =
    scope === pagesScope ? 'page' : scope === mediaScope ? 'media' : scope === settingsScope ? 'settings' : 'entry';
  return view.kind === 'save' ? what : `${what}-${view.kind}`;
}

/**
 * The one queue of every change waiting for review, whatever its API (`admin.review`):
 *
 *   GET  review-queue → { changes: [{ id, kind, item, locale, by, at, changes, diff, stale, name, … }] }
 *        (`kind`: page, media, entry, entry-delete, entry-rename; `item`: the page's content id, the
 *        image's id, or `<collection>/<slug>`; admins see all, editors their own)
 *   POST review-queue/<id>/approve|reject { note? } → as the API's own `…/reviews/<id>/…` answers
 */
export function reviewQueueRoutes(review: Review, audit: AuditLog): AdminRoute[] {
  const list: AdminRoute = {
    method: 'GET',
    pattern: /^review-queue$/,
    role: 'editor',
    async handle(context) {
      const changes = [];
      for (const change of await pendingFor(review, context)) {
        if (!review.scopes.has(change.collection)) review.load?.(change.collection);
        const options = review.scopes.get(change.collection);
        if (!options) continue;
        const { slug, ...shown } = await listed(options, change);
        const item = change.collection.startsWith(':') ? slug : `${change.collection}/${slug}`;
        changes.push({
          ...shown,
          kind: kindOf(change.collection, shown),
          action: shown.kind,
          item,
          scope: change.collection,
          changes: shown.changes ?? [],
        });
      }
      sendJson(context.response, 200, { changes });
    },
  };
  const decision = (verb: 'approve' | 'reject'): AdminRoute => ({
    method: 'POST',
    pattern: new RegExp(`^review-queue/(\\d{1,18})/${verb}$`),
    role: 'admin',
    handle: (context) => decide(review, audit, context, context.params[0]!, verb),
  });
  return [list, decision('approve'), decision('reject')];
}

/** The answer to approving a change whose item moved on since it was made. */
export function answerStale(context: AdminRequest, what = 'entry'): void {
  sendJson(context.response, 409, {
    error: 'stale',
    message: `the ${what} changed since this change was made: ask its author to make it again`,
  });
}
