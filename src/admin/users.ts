/** The account operations behind `site admin add-user | list-users | remove-user | set-password`. */
import { SiteError } from '../errors.js';
import { isEmail, normalizeEmail, readAccounts, roles, writeAccounts, type Account, type Role } from './accounts.js';
import { hashPassword, type ScryptParams } from './passwords.js';

const usage = (message: string, hint?: string) => new SiteError({ code: 'ADMIN_USAGE', message, hint });

/** Checks and normalises an email given on the command line. */
export function checkEmail(email: string): string {
  const normal = normalizeEmail(email);
  if (!isEmail(normal)) throw usage(`"${email}" is not an email address`, 'Give the address the person signs in with, such as anna@example.com.');
  return normal;
}

/** Checks a role given on the command line. */
export function checkRole(role: string): Role {
  if (!(roles as readonly string[]).includes(role)) throw usage(`"${role}" is not a role`, `Use one of: ${roles.join(', ')}.`);
  return role as Role;
}

/** Adds an account; refuses an email that has one. */
export async function addUser(file: string, email: string, role: Role, password: string, params?: ScryptParams, now = new Date()): Promise<Account> {
  const accounts = await readAccounts(file);
  if (accounts.some((account) => account.email === email)) throw usage(`${email} already has an account`, 'Use `site admin set-password` to change its password.');
  const account: Account = { email, role, passwordHash: await hashPassword(password, params), created: now.toISOString() };
  await writeAccounts(file, [...accounts, account]);
  return account;
}

/** Removes an account. */
export async function removeUser(file: string, email: string): Promise<void> {
  const accounts = await readAccounts(file);
  if (!accounts.some((account) => account.email === email)) throw usage(`${email} has no account`, 'Run `site admin list-users` to see the accounts.');
  await writeAccounts(file, accounts.filter((account) => account.email !== email));
}

/** Sets the password of an account (which ends its sessions on a running server). */
export async function setPassword(file: string, email: string, password: string, params?: ScryptParams): Promise<void> {
  const accounts = await readAccounts(file);
  const account = accounts.find((candidate) => candidate.email === email);
  if (!account) throw usage(`${email} has no account`, 'Add it with `site admin add-user`.');
  const passwordHash = await hashPassword(password, params);
  await writeAccounts(file, accounts.map((candidate) => (candidate === account ? { ...account, passwordHash } : candidate)));
}
