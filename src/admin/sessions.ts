/**
 * Server-side sessions of the admin: a 32-byte random token in the cookie; the store keeps the
 * session under the SHA-256 of that token (the database never holds a token that would sign
 * anyone in), so sessions survive a restart and every process on one database shares them. A
 * session ends after 30 minutes without a request or 12 hours after sign-in, whichever comes
 * first; signing in always makes a new token (and drops the one the browser had), signing out
 * deletes it. Each session has its own CSRF token, sent back on every unsafe request.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { StoreSource } from '../store/source.js';
import type { SessionCutoffs, StoredSession } from '../store/store.js';
import type { Role } from './accounts.js';

/** One signed-in user. */
export interface Session {
  /** The cookie's token (known to this request only; the store has its hash). */
  id: string;
  email: string;
  role: Role;
  csrfToken: string;
  created: number;
  lastSeen: number;
  /** The account's stamp when it signed in (see api.ts); none for `site dev`. */
  accountStamp?: string;
}

/** Options of `createSessionStore`. */
export interface SessionOptions {
  idleMs?: number;
  absoluteMs?: number;
  now?: () => number;
}

/** The session store. */
export interface SessionStore {
  /** Starts a session for the user, deleting `previousId` (rotation on sign-in). */
  create(user: { email: string; role: Role }, previousId?: string, accountStamp?: string): Promise<Session>;
  /** The live session of a token (and marks it used), or undefined when unknown or expired. */
  touch(id: string | undefined): Promise<Session | undefined>;
  /** The live session of a token without marking it used (an open event stream does not keep a session alive). */
  peek(id: string | undefined): Promise<Session | undefined>;
  delete(id: string | undefined): Promise<void>;
  /** Ends every session of an account (removed, or its password changed). */
  deleteUser(email: string): Promise<void>;
}

/** 30 minutes idle, 12 hours in all. */
export const sessionLimits = { idleMs: 30 * 60_000, absoluteMs: 12 * 60 * 60_000 };

/** The key a session is stored under: the SHA-256 of its token. */
export function sessionKeyOf(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

/** Creates the session store on `source`'s store. */
export function createSessionStore(source: StoreSource, options: SessionOptions = {}): SessionStore {
  const idleMs = options.idleMs ?? sessionLimits.idleMs;
  const absoluteMs = options.absoluteMs ?? sessionLimits.absoluteMs;
  const now = options.now ?? Date.now;
  const cutoffsAt = (time: number): SessionCutoffs => ({
    idleBefore: new Date(time - idleMs).toISOString(),
    createdBefore: new Date(time - absoluteMs).toISOString(),
  });
  const sessionOf = (token: string, row: StoredSession): Session => ({
    id: token,
    email: row.email,
    role: row.role,
    csrfToken: row.csrfToken,
    created: Date.parse(row.createdAt),
    lastSeen: Date.parse(row.lastSeenAt),
    ...(row.accountStamp ? { accountStamp: row.accountStamp } : {}),
  });
  // A cookie that is not one of ours is never looked up.
  const isToken = (id: string | undefined): id is string => typeof id === 'string' && /^[A-Za-z0-9_-]{43}$/.test(id);
  return {
    async create(user, previousId, accountStamp) {
      const time = now();
      const token = randomBytes(32).toString('base64url');
      const at = new Date(time).toISOString();
      const row: StoredSession = {
        tokenHash: sessionKeyOf(token),
        email: user.email,
        role: user.role,
        csrfToken: randomBytes(32).toString('base64url'),
        accountStamp: accountStamp ?? null,
        createdAt: at,
        lastSeenAt: at,
      };
      await (
        await source.get()
      ).createSession(row, cutoffsAt(time), isToken(previousId) ? sessionKeyOf(previousId) : undefined);
      return sessionOf(token, row);
    },
    async touch(id) {
      if (!isToken(id)) return undefined;
      const time = now();
      const row = await (
        await source.get()
      ).touchSession(sessionKeyOf(id), new Date(time).toISOString(), cutoffsAt(time));
      return row && sessionOf(id, row);
    },
    async peek(id) {
      if (!isToken(id)) return undefined;
      const row = await (await source.get()).peekSession(sessionKeyOf(id), cutoffsAt(now()));
      return row && sessionOf(id, row);
    },
    async delete(id) {
      if (isToken(id)) await (await source.get()).deleteSession(sessionKeyOf(id));
    },
    async deleteUser(email) {
      await (await source.get()).deleteSessionsOf(email);
    },
  };
}
