/**
 * Every admin screen on a phone, in Chromium with `site serve --admin`: at 320, 375 and 414 px no
 * page scrolls sideways and nothing sticks out, the tables read as lists (each cell under the name
 * of its column), the save actions stay on screen while the form is scrolled, and axe finds
 * nothing. The site has a second collection (case studies) beside the blog, so the collection
 * switcher and a second collection's form are measured too. A full-page screenshot of each at 375 px goes to $ADMIN_SHOTS when it is set.
 */
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../helpers/axe';
import { launchBrowser } from '../helpers/browser';
import { startLiveAdminServer } from '../helpers/admin-server';
import { addCasesCollection } from '../helpers/collections-site';
import { signInWithPassword } from './support';

const admin = { email: 'admin@example.com', role: 'admin' as const, password: 'admin password 1' };
const widths = [320, 375, 414];
const contact = {
  receivedAt: '2026-09-01T08:00:00.000Z',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada.lovelace.with.a.long.address@visitor.example',
  company: 'Analytical Repairs',
  type: 'repairer',
  subject: 'Pricing',
  message: 'How much is Plus for two shops?',
  locale: 'en',
  page: '/hub/contact/',
};
const booking = {
  id: '9b2d6a52-0f3e-4c55-8d1e-3f9c2b7a6e11',
  start: '2026-12-03T10:00:00+01:00',
  end: '2026-12-03T10:30:00+01:00',
  locale: 'no',
  bookedAt: '2026-11-10T14:00:00.000Z',
  firstName: 'Ola',
  lastName: 'Berg',
  email: 'ola@visitor.example',
  company: 'Berg Sko',
  note: 'Demo',
  page: '/no/shop/book-meeting/',
};

/** What is wider than the screen: the page's scroll width, and the first elements past its right edge. */
function overflow() {
  const root = document.documentElement;
  const offenders = [...document.querySelectorAll<HTMLElement>('body *')]
    .filter(
      (element) =>
        element.offsetParent !== null &&
        element.getBoundingClientRect().right > root.clientWidth + 1 &&
        !element.closest('.visually-hidden, thead'),
    )
    .slice(0, 3)
    .map((element) => `${element.tagName.toLowerCase()}.${String(element.className).split(' ')[0]}#${element.id}`);
  return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, offenders };
}

describe('the admin on a phone (320, 375, 414 px), with site serve --admin', () => {
  let running: Awaited<ReturnType<typeof startLiveAdminServer>>;
  let server: Awaited<ReturnType<typeof startLiveAdminServer>>['server'];
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    const data = {
      'contact-submissions.jsonl': `${JSON.stringify(contact)}\n`,
      'booking-requests.jsonl': `${JSON.stringify(booking)}\n`,
    };
    [running, browser] = await Promise.all([
      startLiveAdminServer([admin], { inbox: true, data, prepare: addCasesCollection }),
      launchBrowser(),
    ]);
    ({ server } = running);
    context = await browser.newContext({
      locale: 'en-US',
      timezoneId: 'Europe/Oslo',
      bypassCSP: true,
      viewport: { width: 375, height: 740 },
    });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await running?.close();
  });

  /** Checks the page as it is now at each width (and takes its screenshot at 375 px). */
  async function fitsEveryWidth(name: string) {
    for (const width of widths) {
      await page.setViewportSize({ width, height: 740 });
      const measured = await page.evaluate(overflow);
      expect(measured.offenders, `${name} at ${width} px`).toEqual([]);
      expect(measured.scrollWidth, `${name} at ${width} px`).toBeLessThanOrEqual(measured.clientWidth);
      expect(await axeViolations(page), `${name} at ${width} px`).toEqual([]);
      if (width === 375 && process.env.ADMIN_SHOTS)
        await page.screenshot({ path: join(process.env.ADMIN_SHOTS, `${name}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 375, height: 740 });
  }

  /** Whether the element is on screen, all of it. */
  const onScreen = (selector: string) =>
    page
      .locator(selector)
      .first()
      .evaluate((element) => {
        const box = element.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= innerHeight && box.height > 0;
      });

  it('the sign-in page', async () => {
    await page.goto(`${server.url}/auth/`);
    await page
      .getByRole('button', { name: /sign in/i })
      .first()
      .waitFor();
    await fitsEveryWidth('auth');
  });

  it('the blog list, as a list of posts, and the editor with its save action on screen', async () => {
    await signInWithPassword(page, `${server.url}/admin/blog/`, admin);
    const edit = page.getByRole('button', { name: /^Edit: / }).first();
    await edit.waitFor();
    await fitsEveryWidth('blog');
    // Each language's status under the language's name, not in a column cut off at the right.
    expect(
      await page
        .locator('tbody tr')
        .first()
        .locator('td[data-label="English"]')
        .evaluate((cell) => getComputedStyle(cell, '::before').content),
    ).toBe('"English"');
    await edit.click();
    await page.getByLabel('Title *').waitFor();
    await fitsEveryWidth('blog-editor');
    expect(await onScreen('.admin-actions button[type="submit"]')).toBe(true);
    await page.getByLabel('Title *').focus();
    expect(await onScreen('.admin-actions button[type="submit"]')).toBe(true);
  });

  it('the case studies: the switcher, their list and the form of their schema with a field error', async () => {
    await page.goto(`${server.url}/admin/blog/?collection=cases`);
    const edit = page.getByRole('button', { name: 'Edit: A bike shop that repairs more' });
    await edit.waitFor();
    await fitsEveryWidth('cases');
    await edit.click();
    await page.getByLabel('Clients *').waitFor();
    await page.getByLabel('Address in this language (slug)').fill('Not A Slug');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.locator('.field-error').first().waitFor();
    await fitsEveryWidth('cases-editor');
    await page.getByLabel('Clients *').focus();
    expect(await onScreen('.admin-actions button[type="submit"]')).toBe(true);
  });

  it('the media library, each image a card with its focal point and descriptions, and the library dialog of the blog editor', async () => {
    await page.goto(`${server.url}/admin/media/`);
    await page.getByRole('article', { name: 'cover.jpg' }).waitFor();
    await fitsEveryWidth('media');
    await page.goto(`${server.url}/admin/blog/?post=why-repair-beats-recycling&locale=en`);
    await page.getByRole('button', { name: 'Choose from the library…' }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: /^Illustration: a green jacket/ })
      .waitFor();
    await fitsEveryWidth('media-picker');
    await page.keyboard.press('Escape');
  });

  it('the inbox, with each message as a card', async () => {
    await page.goto(`${server.url}/admin/inbox/`);
    await page.getByRole('table', { name: 'Messages and meeting requests, newest first' }).waitFor();
    await fitsEveryWidth('inbox');
    expect(
      await page
        .locator('tbody tr')
        .first()
        .evaluate((row) => getComputedStyle(row).display),
    ).toBe('block');
  });

  it('the page texts: the list of pages, and a Norwegian page with a list, each item its own field, the English beside it', async () => {
    await page.goto(`${server.url}/admin/pages/`);
    await page.getByRole('heading', { name: 'Pages: choose a language to edit' }).waitFor();
    await fitsEveryWidth('pages');
    const row = page
      .locator('.admin-page-list li')
      .filter({ has: page.locator('code').getByText('hub/book-meeting', { exact: true }) });
    await row.getByRole('button', { name: 'Norsk' }).click();
    const items = page.getByRole('group', { name: 'Agenda › Items agenda.items' });
    await items.waitFor();
    await fitsEveryWidth('pages-editor');
    expect(await items.getByRole('textbox').count()).toBe(5);
    expect(await items.getByRole('textbox', { name: 'Item 1' }).inputValue()).toMatch(/^Hvordan en ordre går gjennom/);
    expect(await items.locator('.admin-page-source li').count()).toBe(5);
    await page.getByLabel('Agenda › Heading agenda.heading', { exact: true }).focus();
    expect(await onScreen('.admin-actions button[type="submit"]')).toBe(true);
  });

  it('the page shown to edit on it, with the field in place of a text', async () => {
    await page.goto(`${server.url}/admin/visual/`);
    const frame = page.frameLocator('iframe[title="The page as it will be published"]');
    const heading = frame.locator('[data-edit="landing#hero.heading"]');
    await heading.waitFor();
    await fitsEveryWidth('visual');
    await heading.click();
    const field = frame.getByLabel('Edit: Hero › Heading');
    await field.waitFor();
    await fitsEveryWidth('visual-field');
    // The field fits the frame's width on a phone.
    expect(
      await field.evaluate((element) => element.scrollWidth <= element.ownerDocument.documentElement.clientWidth),
    ).toBe(true);
  });

  it('the changes', async () => {
    await page.goto(`${server.url}/admin/changes/`);
    await page.getByRole('table', { name: 'Changes, newest first' }).waitFor();
    await fitsEveryWidth('changes');
    // A sign-in names no item: the card shows no empty "Post or item".
    expect(await page.locator('tbody tr').first().locator('td[data-label="Post or item"]').isVisible()).toBe(false);
  });

  it('the settings, with Review changes on screen wherever the form is scrolled, and the review of a change', async () => {
    await page.goto(`${server.url}/admin/settings/`);
    const orders = page.getByRole('textbox', { name: 'basic Orders per month' });
    await orders.waitFor();
    await fitsEveryWidth('settings');
    if (process.env.ADMIN_SHOTS)
      await page
        .locator('fieldset.admin-settings-group')
        .nth(2)
        .screenshot({ path: join(process.env.ADMIN_SHOTS, 'settings-plans.png') });
    for (const field of ['Legal name', 'Share of time saved (%)']) {
      await page.getByLabel(field).scrollIntoViewIfNeeded();
      expect(await onScreen('.admin-actions button[type="submit"]'), field).toBe(true);
    }
    await orders.scrollIntoViewIfNeeded();
    expect(await onScreen('.admin-actions button[type="submit"]')).toBe(true);
    // The sticky bar covers no field it has scrolled past: the focused field is above it.
    const [field, bar] = await Promise.all([
      orders.boundingBox(),
      page.locator('.admin-actions').first().boundingBox(),
    ]);
    expect(field!.y + field!.height).toBeLessThanOrEqual(bar!.y + 1);
    await orders.fill('60');
    await page.getByRole('button', { name: 'Review changes' }).click();
    await page.getByRole('region', { name: 'Your changes' }).waitFor();
    await fitsEveryWidth('settings-review');
  });
});
