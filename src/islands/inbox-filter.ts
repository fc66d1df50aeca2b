/**
 * The admin inbox's items and its one filter (search, kind, handled state), used by the browser
 * (the list it shows) and by the server (the CSV export of what is shown), so both always agree.
 */

/** What visitors send: a contact-form submission or a booking request. */
export const inboxKinds = ['contact', 'booking'] as const;

/** A kind of item. */
export type InboxKind = (typeof inboxKinds)[number];

/** One stored submission as the inbox API gives it: the stored fields plus id, kind, time and handled state. */
export interface InboxItem {
  id: string;
  kind: InboxKind;
  /** When the server stored it (ISO 8601, UTC). */
  receivedAt: string;
  handled: boolean;
  /** When it was marked handled. */
  handledAt?: string;
  [field: string]: string | number | boolean | undefined;
}

/** What the inbox shows: the text searched for, one kind or all (''), handled, unhandled or all (''). */
export interface InboxFilter {
  search: string;
  kind: '' | InboxKind;
  handled: '' | 'handled' | 'unhandled';
}

/** The fields a search looks in: the visitor's name, e-mail address, company and what they wrote. */
export const searchedFields = ['firstName', 'lastName', 'email', 'company', 'subject', 'message', 'note'] as const;

/** Whether the item is shown under the filter; every word searched for must occur in one of the searched fields (case is ignored). */
export function matchesInboxFilter(item: InboxItem, filter: InboxFilter): boolean {
  if (filter.kind && item.kind !== filter.kind) return false;
  if (filter.handled && item.handled !== (filter.handled === 'handled')) return false;
  const words = filter.search.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return true;
  const text = searchedFields
    .map((field) => (typeof item[field] === 'string' ? item[field] : ''))
    .join('\n')
    .toLowerCase();
  return words.every((word) => text.includes(word));
}

/** The filter of a query string (`?q=…&kind=contact&handled=unhandled`); unknown values mean all. */
export function inboxFilterOf(query: URLSearchParams): InboxFilter {
  const kind = query.get('kind') ?? '';
  const handled = query.get('handled') ?? '';
  return {
    search: (query.get('q') ?? '').slice(0, 200),
    kind: (inboxKinds as readonly string[]).includes(kind) ? (kind as InboxKind) : '',
    handled: handled === 'handled' || handled === 'unhandled' ? handled : '',
  };
}
