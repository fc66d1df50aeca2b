/**
 * The content editor with a second collection, in Chromium, with `site dev` and with
 * `site serve --admin`: switch from the blog to the case studies (the choice in the URL, kept on
 * reload, undone by Back), create a case study through the form its schema makes (a number, a
 * checkbox, a date, the sectors by their names), save it, give the Norwegian its own address and
 * see the URL it makes, see both pages live; a slug that is not URL-safe is refused at its field
 * in plain words. axe finds nothing with the switcher, the form and the field error.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevAdmin, siteOf } from '../../src/admin/mount';
import { createLiveSite } from '../../src/admin/live-site';
import { buildSite } from '../../src/build';
import { startDevServer } from '../../src/dev/server';
import { writeSite } from '../../src/emit/write';
import { followingStoreSource } from '../../src/store/source';
import { axeViolations } from '../helpers/axe';
import { launchBrowser } from '../helpers/browser';
import { startAdminServer } from '../helpers/admin-server';
import { createCollectionsSite } from '../helpers/collections-site';
import { signInWithPassword } from './support';

/** A running admin of the site with `cases`: its URL, how to sign in, and how to stop it. */
interface Running {
  url: string;
  signIn(page: Page): Promise<void>;
  close(): Promise<void>;
}

const editor = { email: 'editor@example.com', role: 'editor' as const, password: 'editor password 1' };

async function startDev(): Promise<Running> {
  const site = await createCollectionsSite();
  let builder: Awaited<ReturnType<typeof startDevServer>>['builder'] | undefined;
  const store = followingStoreSource(() => builder?.config);
  const admin = createDevAdmin({ projectRoot: site.dir, store, site: siteOf(() => builder) });
  const dev = await startDevServer({ config: site.config, port: 0, host: '127.0.0.1', admin, store });
  builder = dev.builder;
  return {
    url: dev.url,
    async signIn(page) {
      await page.goto(`${dev.url}/auth/?token=${admin.tokens.issue()}`);
      await page.waitForURL(/\/admin\/blog\/$/);
    },
    async close() {
      await dev.close();
      await store.close();
      await site.cleanup();
    },
  };
}

async function startServe(): Promise<Running> {
  const site = await createCollectionsSite();
  const dist = join(site.dir, 'dist');
  await writeSite(dist, (await buildSite({ config: site.config, socialImages: false })).files);
  const live = createLiveSite({ config: site.config, dir: dist });
  await live.start();
  const server = await startAdminServer({
    users: [editor],
    configPath: site.config,
    projectRoot: site.dir,
    dir: dist,
    site: live,
  });
  return {
    url: server.url,
    signIn: (page) => signInWithPassword(page, `${server.url}/admin/blog/`, editor),
    async close() {
      await server.close();
      await live.dispose();
      await site.cleanup();
    },
  };
}

for (const [mode, start] of [
  ['site dev', startDev],
  ['site serve --admin', startServe],
] as const) {
  describe(`a second collection in the content editor, with ${mode}`, () => {
    let running: Running;
    let browser: Browser;
    let page: Page;
    const problems: string[] = [];

    beforeAll(async () => {
      [running, browser] = await Promise.all([start(), launchBrowser()]);
      const context = await browser.newContext({ locale: 'en-US', bypassCSP: true });
      context.setDefaultTimeout(15_000);
      page = await context.newPage();
      page.on('pageerror', (error) => problems.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error' && !/status of (401|404|422)/.test(message.text()))
          problems.push(message.text());
      });
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await running?.close();
    });

    it('switches to the case studies: the URL names them, a reload keeps them, Back returns to the blog', async () => {
      await running.signIn(page);
      const switcher = page.getByLabel('Collection');
      await switcher.waitFor();
      expect(await switcher.locator('option').allTextContents()).toEqual(['Case studies', 'Blog']);
      expect(await switcher.inputValue()).toBe('blog');
      expect(await axeViolations(page)).toEqual([]);
      await switcher.selectOption('cases');
      await page.getByRole('table', { name: 'Case studies: the entries and the status of each language' }).waitFor();
      expect(new URL(page.url()).search).toBe('?collection=cases');
      expect(await page.getByRole('row').filter({ hasText: 'A bike shop that repairs more' }).count()).toBe(1);
      // The taxonomy filter is named after the collection's own field, with the sectors' names.
      expect(await page.getByLabel('Sector').locator('option').allTextContents()).toEqual([
        'All',
        'Retail',
        'Hotels and restaurants',
      ]);
      await page.reload();
      await page.getByRole('table', { name: /^Case studies:/ }).waitFor();
      expect(await page.getByLabel('Collection').inputValue()).toBe('cases');
      await page.goBack();
      await page.getByRole('table', { name: /^Blog:/ }).waitFor();
      expect(await page.getByLabel('Collection').inputValue()).toBe('blog');
      await page.goForward();
      await page.getByRole('table', { name: /^Case studies:/ }).waitFor();
    });

    it('creates a case study through the form of its schema, and its English page is live', async () => {
      await page.getByRole('button', { name: 'New post' }).click();
      await page.getByLabel('Address (slug)').fill('hotel-linen');
      await page.getByLabel('Title *').fill('A hotel that mends its linen');
      await page
        .getByLabel('Description (shown in lists and search results) *')
        .fill('Linen repaired instead of replaced.');
      await page.getByLabel('Publication date *').fill('2026-04-01');
      expect(await page.getByLabel('Sector *').locator('option').allTextContents()).toEqual([
        '—',
        'Retail',
        'Hotels and restaurants',
      ]);
      await page.getByLabel('Sector *').selectOption('hospitality');
      expect(await page.getByLabel('Clients *').getAttribute('type')).toBe('number');
      await page.getByLabel('Clients *').fill('12');
      expect(await page.getByLabel('Featured').getAttribute('type')).toBe('checkbox');
      await page.getByLabel('Featured').check();
      expect(await page.getByLabel('Since').getAttribute('type')).toBe('date');
      await page.getByLabel('Since').fill('2025-09-01');
      // The config's label for a field; the others are the copy's, or the field's name in words.
      await page.getByLabel('Partner organisation').fill('Oslo Laundry Co-op');
      await page.getByLabel('Text (Markdown)').fill('Sheets and towels are mended in the laundry.');
      // The page's address while the translation has none of its own: the folder's slug.
      expect(await page.getByText("The page's address: /cases/hotel-linen/").count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      await expect
        .poll(async () => (await page.request.get(`${running.url}/cases/hotel-linen/`)).text(), {
          timeout: 30_000,
          interval: 250,
        })
        .toContain('A hotel that mends its linen');
      const html = await (await page.request.get(`${running.url}/cases/hotel-linen/`)).text();
      expect(html).toContain('<div data-field="clients"><dt>clients</dt><dd>12</dd></div>');
      expect(html).toContain('<div data-field="featured"><dt>featured</dt><dd>true</dd></div>');
      expect(html).toContain('<div data-field="since"><dt>since</dt><dd>2025-09-01</dd></div>');
      expect(html).toContain('<div data-field="partner"><dt>partner</dt><dd>Oslo Laundry Co-op</dd></div>');

      // The preview of an unsaved change, through the case study's own template.
      await page.getByLabel('Clients *').fill('13');
      const [preview] = await Promise.all([
        page.waitForEvent('popup'),
        page.getByRole('button', { name: 'Preview' }).click(),
      ]);
      await preview.waitForURL(/\/api\/admin\/preview\/[\w-]{43}$/);
      expect(await preview.locator('[data-field="clients"] dd').textContent()).toBe('13');
      await preview.close();
      await page.getByLabel('Clients *').fill('12');
    });

    it('refuses a Norwegian address that is not URL-safe at its field, then saves a good one and its page is live there', async () => {
      await page.getByRole('tab', { name: /Norsk/ }).click();
      await page.getByRole('button', { name: 'Start from the English text' }).click();
      await page.getByLabel('Title *').fill('Et hotell som reparerer tekstilene sine');
      const own = page.getByLabel('Address in this language (slug)');
      await own.fill('Hotell Tekstiler');
      await page.getByLabel('Clients *').fill('');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      // A field of the collection's own, which the copy does not name, gets the words of its type.
      await page.getByText('Write a number in Clients, such as 12.').waitFor();
      await page.getByLabel('Clients *').fill('12');
      await page
        .getByText(
          "Use only lowercase letters a-z, digits and single hyphens in the address (such as hotell-i-oslo), or leave it empty to use the folder's.",
        )
        .waitFor();
      expect(await own.getAttribute('aria-invalid')).toBe('true');
      expect(await axeViolations(page)).toEqual([]);
      await own.fill('hotell-tekstiler');
      expect(await page.getByText("The page's address: /no/kunder/hotell-tekstiler/").count()).toBe(1);
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      await expect
        .poll(async () => (await page.request.get(`${running.url}/no/kunder/hotell-tekstiler/`)).text(), {
          timeout: 30_000,
          interval: 250,
        })
        .toContain('Et hotell som reparerer tekstilene sine');
      expect(problems).toEqual([]);
    });
  });
}
