/**
 * /admin/pages with `site serve --admin` in Chromium: an editor reaches it by the admin navigation,
 * opens the landing page in Norwegian and sees each text in a labelled field with the English
 * beside it and a locked text read-only with why; changes a Norwegian heading, saves, and sees it
 * on /no/; an empty text is refused at its field in plain words; after an English edit the
 * Norwegian is marked outdated with the English changes since; a save over someone else's change
 * (409) says at the field what they wrote and saves on the second try; /admin/changes says so in
 * words, linking to the page in its language. axe finds nothing.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labelOf } from '../../src/admin/pages-api';
import { axeViolations } from '../helpers/axe';
import { launchBrowser } from '../helpers/browser';
import type { TempSite } from '../helpers/fixture-site';
import { startLiveAdminServer } from '../helpers/admin-server';
import { signInWithPassword } from './support';

const editor = { email: 'editor@example.com', role: 'editor' as const, password: 'editor password 1' };
const admin = { email: 'admin@example.com', role: 'admin' as const, password: 'admin password 1' };

describe('the page texts with site serve --admin, in the browser', () => {
  let running: Awaited<ReturnType<typeof startLiveAdminServer>>;
  let site: TempSite;
  let server: Awaited<ReturnType<typeof startLiveAdminServer>>['server'];
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];
  const norwegian = () => join(site.dir, 'content', 'pages', 'landing', 'no.yaml');

  /** Back to the list, then a page in a language. */
  async function open(id: string, language: string) {
    const back = page.getByRole('button', { name: 'Back to the pages' });
    if (await back.count()) await back.click();
    const row = page
      .locator('.admin-page-list li')
      .filter({ has: page.locator('code').getByText(id, { exact: true }) });
    await row.getByRole('button', { name: new RegExp(`^${language}`) }).click();
    await page.getByRole('heading', { name: `${labelOf(id)}: ${language}` }).waitFor();
  }

  /** The field of a text, by its label: the key in words, then the key. */
  const field = (key: string): Locator => page.getByLabel(`${labelOf(key)} ${key}`, { exact: true });

  beforeAll(async () => {
    [running, browser] = await Promise.all([
      startLiveAdminServer([editor, admin], {
        prepare: async (site) => {
          // The developer locks the claim's figure of the landing page.
          const text = await readFile(site.config, 'utf8');
          await writeFile(
            site.config,
            text.replace(/^admin:\n/m, 'admin:\n  locked:\n    - { content: landing, keys: [claim.figure] }\n'),
          );
        },
      }),
      launchBrowser(),
    ]);
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

  it("lists the pages by the admin navigation, and shows a Norwegian page's texts beside the English, the locked one read-only", async () => {
    await signInWithPassword(page, `${server.url}/admin/blog/`, editor);
    await page.getByRole('navigation', { name: 'Admin pages' }).getByRole('link', { name: 'Page texts' }).click();
    await page.waitForURL(/\/admin\/pages\/$/);
    await page.getByRole('heading', { name: 'Pages: choose a language to edit' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await open('landing', 'Norsk');
    // Focus moves to the page's heading once it is drawn.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Landing: Norsk');
    // Each text is labelled in words, its key beside them.
    expect(await page.getByLabel('Hero › Heading hero.heading', { exact: true }).count()).toBe(1);
    const heading = field('hero.heading');
    expect(await heading.inputValue()).toBe('Gjør reparasjon til det enkle valget');
    // The English beside it, under its visible label, and named in the field's description.
    const described = (await heading.getAttribute('aria-describedby'))!;
    expect(await page.locator(`[id="${described}"]`).textContent()).toBe('Make repair the easy choice');
    expect(await page.locator(`[id="${described}-label"]`).textContent()).toBe('English text');
    // The locked figure is read-only and says why.
    const figure = field('claim.figure');
    expect(await figure.getAttribute('readonly')).not.toBeNull();
    expect(
      await page.locator(`[id="${(await figure.getAttribute('aria-describedby'))!.split(' ')[0]}"]`).textContent(),
    ).toMatch(/^Locked: the site's developer keeps this text/);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('refuses an empty text at its field in plain words, writing nothing', async () => {
    const before = await readFile(norwegian(), 'utf8');
    await field('actions.primary').fill('  ');
    await page.getByRole('button', { name: 'Save texts' }).click();
    const summary = page.getByRole('alert').filter({ hasText: 'Please correct these texts' });
    await summary.waitFor();
    const primary = field('actions.primary');
    expect(await primary.getAttribute('aria-invalid')).toBe('true');
    expect(
      await page.locator(`[id="${(await primary.getAttribute('aria-describedby'))!.split(' ').pop()}"]`).textContent(),
    ).toBe("Write a text here; a page's text can't be empty.");
    await summary.getByRole('link').click();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('copy-actions-primary');
    expect(await axeViolations(page)).toEqual([]);
    expect(await readFile(norwegian(), 'utf8')).toBe(before);
    await primary.fill('Finn løsningen din');
  });

  it('saves a Norwegian heading, which the site shows at once', async () => {
    await field('hero.heading').fill('Gjør reparasjon til det lette valget');
    await page.getByRole('button', { name: 'Save texts' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved. The website was rebuilt in' }).waitFor();
    expect(await readFile(norwegian(), 'utf8')).toContain('  heading: Gjør reparasjon til det lette valget\n');
    expect(await page.getByText('Translation up to date, saved').count()).toBe(1);
    const visitor = await context.newPage();
    await visitor.goto(`${server.url}/no/`);
    expect(await visitor.getByRole('heading', { level: 1 }).textContent()).toBe('Gjør reparasjon til det lette valget');
    await visitor.close();
  });

  it('marks the Norwegian outdated after an English edit, with the English changes since', async () => {
    await open('landing', 'English');
    // The default language shows no text beside its own.
    expect(await page.getByText('English text').count()).toBe(0);
    await field('hero.heading').fill('Make repair the obvious choice');
    await page.getByRole('button', { name: 'Save texts' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    // The list marks the Norwegian outdated before it is opened.
    await page.getByRole('button', { name: 'Back to the pages' }).click();
    const row = page
      .locator('.admin-page-list li')
      .filter({ has: page.locator('code').getByText('landing', { exact: true }) });
    await row.getByRole('button', { name: 'Norsk Outdated' }).waitFor();
    expect(await row.getByRole('button', { name: 'English', exact: true }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await open('landing', 'Norsk');
    const outdated = page.getByRole('region', {
      name: /^Outdated The English text changed after this translation was saved/,
    });
    await outdated.waitFor();
    expect(
      await outdated
        .getByRole('row', { name: /^Hero › Heading/ })
        .locator('td')
        .allInnerTexts(),
    ).toEqual(['Make repair the easy choice', 'Make repair the obvious choice']);
    await outdated.getByText('Show the file').click();
    const diff = await outdated.locator('pre').innerText();
    expect(diff).toContain('-  heading: Make repair the easy choice\n+  heading: Make repair the obvious choice');
    expect(
      await page.locator(`[id="${(await field('hero.heading').getAttribute('aria-describedby'))!}"]`).textContent(),
    ).toBe('Make repair the obvious choice');
    expect(await axeViolations(page)).toEqual([]);
    // Saved again, the translation is up to date.
    await field('hero.heading').fill('Gjør reparasjon til det opplagte valget');
    await page.getByRole('button', { name: 'Save texts' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(await outdated.count()).toBe(0);
    await page.getByRole('button', { name: 'Back to the pages' }).click();
    await page
      .locator('.admin-page-list li')
      .filter({ has: page.locator('code').getByText('landing', { exact: true }) })
      .getByRole('button', { name: 'Norsk', exact: true })
      .waitFor();
    await open('landing', 'Norsk');
  });

  it("says at the field what someone else saved meanwhile (409), keeps the editor's text, and saves it on the second try", async () => {
    const auth = await server.signIn(editor.email, editor.password);
    const current = (
      await server.send('GET', '/api/admin/pages/landing/no', { headers: { cookie: auth.cookie } })
    ).json() as { version: string };
    const put = await server.send('PUT', '/api/admin/pages/landing/no', {
      headers: {
        cookie: auth.cookie,
        origin: server.url,
        'x-csrf-token': auth.csrf,
        'content-type': 'application/json',
        'if-match': `"${current.version}"`,
      },
      body: JSON.stringify({ changes: [{ key: 'actions.secondary', value: 'Ta kontakt' }] }),
    });
    expect(put.status).toBe(200);
    await field('actions.secondary').fill('Snakk med oss i dag');
    await page.getByRole('button', { name: 'Save texts' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: "Someone else saved this page's texts while you were editing" })
      .waitFor();
    const secondary = field('actions.secondary');
    expect(await secondary.inputValue()).toBe('Snakk med oss i dag');
    expect(
      await page
        .locator(`[id="${(await secondary.getAttribute('aria-describedby'))!.split(' ').pop()}"]`)
        .textContent(),
    ).toBe('Someone else changed this text meanwhile to: Ta kontakt');
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Save texts' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(await readFile(norwegian(), 'utf8')).toContain('  secondary: Snakk med oss i dag\n');
    expect(problems).toEqual([]);
  });

  it("says on the changes page that a page's texts were edited, linking to the page in its language", async () => {
    const other = await browser.newContext({ locale: 'en-US', bypassCSP: true });
    const adminPage = await other.newPage();
    await signInWithPassword(adminPage, `${server.url}/admin/changes/`, admin);
    await adminPage.goto(`${server.url}/admin/changes/`);
    // The newest page-copy save (the admin's own sign-in comes after it).
    const row = adminPage
      .getByRole('table', { name: 'Changes, newest first' })
      .locator('tbody tr')
      .filter({ has: adminPage.getByRole('rowheader', { name: "Edited a page's texts" }) })
      .first();
    await row.waitFor();
    expect(await row.locator('td[data-label="Language"]').textContent()).toBe('Norsk');
    const link = row.getByRole('link', { name: 'landing' });
    expect(await link.getAttribute('href')).toBe('/admin/pages/?page=landing&locale=no');
    await link.click();
    expect(await adminPage.getByLabel('Actions › Secondary actions.secondary', { exact: true }).inputValue()).toBe(
      'Snakk med oss i dag',
    );
    expect(await adminPage.getByRole('heading', { name: 'Landing: Norsk' }).count()).toBe(1);
    await other.close();
  });
});
