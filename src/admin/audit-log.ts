/**
 * The admin's audit log: one entry per sign-in, sign-out and change (time, user, action, the
 * collection, slug, locale, old and new content hash), committed to the store (the `audit_log` table) before the
 * answer goes out. It is shown at /admin/changes (changes-api.ts).
 */
import type { StoreSource } from '../store/source.js';

/** One entry of the log. */
export interface AuditRecord {
  user: string;
  action: string;
  slug?: string;
  locale?: string;
  oldHash?: string | null;
  newHash?: string | null;
  [detail: string]: unknown;
}

/** An append-only log. */
export interface AuditLog {
  append(record: AuditRecord): Promise<void>;
}

/** The log in the store of `source`. */
export function createAuditLog(source: StoreSource, now: () => number = Date.now): AuditLog {
  return {
    async append(record) {
      await (await source.get()).appendAudit({ time: new Date(now()).toISOString(), ...record });
    },
  };
}
