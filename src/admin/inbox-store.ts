/**
 * The admin inbox: the contact messages and booking requests in the store (src/store/), with
 * their handled state. Each change is one statement of the store, so nothing a visitor sends
 * while an admin deletes or prunes is lost, whichever process receives it; deleting a booking
 * frees its slot at once. Item ids: `contact-<id>` and `booking-<id>` (ids imported from the
 * JSON-lines files of earlier versions keep the values they had: inbox-records.ts).
 */
import type { InboxItem } from '../islands/inbox-filter.js';
import type { StoreSource } from '../store/source.js';
import type { PruneCount } from '../store/store.js';
import { kindOfId } from '../store/inbox-records.js';

export type { PruneCount } from '../store/store.js';

/** The inbox of a store. */
export interface Inbox {
  /** Every item of both kinds, newest first. */
  list(): Promise<InboxItem[]>;
  /** Marks an item handled or not; the item, or undefined when no item has that id. */
  setHandled(id: string, handled: boolean, by: string): Promise<InboxItem | undefined>;
  /** Deletes one item; the item deleted, or undefined when no item has that id. */
  remove(id: string): Promise<InboxItem | undefined>;
  /** Deletes every item whose retention counts from before `before` (ms since the epoch): a message from when it came, a meeting from its end or when it was booked, whichever is later. */
  prune(before: number): Promise<PruneCount[]>;
}

/** Opens the inbox of `source`'s store. */
export function createInbox(source: StoreSource, options: { now?: () => number } = {}): Inbox {
  const now = options.now ?? Date.now;
  return {
    async list() {
      return (await source.get()).listInbox();
    },
    async setHandled(id, handled, by) {
      if (!kindOfId(id)) return undefined;
      return (await source.get()).setHandled(id, handled, by, new Date(now()).toISOString());
    },
    async remove(id) {
      if (!kindOfId(id)) return undefined;
      return (await source.get()).deleteInboxItem(id);
    },
    async prune(before) {
      return (await source.get()).pruneInbox(new Date(before).toISOString());
    },
  };
}
