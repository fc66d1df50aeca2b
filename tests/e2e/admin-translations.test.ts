/**
 * A post's translation marked outdated in the content editor (site serve --admin, Chromium): the
 * Norwegian saved, then the English edited in the editor; the list marks the Norwegian outdated, its
 * tab shows the English changes since, and saving the Norwegian again clears the mark. axe 0.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../helpers/axe';
import { launchBrowser } from '../helpers/browser';
import { startLiveAdminServer } from '../helpers/admin-server';
import { signInWithPassword } from './support';

const editor = { email: 'editor@example.com', role: 'editor' as const, password: 'editor password 1' };

describe('translation status of a post, in the browser', () => {
  let running: Awaited<ReturnType<typeof startLiveAdminServer>>;
  let server: Awaited<ReturnType<typeof startLiveAdminServer>>['server'];
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    [running, browser] = await Promise.all([startLiveAdminServer([editor]), launchBrowser()]);
    ({ server } = running);
    context = await browser.newContext({ locale: 'en-US', bypassCSP: true });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await running?.close();
  });

  const saveTab = async (language: RegExp) => {
    await page.getByRole('tab', { name: language }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Saved/ })
      .waitFor();
  };

  it('marks the Norwegian outdated after an English edit, shows the English changes, and clears the mark when it is saved', async () => {
    await signInWithPassword(page, `${server.url}/admin/blog/`, editor);
    await page.getByRole('button', { name: 'Edit: A day in a tailor shop' }).click();
    await saveTab(/Norsk/);
    await page.getByText('Translation up to date, saved').waitFor();
    await page.getByRole('tab', { name: /English/ }).click();
    const title = page.getByLabel('Title *');
    await title.fill('A day in a small tailor shop');
    await saveTab(/English/);
    await page.getByRole('tab', { name: /Norsk/ }).click();
    const outdated = page.getByRole('region', {
      name: /^Outdated The English text changed after this translation was saved/,
    });
    await outdated.waitFor();
    expect(
      await outdated
        .getByRole('row', { name: /^Title/ })
        .locator('td')
        .allInnerTexts(),
    ).toEqual(['A day in a tailor shop', 'A day in a small tailor shop']);
    await outdated.getByText('Show the file').click();
    expect(await outdated.locator('pre').innerText()).toContain('+title: "A day in a small tailor shop"');
    expect(await axeViolations(page)).toEqual([]);
    // The list says it too.
    await page.getByRole('button', { name: /^Back/ }).click();
    const row = page.getByRole('row', { name: /A day in a small tailor shop/ });
    await row.getByText('Outdated').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    // Saved again, the Norwegian is up to date.
    await page.getByRole('button', { name: 'Edit: A day in a small tailor shop' }).click();
    await saveTab(/Norsk/);
    await page.getByText('Translation up to date, saved').waitFor();
    expect(await outdated.count()).toBe(0);
  });
});
