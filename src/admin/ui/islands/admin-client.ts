/** The admin islands' calls to the admin API (/api/auth, /api/admin): JSON, same-origin, the CSRF token on every change. */

/** A signed-in session as `GET /api/admin/session` gives it. */
export interface AdminSession {
  user: { email: string; role: string };
  csrfToken: string;
  mode: 'dev' | 'serve';
}

/** What `GET /api/admin/session` found: no admin on this host (404), not signed in, or a session. */
export type SessionState =
  | { kind: 'unavailable' }
  | { kind: 'signed-out'; mode: 'dev' | 'serve' }
  | { kind: 'signed-in'; session: AdminSession };

/**
 * Asks the server for the session. A page the admin's server served is marked (`data-site-admin`
 * on `<html>`); an unmarked copy (a static host) has no admin to ask.
 */
export async function loadSession(): Promise<SessionState> {
  if (!document.documentElement.hasAttribute('data-site-admin')) return { kind: 'unavailable' };
  const response = await fetch('/api/admin/session', {
    credentials: 'same-origin',
    headers: { accept: 'application/json' },
  });
  if (response.status === 404 || !(response.headers.get('content-type') ?? '').includes('json'))
    return { kind: 'unavailable' };
  const body = (await response.json()) as AdminSession & { mode: 'dev' | 'serve' };
  if (response.status === 401) return { kind: 'signed-out', mode: body.mode };
  // The navigation hides what the role may not use (AdminNav.tsx, admin.css).
  document.documentElement.dataset.adminRole = body.user.role;
  return { kind: 'signed-in', session: body };
}

/** An answer of the API: its status, its JSON body and its ETag. */
export interface ApiAnswer<T = any> {
  status: number;
  body: T;
  etag: string | null;
}

/** Calls the API with a JSON body; `csrf` and `ifMatch` go into their headers. */
export async function callApi<T = any>(
  method: string,
  path: string,
  options: { body?: unknown; csrf?: string; ifMatch?: string } = {},
): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.csrf) headers['x-csrf-token'] = options.csrf;
  if (options.ifMatch) headers['if-match'] = `"${options.ifMatch}"`;
  const response = await fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  return { status: response.status, body: body as T, etag: response.headers.get('etag') };
}
