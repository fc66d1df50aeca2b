import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser';
import { repoRoot } from '../helpers/paths';
import { serveSite, type TestServer } from '../helpers/server';
import { pageKinds as pages } from './page-kinds';

/** Where the screenshots go (git-ignored). */
export const screenshotDir = join(repoRoot, 'screenshots');

let browser: Browser;
let server: TestServer;
beforeAll(async () => {
  [browser, server] = await Promise.all([launchBrowser(), serveSite()]);
  await mkdir(screenshotDir, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('every page kind at phone, tablet and desktop widths', () => {
  for (const width of [375, 768, 1280, 1440]) {
    it(`has no horizontal scrolling and no clipped header text at ${width} px`, { timeout: 240_000 }, async () => {
      const context = await browser.newContext({ viewport: { width, height: 800 } });
      const page = await context.newPage();
      const problems: string[] = [];
      for (const [name, url] of pages) {
        await page.goto(server.url + url);
        await page.screenshot({ path: join(screenshotDir, `${name}-${width}.png`), fullPage: true });
        const result = await page.evaluate(() => {
          const root = document.documentElement;
          // The admin's pages have the engine's admin header instead of the site's.
          const header = document.querySelector('.site-header, .admin-header')!;
          const clipped = [...header.querySelectorAll<HTMLElement>('a, button, span')]
            .filter(
              (element) =>
                element.offsetParent !== null &&
                element.clientWidth > 1 &&
                element.scrollWidth > element.clientWidth + 1 &&
                getComputedStyle(element).overflow !== 'visible',
            )
            .map((element) => element.textContent);
          const headerBottom = header.getBoundingClientRect().bottom;
          const heading = document.querySelector('h1');
          const overflowing = [...document.querySelectorAll<HTMLElement>('body *')]
            .filter(
              (element) =>
                element.getBoundingClientRect().right > root.clientWidth + 1 &&
                element.offsetParent !== null &&
                !element.closest('.visually-hidden, .honeypot, .skip-link, .prose table'),
            )
            .slice(0, 3)
            .map((element) => `${element.tagName.toLowerCase()}.${element.className}`);
          return {
            scrollWidth: root.scrollWidth,
            clientWidth: root.clientWidth,
            clipped,
            overflowing,
            headingBelowHeader: heading ? heading.getBoundingClientRect().top >= headerBottom : true,
          };
        });
        if (result.scrollWidth > result.clientWidth)
          problems.push(
            `${url}: scrolls horizontally (${result.scrollWidth} > ${result.clientWidth}): ${result.overflowing.join(', ')}`,
          );
        if (result.clipped.length) problems.push(`${url}: clipped header text ${result.clipped.join(', ')}`);
        if (!result.headingBelowHeader) problems.push(`${url}: the header covers the heading`);
      }
      await context.close();
      expect(problems).toEqual([]);
    });
  }
});
