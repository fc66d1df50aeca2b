/**
 * /admin/visual in Chromium, with `site serve --admin` and with `site dev`: the home page shows in
 * the frame as published, its heading outlined on hover and reachable by keyboard (Enter opens a
 * labelled field, Escape puts the heading back); a click edits it in place, Save goes through the
 * page texts' API, and the frame shows the page again with the new heading, which is in the
 * copy file and, on serve, on the published page. A link of the page opens its page in the frame.
 * Under `admin.review`, an editor's change of a post's title waits in the one review queue.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../helpers/axe';
import { launchBrowser } from '../helpers/browser';
import { startLiveAdminServer } from '../helpers/admin-server';
import { signInWithPassword, startDevAdmin } from './support';

const editor = { email: 'editor@example.com', role: 'editor' as const, password: 'editor password 1' };
const heading = '[data-edit="landing#hero.heading"]';

/** The page in the frame of /admin/visual. */
const frameOf = (page: Page): FrameLocator => page.frameLocator('iframe[title="The page as it will be published"]');

/** Edits the home page's heading on the page, by keyboard first (then cancelled) and then by a click. */
async function editHeading(page: Page, siteDir: string, newHeading: string) {
  const frame = frameOf(page);
  const shown = frame.locator(heading);
  await expect.poll(() => shown.textContent()).toBe('Make repair the easy choice');
  await shown.hover();
  expect(await shown.evaluate((element) => getComputedStyle(element).outlineStyle)).toBe('dashed');
  // By keyboard: Enter opens the field, labelled by the text's name; Escape puts the heading back, focused.
  await shown.focus();
  await page.keyboard.press('Enter');
  const field = frame.getByLabel('Edit: Hero › Heading');
  await expect.poll(() => field.inputValue()).toBe('Make repair the easy choice');
  await expect.poll(() => field.evaluate((element) => element === document.activeElement)).toBe(true);
  await page.keyboard.press('Escape');
  await expect.poll(() => field.count()).toBe(0);
  await expect.poll(() => shown.evaluate((element) => element === document.activeElement)).toBe(true);
  // By a click: the field takes the heading's place; Save.
  await shown.click();
  await field.fill(newHeading);
  await frame.getByRole('button', { name: 'Save' }).click();
  await expect.poll(() => frame.locator(heading).textContent(), { timeout: 20_000 }).toBe(newHeading);
  expect(await page.getByRole('status').last().textContent()).toMatch(/^Saved\./);
  expect(await readFile(join(siteDir, 'content', 'pages', 'landing', 'en.yaml'), 'utf8')).toContain(
    `heading: ${newHeading}\n`,
  );
}

describe('editing on the page with site serve --admin, in the browser', () => {
  let running: Awaited<ReturnType<typeof startLiveAdminServer>>;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    [running, browser] = await Promise.all([startLiveAdminServer([editor]), launchBrowser()]);
    const context = await browser.newContext({ locale: 'en-US' });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    page.on('pageerror', (error) => problems.push(error.message));
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await running?.close();
  });

  it("edits the home page's heading on the page, and the published page shows it", async () => {
    const { server, site } = running;
    await signInWithPassword(page, `${server.url}/admin/visual/`, editor);
    await page.getByRole('navigation', { name: 'Admin pages' }).getByRole('link', { name: 'Edit on the page' }).click();
    await page.waitForURL(/\/admin\/visual\/$/);
    await editHeading(page, site.dir, 'Make mending the easy choice');
    const published = await server.send('GET', '/');
    expect(published.text).toContain('Make mending the easy choice');
    expect(published.text).not.toContain('data-edit');
    expect(problems).toEqual([]);
    // axe's script needs the CSP bypassed, which would let the framed page run its scripts: another context.
    const audit = await (await browser.newContext({ locale: 'en-US', bypassCSP: true })).newPage();
    await signInWithPassword(audit, `${server.url}/admin/visual/`, editor);
    await audit.goto(`${server.url}/admin/visual/`);
    await expect.poll(() => frameOf(audit).locator(heading).count()).toBe(1);
    expect(await axeViolations(audit)).toEqual([]);
  });

  it('opens a page the shown page links to, and says when an address is no page', async () => {
    const frame = frameOf(page);
    // The footer's link (no text of the page's copy: a click on one of those edits it).
    await frame.locator('footer a[href="/hub/"]').click();
    await expect.poll(() => frame.locator('[data-edit="hub#hero.heading"]').count()).toBe(1);
    expect(await page.getByLabel('Address of the page').inputValue()).toBe('/hub/');
    await page.getByLabel('Address of the page').fill('/no-such-page/');
    await page.getByRole('button', { name: 'Show the page' }).click();
    await expect.poll(() => page.getByRole('status').last().textContent()).toContain('no page at this address');
  });
});

describe('editing on the page with site dev, in the browser', () => {
  it("edits the home page's heading, and the frame shows it once the watcher has rebuilt", async () => {
    const running = await startDevAdmin();
    const browser = await launchBrowser();
    try {
      const page = await (await browser.newContext({ locale: 'en-US' })).newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(`${running.dev.url}/auth/?token=${running.admin.tokens.issue()}`);
      await page.waitForURL(/\/admin\/blog\/$/);
      await page.goto(`${running.dev.url}/admin/visual/`);
      await editHeading(page, running.site.dir, 'Make mending the easy choice');
    } finally {
      await browser.close();
      await running.close();
    }
  }, 120_000);
});

describe('editing on the page under admin.review, in the browser', () => {
  const admin = { email: 'admin@example.com', role: 'admin' as const, password: 'admin password 1' };

  it("holds an editor's change of a post's title for review, and the page keeps the published title", async () => {
    const running = await startLiveAdminServer([editor, admin], {
      prepare: async (site) => {
        const text = await readFile(site.config, 'utf8');
        await writeFile(site.config, text.replace(/^admin:\n/m, 'admin:\n  review: true\n'));
      },
    });
    const browser = await launchBrowser();
    try {
      const { server } = running;
      const page = await (await browser.newContext({ locale: 'en-US' })).newPage();
      page.setDefaultTimeout(15_000);
      await signInWithPassword(page, `${server.url}/admin/visual/`, editor);
      await page.goto(`${server.url}/admin/visual/?path=${encodeURIComponent('/blog/a-day-in-a-tailor-shop/')}`);
      const frame = frameOf(page);
      const title = frame.locator('h1[data-edit="blog/a-day-in-a-tailor-shop#title"]');
      await expect.poll(() => title.textContent()).toBe('A day in a tailor shop');
      await title.click();
      const field = frame.getByLabel('Edit: title');
      await expect.poll(() => field.inputValue()).toBe('A day in a tailor shop');
      await field.fill('A day at the tailor shop');
      await frame.getByRole('button', { name: 'Save' }).click();
      await expect
        .poll(() => page.getByRole('status').last().textContent())
        .toBe(
          'Saved for review. The website keeps showing the published text until an administrator approves your change.',
        );
      expect(await title.textContent()).toBe('A day in a tailor shop');
      // The one review queue has it, in words, for the administrator.
      const { cookie } = await server.signIn(admin.email, admin.password);
      const queue = (await server.send('GET', '/api/admin/review-queue', { headers: { cookie } })).json() as {
        changes: { kind: string; item: string; by: string; changes: { after: string }[] }[];
      };
      expect(queue.changes).toContainEqual(
        expect.objectContaining({
          kind: 'entry',
          item: 'blog/a-day-in-a-tailor-shop',
          by: editor.email,
          changes: expect.arrayContaining([expect.objectContaining({ after: 'A day at the tailor shop' })]),
        }),
      );
    } finally {
      await browser.close();
      await running.close();
    }
  }, 120_000);
});
