/**
 * An outdated translation of existing content (site serve --admin and site dev, Chromium): a site
 * under git with the English and Norwegian committed, then an English edit committed. Without any
 * save in the admin, the page texts' list marks the landing page's Norwegian outdated and opening it
 * shows the English change in words (the diff behind "Show the file"); the content editor's list marks
 * the post's Norwegian outdated. axe 0.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../helpers/axe';
import { launchBrowser } from '../helpers/browser';
import { startLiveAdminServer } from '../helpers/admin-server';
import { commitEnglishEdits } from '../helpers/git-fixture';
import { signInWithPassword, startDevAdmin } from './support';

const editor = { email: 'editor@example.com', role: 'editor' as const, password: 'editor password 1' };

/** The checks on a signed-in page at `origin`'s admin. */
async function checkOutdated(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/admin/pages/`);
  const row = page
    .locator('.admin-page-list li')
    .filter({ has: page.locator('code').getByText('landing', { exact: true }) });
  await row.getByRole('button', { name: 'Norsk Outdated' }).click();
  const outdated = page.getByRole('region', { name: /^Outdated The English text changed after this translation/ });
  await outdated.waitFor();
  expect(
    await outdated
      .getByRole('row', { name: /^Hero › Heading/ })
      .locator('td')
      .allInnerTexts(),
  ).toEqual(['Make repair the easy choice', 'Make repair the obvious choice']);
  await outdated.getByText('Show the file').click();
  expect(await outdated.locator('pre').innerText()).toContain(
    '-  heading: Make repair the easy choice\n+  heading: Make repair the obvious choice',
  );
  expect(await axeViolations(page)).toEqual([]);

  await page.goto(`${origin}/admin/blog/`);
  const post = page.getByRole('row', { name: /A day in a busy tailor shop/ });
  await post.getByText('Outdated').waitFor();
  expect(await post.getByText('Outdated').count()).toBe(1);
}

describe('an outdated translation of existing content, from git, in the browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  }, 60_000);
  afterAll(() => browser?.close());

  it('site serve --admin: the lists and the page say what changed in the English since the Norwegian was committed', async () => {
    const running = await startLiveAdminServer([editor], { prepare: (site) => commitEnglishEdits(site.dir) });
    try {
      const page = await (await browser.newContext({ locale: 'en-US', bypassCSP: true })).newPage();
      page.setDefaultTimeout(15_000);
      await signInWithPassword(page, `${running.server.url}/admin/pages/`, editor);
      await checkOutdated(page, running.server.url);
    } finally {
      await running.close();
    }
  }, 120_000);

  it('site dev: the same', async () => {
    const running = await startDevAdmin({ prepare: (dir) => commitEnglishEdits(dir) });
    try {
      const page = await (await browser.newContext({ locale: 'en-US', bypassCSP: true })).newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(`${running.dev.url}/auth/?token=${running.admin.tokens.issue()}`);
      await page.waitForURL(/\/admin\/blog\/$/);
      await checkOutdated(page, running.dev.url);
    } finally {
      await running.close();
    }
  }, 120_000);
});
