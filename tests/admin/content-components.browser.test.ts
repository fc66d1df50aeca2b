/**
 * Components in Markdown in Chromium (issue 48, part 1): in the admin's editor of a post, the
 * toolbar's "Component…" dialog lists the site's components, its form is made from the chosen
 * one's props (the callout's type is a select), "Insert" puts the directive at the cursor, and
 * "Preview" shows the post with the component rendered as the site will.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startLiveAdmin } from '../helpers/admin-server';
import { launchBrowser } from '../helpers/browser';
import { createTempSite, type TempSite } from '../helpers/fixture-site';

const editor = { email: 'editor@example.com', role: 'editor' as const, password: 'editor password 1' };
const slug = 'a-day-in-a-tailor-shop';

describe('the Component… dialog of the Markdown editor', () => {
  let site: TempSite;
  let live: Awaited<ReturnType<typeof startLiveAdmin>>;
  let browser: Browser;

  beforeAll(async () => {
    site = await createTempSite();
    [live, browser] = await Promise.all([startLiveAdmin(site, [editor]), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await live?.close();
    await site?.cleanup();
  });

  it('inserts a callout through the form made from its props, and the preview renders it', async () => {
    const { server } = live;
    const context = await browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(`${server.url}/admin/blog/?post=${slug}&locale=en`);
    await page.waitForURL(/\/auth\/$/);
    await page.getByLabel('E-mail address').fill(editor.email);
    await page.getByLabel('Password').fill(editor.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/admin\/blog\//);
    await page.goto(`${server.url}/admin/blog/?post=${slug}&locale=en`);
    const body = page.locator('textarea[id^="post-"][id$="-body"]').first();
    await body.waitFor();
    await body.evaluate((area: HTMLTextAreaElement) => area.setSelectionRange(area.value.length, area.value.length));

    await page.getByRole('button', { name: 'Component…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Insert a component' });
    await dialog.getByLabel('Component', { exact: true }).waitFor();
    expect(await dialog.getByLabel('Component', { exact: true }).locator('option').allTextContents()).toEqual([
      'callout (built in)',
      'figure (built in)',
      'video (built in)',
    ]);
    await dialog.getByLabel('Component', { exact: true }).selectOption('callout');
    await dialog.getByLabel('type').selectOption('warning');
    await dialog.getByLabel('title').fill('Before you come');
    await dialog.getByLabel('Around Markdown (:::name … :::)').check();
    await dialog.getByLabel('The Markdown inside, or its label').fill('Bring the **receipt**.');
    await dialog.getByRole('button', { name: 'Insert' }).click();
    await expect
      .poll(() => body.inputValue())
      .toContain(':::callout{type="warning" title="Before you come"}\nBring the **receipt**.\n:::');

    const [preview] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('button', { name: 'Preview' }).click(),
    ]);
    await preview.waitForLoadState();
    await expect.poll(() => preview.url()).toMatch(/\/api\/admin\/.*preview\//);
    const callout = preview.locator('.site-callout.site-callout-warning[role="note"]');
    await callout.waitFor();
    expect(await callout.innerText()).toMatch(/^Warning: Before you come\n+Bring the receipt\.$/);
    expect(await callout.locator('strong', { hasText: 'receipt' }).count()).toBe(1);
  }, 90_000);
});
