/**
 * History and restore in Chromium. With `site dev`: a post's title is changed and saved, the
 * History panel under the editor lists the version it replaced, shows what restoring it changes,
 * and restores it after a confirm step; the editor and, once the watcher has rebuilt, the post's
 * page show the old title again. With `site serve --admin`: the same for a page's Norwegian copy,
 * live on /no/ when the restore is answered, and the panel usable at 320 px. The panel is worked
 * by keyboard (the focus goes to the confirm step, back on Cancel, to the panel after a restore);
 * axe finds nothing with it open, in each state. Its times follow the site's conventions (en-GB, 24-hour)
 * in an en-US browser.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../helpers/axe';
import { launchBrowser } from '../helpers/browser';
import { startLiveAdminServer } from '../helpers/admin-server';
import { signInWithPassword, startDevAdmin } from './support';

/** Opens the History panel, shows the newest version's changes and restores it, checking axe in each state. */
async function restoreNewest(page: Page): Promise<void> {
  // By keyboard: the panel is a disclosure.
  await page.locator('summary', { hasText: 'History' }).press('Enter');
  const versions = page.locator('.admin-history-list > li');
  await versions.first().waitFor();
  // The time in the site's conventions (its locale's intl tag, en-GB), not the en-US browser's 12-hour clock.
  expect(await versions.first().textContent()).toMatch(/\b\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}\b/);
  expect(await versions.first().textContent()).not.toMatch(/\b(AM|PM)\b/);
  expect(await axeViolations(page)).toEqual([]);
  await versions.first().getByRole('button', { name: 'Show what restoring changes' }).click();
  // What restoring changes, in words (the file diff behind "Show the file").
  await page.locator('.admin-history .admin-change-list').waitFor();
  expect(await axeViolations(page)).toEqual([]);
  const focused = () => page.evaluate(() => document.activeElement?.textContent);
  // The confirm step takes the focus, so a keyboard user answers it at once; Cancel gives it back.
  await versions.first().getByRole('button', { name: 'Restore this version' }).press('Enter');
  await expect.poll(focused).toBe('Yes, restore it');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect.poll(focused).toBe('Restore this version');
  await page.keyboard.press('Enter');
  await expect.poll(focused).toBe('Yes, restore it');
  expect(await axeViolations(page)).toEqual([]);
  await page.keyboard.press('Enter');
  await page.getByText('Restored. The editor now shows the restored version.').first().waitFor();
  // The focus is not lost with the button: it goes back to the panel's heading.
  await expect.poll(focused).toBe('History');
  expect(await axeViolations(page)).toEqual([]);
}

function watchProblems(page: Page, problems: string[]) {
  page.on('console', (message) => {
    if (message.type() === 'error' && !/status of (401|404)/.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
}

describe('history and restore with site dev, in the browser', () => {
  let browser: Browser;
  afterAll(() => browser?.close());

  it("restores a post's earlier title, which the editor and the rebuilt page show again", async () => {
    const running = await startDevAdmin();
    const { site, dev, admin } = running;
    browser = await launchBrowser();
    const problems: string[] = [];
    try {
      const slug = 'a-day-in-a-tailor-shop';
      const file = join(site.dir, 'content', 'blog', slug, 'en.md');
      const original = await readFile(file, 'utf8');
      const page = await (await browser.newContext({ locale: 'en-US', bypassCSP: true })).newPage();
      page.setDefaultTimeout(15_000);
      watchProblems(page, problems);
      await page.goto(`${dev.url}/auth/?token=${admin.tokens.issue()}`);
      await page.waitForURL(/\/admin\/blog\/$/);
      await page.goto(`${dev.url}/admin/blog/?post=${slug}&locale=en`);
      const title = page.getByLabel('Title *');
      await expect.poll(() => title.inputValue()).toBe('A day in a tailor shop');
      await title.fill('A day in a busy tailor shop');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('Saved. The site is updated.').first().waitFor();
      const post = await browser.newPage();
      await expect
        .poll(async () => await (await post.goto(`${dev.url}/blog/${slug}/`))!.text(), { timeout: 15_000 })
        .toContain('A day in a busy tailor shop');

      await restoreNewest(page);
      await expect.poll(() => title.inputValue()).toBe('A day in a tailor shop');
      expect(await readFile(file, 'utf8')).toBe(original);
      await expect
        .poll(async () => await (await post.goto(`${dev.url}/blog/${slug}/`))!.text(), { timeout: 15_000 })
        .not.toContain('A day in a busy tailor shop');
      expect(problems).toEqual([]);
    } finally {
      await running.close();
    }
  }, 120_000);
});

describe('history and restore with site serve --admin, in the browser', () => {
  const editor = { email: 'editor@example.com', role: 'editor' as const, password: 'editor password 1' };
  let running: Awaited<ReturnType<typeof startLiveAdminServer>>;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    [running, browser] = await Promise.all([startLiveAdminServer([editor]), launchBrowser()]);
    page = await (await browser.newContext({ locale: 'en-US', bypassCSP: true })).newPage();
    page.setDefaultTimeout(15_000);
    watchProblems(page, problems);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await running?.close();
  });

  it("restores a page's Norwegian heading, live on /no/ when answered, and the panel fits a 320 px screen", async () => {
    const { server, site } = running;
    const file = join(site.dir, 'content', 'pages', 'landing', 'no.yaml');
    const original = await readFile(file, 'utf8');
    await signInWithPassword(page, `${server.url}/admin/blog/`, editor);
    await page.goto(`${server.url}/admin/pages/?page=landing&locale=no`);
    // An editor's navigation offers only the pages an editor may use.
    const menu = page.locator('.admin-nav a');
    await expect
      .poll(() => menu.filter({ visible: true }).allTextContents())
      .toEqual(['Content administration', 'Media library', 'Page texts', 'Edit on the page']);
    const heading = page.getByLabel('Hero › Heading hero.heading', { exact: true });
    await expect.poll(() => heading.inputValue()).toBe('Gjør reparasjon til det enkle valget');
    await heading.fill('Reparasjon, enkelt og greit');
    await page.getByRole('button', { name: 'Save texts' }).click();
    // The save's answer, which comes once its version is kept (the page is rebuilt before that).
    await page
      .getByText(/^Saved\. The website (was rebuilt in \d+ ms|is being rebuilt)\.$/)
      .first()
      .waitFor();
    expect((await server.send('GET', '/no/')).text).toContain('Reparasjon, enkelt og greit');

    await page.setViewportSize({ width: 320, height: 720 });
    await restoreNewest(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
    await expect.poll(() => heading.inputValue()).toBe('Gjør reparasjon til det enkle valget');
    expect(await readFile(file, 'utf8')).toBe(original);
    expect((await server.send('GET', '/no/')).text).toContain('Gjør reparasjon til det enkle valget');
    expect(problems).toEqual([]);
  }, 120_000);
});
