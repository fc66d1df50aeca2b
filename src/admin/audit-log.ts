/**
 * The admin's audit log: one JSON line per sign-in, sign-out and change (time, user, action,
 * slug, locale, old and new content hash), appended and flushed to disk before the answer goes
 * out. It lives in `.site/audit.jsonl`, outside content/ and the output, mode 0600.
 */
import { mkdirSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { adminStateFolder } from '../state-paths.js';

/** One line of the log. */
export interface AuditRecord {
  user: string;
  action: string;
  slug?: string;
  locale?: string;
  oldHash?: string | null;
  newHash?: string | null;
  [detail: string]: unknown;
}

/** The audit log of a project. */
export function auditLogFile(projectRoot: string): string {
  return join(adminStateFolder(projectRoot), 'audit.jsonl');
}

/** An append-only log; appends run one at a time, each fsync'd. */
export interface AuditLog {
  append(record: AuditRecord): Promise<void>;
}

/** Opens the log at `file` (created on the first append). */
export function createAuditLog(file: string, now: () => number = Date.now): AuditLog {
  let queue: Promise<unknown> = Promise.resolve();
  return {
    append(record) {
      const line = `${JSON.stringify({ time: new Date(now()).toISOString(), ...record })}\n`;
      const next = queue.then(async () => {
        mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
        const handle = await open(file, 'a', 0o600);
        try {
          await handle.write(line);
          await handle.sync();
        } finally {
          await handle.close();
        }
      });
      queue = next.catch(() => undefined);
      return next;
    },
  };
}
