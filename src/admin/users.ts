/** The account operations behind `site admin add-user | list-users | remove-user | set-password`, on the store. */
import { SiteError } from '../errors.js';
import type { Store } from '../store/store.js';
import { isEmail, normalizeEmail, roles, type Account, type Role } from './accounts.js';
import { hashPassword, type ScryptParams } from './passwords.js';

const usage = (message: string, hint?: string) => new SiteError({ code: 'ADMIN_USAGE', message, hint });

/** Checks and normalises an email given on the command line. */
export function checkEmail(email: string): string {
  const normal = normalizeEmail(email);
  if (!isEmail(normal))
    throw usage(
      `"${email}" is not an email address`,
      'Give the address the person signs in with, such as anna@example.com.',
    );
  return normal;
}

/** Checks a role given on the command line. */
export function checkRole(role: string): Role {
  if (!(roles as readonly string[]).includes(role))
    throw usage(`"${role}" is not a role`, `Use one of: ${roles.join(', ')}.`);
  return role as Role;
}

/** Adds an account; refuses an email that has one. */
export async function addUser(
  store: Store,
  email: string,
  role: Role,
  password: string,
  params?: ScryptParams,
  now = new Date(),
): Promise<Account> {
  if (await store.findAccount(email))
    throw usage(`${email} already has an account`, 'Use `site admin set-password` to change its password.');
  const account: Account = {
    email,
    role,
    passwordHash: await hashPassword(password, params),
    created: now.toISOString(),
  };
  // Another process may have added it while the password was hashed: the insert decides.
  if (!(await store.addAccount(account)))
    throw usage(`${email} already has an account`, 'Use `site admin set-password` to change its password.');
  return account;
}

/** Removes an account and ends its sessions. */
export async function removeUser(store: Store, email: string): Promise<void> {
  if (!(await store.removeAccount(email)))
    throw usage(`${email} has no account`, 'Run `site admin list-users` to see the accounts.');
}

/** Sets the password of an account and ends its sessions. */
export async function setPassword(store: Store, email: string, password: string, params?: ScryptParams): Promise<void> {
  if (!(await store.findAccount(email))) throw usage(`${email} has no account`, 'Add it with `site admin add-user`.');
  const passwordHash = await hashPassword(password, params);
  if (!(await store.setPasswordHash(email, passwordHash)))
    throw usage(`${email} has no account`, 'Add it with `site admin add-user`.');
  await store.deleteSessionsOf(email);
}
