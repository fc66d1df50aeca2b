/** Shared set-up of the browser tests: a browser, the built site served with a fresh data folder. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { createDevAdmin, siteOf } from '../../src/admin/mount';
import { startDevServer } from '../../src/dev/server';
import { followingStoreSource } from '../../src/store/source';
import { launchBrowser } from '../helpers/browser';
import { createEditableSite } from '../helpers/editable-site';
import { serveSite, type TestServer } from '../helpers/server';

/** What a test file needs: the browser, the server, its data folder. */
export interface E2e {
  browser: Browser;
  server: TestServer;
  dataDir: string;
  /** Absolute URL of a path on the test server. */
  url(path: string): string;
  /** A fresh browser context whose actions fail after a few seconds instead of 30. */
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
  close(): Promise<void>;
}

/** How long an action (click, fill, wait) may take before the test fails. */
const actionTimeout = 10_000;

/** `site dev` with its admin on an editable copy of the site; `close` stops it and removes the copy. */
export async function startDevAdmin(options: { prepare?: (dir: string) => Promise<void> } = {}) {
  const site = await createEditableSite();
  // What the site folder holds before the server starts (a git history, say).
  await options.prepare?.(site.dir);
  let builder: Awaited<ReturnType<typeof startDevServer>>['builder'] | undefined;
  const store = followingStoreSource(() => builder?.config);
  const admin = createDevAdmin({ projectRoot: site.dir, store, site: siteOf(() => builder) });
  const dev = await startDevServer({ config: site.config, port: 0, host: '127.0.0.1', admin, store });
  builder = dev.builder;
  return {
    site,
    dev,
    admin,
    async close() {
      await dev.close();
      await store.close();
      await site.cleanup();
    },
  };
}

/** Launches Chromium and serves the built site with a fresh, empty data folder. */
export async function startE2e(): Promise<E2e> {
  const dataDir = await mkdtemp(join(tmpdir(), 'site-e2e-'));
  const [browser, server] = await Promise.all([launchBrowser(), serveSite({ dataDir })]);
  return {
    browser,
    server,
    dataDir,
    url: (path) => new URL(path, server.url).href,
    async newContext(options) {
      const context = await browser.newContext(options);
      context.setDefaultTimeout(actionTimeout);
      return context;
    },
    async close() {
      await Promise.allSettled([browser.close(), server.close()]);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export { loadMessages, readYaml, type Messages } from '../helpers/messages';

/** Text with every kind of space (no-break, narrow no-break) as a plain space. */
export function normalizeSpaces(text: string): string {
  return text.replace(/[\s\u00a0\u202f]+/g, ' ').trim();
}

/** The path (percent-encoded, as in links), query and hash of the page's URL ("/no/hub/product/?a=1#x"). */
export function pathOf(page: Page): string {
  const url = new URL(page.url());
  return url.pathname + url.search + url.hash;
}

/** Signs in on `site serve --admin` with e-mail and password: opens `start` (an admin page), which sends an anonymous visit to /auth, and lands on the blog editor. */
export async function signInWithPassword(
  page: Page,
  start: string,
  who: { email: string; password: string },
): Promise<void> {
  await page.goto(start);
  await page.waitForURL(/\/auth\/$/);
  await page.getByLabel('E-mail address').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/admin\/blog\/$/);
}
