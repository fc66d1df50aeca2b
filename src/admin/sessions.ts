/**
 * Server-side sessions of the admin: a 32-byte random id in the cookie, everything else in this
 * process's memory. A session ends after 30 minutes without a request or 12 hours after sign-in,
 * whichever comes first; signing in always makes a new id (and drops the one the browser had),
 * signing out deletes it. Each session has its own CSRF token, sent back on every unsafe request.
 */
import { randomBytes } from 'node:crypto';
import type { Role } from './accounts.js';

/** One signed-in user. */
export interface Session {
  id: string;
  email: string;
  role: Role;
  csrfToken: string;
  created: number;
  lastSeen: number;
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
  create(user: { email: string; role: Role }, previousId?: string): Session;
  /** The live session of an id (and marks it used), or undefined when unknown or expired. */
  touch(id: string | undefined): Session | undefined;
  /** The live session of an id without marking it used (an open event stream does not keep a session alive). */
  peek(id: string | undefined): Session | undefined;
  delete(id: string | undefined): void;
  /** Ends every session of an account (removed, or its password changed). */
  deleteUser(email: string): void;
  readonly size: number;
}

/** 30 minutes idle, 12 hours in all. */
export const sessionLimits = { idleMs: 30 * 60_000, absoluteMs: 12 * 60 * 60_000 };

/** Creates an in-memory session store. */
export function createSessionStore(options: SessionOptions = {}): SessionStore {
  const idleMs = options.idleMs ?? sessionLimits.idleMs;
  const absoluteMs = options.absoluteMs ?? sessionLimits.absoluteMs;
  const now = options.now ?? Date.now;
  const sessions = new Map<string, Session>();
  const expired = (session: Session, time: number) => time - session.lastSeen >= idleMs || time - session.created >= absoluteMs;
  const prune = (time: number) => {
    for (const [id, session] of sessions) if (expired(session, time)) sessions.delete(id);
  };
  return {
    create(user, previousId) {
      const time = now();
      prune(time);
      if (previousId) sessions.delete(previousId);
      const session: Session = { id: randomBytes(32).toString('base64url'), email: user.email, role: user.role, csrfToken: randomBytes(32).toString('base64url'), created: time, lastSeen: time };
      sessions.set(session.id, session);
      return session;
    },
    touch(id) {
      if (!id) return undefined;
      const session = sessions.get(id);
      if (!session) return undefined;
      const time = now();
      if (expired(session, time)) {
        sessions.delete(id);
        return undefined;
      }
      session.lastSeen = time;
      return session;
    },
    peek(id) {
      const session = id ? sessions.get(id) : undefined;
      return session && !expired(session, now()) ? session : undefined;
    },
    delete(id) {
      if (id) sessions.delete(id);
    },
    deleteUser(email) {
      for (const [id, session] of sessions) if (session.email === email) sessions.delete(id);
    },
    get size() {
      return sessions.size;
    },
  };
}
