import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser';
import { builtSite } from '../helpers/paths';
import { serveSite, type TestServer } from '../helpers/server';
import { readPages } from '../helpers/site-files';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
let browser: Browser;
let server: TestServer;

beforeAll(async () => {
  [browser, server] = await Promise.all([launchBrowser(), serveSite()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('axe-core', () => {
  it('finds zero WCAG 2.1 AA violations on every page, in Chromium', { timeout: 600_000 }, async () => {
    const urls = (await readPages(builtSite)).map((page) => page.url);
    const violations: string[] = [];
    const queue = [...urls];
    const worker = async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
      const page = await context.newPage();
      for (let url = queue.shift(); url !== undefined; url = queue.shift()) {
        await page.goto(server.url + url);
        await page.addScriptTag({ content: axeSource });
        const result = await page.evaluate(() =>
          (
            window as unknown as {
              axe: {
                run(
                  context: Document,
                  options: object,
                ): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }>;
              };
            }
          ).axe.run(document, {
            runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
          }),
        );
        for (const violation of result.violations)
          violations.push(
            `${url}  ${violation.id}  ${violation.nodes
              .map((node) => node.target.join(' '))
              .slice(0, 3)
              .join(', ')}`,
          );
      }
      await context.close();
    };
    await Promise.all([worker(), worker()]);
    expect(violations).toEqual([]);
  });
});
