/**
 * The admin accounts of `site serve --admin`: kept in the store (the `accounts` table; see
 * users.ts for the operations), an email, a role and a scrypt hash each.
 */

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

/** An email in the form accounts are keyed by (trimmed, lowercase). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Whether a string looks like an email address (one @, a dot in the domain, no spaces). */
export function isEmail(email: string): boolean {
  return email.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email);
}
