/**
 * The browser and the served real site that the visual tests share: `useBrowserSite()` starts
 * both before the file's tests and stops them after; `withPage` opens one page in a fresh context.
 */
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from '../helpers/browser';
import { serveSite, type TestServer } from '../helpers/server';

/** The running browser and server of a test file (set once its beforeAll has run). */
export interface BrowserSite {
  browser: Browser;
  server: TestServer;
  /** The served URL of a site path. */
  url(path: string): string;
  /** Runs `body` with a new page of `width` × `height` px (800 high unless told), then closes its context. */
  withPage(width: number, body: (page: Page) => Promise<void>, options?: BrowserContextOptions): Promise<void>;
}

export function useBrowserSite(): BrowserSite {
  const site = {
    url: (path: string) => site.server.url + path,
    async withPage(width: number, body: (page: Page) => Promise<void>, options: BrowserContextOptions = {}) {
      const context = await site.browser.newContext({ viewport: { width, height: 800 }, ...options });
      try {
        await body(await context.newPage());
      } finally {
        await context.close();
      }
    },
  } as BrowserSite;
  beforeAll(async () => {
    [site.browser, site.server] = await Promise.all([launchBrowser(), serveSite()]);
  });
  afterAll(async () => {
    await site.browser?.close();
    await site.server?.close();
  });
  return site;
}
