/**
 * `site dev` in Chromium: an edited post reloads its open page; a CSS change swaps the stylesheet
 * without a reload; a broken file shows the overlay (an alert dialog that takes focus, keeps it,
 * and hides on Escape) and the overlay goes away by itself once the file is fixed. The site's
 * Content-Security-Policy stays on, and the dev client runs under it without a violation.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer, type DevServer } from '../../src/dev/server';
import { launchBrowser } from '../helpers/browser';
import { createEditableSite } from '../helpers/editable-site';
import type { TempSite } from '../helpers/fixture-site';

const slug = 'why-repair-beats-recycling';
let site: TempSite;
let dev: DevServer;
let browser: Browser;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  site = await createEditableSite();
  [dev, browser] = await Promise.all([
    startDevServer({ config: site.config, port: 0, host: '127.0.0.1' }),
    launchBrowser(),
  ]);
  const context = await browser.newContext({ locale: 'en-US' });
  context.setDefaultTimeout(15_000);
  page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(`${dev.url}/blog/${slug}/`);
  // The client is connected once the event stream has delivered its first state.
  await page.locator('html[data-site-dev="connected"]').waitFor();
});

afterAll(async () => {
  await browser?.close();
  await dev?.close();
  await site?.cleanup();
});

describe('site dev in the browser', () => {
  it("keeps the site's Content-Security-Policy", async () => {
    const response = await page.request.get(`${dev.url}/blog/${slug}/`);
    expect(response.headers()['content-security-policy']).toContain("script-src 'self'");
  });

  it('reloads the page of an edited post', async () => {
    const file = join(site.dir, 'content', 'blog', slug, 'en.md');
    await writeFile(
      file,
      (await readFile(file, 'utf8')).replace(
        'title: "Why repair beats recycling"',
        'title: "Why repair beats recycling, in the browser"',
      ),
    );
    await page.waitForFunction(() => document.title.includes('in the browser'));
    expect(await page.locator('h1').textContent()).toContain('in the browser');
  });

  it('swaps the stylesheet without reloading when only CSS changed', async () => {
    await page.evaluate(() => ((window as unknown as { devTestMarker: number }).devTestMarker = 1));
    const before = await page.locator('link[rel="stylesheet"][href^="/assets/"]').getAttribute('href');
    const file = join(site.dir, 'templates', 'styles', 'main.css');
    await writeFile(file, `${await readFile(file, 'utf8')}\nbody { --dev-test: 42; }\n`);
    await page.waitForFunction(() => getComputedStyle(document.body).getPropertyValue('--dev-test').trim() === '42');
    const after = await page.locator('link[rel="stylesheet"][href^="/assets/"]').getAttribute('href');
    expect(after).not.toBe(before);
    expect(await page.evaluate(() => (window as unknown as { devTestMarker?: number }).devTestMarker)).toBe(1);
  });

  it('shows an accessible overlay for a broken file and clears it once fixed', async () => {
    const file = join(site.dir, 'content', 'messages', 'en.yaml');
    const good = await readFile(file, 'utf8');
    await writeFile(file, `${good}broken: [unclosed\n`);
    const overlay = page.locator('#site-dev-overlay');
    await page.locator('#site-dev-overlay', { hasText: 'YAML_SYNTAX' }).waitFor();
    expect(await overlay.getAttribute('role')).toBe('alertdialog');
    expect(await overlay.getAttribute('aria-modal')).toBe('true');
    expect(await page.locator('#site-dev-overlay-title').textContent()).toContain('Build failed');
    expect(await overlay.textContent()).toMatch(/YAML_SYNTAX.*content\/messages\/en\.yaml:\d+:\d+/s);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('site-dev-overlay');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Hide');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('site-dev-overlay');
    await page.keyboard.press('Escape');
    await overlay.waitFor({ state: 'detached' });

    // A page loaded while the build is broken shows the overlay at once, over the last good build.
    await page.reload();
    await overlay.waitFor();
    expect(await page.locator('h1').first().textContent()).toContain('in the browser');

    await writeFile(file, `${good}# fixed\n`);
    await overlay.waitFor({ state: 'detached' });
  });

  it('ran without a console error or a CSP violation', () => {
    expect(problems).toEqual([]);
  });
});
