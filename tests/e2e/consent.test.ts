/**
 * The consent banner of a site with GA4 (issue 30, item 4), in Chromium: nothing is asked of a
 * third-party origin before the visitor agrees (every such request is intercepted: there is no
 * network here), Google's script after "Accept", the choice survives a reload, "Decline" loads
 * nothing, the footer button opens the banner again; the banner works from the keyboard and is
 * axe-clean.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../helpers/axe';
import { launchBrowser } from '../helpers/browser';
import { createTempSite, type TempSite } from '../helpers/fixture-site';
import { serveSite, type TestServer } from '../helpers/server';
import { buildTarget } from '../targets/support';

let temp: TempSite;
let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  temp = await createTempSite({
    editConfig: (text) => `${text}\nanalytics:\n  provider: ga4\n  measurementId: G-MENDWISE1\n`,
  });
  const { out } = await buildTarget(['--no-social-images', '--no-precompress'], temp.config);
  [server, browser] = await Promise.all([serveSite({ dir: out, configPath: temp.config }), launchBrowser()]);
});

afterAll(async () => {
  await Promise.allSettled([browser?.close(), server?.close()]);
  await temp?.cleanup();
});

/** A fresh visitor: every request off the test server is recorded, and Google's script answered with a stub. */
async function visitor(): Promise<{ context: BrowserContext; page: Page; thirdParty: string[] }> {
  const context = await browser.newContext({ locale: 'en-US' });
  context.setDefaultTimeout(10_000);
  const thirdParty: string[] = [];
  const own = new URL(server.url).origin;
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (new URL(url).origin === own) return route.continue();
    thirdParty.push(url);
    if (url.startsWith('https://www.googletagmanager.com/gtag/js'))
      return route.fulfill({ contentType: 'text/javascript', body: 'window.stubLoaded = true;' });
    return route.abort();
  });
  const page = await context.newPage();
  return { context, page, thirdParty };
}

const banner = (page: Page) => page.locator('#site-consent');
const gtagUrl = 'https://www.googletagmanager.com/gtag/js?id=G-MENDWISE1';

describe('GA4 behind the consent banner', () => {
  it('asks nothing of Google before consent; after Accept loads gtag with its config, and a reload remembers', async () => {
    const { context, page, thirdParty } = await visitor();
    try {
      await page.goto(new URL('/', server.url).href);
      await banner(page).waitFor({ state: 'visible' });
      await page.waitForLoadState('networkidle');
      expect(thirdParty).toEqual([]);

      // From the keyboard: Tab reaches the banner's buttons, Enter chooses.
      await page.locator('[data-consent="granted"]').focus();
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => (window as unknown as { stubLoaded?: boolean }).stubLoaded === true);
      expect(thirdParty).toEqual([gtagUrl]);
      expect(await banner(page).isVisible()).toBe(false);
      const dataLayer = await page.evaluate(() =>
        (window as unknown as { dataLayer: unknown[][] }).dataLayer.map((entry) =>
          [...(entry as unknown as unknown[])].slice(0, 2),
        ),
      );
      expect(dataLayer[1]).toEqual(['config', 'G-MENDWISE1']);

      await page.reload();
      await page.waitForFunction(() => (window as unknown as { stubLoaded?: boolean }).stubLoaded === true);
      expect(await banner(page).isVisible()).toBe(false);
      expect(thirdParty).toEqual([gtagUrl, gtagUrl]);
    } finally {
      await context.close();
    }
  });

  it('after Decline loads nothing, now or after a reload, and the footer button opens the banner again', async () => {
    const { context, page, thirdParty } = await visitor();
    try {
      await page.goto(new URL('/no/', server.url).href);
      await banner(page).waitFor({ state: 'visible' });
      await page.getByRole('button', { name: 'Avslå' }).click();
      expect(await banner(page).isVisible()).toBe(false);
      await page.reload();
      await page.waitForLoadState('networkidle');
      expect(await banner(page).isVisible()).toBe(false);
      expect(thirdParty).toEqual([]);

      const settings = page.getByRole('button', { name: 'Innstillinger for informasjonskapsler' });
      await settings.focus();
      await page.keyboard.press('Enter');
      await banner(page).waitFor({ state: 'visible' });
      // Focus moves into the banner, and back to the footer button after the choice.
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-consent'))).toBe('granted');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-consent'))).toBe('denied');
      await page.keyboard.press('Enter');
      expect(await banner(page).isVisible()).toBe(false);
      expect(await settings.evaluate((button) => button === document.activeElement)).toBe(true);
      expect(thirdParty).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('is axe-clean with the banner shown, and its buttons have visible focus', async () => {
    const context = await browser.newContext({ locale: 'en-US', bypassCSP: true });
    try {
      await context.route('**/*', (route) =>
        new URL(route.request().url()).origin === new URL(server.url).origin ? route.continue() : route.abort(),
      );
      const page = await context.newPage();
      await page.goto(new URL('/', server.url).href);
      await banner(page).waitFor({ state: 'visible' });
      await page.locator('[data-consent="granted"]').focus();
      await page.keyboard.press('Tab');
      await page.keyboard.press('Shift+Tab');
      const outline = await page
        .locator('[data-consent="granted"]')
        .evaluate((button) => getComputedStyle(button).outlineStyle);
      expect(outline).not.toBe('none');
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
