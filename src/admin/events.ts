/**
 * `GET /api/admin/events`: a server-sent event stream for the signed-in editors. Each save and
 * deletion is announced (`saved`, `deleted`: slug, locale, user, new version and, in serve mode,
 * the rebuild's outcome), so an editor can see that a post changed under it.
 */
import type { ServerResponse } from 'node:http';
import type { AdminRoute } from './api.js';
import { adminHeaders } from './http.js';

/** The event hub of one admin. */
export interface AdminEvents {
  route: AdminRoute;
  send(name: string, data: unknown): void;
}

/** Creates the hub. */
export function createAdminEvents(): AdminEvents {
  const clients = new Set<ServerResponse>();
  return {
    route: {
      method: 'GET',
      pattern: /^events$/,
      role: 'editor',
      async handle({ request, response }) {
        response.writeHead(200, { ...adminHeaders, 'content-type': 'text/event-stream; charset=utf-8', connection: 'keep-alive' });
        response.write(': connected\n\n');
        clients.add(response);
        request.on('close', () => clients.delete(response));
      },
    },
    send(name, data) {
      const message = `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
      for (const client of clients) client.write(message);
    },
  };
}
