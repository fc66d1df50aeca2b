/**
 * The admin's HTTP API, mounted by `site dev` and by `site serve --admin` under `/api/auth/` and
 * `/api/admin/`. Every request passes the guard steps in order (guard.ts): Host allowlist, then
 * for unsafe methods Origin / Sec-Fetch-Site; admin routes then need a live session (401), the
 * session's CSRF token on unsafe methods (403) and the route's role (403). Every answer is JSON
 * (the inbox's CSV export aside) with `Cache-Control: no-store`; bodies are limited to 256 KB (413), a
 * post's image (media-api.ts) to 5 MB.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { adminApiPath, adminAuthPath } from '../admin-pages.js';
import { clientAddress, requestOrigin } from '../serve/request.js';
import { isEmail, normalizeEmail, type Account, type Role } from './accounts.js';
import { StoreUnavailable } from '../store/driver.js';
import type { StoreSource } from '../store/source.js';
import type { AuditLog } from './audit-log.js';
import {
  hasCsrfToken,
  hasRole,
  sameToken,
  isAllowedAdminHost,
  isSafeMethod,
  isSameOriginRequest,
  type AdminOrigins,
} from './guard.js';
import { BadBody, parseCookies, readObjectBody, sendJson, sendRedirect } from './http.js';
import {
  burnPasswordCheck,
  currentScryptParams,
  hashPassword,
  needsRehash,
  verifyPassword,
  type ScryptParams,
} from './passwords.js';
import { createSessionStore, type Session, type SessionStore } from './sessions.js';
import { createSignInLimits, isRefusal, type SignInLimits } from './sign-in-limits.js';
import type { SignInTokens } from './sign-in-tokens.js';

/** What a route handler gets. */
export interface AdminRequest {
  request: IncomingMessage;
  response: ServerResponse;
  session: Session;
  /** The parts of the path the route's pattern captured. */
  params: string[];
  /** Reads the JSON body (at most 256 KB); throws BadBody, which the API answers. */
  body(): Promise<Record<string, unknown>>;
}

/** One route under /api/admin/. */
export interface AdminRoute {
  method: string;
  /** Matched against the path after `/api/admin/`. */
  pattern: RegExp;
  role: Role;
  handle(context: AdminRequest): Promise<void>;
}

/** Options of `createAdminApi`. */
export interface AdminApiOptions {
  /** `dev`: one-time sign-in links; `serve`: email and password accounts. */
  mode: 'dev' | 'serve';
  origins: AdminOrigins;
  audit: AuditLog;
  /** The store of the accounts (serve mode), the sessions and the sign-in budgets. */
  store: StoreSource;
  /** Dev mode: the sign-in links. */
  tokens?: SignInTokens;
  sessions?: SessionStore;
  routes?: readonly AdminRoute[];
  /** Where a plain form post lands: the sign-in page and the admin's first page. */
  pages?: { signIn: string; home: string };
  /** What a sign-in must get through before its check (default: `createSignInLimits()`). */
  limits?: SignInLimits;
  /** Hash parameters of new and upgraded password hashes (tests lower them). */
  scrypt?: ScryptParams;
  now?: () => number;
}

/** The admin API: `handle` answers a request under /api/auth or /api/admin and returns true, or returns false for any other path. */
export interface AdminApi {
  handle(request: IncomingMessage, response: ServerResponse): Promise<boolean>;
  /** Whether `path` is a page of the admin (the sign-in page, or under the admin's folder), which `serveAdminPage` answers. */
  isAdminPage(path: string): boolean;
  /**
   * Answers a request for an admin page with its built HTML, marked as served by an admin
   * (`data-site-admin` on `<html>`: the islands ask for a session only then, so a static host's
   * copy makes no failing request); on the sign-in page in serve mode, the form's token is filled
   * into its hidden `csrf` field and set as a cookie: a plain form post must send both.
   */
  serveAdminPage(request: IncomingMessage, response: ServerResponse, path: string, html: string): void;
  /** Whether a session is still good: not signed out or expired, and (serve) its account still there with the same password and role. Does not extend it. */
  isLive(session: Session): Promise<boolean>;
  sessions: SessionStore;
}

/** The user `site dev` signs in: whoever holds the terminal of this machine. */
export const devUser = { email: 'local@site-dev', role: 'admin' as Role };

/** The one message for any failed sign-in, so no answer tells which part was wrong. */
export const signInFailed = 'E-mail or password is wrong';

/**
 * The session cookie: `__Host-` over https (a sibling subdomain cannot set or shadow it); `site dev`
 * names its own apart, so a dev server and a `site serve --admin` on one host (cookies ignore the
 * port) never overwrite each other's session.
 */
const cookieName = (mode: 'dev' | 'serve', secure: boolean) =>
  mode === 'dev' ? 'site_dev_admin' : secure ? '__Host-site_admin' : 'site_admin';
/** The cookie of the sign-in form's token (double submit: the same value is in the form's hidden field). */
const formCookieName = (secure: boolean) => (secure ? '__Host-site_signin' : 'site_signin');
/** The sign-in form's hidden field as the build writes it: empty, for the server to fill. */
const emptyFormToken = 'name="csrf" value=""';
const stampOf = (account: Pick<Account, 'passwordHash' | 'role'>) =>
  createHash('sha256').update(`${account.role}\n${account.passwordHash}`).digest('base64url');

/** Creates the admin API. */
export function createAdminApi(options: AdminApiOptions): AdminApi {
  const now = options.now ?? Date.now;
  const sessions = options.sessions ?? createSessionStore(options.store, { now });
  const limits = options.limits ?? createSignInLimits(options.store, { now });
  const pages = options.pages ?? { signIn: '/auth/', home: '/admin/blog/' };
  // The admin's pages besides sign-in live in the folder of its first page.
  const adminFolder = pages.home.slice(0, pages.home.indexOf('/', 1) + 1);
  const scrypt = options.scrypt ?? currentScryptParams;
  const routes = options.routes ?? [];

  const isHttps = (request: IncomingMessage) => requestOrigin(request, options.origins)?.startsWith('https:') === true;
  // Over https only the prefixed name counts: a plain one may have been tossed in by a sibling subdomain.
  const sessionCookie = (request: IncomingMessage) =>
    parseCookies(request).get(cookieName(options.mode, isHttps(request)));
  const setCookie = (request: IncomingMessage, value: string, maxAge: number) => {
    const secure = isHttps(request);
    return `${cookieName(options.mode, secure)}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure ? '; Secure' : ''}`;
  };
  /** A request over plain http to the host of a site whose origin is https (a TLS proxy in front that is not trusted to say so). */
  const plainHttpToHttpsSite = (request: IncomingMessage) => {
    const origin = requestOrigin(request, options.origins);
    return (
      origin?.startsWith('http:') === true && options.origins.origins.includes(`https:${origin.slice('http:'.length)}`)
    );
  };

  async function findAccount(email: string): Promise<Account | undefined> {
    if (options.mode !== 'serve') return undefined;
    return (await options.store.get()).findAccount(email);
  }

  /** The live session of the request, checked against its account in serve mode (the stamp it signed in with: a changed password or role, or a removed account, ends it). */
  async function currentSession(request: IncomingMessage): Promise<Session | undefined> {
    const session = await sessions.touch(sessionCookie(request));
    if (!session || options.mode === 'dev') return session;
    const account = await findAccount(session.email);
    if (!account || stampOf(account) !== session.accountStamp) {
      await sessions.delete(session.id);
      return undefined;
    }
    return session;
  }

  async function signedIn(
    request: IncomingMessage,
    response: ServerResponse,
    user: { email: string; role: Role },
    stamp: string | undefined,
    form: boolean,
  ) {
    const session = await sessions.create(user, sessionCookie(request), stamp);
    const cookie = setCookie(request, session.id, Math.floor(12 * 60 * 60));
    if (form) sendRedirect(response, pages.home, { 'set-cookie': cookie });
    else
      sendJson(
        response,
        200,
        { user: { email: user.email, role: user.role }, csrfToken: session.csrfToken },
        { 'set-cookie': cookie },
      );
  }

  function refuseSignIn(
    response: ServerResponse,
    form: boolean,
    refusal: { status: 401 | 429 | 503; retryAfterMs: number },
  ) {
    const { status } = refusal;
    const headers: Record<string, string> =
      status === 401 ? {} : { 'retry-after': String(Math.max(1, Math.ceil(refusal.retryAfterMs / 1000))) };
    if (form)
      return sendRedirect(
        response,
        `${pages.signIn}?error=${status === 401 ? 'wrong' : status === 429 ? 'limited' : 'busy'}`,
        headers,
      );
    if (status === 503)
      return sendJson(
        response,
        503,
        { error: 'busy', message: 'Too many sign-ins at once: try again in a moment' },
        headers,
      );
    sendJson(
      response,
      status,
      {
        error: status === 429 ? 'too_many_attempts' : 'sign_in_failed',
        message: status === 429 ? 'Too many failed attempts: try again later' : signInFailed,
      },
      headers,
    );
  }

  async function login(request: IncomingMessage, response: ServerResponse) {
    const { fields, form } = await readObjectBody(request, response, true);
    // A form post is what another site can make a browser send: it must carry the form's token.
    // (A JSON post cannot be sent across sites without the browser asking first; the Origin check covers it.)
    if (form && !sameToken(fields.csrf, parseCookies(request).get(formCookieName(isHttps(request))))) {
      return sendRedirect(response, `${pages.signIn}?error=expired`);
    }
    if (plainHttpToHttpsSite(request)) {
      // Behind a proxy that ends TLS but is not trusted to say so, the cookie would go out without Secure.
      if (form) return sendRedirect(response, `${pages.signIn}?error=insecure`);
      return sendJson(response, 403, {
        error: 'https_required',
        message:
          'sign in over https: behind a reverse proxy, run site serve with --trust-proxy so that it sees the X-Forwarded-Proto the proxy sets',
      });
    }
    const email = normalizeEmail(typeof fields.email === 'string' ? fields.email : '');
    const password = typeof fields.password === 'string' ? fields.password : '';
    const client = clientAddress(request, options.origins);
    const attempt = await limits.begin(client, email);
    if (isRefusal(attempt)) return refuseSignIn(response, form, attempt);
    try {
      const account =
        isEmail(email) && password.length > 0 && password.length <= 1024 ? await findAccount(email) : undefined;
      const ok = await attempt.check(async () =>
        account
          ? verifyPassword(password, account.passwordHash)
          : burnPasswordCheck(password, scrypt).then(() => false),
      );
      if (isRefusal(ok)) return refuseSignIn(response, form, ok);
      if (!account || !ok) {
        await options.audit.append({ user: email.slice(0, 254), action: 'sign-in-failed', client });
        return refuseSignIn(response, form, { status: 401, retryAfterMs: 0 });
      }
      await attempt.succeeded();
      let current = account;
      if (needsRehash(account.passwordHash, scrypt)) {
        // Raised parameters apply at the next sign-in, while the password is at hand.
        const rehashed = await attempt.check(() => hashPassword(password, scrypt));
        if (!isRefusal(rehashed)) {
          // Only if the password was not changed meanwhile (site admin set-password).
          if (await (await options.store.get()).setPasswordHash(account.email, rehashed, account.passwordHash))
            current = { ...account, passwordHash: rehashed };
        }
      }
      await options.audit.append({ user: account.email, action: 'sign-in' });
      await signedIn(request, response, account, stampOf(current), form);
    } finally {
      attempt.end();
    }
  }

  async function redeemToken(request: IncomingMessage, response: ServerResponse) {
    const { fields, form } = await readObjectBody(request, response, true);
    // The live link always works: it is 32 random bytes that only the terminal saw, so guesses
    // from other local programs are slowed down (429) without ever locking the real link out.
    if (options.tokens?.redeem(fields.token)) {
      await options.audit.append({ user: devUser.email, action: 'sign-in' });
      return signedIn(request, response, devUser, undefined, form);
    }
    const attempt = await limits.begin(clientAddress(request, options.origins), '');
    if (isRefusal(attempt)) return refuseSignIn(response, form, attempt);
    attempt.end();
    if (form) return sendRedirect(response, `${pages.signIn}?error=token`);
    return sendJson(response, 401, {
      error: 'sign_in_failed',
      message:
        'This sign-in link is used up or has expired: use the link site dev printed last, or restart it for a new one',
    });
  }

  async function logout(request: IncomingMessage, response: ServerResponse) {
    const session = await currentSession(request);
    const { fields, form } = request.headers['content-type']
      ? await readObjectBody(request, response, true)
      : { fields: {}, form: false };
    if (!session) return sendJson(response, 401, { error: 'not_signed_in' });
    if (!hasCsrfToken(session, request.headers['x-csrf-token'] ?? fields.csrf))
      return sendJson(response, 403, { error: 'csrf' });
    await sessions.delete(session.id);
    await options.audit.append({ user: session.email, action: 'sign-out' });
    const cookie = setCookie(request, '', 0);
    if (form) sendRedirect(response, pages.signIn, { 'set-cookie': cookie });
    else sendJson(response, 200, { ok: true }, { 'set-cookie': cookie });
  }

  async function admin(request: IncomingMessage, response: ServerResponse, rest: string) {
    const session = await currentSession(request);
    if (rest === 'session' && request.method === 'GET') {
      if (!session) return sendJson(response, 401, { error: 'not_signed_in', mode: options.mode });
      return sendJson(response, 200, {
        user: { email: session.email, role: session.role },
        csrfToken: session.csrfToken,
        mode: options.mode,
      });
    }
    const matching = routes.filter((route) => route.pattern.test(rest));
    if (!matching.length) return sendJson(response, 404, { error: 'not_found' });
    const route = matching.find((candidate) => candidate.method === request.method);
    if (!route)
      return sendJson(
        response,
        405,
        { error: 'method_not_allowed' },
        { allow: matching.map((candidate) => candidate.method).join(', ') },
      );
    if (!session) return sendJson(response, 401, { error: 'not_signed_in' });
    if (!isSafeMethod(request.method) && !hasCsrfToken(session, request.headers['x-csrf-token']))
      return sendJson(response, 403, { error: 'csrf' });
    if (!hasRole(session, route.role))
      return sendJson(response, 403, { error: 'forbidden', message: `this needs the ${route.role} role` });
    const params = route.pattern.exec(rest)!.slice(1);
    await route.handle({
      request,
      response,
      session,
      params,
      body: async () => (await readObjectBody(request, response)).fields,
    });
  }

  async function isLive(session: Session): Promise<boolean> {
    if (!(await sessions.peek(session.id))) return false;
    if (options.mode === 'dev') return true;
    const account = await findAccount(session.email);
    return account !== undefined && stampOf(account) === session.accountStamp;
  }

  return {
    sessions,
    isLive,
    // Plain segments only: the path names a file under the served folder (no `..`, no escapes).
    isAdminPage: (path) => /^\/(?:[\w-]+\/)+$/.test(path) && (path === pages.signIn || path.startsWith(adminFolder)),
    serveAdminPage(request, response, path, html) {
      const headers: Record<string, string> = {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-store',
      };
      let page = html.replace(/^(<!DOCTYPE html>\s*<html)\b/i, `$1 data-site-admin="${options.mode}"`);
      if (options.mode === 'serve' && path === pages.signIn) {
        const token = randomBytes(32).toString('base64url');
        const secure = isHttps(request);
        page = page.replace(emptyFormToken, `name="csrf" value="${token}"`);
        headers['set-cookie'] =
          `${formCookieName(secure)}=${token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=3600${secure ? '; Secure' : ''}`;
      }
      response.writeHead(200, { ...headers, 'content-length': String(Buffer.byteLength(page)) });
      response.end(request.method === 'HEAD' ? undefined : page);
    },
    async handle(request, response) {
      const path = (request.url ?? '/').split('?', 1)[0]!;
      const auth = path.startsWith(`${adminAuthPath}/`) || path === adminAuthPath;
      if (!auth && !path.startsWith(`${adminApiPath}/`) && path !== adminApiPath) return false;
      try {
        if (!isAllowedAdminHost(request, options.origins)) {
          sendJson(response, 403, {
            error: 'host_not_allowed',
            message: 'open the admin at the address the server printed',
          });
          return true;
        }
        if (!isSafeMethod(request.method) && !isSameOriginRequest(request, options.origins)) {
          sendJson(response, 403, { error: 'cross_origin' });
          return true;
        }
        if (auth) {
          const action = path.slice(`${adminAuthPath}/`.length);
          if (request.method !== 'POST') sendJson(response, 405, { error: 'method_not_allowed' }, { allow: 'POST' });
          else if (action === 'login' && options.mode === 'serve') await login(request, response);
          else if (action === 'token' && options.mode === 'dev') await redeemToken(request, response);
          else if (action === 'logout') await logout(request, response);
          else sendJson(response, 404, { error: 'not_found' });
        } else {
          await admin(request, response, path.slice(`${adminApiPath}/`.length));
        }
      } catch (error) {
        if (error instanceof StoreUnavailable) {
          // The database is down or locked: nothing was changed, and the page keeps what was typed.
          if (!response.headersSent)
            sendJson(
              response,
              503,
              {
                error: 'store_unavailable',
                message: 'the server cannot reach its database just now: try again in a minute',
              },
              { 'retry-after': '30' },
            );
          else response.end();
          return true;
        }
        if (!(error instanceof BadBody)) throw error;
        if (!error.answered) sendJson(response, error.status, { error: error.error });
      }
      return true;
    },
  };
}
