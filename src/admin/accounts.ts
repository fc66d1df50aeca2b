/**
 * The admin accounts of `site serve --admin`: `.site/admins.json` beside the config, outside
 * content/ and the output, readable by the server's user only (0600) and git-ignored, written
 * atomically.
 */
import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { SiteError } from '../errors.js';
import { writeFileAtomic } from './atomic-file.js';
import { adminStateFolder } from '../state-paths.js';

/** What an account may do: `editor` edits the blog; `admin` also the settings and the accounts. */
export type Role = 'editor' | 'admin';

/** The roles, weakest first. */
export const roles: readonly Role[] = ['editor', 'admin'];

/** One stored account. */
export interface Account {
  email: string;
  role: Role;
  /** The scrypt hash string (see passwords.ts). */
  passwordHash: string;
  created: string;
}

/** The accounts file of a project. */
export function accountsFile(projectRoot: string): string {
  return join(adminStateFolder(projectRoot), 'admins.json');
}

/** An email in the form accounts are keyed by (trimmed, lowercase). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Whether a string looks like an email address (one @, a dot in the domain, no spaces). */
export function isEmail(email: string): boolean {
  return email.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email);
}

/** Reads the accounts; [] when the file does not exist. */
export async function readAccounts(file: string): Promise<Account[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new SiteError({ code: 'ADMIN_ACCOUNTS', message: 'the admin accounts file is not valid JSON', file });
  }
  const accounts = (data as { accounts?: unknown }).accounts;
  if (!Array.isArray(accounts)) throw new SiteError({ code: 'ADMIN_ACCOUNTS', message: 'the admin accounts file has no "accounts" list', file });
  return accounts.filter((account): account is Account =>
    typeof account?.email === 'string' && roles.includes(account.role) && typeof account.passwordHash === 'string');
}

/** Writes the accounts atomically with mode 0600, creating `.site/` (0700) when needed. */
export async function writeAccounts(file: string, accounts: readonly Account[]): Promise<void> {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const sorted = [...accounts].sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0));
  await writeFileAtomic(file, `${JSON.stringify({ accounts: sorted }, null, 2)}\n`, 0o600);
}
