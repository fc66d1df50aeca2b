/** The header: the mobile menu (mouse, keyboard, without script), the desktop layout, nav states. */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMessages, startE2e, type E2e } from './support';

let e2e: E2e;
let t: (key: string) => string;

beforeAll(async () => {
  [e2e, t] = await Promise.all([startE2e(), loadMessages('en')]);
});

afterAll(async () => {
  await e2e?.close();
});

const mobile = { width: 375, height: 800 };
const desktop = { width: 1280, height: 800 };

/** Opens `path` in a fresh context (English browser) and closes the context afterwards. */
async function visit(
  path: string,
  options: { viewport: { width: number; height: number }; javaScriptEnabled?: boolean },
  body: (page: Page) => Promise<void>,
) {
  const context: BrowserContext = await e2e.newContext({
    locale: 'en-US',
    viewport: options.viewport,
    javaScriptEnabled: options.javaScriptEnabled ?? true,
  });
  try {
    const page = await context.newPage();
    await page.goto(e2e.url(path));
    await body(page);
  } finally {
    await context.close();
  }
}

const toggle = (page: Page) => page.locator('[data-menu-toggle]');
const navLinks = (page: Page) => page.locator('#site-menu .main-nav a');
const languageLinks = (page: Page) => page.locator('#site-menu .language-switch a[data-locale]');
const pills = (page: Page) => page.locator('.audience-pills a');

/** Whether each element of a locator is visible. */
async function visibility(locator: ReturnType<Page['locator']>): Promise<boolean[]> {
  const count = await locator.count();
  expect(count).toBeGreaterThan(0);
  return Promise.all(Array.from({ length: count }, (_, index) => locator.nth(index).isVisible()));
}

const allVisible = async (locator: ReturnType<Page['locator']>) => (await visibility(locator)).every(Boolean);
const noneVisible = async (locator: ReturnType<Page['locator']>) => !(await visibility(locator)).some(Boolean);

describe('mobile menu (375 px)', () => {
  it('starts closed: toggle visible and collapsed, navigation hidden', async () => {
    await visit('/hub/', { viewport: mobile }, async (page) => {
      expect(await toggle(page).isVisible()).toBe(true);
      expect(await toggle(page).getAttribute('aria-expanded')).toBe('false');
      expect(await toggle(page).getAttribute('aria-controls')).toBe('site-menu');
      expect(await noneVisible(navLinks(page))).toBe(true);
      expect(await noneVisible(languageLinks(page))).toBe(true);
    });
  });

  it('opens on click with the navigation and the EN/NO links, and closes on Escape, focus back on the toggle', async () => {
    await visit('/hub/', { viewport: mobile }, async (page) => {
      await toggle(page).click();
      expect(await toggle(page).getAttribute('aria-expanded')).toBe('true');
      expect(await allVisible(navLinks(page))).toBe(true);
      expect(await allVisible(languageLinks(page))).toBe(true);
      expect(
        await languageLinks(page).evaluateAll((links) => links.map((link) => link.getAttribute('data-locale'))),
      ).toEqual(['en', 'no']);
      expect(await page.locator('#site-menu').getAttribute('data-open')).not.toBeNull();

      // Move focus into the menu first, so that Escape has to bring it back.
      await navLinks(page).first().focus();
      await page.keyboard.press('Escape');
      expect(await toggle(page).getAttribute('aria-expanded')).toBe('false');
      expect(await noneVisible(navLinks(page))).toBe(true);
      expect(await toggle(page).evaluate((button) => button === document.activeElement)).toBe(true);
    });
  });

  it('clicking the toggle again closes the menu', async () => {
    await visit('/hub/', { viewport: mobile }, async (page) => {
      await toggle(page).click();
      await toggle(page).click();
      expect(await toggle(page).getAttribute('aria-expanded')).toBe('false');
      expect(await noneVisible(navLinks(page))).toBe(true);
    });
  });

  it('works with the keyboard alone: Tab to the toggle, Enter opens, Tab reaches the links', async () => {
    await visit('/hub/', { viewport: mobile }, async (page) => {
      let reached = false;
      for (let step = 0; step < 10 && !reached; step += 1) {
        await page.keyboard.press('Tab');
        reached = await toggle(page).evaluate((button) => button === document.activeElement);
      }
      expect(reached).toBe(true);
      await page.keyboard.press('Enter');
      expect(await toggle(page).getAttribute('aria-expanded')).toBe('true');
      expect(await allVisible(navLinks(page))).toBe(true);
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.closest('#site-menu') !== null)).toBe(true);
      await page.keyboard.press('Escape');
      expect(await toggle(page).getAttribute('aria-expanded')).toBe('false');
      expect(await toggle(page).evaluate((button) => button === document.activeElement)).toBe(true);
    });
  });

  it('without JavaScript, the navigation is shown and the useless toggle is not', async () => {
    await visit('/hub/', { viewport: mobile, javaScriptEnabled: false }, async (page) => {
      expect(await allVisible(navLinks(page))).toBe(true);
      expect(await allVisible(languageLinks(page))).toBe(true);
      expect(await toggle(page).isVisible()).toBe(false);
    });
  });

  it('shows a close icon and a Close label while open, and the Menu label again when closed', async () => {
    await visit('/hub/', { viewport: mobile }, async (page) => {
      const visibleLabel = () => toggle(page).evaluate((button) => (button as HTMLElement).innerText.trim());
      const crossed = () =>
        toggle(page).evaluate(
          (button) => getComputedStyle(button.querySelector('.menu-icon')!, '::before').transform !== 'none',
        );
      expect(await visibleLabel()).toBe(t('header.menu'));
      expect(await crossed()).toBe(false);
      await toggle(page).click();
      expect(await visibleLabel()).toBe(t('header.closeMenu'));
      await expect.poll(crossed).toBe(true);
      expect(await toggle(page).evaluate((button) => (button as HTMLElement).innerText)).not.toContain(
        t('header.menu'),
      );
      await toggle(page).click();
      expect(await visibleLabel()).toBe(t('header.menu'));
    });
  });

  it('closes on a tap outside the menu, without following what is under the tap, and gives focus back', async () => {
    await visit('/hub/', { viewport: mobile }, async (page) => {
      await toggle(page).click();
      const url = page.url();
      // Below the open panel: the dimmed page (a link in the hero may be under this point).
      const panel = (await page.locator('#site-menu').boundingBox())!;
      await page.mouse.click(mobile.width / 2, Math.min(panel.y + panel.height + 40, mobile.height - 5));
      expect(await toggle(page).getAttribute('aria-expanded')).toBe('false');
      expect(await noneVisible(navLinks(page))).toBe(true);
      expect(page.url()).toBe(url);
      expect(await toggle(page).evaluate((button) => button === document.activeElement)).toBe(true);
    });
  });

  it('a tap inside the open menu (not on a link) keeps it open', async () => {
    await visit('/hub/', { viewport: mobile }, async (page) => {
      await toggle(page).click();
      const box = (await page.locator('#site-menu .menu-audiences').boundingBox())!;
      await page.mouse.click(box.x + box.width - 4, box.y + 2);
      expect(await toggle(page).getAttribute('aria-expanded')).toBe('true');
    });
  });

  it('is an opaque panel that scrolls within itself, also when the page is scrolled, and the page does not scroll', async () => {
    await visit('/no/hub/pricing/', { viewport: { width: 375, height: 420 } }, async (page) => {
      await page.evaluate(() => window.scrollTo(0, 1500));
      const scrolled = await page.evaluate(() => window.scrollY);
      expect(scrolled).toBeGreaterThan(1000);
      // A tap where the toggle is (locator.click would first scroll the sticky header's toggle "into view").
      const button = (await toggle(page).boundingBox())!;
      await page.mouse.click(button.x + button.width / 2, button.y + button.height / 2);
      expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
      const panel = await page.locator('#site-menu').evaluate((menu) => {
        const box = menu.getBoundingClientRect();
        return {
          top: box.top,
          bottom: box.bottom,
          background: getComputedStyle(menu).backgroundColor,
          scrollable: menu.scrollHeight > menu.clientHeight,
          overflowY: getComputedStyle(menu).overflowY,
        };
      });
      expect(panel.top).toBeGreaterThan(0);
      expect(panel.bottom).toBeLessThanOrEqual(420);
      expect(panel.background).toBe('rgb(255, 255, 255)');
      expect(panel.overflowY).toBe('auto');
      expect(panel.scrollable).toBe(true);
      // The wheel over the panel scrolls the panel, not the page.
      await page.mouse.move(180, panel.top + 40);
      await page.mouse.wheel(0, 400);
      await expect.poll(() => page.locator('#site-menu').evaluate((menu) => menu.scrollTop)).toBeGreaterThan(0);
      expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
      // The last item can be reached.
      await languageLinks(page).last().scrollIntoViewIfNeeded();
      expect(await languageLinks(page).last().isVisible()).toBe(true);
    });
  });

  it('traps focus while open: Tab from the last item goes to the toggle, Shift+Tab from the toggle to the last item', async () => {
    await visit('/hub/', { viewport: mobile }, async (page) => {
      await toggle(page).focus();
      await page.keyboard.press('Enter');
      const focusables = await page.locator('#site-menu a[href]').count();
      const inside: boolean[] = [];
      for (let step = 0; step < focusables + 3; step += 1) {
        await page.keyboard.press('Tab');
        inside.push(
          await page.evaluate(() => Boolean(document.activeElement?.closest('#site-menu, [data-menu-toggle]'))),
        );
      }
      expect(inside.every(Boolean)).toBe(true);
      await toggle(page).focus();
      await page.keyboard.press('Shift+Tab');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-locale'))).toBe('no');
      await page.keyboard.press('Tab');
      expect(await toggle(page).evaluate((button) => button === document.activeElement)).toBe(true);
    });
  });

  it('closed, does not trap the keyboard: Tab moves on past the toggle into the page', async () => {
    await visit('/hub/', { viewport: mobile }, async (page) => {
      await toggle(page).focus();
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest('main')))).toBe(true);
    });
  });

  it('hides the audience pills', async () => {
    await visit('/hub/', { viewport: mobile }, async (page) => {
      expect(await noneVisible(pills(page))).toBe(true);
    });
  });
});

describe('desktop header (1280 px)', () => {
  it('shows the navigation and the audience pills, not the toggle', async () => {
    await visit('/hub/', { viewport: desktop }, async (page) => {
      expect(await toggle(page).isVisible()).toBe(false);
      expect(await allVisible(navLinks(page))).toBe(true);
      expect(await allVisible(languageLinks(page))).toBe(true);
      expect(await allVisible(pills(page))).toBe(true);
    });
  });
});

describe('navigation states', () => {
  const greyed = ['product', 'pricing', 'bookMeeting'];
  const item = (page: Page, key: string) =>
    page.locator('#site-menu .main-nav > ul > li', { hasText: t(`nav.${key}`) });

  it('on the landing page, the audience-specific items are greyed, link nowhere, and explain themselves with the three audiences', async () => {
    await visit('/', { viewport: desktop }, async (page) => {
      for (const key of greyed) {
        const summary = item(page, key).locator('summary');
        expect(await summary.count(), key).toBe(1);
        expect(await item(page, key).locator('a:visible').count(), key).toBe(0);
        expect(await summary.getAttribute('title')).toBeNull();
      }
      await item(page, 'pricing').locator('summary').click();
      const panel = item(page, 'pricing').locator('.nav-choice-panel');
      expect(await panel.isVisible()).toBe(true);
      expect(await panel.locator('p').textContent()).toBe(t('nav.unavailable'));
      expect(await panel.locator('a').evaluateAll((links) => links.map((link) => link.getAttribute('href')))).toEqual([
        '/hub/pricing/',
        '/shop/pricing/',
        '/workwear/pricing/',
      ]);
      for (const key of ['blog', 'ourStory', 'contact']) {
        const link = page.locator('#site-menu .main-nav a', { hasText: t(`nav.${key}`) });
        expect(await link.getAttribute('href')).not.toBeNull();
      }
    });
  });

  it("Escape closes a greyed item's choice in the desktop bar and gives focus back to the item, opened by keyboard or by mouse", async () => {
    await visit('/', { viewport: { width: 1440, height: 800 } }, async (page) => {
      const details = item(page, 'pricing').locator('details');
      const summary = details.locator('summary');
      const panel = details.locator('.nav-choice-panel');
      // By keyboard: open, Tab into the choice, Escape.
      await summary.focus();
      await page.keyboard.press('Enter');
      await panel.waitFor({ state: 'visible' });
      await page.keyboard.press('Tab');
      expect(
        await panel
          .locator('a')
          .first()
          .evaluate((link) => link === document.activeElement),
      ).toBe(true);
      await page.keyboard.press('Escape');
      await panel.waitFor({ state: 'hidden' });
      expect(await details.evaluate((element) => (element as HTMLDetailsElement).open)).toBe(false);
      expect(await summary.evaluate((element) => element === document.activeElement)).toBe(true);
      // By mouse.
      await summary.click();
      await panel.waitFor({ state: 'visible' });
      await page.keyboard.press('Escape');
      await panel.waitFor({ state: 'hidden' });
      expect(await summary.evaluate((element) => element === document.activeElement)).toBe(true);
    });
  });

  it('in the open mobile menu, Escape closes the choice first and the menu next', async () => {
    await visit('/contactus/', { viewport: mobile }, async (page) => {
      await toggle(page).click();
      const summary = item(page, 'product').locator('summary');
      await summary.click();
      await item(page, 'product').locator('.nav-choice-panel').waitFor({ state: 'visible' });
      await page.keyboard.press('Escape');
      await item(page, 'product').locator('.nav-choice-panel').waitFor({ state: 'hidden' });
      expect(await toggle(page).getAttribute('aria-expanded')).toBe('true');
      expect(await summary.evaluate((element) => element === document.activeElement)).toBe(true);
      await page.keyboard.press('Escape');
      expect(await toggle(page).getAttribute('aria-expanded')).toBe('false');
    });
  });

  it('the explanation opens by touch inside the mobile menu, and its audience links work', async () => {
    const context = await e2e.newContext({ locale: 'en-US', viewport: mobile, hasTouch: true, isMobile: true });
    try {
      const page = await context.newPage();
      await page.goto(e2e.url('/contactus/'));
      await toggle(page).tap();
      await item(page, 'product').locator('summary').tap();
      const shop = item(page, 'product').locator('a[data-audience="shop"]');
      expect(await shop.isVisible()).toBe(true);
      await shop.tap();
      await page.waitForURL(/\/shop\/product\/$/);
    } finally {
      await context.close();
    }
  });

  it('on other pages without an audience, uses the audience the visitor saw last (and keeps the landing page greyed)', async () => {
    const context = await e2e.newContext({ locale: 'en-US', viewport: desktop });
    try {
      const page = await context.newPage();
      await page.goto(e2e.url('/blog/'));
      expect(await item(page, 'product').locator('summary').count()).toBe(1);
      await page.goto(e2e.url('/no/workwear/pricing/'));
      for (const path of ['/blog/', '/ourstory/', '/terms/', '/missing-page/']) {
        await page.goto(e2e.url(path));
        const product = item(page, 'product').locator('a');
        expect(await product.count(), path).toBe(1);
        expect(await product.getAttribute('href'), path).toMatch(/\/workwear\/product\/$/);
        expect(await item(page, 'bookMeeting').locator('a').getAttribute('href'), path).toMatch(
          /\/workwear\/book-meeting\/$/,
        );
        expect(await page.locator('#site-menu .main-nav summary').count(), path).toBe(0);
      }
      await page.goto(e2e.url('/'));
      expect(await page.locator('#site-menu .main-nav summary').count()).toBe(greyed.length);
    } finally {
      await context.close();
    }
  });

  it('on a 404 page, the current language is not a link and the other one leads to its home', async () => {
    for (const [path, other] of [
      ['/missing-page/', '/no/'],
      ['/no/missing-page/', '/'],
    ] as const) {
      await visit(path, { viewport: desktop }, async (page) => {
        const current = page.locator('.language-switch [aria-current="true"]');
        expect(await current.getAttribute('href'), path).toBeNull();
        expect(await page.locator('.language-switch a:not([aria-current])').getAttribute('href'), path).toBe(other);
      });
    }
  });

  it('on /hub/pricing/, the Pricing link is the current page', async () => {
    await visit('/hub/pricing/', { viewport: desktop }, async (page) => {
      const current = page.locator('#site-menu .main-nav a[aria-current="page"]');
      expect(await current.count()).toBe(1);
      expect(await current.textContent()).toBe(t('nav.pricing'));
      expect(await current.getAttribute('href')).toBe('/hub/pricing/');
    });
  });
});
