/**
 * /admin/settings with `site serve --admin` in Chromium: an admin changes the booking URL and a
 * plan's order limit, reviews the change in words (the diff of site.config.yaml behind "Show the file"), saves, and sees the new
 * values on /hub/book-meeting/ and /no/hub/pricing/ after reload; an invalid value is shown at its
 * field with the check's message and nothing is written; an editor is told the page is for admins.
 * axe finds nothing in any state.
 */
import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../helpers/axe';
import { launchBrowser } from '../helpers/browser';
import type { TempSite } from '../helpers/fixture-site';
import { startLiveAdminServer } from '../helpers/admin-server';
import { signInWithPassword } from './support';

const admin = { email: 'admin@example.com', role: 'admin' as const, password: 'admin password 1' };
const editor = { email: 'editor@example.com', role: 'editor' as const, password: 'editor password 1' };
const bookingUrl = 'https://cal.example/mendwise/intro';

describe('the site settings with site serve --admin, in the browser', () => {
  let running: Awaited<ReturnType<typeof startLiveAdminServer>>;
  let site: TempSite;
  let server: Awaited<ReturnType<typeof startLiveAdminServer>>['server'];
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  const signIn = (into: Page, who: { email: string; password: string }) =>
    signInWithPassword(into, `${server.url}/admin/settings/`, who);

  beforeAll(async () => {
    [running, browser] = await Promise.all([startLiveAdminServer([admin, editor]), launchBrowser()]);
    ({ site, server } = running);
    context = await browser.newContext({ locale: 'en-US', bypassCSP: true });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error' && !/status of 40[19]|status of 422/.test(message.text()))
        problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await running?.close();
  });

  it('reaches the settings by the admin navigation, with the current values in labelled fields', async () => {
    await signIn(page, admin);
    const nav = page.getByRole('navigation', { name: 'Admin pages' });
    await nav.getByRole('link', { name: 'Site settings' }).click();
    await page.waitForURL(/\/admin\/settings\/$/);
    await page.getByRole('table', { name: 'Plans for repairers' }).waitFor();
    expect(await page.getByLabel('Legal name').inputValue()).toBe('Mendwise AS');
    expect(await page.getByLabel('Booking page address').inputValue()).toBe('');
    expect(await page.getByRole('textbox', { name: 'basic Orders per month' }).inputValue()).toBe('50');
    expect(await page.getByRole('checkbox', { name: 'plus Highlighted' }).isChecked()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
  });

  it("shows an invalid value at its field with the check's message, and writes nothing", async () => {
    const before = await readFile(site.config, 'utf8');
    const orders = page.getByRole('textbox', { name: 'basic Orders per month' });
    await orders.fill('-5');
    await page.getByRole('button', { name: 'Review changes' }).click();
    const summary = page.getByRole('alert').filter({ hasText: 'Please correct these fields' });
    await summary.waitFor();
    expect(await orders.getAttribute('aria-invalid')).toBe('true');
    const described = await orders.getAttribute('aria-describedby');
    // In the admin's words, saying what to do (not the check's "expected number").
    expect(await page.locator(`[id="${described}"]`).textContent()).toBe(
      'Write a whole number of orders, or the word unlimited.',
    );
    expect(await summary.textContent()).not.toMatch(/schema|expected/);
    // The summary's link takes focus to the field.
    await summary.getByRole('link').first().click();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('setting-plans-1-limits-ordersPerMonth');
    expect(await axeViolations(page)).toEqual([]);
    expect(await readFile(site.config, 'utf8')).toBe(before);
  });

  it('reviews the change as a diff, saves it, and the pages show the new values after reload', async () => {
    await page.getByRole('textbox', { name: 'basic Orders per month' }).fill('75');
    const addOn = page.getByRole('group', { name: "Repairers' pricing page: the add-on's heading" });
    expect(await addOn.getByLabel('Norsk').inputValue()).toBe('Tilleggspakken «100 ordrer»');
    await addOn.getByLabel('Norsk').fill('Ekstrapakken «100 ordrer»');
    await page.getByLabel('Booking page address').fill(bookingUrl);
    // A time written the Norwegian way (08.30) is taken as the config writes it (08:30).
    await page.getByLabel('Opens at').fill('08.30');
    await page.getByRole('button', { name: 'Review changes' }).click();
    const review = page.getByRole('region', { name: 'Your changes' });
    await review.waitFor();
    // Focus moves once the announcement is drawn (the next frame).
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Your changes');
    // In words first, named as the screen names them and said as the site shows them; the file behind a disclosure.
    const words = review.getByRole('table');
    expect(
      await words
        .getByRole('row', { name: /^Basic: orders per month/ })
        .locator('td')
        .allInnerTexts(),
    ).toEqual(['50', '75']);
    expect(
      await words
        .getByRole('row', { name: /^Meeting booking: booking page address/ })
        .locator('td')
        .allInnerTexts(),
    ).toEqual(['(empty)', bookingUrl]);
    expect(await words.getByRole('rowheader').allInnerTexts()).toContain(
      'Page texts: Hub › Pricing › Addon › Heading (Norsk)',
    );
    expect(await review.locator('pre').isVisible()).toBe(false);
    await review.getByText('Show the file').click();
    const diff = await review.locator('pre').innerText();
    expect(diff).toContain('-    limits: { ordersPerMonth: 50 }\n+    limits: { ordersPerMonth: 75 }');
    expect(diff).toContain(`+  url: ${bookingUrl}`);
    expect(diff).toContain('+  heading: Ekstrapakken «100 ordrer»');
    expect(diff).toMatch(/^\+.*opens: "08:30"/m);
    expect(await axeViolations(page)).toEqual([]);

    await review.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved. The website was rebuilt in' }).waitFor();
    expect(await page.getByLabel('Booking page address').inputValue()).toBe(bookingUrl);
    expect(await readFile(site.config, 'utf8')).toContain(`  url: ${bookingUrl}\n`);

    const visitor = await context.newPage();
    await visitor.goto(`${server.url}/hub/book-meeting/`);
    expect(await visitor.locator(`a[href="${bookingUrl}"]`).count()).toBeGreaterThan(0);
    await visitor.goto(`${server.url}/no/hub/pricing/`);
    expect(await visitor.getByText('Opptil 75 ordrer per måned').count()).toBe(1);
    expect(await visitor.getByRole('heading', { name: 'Ekstrapakken «100 ordrer»' }).count()).toBe(1);
    await visitor.close();
    expect(problems).toEqual([]);
  });

  it('shows the time-saved share as a percentage, prices a plan on request per year in NOK, and puts it back on request', async () => {
    await page.goto(`${server.url}/admin/settings/`);
    expect(await page.getByLabel('Share of time saved (%)').inputValue()).toBe('35');
    const before = await readFile(site.config, 'utf8');
    const kind = page.getByRole('combobox', { name: 'Price (Plus)' });
    expect(await kind.inputValue()).toBe('on-request');
    expect(await page.getByRole('textbox', { name: 'Amount (Plus)' }).count()).toBe(0);
    await kind.selectOption({ label: 'A price' });
    await page.getByRole('textbox', { name: 'Amount (Plus)' }).fill('490');
    await page.getByRole('textbox', { name: 'Currency (Plus)' }).fill('NOK');
    await page.getByRole('combobox', { name: 'Paid (Plus)' }).selectOption({ label: 'Per year' });
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Review changes' }).click();
    const review = page.getByRole('region', { name: 'Your changes' });
    await review.waitFor();
    expect(
      await review
        .getByRole('row', { name: /^Plus: price/ })
        .locator('td')
        .allInnerTexts(),
    ).toEqual(['On request', expect.stringMatching(/^NOK[\s\u00a0]?490 per year$/)]);
    await review.getByText('Show the file').click();
    expect(await review.locator('pre').innerText()).toContain(
      '+    price: { amount: 490, currency: NOK, period: year }',
    );
    await review.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Amount (Plus)' }).inputValue()).toBe('490');
    const visitor = await context.newPage();
    await visitor.goto(`${server.url}/hub/pricing/`);
    expect(await visitor.locator('main').innerText()).toMatch(/NOK[\s\u00a0]?490[\s\S]*per year/);
    await visitor.close();

    await page.getByRole('combobox', { name: 'Price (Plus)' }).selectOption({ label: 'On request' });
    await page.getByRole('button', { name: 'Review changes' }).click();
    await page.getByRole('region', { name: 'Your changes' }).getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(await readFile(site.config, 'utf8')).toBe(before);
  });

  it('says on the changes page what the saves changed, in words, with a link to the settings', async () => {
    await page.getByRole('navigation', { name: 'Admin pages' }).getByRole('link', { name: 'Changes' }).click();
    const table = page.getByRole('table', { name: 'Changes, newest first' });
    await table.waitFor();
    const rows = table.locator('tbody tr');
    expect(await rows.first().locator('th').textContent()).toBe('Changed the site settings: Plans');
    expect(await table.locator('th').allTextContents()).toContain(
      'Changed the site settings: Company, Meeting booking, Plans, Page texts',
    );
    expect(await rows.first().getByRole('link', { name: 'Site settings' }).getAttribute('href')).toBe(
      '/admin/settings/',
    );
    expect(await axeViolations(page)).toEqual([]);
    await page.goto(`${server.url}/admin/settings/`);
  });

  it('adds a blog category with a name in each language, and refuses to remove one that posts use', async () => {
    const table = page.getByRole('table', { name: 'Categories: blog' });
    await table.getByRole('button', { name: 'Remove' }).first().waitFor();
    await page.getByRole('textbox', { name: /New category.*Category/ }).fill('events');
    await page.getByRole('textbox', { name: /New category.*Name \(English\)/ }).fill('Events');
    await page.getByRole('textbox', { name: /New category.*Name \(Norsk\)/ }).fill('Arrangementer');
    // "retail" has posts: marked for removal, the save is refused with them named.
    const retail = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /^retail/ }) });
    await retail.getByRole('button', { name: 'Remove' }).click();
    expect(await retail.textContent()).toContain('to be removed');
    await page.getByRole('button', { name: 'Review changes' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /"retail" cannot be removed: \d+ posts? uses? it/ })
      .waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await retail.getByRole('button', { name: 'Keep' }).click();
    await page.getByRole('button', { name: 'Review changes' }).click();
    const review = page.getByRole('region', { name: 'Your changes' });
    await review.waitFor();
    await review.getByText('Show the file').click();
    expect(await review.locator('pre').innerText()).toContain('+    events: Arrangementer');
    await review.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    // The table shows the saved categories once it has read them back (after "Saved." is said).
    await expect.poll(() => page.getByRole('rowheader', { name: 'events' }).count()).toBe(1);
    const visitor = await context.newPage();
    const answer = await visitor.goto(`${server.url}/no/blog/category/events/`);
    expect(answer?.status()).toBe(200);
    expect(await visitor.getByRole('heading', { level: 1 }).textContent()).toContain('Arrangementer');
    await visitor.close();
  });

  it('tells an editor that the settings are for administrators', async () => {
    const other = await browser.newContext({ locale: 'en-US', bypassCSP: true });
    const editorPage = await other.newPage();
    await signIn(editorPage, editor);
    await editorPage.goto(`${server.url}/admin/settings/`);
    await editorPage.getByText('Only administrators may change the site settings.').waitFor();
    expect(await editorPage.getByRole('textbox').count()).toBe(0);
    await other.close();
  });
});
