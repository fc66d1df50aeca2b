/**
 * The admin in Chromium with `site dev`: sign in with the one-time link, create a post in English
 * and Norwegian, see it on /blog and /no/blog, edit it into an invalid state and see the field
 * error with nothing written, sign out; an anonymous visit to /admin/blog lands on /auth.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevAdmin, siteOf } from '../../src/admin/mount';
import { startDevServer, type DevServer } from '../../src/dev/server';
import { launchBrowser } from '../helpers/browser';
import { createEditableSite } from '../helpers/editable-site';
import type { TempSite } from '../helpers/fixture-site';

let site: TempSite;
let dev: DevServer;
let admin: ReturnType<typeof createDevAdmin>;
let browser: Browser;
let page: Page;
const problems: string[] = [];
const slug = 'repair-cafes-in-oslo';
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** WCAG 2.1 AA violations of the page in its current state. */
async function axeViolations(): Promise<string[]> {
  await page.addScriptTag({ content: axeSource });
  const result = await page.evaluate(() =>
    (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }).axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    }),
  );
  return result.violations.map((violation) => `${violation.id}  ${violation.nodes.map((node) => node.target.join(' ')).slice(0, 3).join(', ')}`);
}

beforeAll(async () => {
  site = await createEditableSite();
  admin = createDevAdmin({ projectRoot: site.dir, site: siteOf(() => dev?.builder) });
  [dev, browser] = await Promise.all([startDevServer({ config: site.config, port: 0, host: '127.0.0.1', admin }), launchBrowser()]);
  const context = await browser.newContext({ locale: 'en-US', bypassCSP: true });
  context.setDefaultTimeout(15_000);
  page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error' && !/status of (401|404|422)/.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
});

afterAll(async () => {
  await browser?.close();
  await dev?.close();
  await site?.cleanup();
});

describe('the admin with site dev, in the browser', () => {
  it('sends an anonymous visit of /admin/blog to /auth, which asks for the sign-in link', async () => {
    await page.goto(`${dev.url}/admin/blog/`);
    await page.waitForURL(/\/auth\/$/);
    await expect.poll(() => page.getByRole('status').textContent()).toContain('one-time sign-in link');
    expect(await axeViolations()).toEqual([]);
  });

  it('signs in with the link, takes the token out of the address bar, and opens the blog editor', async () => {
    await page.goto(`${dev.url}/auth/?token=${admin.tokens.issue()}`);
    await page.waitForURL(/\/admin\/blog\/$/);
    await page.getByRole('table').waitFor();
    expect(await page.getByText('Signed in as local@site-dev').count()).toBe(1);
    expect(await page.getByRole('row').count()).toBeGreaterThan(5);
    expect(await axeViolations()).toEqual([]);
  });

  it('creates a post in English, then the Norwegian from the English, and both show on the site', async () => {
    await page.getByRole('button', { name: 'New post' }).click();
    await page.getByLabel('Address (slug)').fill(slug);
    await page.getByLabel('Title *').fill('Repair cafés in Oslo');
    await page.getByLabel('Description (shown in lists and search results) *').fill('Where to get things fixed in Oslo.');
    await page.getByLabel('Publication date *').fill('2026-11-01');
    await page.getByLabel('Category *').selectOption('circularity');
    await page.getByLabel('Author *').fill('Test Author');
    await page.getByLabel('Text (Markdown)').fill('Repair cafés meet every week.\n\nBring your jacket.');
    expect(await page.getByText(/words, about 1 min to read/).count()).toBe(1);
    expect(await axeViolations()).toEqual([]);
    await page.keyboard.press('Control+s');
    await page.getByText('Saved. The site is updated.').first().waitFor();
    const english = await readFile(join(site.dir, 'content', 'blog', slug, 'en.md'), 'utf8');
    expect(english).toContain('title: Repair cafés in Oslo');

    await page.getByLabel('Title *').fill('Repair cafés in Oslo (preview)');
    const [preview] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Preview' }).click()]);
    await preview.waitForURL(/\/api\/admin\/preview\/[\w-]{43}$/);
    expect(await preview.locator('h1').textContent()).toBe('Repair cafés in Oslo (preview)');
    expect(await preview.locator('meta[name="robots"]').getAttribute('content')).toContain('noindex');
    await preview.close();
    expect(await readFile(join(site.dir, 'content', 'blog', slug, 'en.md'), 'utf8')).not.toContain('(preview)');
    await page.getByLabel('Title *').fill('Repair cafés in Oslo');

    await page.getByRole('tab', { name: /Norsk/ }).click();
    await page.getByRole('button', { name: 'Start from the English text' }).click();
    await page.getByLabel('Title *').fill('Reparasjonskafeer i Oslo');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved. The site is updated.').first().waitFor();
    expect(await readFile(join(site.dir, 'content', 'blog', slug, 'no.md'), 'utf8')).toContain('title: Reparasjonskafeer i Oslo');

    const blog = await browser.newPage();
    try {
      await expect.poll(async () => (await (await blog.goto(`${dev.url}/blog/`))!.text()), { timeout: 15_000 }).toContain('Repair cafés in Oslo');
      await expect.poll(async () => (await (await blog.goto(`${dev.url}/no/blog/`))!.text()), { timeout: 15_000 }).toContain('Reparasjonskafeer i Oslo');
    } finally {
      await blog.close();
    }
  });

  it('shows the field error of an invalid edit and writes nothing', async () => {
    const file = join(site.dir, 'content', 'blog', slug, 'no.md');
    const before = await readFile(file, 'utf8');
    await page.getByLabel('Title *').fill('');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.locator('.field-error').first().waitFor();
    expect(await page.getByLabel('Title *').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('.field-error').first().textContent()).toContain('required field is missing');
    expect(await readFile(file, 'utf8')).toBe(before);
    expect(await axeViolations()).toEqual([]);
  });

  it('signs out', async () => {
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/auth\/$/);
    const session = await page.request.get(`${dev.url}/api/admin/session`);
    expect(session.status()).toBe(401);
    expect(problems, problems.join('\n')).toEqual([]);
  });
});
