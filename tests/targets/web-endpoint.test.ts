/**
 * The host functions' contact endpoint (runtime/web-endpoint.ts) in-process, against a webhook
 * that takes the connection and never answers: the function gives up after its time budget,
 * says so in the host's log, and answers 503 so the visitor's form keeps the message.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { validateContact } from '../../src/islands/contact-schema';
import { createWebEndpoint, type EndpointSettings } from '../../src/targets/runtime/web-endpoint';
import { contactRequest, valid } from './support';

const settings: EndpointSettings = {
  name: 'contact',
  path: '/api/contact',
  maxBytes: 32 * 1024,
  rateLimit: 100,
  rateWindowMs: 60_000,
  allowedOrigins: ['https://mendwise.example'],
  resultPages: { en: { sent: '/contactus/sent/', failed: '/contactus/failed/' } },
  defaultLocale: 'en',
  storage: { forwardUrlEnv: 'SITE_FORM_WEBHOOK', kvBinding: 'FORMS' },
};

let silent: Server;
let url: string;
const held: ServerResponse[] = [];
let received = 0;
beforeAll(async () => {
  // Reads the whole request, then never answers.
  silent = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received++;
      held.push(response);
    });
  });
  await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
  url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  for (const response of held) response.destroy();
  silent.closeAllConnections();
  await new Promise((done) => silent.close(done));
});

describe('a webhook that never answers', () => {
  it('is given up after the time budget: 503 (the form keeps the message) and a line in the host log naming the endpoint and the wait', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const handle = createWebEndpoint((fields) => validateContact(fields, ['other']), settings, {
        webhookTimeoutMs: 300,
      });
      const started = performance.now();
      const answer = await handle(contactRequest(JSON.stringify(valid)), {
        client: '198.51.100.1',
        env: { SITE_FORM_WEBHOOK: url },
      });
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBeTruthy();
      expect(performance.now() - started).toBeLessThan(3_000);
      expect(received).toBe(1);
      expect(log).toHaveBeenCalledTimes(1);
      expect(String(log.mock.calls[0]![0])).toMatch(/\/api\/contact: .*webhook.*did not answer within 0\.3 s/);
      // The address may hold a token: the log names the variable, never the URL.
      expect(String(log.mock.calls[0]![0])).not.toContain(url);
    } finally {
      log.mockRestore();
    }
  }, 10_000);
});

describe('notifications: webhooks', () => {
  it('POSTs each stored message to the webhooks of notifications: (one from a variable), and logs one that fails without its token', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const sent: { url: string; body: Record<string, unknown> }[] = [];
    try {
      const handle = createWebEndpoint(
        (fields) => validateContact(fields, ['other']),
        {
          ...settings,
          notify: {
            webhooks: ['https://hooks.example/in/tok-123', { env: 'TEAM_HOOK' }],
            site: 'https://mendwise.example',
          },
        },
        {
          id: () => 'id-1',
          notifyPolicy: { timeoutMs: 500, attempts: 2, backoffMs: 1 },
          fetch: async (target, init) => {
            const address = String(target);
            if (address.includes('kv-or-forward')) return new Response(null, { status: 200 });
            sent.push({ url: address, body: JSON.parse(String(init!.body)) as Record<string, unknown> });
            return new Response(null, { status: address.includes('broken') ? 502 : 204 });
          },
        },
      );
      const answer = await handle(contactRequest(JSON.stringify(valid)), {
        client: '198.51.100.2',
        env: { SITE_FORM_WEBHOOK: 'https://kv-or-forward.example/', TEAM_HOOK: 'https://broken.example/x/tok-456' },
      });
      expect(answer.status).toBe(201);
      expect(sent.map((request) => request.url)).toEqual([
        'https://hooks.example/in/tok-123',
        'https://broken.example/x/tok-456',
        'https://broken.example/x/tok-456',
      ]);
      expect(sent[0]!.body).toMatchObject({
        event: 'contact.received',
        id: 'contact-id-1',
        site: 'https://mendwise.example',
        data: { email: valid.email },
      });
      expect(log).toHaveBeenCalledTimes(1);
      expect(String(log.mock.calls[0]![0])).toBe(
        '/api/contact: notification of contact-id-1: webhook broken.example answered 502 (2 attempts)',
      );
    } finally {
      log.mockRestore();
    }
  });
});
