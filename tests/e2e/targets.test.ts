/**
 * A GitHub Pages build whose form posts to a form service: in Chromium, the page's own CSP (a
 * meta) lets the hydrated form send a plain urlencoded body to the service, and nothing is blocked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser';
import { createTempSite, type TempSite } from '../helpers/fixture-site';
import { serveSite, type TestServer } from '../helpers/server';
import { buildTarget } from '../targets/support';
import type { Browser } from 'playwright-core';

const service = 'https://forms.example/f/mendwise';
let temp: TempSite;
let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  temp = await createTempSite({
    editConfig: (text) => text.replace(/^ {2}endpoint: \/api\/contact$/m, `  endpoint: ${service}`),
  });
  const { out, stderr } = await buildTarget(['--target', 'github-pages'], temp.config);
  expect(stderr).not.toContain('contact.endpoint');
  [server, browser] = await Promise.all([serveSite({ dir: out, configPath: temp.config }), launchBrowser()]);
});

afterAll(async () => {
  await Promise.allSettled([browser?.close(), server?.close()]);
  await temp?.cleanup();
});

describe('github-pages with a form service', () => {
  it("posts the form urlencoded to the service, allowed by the page's meta CSP", async () => {
    const context = await browser.newContext({ locale: 'en-US' });
    context.setDefaultTimeout(10_000);
    const problems: string[] = [];
    const sent: { body: string; type: string | undefined }[] = [];
    await context.route(`${service}`, async (route) => {
      const request = route.request();
      if (request.method() === 'OPTIONS')
        return route.fulfill({
          status: 204,
          headers: { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*' },
        });
      sent.push({ body: request.postData() ?? '', type: request.headers()['content-type'] });
      return route.fulfill({
        status: 200,
        contentType: 'application/json',
        headers: { 'access-control-allow-origin': '*' },
        body: '{"ok":true}',
      });
    });
    try {
      const page = await context.newPage();
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(new URL('/contactus/', server.url).href);
      const html = await page.content();
      expect(html).toContain('<meta http-equiv="Content-Security-Policy"');
      expect(await page.locator('form.contact-form').getAttribute('action')).toBe(service);
      await page.waitForFunction(
        () => document.querySelector<HTMLFormElement>('form.contact-form')?.noValidate === true,
      );
      const values = { firstName: 'Kari', lastName: 'Nordmann', email: 'kari@example.com', message: 'Hei & hallo' };
      for (const [name, value] of Object.entries(values))
        await page.locator(`form.contact-form [name="${name}"]`).fill(value);
      await page.locator('form.contact-form button[type="submit"]').click();
      await page.locator('.thank-you').waitFor();
      expect(sent).toHaveLength(1);
      expect(sent[0]!.type).toBe('application/x-www-form-urlencoded');
      expect(Object.fromEntries(new URLSearchParams(sent[0]!.body))).toMatchObject({
        ...values,
        locale: 'en',
        page: '/contactus/',
      });
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
