/**
 * `GET /api/admin/events`: a server-sent event stream for the signed-in editors. Each save and
 * deletion is announced (`saved`, `deleted`: slug, locale, user, new version and, in serve mode,
 * the rebuild's outcome), so an editor can see that a post changed under it.
 *
 * A stream holds a connection for as long as it is open, so they are few: 5 per session, 10 per
 * account (whatever its number of sessions: one account signed in many times cannot take every
 * stream from the others) and 100 in all (429 / 503 past that). A stream belongs to its session: before each event, and every 15
 * seconds besides, the session is checked (signed out, expired, its account removed or its
 * password or role changed), and a stream whose session has ended is closed.
 */
import type { ServerResponse } from 'node:http';
import type { AdminRoute } from './api.js';
import { adminHeaders, sendJson } from './http.js';
import type { Session } from './sessions.js';

/** Options of `createAdminEvents`. */
export interface AdminEventsOptions {
  /** Whether a session is still good (not signed out or expired; in serve mode its account unchanged). Never extends it. */
  isLive(session: Session): Promise<boolean>;
  /** Streams per session at most (default 5). */
  perSession?: number;
  /** Streams per account at most, across its sessions (default 10). */
  perAccount?: number;
  /** Streams at most in all (default 100). */
  total?: number;
  /** How often open streams are checked and sent a keep-alive comment (default 15 s). */
  sweepMs?: number;
}

/** The event hub of one admin. */
export interface AdminEvents {
  route: AdminRoute;
  send(name: string, data: unknown): Promise<void>;
  /** Streams open now. */
  readonly open: number;
  /** Ends every stream and the sweep (the server is closing). */
  close(): void;
}

/** The default caps. */
export const eventStreamLimits = { perSession: 5, perAccount: 10, total: 100, sweepMs: 15_000 };

/** Creates the hub. */
export function createAdminEvents(options: AdminEventsOptions): AdminEvents {
  const { perSession, perAccount, total, sweepMs } = { ...eventStreamLimits, ...options };
  const clients = new Map<ServerResponse, Session>();
  let sweep: ReturnType<typeof setInterval> | undefined;

  const drop = (response: ServerResponse) => {
    if (!clients.delete(response)) return;
    response.end();
    if (!clients.size && sweep) {
      clearInterval(sweep);
      sweep = undefined;
    }
  };

  /** The streams whose session is still good; the others are ended. */
  async function liveClients(): Promise<ServerResponse[]> {
    const verdicts = new Map<string, Promise<boolean>>();
    const checked = await Promise.all(
      [...clients].map(async ([response, session]) => {
        let verdict = verdicts.get(session.id);
        if (!verdict) verdicts.set(session.id, (verdict = options.isLive(session).catch(() => false)));
        return [response, await verdict] as const;
      }),
    );
    const live: ServerResponse[] = [];
    for (const [response, ok] of checked) {
      if (!clients.has(response)) continue;
      if (ok) live.push(response);
      else drop(response);
    }
    return live;
  }

  return {
    route: {
      method: 'GET',
      pattern: /^events$/,
      role: 'editor',
      async handle({ request, response, session }) {
        const others = [...clients.values()];
        const own = others.filter((other) => other.id === session.id).length;
        if (own >= perSession)
          return sendJson(
            response,
            429,
            { error: 'too_many_streams', message: `at most ${perSession} event streams per session` },
            { 'retry-after': '30' },
          );
        const account = others.filter((other) => other.email === session.email).length;
        if (account >= perAccount)
          return sendJson(
            response,
            429,
            { error: 'too_many_streams', message: `at most ${perAccount} event streams per account` },
            { 'retry-after': '30' },
          );
        if (clients.size >= total)
          return sendJson(
            response,
            503,
            { error: 'too_many_streams', message: 'too many event streams are open' },
            { 'retry-after': '30' },
          );
        response.writeHead(200, {
          ...adminHeaders,
          'content-type': 'text/event-stream; charset=utf-8',
          connection: 'keep-alive',
        });
        response.write(': connected\n\n');
        clients.set(response, session);
        request.on('close', () => drop(response));
        sweep ??= setInterval(() => {
          void liveClients().then((live) => {
            for (const client of live) client.write(': keep-alive\n\n');
          });
        }, sweepMs);
        sweep.unref?.();
      },
    },
    async send(name, data) {
      const message = `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
      for (const client of await liveClients()) client.write(message);
    },
    get open() {
      return clients.size;
    },
    close() {
      for (const response of [...clients.keys()]) drop(response);
    },
  };
}
