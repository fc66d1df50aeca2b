/** Language: the first-visit redirect by browser language, the stored preference, the EN/NO switch. */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathOf, startE2e, type E2e } from './support';

let e2e: E2e;

beforeAll(async () => {
  e2e = await startE2e();
});

afterAll(async () => {
  await e2e?.close();
});

const preferredLanguage = (page: Page) => page.evaluate(() => localStorage.getItem('preferredLanguage'));

/** Runs `body` in a fresh context (no stored preference) and closes it afterwards. */
async function withContext(
  options: { locale: string; width?: number },
  body: (page: Page, context: BrowserContext) => Promise<void>,
) {
  const context = await e2e.newContext({
    locale: options.locale,
    viewport: { width: options.width ?? 1280, height: 800 },
  });
  try {
    await body(await context.newPage(), context);
  } finally {
    await context.close();
  }
}

/** Document requests of a page, as paths. */
function documentRequests(page: Page): string[] {
  const paths: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'document') paths.push(new URL(request.url()).pathname);
  });
  return paths;
}

describe('first visit', () => {
  it('a Norwegian browser goes from /hub/product/ to /no/hub/product/, keeping query and hash, and stores "no"', async () => {
    await withContext({ locale: 'nb-NO' }, async (page) => {
      await page.goto(e2e.url('/hub/product/?a=1#x'), { waitUntil: 'commit' });
      await page.waitForURL((url) => url.pathname === '/no/hub/product/');
      await page.waitForLoadState('load');
      expect(pathOf(page)).toBe('/no/hub/product/?a=1#x');
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('nb');
      expect(await preferredLanguage(page)).toBe('no');
    });
  });

  it('a Norwegian browser whose visitor chose English before stays on the English page', async () => {
    await withContext({ locale: 'nb-NO' }, async (page, context) => {
      // A returning visitor: English was stored on an earlier visit.
      await context.addInitScript(() => {
        if (!localStorage.getItem('preferredLanguage')) localStorage.setItem('preferredLanguage', 'en');
      });
      const documents = documentRequests(page);
      await page.goto(e2e.url('/hub/product/'));
      await page.waitForLoadState('networkidle');
      expect(pathOf(page)).toBe('/hub/product/');
      expect(documents).toEqual(['/hub/product/']);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
      expect(await preferredLanguage(page)).toBe('en');
    });
  });

  it('an English browser stays on the English page and stores "en"', async () => {
    await withContext({ locale: 'en-US' }, async (page) => {
      const documents = documentRequests(page);
      await page.goto(e2e.url('/hub/product/'));
      await page.waitForLoadState('networkidle');
      expect(pathOf(page)).toBe('/hub/product/');
      expect(documents).toEqual(['/hub/product/']);
      expect(await preferredLanguage(page)).toBe('en');
    });
  });
});

describe('language switch', () => {
  const cases = [
    { from: '/no/arbeidskl%C3%A6r/product/', locale: 'en', to: '/workwear/product/' },
    { from: '/hub-presentation-english/', locale: 'no', to: '/hub-presentation-no/' },
    { from: '/no/hub/pricing/', locale: 'en', to: '/hub/pricing/' },
  ];

  for (const { from, locale, to } of cases) {
    it(`${locale.toUpperCase()} on ${from} leads to ${to}`, async () => {
      await withContext({ locale: 'en-US' }, async (page) => {
        await page.goto(e2e.url(from));
        const link = page.locator(`#site-menu .language-switch a[data-locale="${locale}"]`);
        expect(await link.isVisible()).toBe(true);
        await Promise.all([page.waitForURL((url) => url.pathname === to), link.click()]);
        await page.waitForLoadState('load');
        expect(pathOf(page)).toBe(to);
        expect(await preferredLanguage(page)).toBe(locale);
        expect(await page.locator(`.language-switch a[data-locale="${locale}"]`).getAttribute('aria-current')).toBe(
          'true',
        );
      });
    });
  }

  it('a Norwegian browser that switches to English is not sent back to Norwegian', async () => {
    await withContext({ locale: 'nb-NO' }, async (page) => {
      await page.goto(e2e.url('/no/hub/pricing/'));
      expect(await preferredLanguage(page)).toBe('no');
      const documents = documentRequests(page);
      await Promise.all([
        page.waitForURL((url) => url.pathname === '/hub/pricing/'),
        page.locator('#site-menu a[data-locale="en"]').click(),
      ]);
      await page.waitForLoadState('networkidle');
      expect(pathOf(page)).toBe('/hub/pricing/');
      expect(documents).toEqual(['/hub/pricing/']);
      expect(await preferredLanguage(page)).toBe('en');
      // The choice sticks: the next English page is not redirected either.
      await page.goto(e2e.url('/hub/product/'));
      await page.waitForLoadState('networkidle');
      expect(pathOf(page)).toBe('/hub/product/');
    });
  });
});
