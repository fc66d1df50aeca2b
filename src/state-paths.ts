/**
 * Where a project keeps what the admin writes about its people: the accounts and the audit log,
 * in `.site/` beside the config. Never published: it is never an output folder nor inside one,
 * and `site serve` never serves a folder that holds it or its files.
 */
import { join } from 'node:path';

/** The folder of a project's admin state. */
export function adminStateFolder(projectRoot: string): string {
  return join(projectRoot, '.site');
}

/** The names of the files in it that must never be served. */
export const adminStateFiles = ['admins.json', 'audit.jsonl'] as const;
