/**
 * `.site/` beside the config: where earlier versions kept the admin's accounts and audit log
 * (`admins.json`, `audit.jsonl`), which the first start imports into the store (src/store/) and
 * renames aside. It may still hold them, or their renamed copies, so it stays guarded: never an
 * output folder nor inside one, and `site serve` never serves a folder that holds it or its files.
 */
import { join } from 'node:path';

/** The folder of a project's admin state. */
export function adminStateFolder(projectRoot: string): string {
  return join(projectRoot, '.site');
}

/** The names of the files in it that must never be served. */
export const adminStateFiles = ['admins.json', 'audit.jsonl'] as const;
