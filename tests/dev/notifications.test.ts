/**
 * `site dev` tells of a contact message as `site serve` does (src/notify/): the message is stored
 * and POSTed as JSON to the config's webhook, a local receiver on 127.0.0.1.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer, type DevServer } from '../../src/dev/server';
import { createTempSite, type TempSite } from '../helpers/fixture-site';

describe('site dev: notifications of a contact message', () => {
  let receiver: Server;
  const bodies: Record<string, unknown>[] = [];
  let site: TempSite;
  let dev: DevServer;

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        bodies.push({ path: request.url, ...JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    site = await createTempSite({
      editConfig: (text) => text.replace(/^notifications:\n/m, `notifications:\n  webhooks: ["${hook}"]\n`),
    });
    dev = await startDevServer({ config: site.config, port: 0, host: '127.0.0.1' });
  }, 180_000);
  afterAll(async () => {
    await dev?.close();
    receiver?.close();
    await site?.cleanup();
  });

  it('posts the stored message to the webhook', async () => {
    await expect
      .poll(async () => (await fetch(`${dev.url}/__site/status`)).json(), { timeout: 120_000 })
      .toMatchObject({
        ok: true,
      });
    const message = { firstName: 'Kari', lastName: 'Nordmann', email: 'kari@visitor.example' };
    const response = await fetch(`${dev.url}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...message, message: 'Hei fra site dev.', type: 'repairer', locale: 'no' }),
    });
    expect(response.status).toBe(201);
    await expect.poll(() => bodies.length).toBe(1);
    expect(bodies[0]).toMatchObject({
      path: '/hook',
      event: 'contact.received',
      data: { ...message, message: 'Hei fra site dev.' },
    });
  });
});
