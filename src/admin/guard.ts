/**
 * The checks every admin request passes before any handler sees it: the Host is one this server
 * answers to (DNS rebinding), an unsafe method comes from a page of this origin (Origin, and
 * Sec-Fetch-Site when the browser sends it) and, once signed in, carries the session's CSRF token;
 * the session is live and its role may do what is asked.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { requestOrigin, type ProxyTrust } from '../serve/request.js';
import { roles, type Role } from './accounts.js';
import type { Session } from './sessions.js';

/** Where the admin answers. */
export interface AdminOrigins extends ProxyTrust {
  /** Host headers accepted ("127.0.0.1:4321", "mendwise.example"), lowercase. */
  hosts: readonly string[];
  /** Origins whose pages may send unsafe requests besides the one the request was sent to. */
  origins: readonly string[];
}

/** The hosts of a server on loopback at `port`: 127.0.0.1, localhost and [::1]. */
export function loopbackHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
}

/** The Host header of an origin ("https://mendwise.example" → "mendwise.example"). */
export function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host.toLowerCase();
  } catch {
    return undefined;
  }
}

/** Whether the request's Host is on the allowlist. */
export function isAllowedAdminHost(request: IncomingMessage, allowed: AdminOrigins): boolean {
  const host = String(request.headers.host ?? '').toLowerCase();
  return host !== '' && allowed.hosts.includes(host);
}

/** Methods that change nothing. */
export function isSafeMethod(method: string | undefined): boolean {
  return method === 'GET' || method === 'HEAD';
}

/**
 * Whether an unsafe request was sent by a page of this origin: `Origin` must be present and be
 * the request's own origin or an allowed one; `Sec-Fetch-Site`, when sent, must be same-origin.
 */
export function isSameOriginRequest(request: IncomingMessage, allowed: AdminOrigins): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return false;
  const origin = request.headers.origin;
  if (!origin || origin === 'null') return false;
  return origin === requestOrigin(request, allowed) || allowed.origins.includes(origin);
}

/** Whether the CSRF token sent matches the session's (compared in constant time). */
export function hasCsrfToken(session: Session, sent: unknown): boolean {
  if (typeof sent !== 'string' || sent.length === 0) return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(session.csrfToken);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Whether a session's role includes `needed` (an admin may do all an editor may). */
export function hasRole(session: Session, needed: Role): boolean {
  return roles.indexOf(session.role) >= roles.indexOf(needed);
}
