/**
 * `/api/admin/inbox…`: what visitors sent (contact submissions, booking requests), for admins only.
 *
 * - `GET inbox` → `{ items: [{ id, kind, receivedAt, handled, handledAt?, …fields }] }`, newest first;
 * - `PATCH inbox/:id` `{ handled: true | false }` → `{ item }` (404 for an unknown id);
 * - `DELETE inbox/:id` → `{ deleted: id }` (404 for an unknown id);
 * - `POST inbox/:id/notify` → `{ item }`: the item's failed notifications sent again (all of them
 *   when none were sent), its `delivery` (`sent`, `failed`) and `deliveryError` after; 404 for an
 *   unknown id, 409 `notifications_off` when the config has no `notifications:`;
 * - `GET inbox.csv?q=…&kind=…&handled=…` → the items the filter shows, as CSV (see inbox-records.ts);
 *   `POST inbox.csv` `{ q, kind, handled }` gives the same, with the search text out of the URL
 *   (and so out of proxies' access logs and the browser's history): the inbox page uses it.
 *
 * Every change and every export goes to the audit log with the item's id and kind, or the export's
 * count and filter kind, never what the visitor wrote (nor the search text, which may be a name).
 * Storage: inbox-store.ts, on the store (src/store/).
 */
import type { AdminRequest, AdminRoute } from './api.js';
import type { AuditLog } from './audit-log.js';
import { sendDownload, sendJson } from './http.js';
import { kindOfId, toCsv } from '../store/inbox-records.js';
import type { Notifier } from '../notify/notifier.js';
import { createInbox } from './inbox-store.js';
import type { StoreSource } from '../store/source.js';
import { inboxFilterOf, matchesInboxFilter } from '../islands/inbox-filter.js';

/** Options of `createInboxRoutes`. */
export interface InboxRoutesOptions {
  /** The store the site's visitors write to (it rejects with StoreUnavailable while there is none: dev, before the first build). */
  store: StoreSource;
  audit: AuditLog;
  /** The server's notifications, for the retry of a failed delivery (without it: 409). */
  notifier?: Pick<Notifier, 'retry' | 'enabled'>;
  now?: () => number;
}

/** Creates the inbox's routes (role admin). */
export function createInboxRoutes(options: InboxRoutesOptions): AdminRoute[] {
  const now = options.now ?? Date.now;
  const inbox = createInbox(options.store, { now });

  const list: AdminRoute = {
    method: 'GET',
    pattern: /^inbox$/,
    role: 'admin',
    async handle({ response }) {
      sendJson(response, 200, { items: await inbox.list() });
    },
  };

  /** The CSV export: the filter from the query (GET) or the body (POST). */
  async function exportCsv({ request, response, session, body }: AdminRequest) {
    let query = new URL(request.url ?? '/', 'http://admin').searchParams;
    if (request.method === 'POST') {
      const fields = await body();
      query = new URLSearchParams();
      for (const key of ['q', 'kind', 'handled'])
        if (typeof fields[key] === 'string') query.set(key, fields[key] as string);
    }
    const filter = inboxFilterOf(query);
    const items = (await inbox.list()).filter((item) => matchesInboxFilter(item, filter));
    await options.audit.append({
      user: session.email,
      action: 'inbox-export',
      count: items.length,
      ...(filter.kind ? { kind: filter.kind } : {}),
      ...(filter.handled ? { handled: filter.handled } : {}),
    });
    sendDownload(
      response,
      'text/csv; charset=utf-8',
      `inbox-${new Date(now()).toISOString().slice(0, 10)}.csv`,
      toCsv(items),
    );
  }

  const mark: AdminRoute = {
    method: 'PATCH',
    pattern: /^inbox\/([^/]+)$/,
    role: 'admin',
    async handle({ response, session, params, body }) {
      const { handled } = await body();
      if (typeof handled !== 'boolean')
        return sendJson(response, 400, {
          error: 'invalid_body',
          message: 'send { "handled": true } or { "handled": false }',
        });
      const id = params[0]!;
      const item = await inbox.setHandled(id, handled, session.email);
      if (!item) return sendJson(response, 404, { error: 'not_found' });
      await options.audit.append({
        user: session.email,
        action: handled ? 'inbox-handled' : 'inbox-unhandled',
        id,
        kind: item.kind,
      });
      sendJson(response, 200, { item });
    },
  };

  const remove: AdminRoute = {
    method: 'DELETE',
    pattern: mark.pattern,
    role: 'admin',
    async handle({ response, session, params }) {
      const id = params[0]!;
      const item = await inbox.remove(id);
      if (!item) return sendJson(response, 404, { error: 'not_found' });
      await options.audit.append({ user: session.email, action: 'inbox-delete', id, kind: item.kind });
      sendJson(response, 200, { deleted: id });
    },
  };

  const notify: AdminRoute = {
    method: 'POST',
    pattern: /^inbox\/([^/]+)\/notify$/,
    role: 'admin',
    async handle({ response, session, params }) {
      const id = params[0]!;
      if (!options.notifier?.enabled()) return sendJson(response, 409, { error: 'notifications_off' });
      const item = kindOfId(id) ? await options.notifier.retry(id) : undefined;
      if (!item) return sendJson(response, 404, { error: 'not_found' });
      await options.audit.append({ user: session.email, action: 'inbox-notify', id, kind: item.kind });
      sendJson(response, 200, { item });
    },
  };

  const exportRoutes: AdminRoute[] = ['GET', 'POST'].map((method) => ({
    method,
    pattern: /^inbox\.csv$/,
    role: 'admin',
    handle: exportCsv,
  }));
  return [list, ...exportRoutes, mark, remove, notify];
}
