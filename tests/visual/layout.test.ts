/**
 * Layout in a real browser, as a visitor would notice it: no sideways scrolling at any width, no
 * lone card in a grid row, plan names level, pills and menu links on one line, a button's label
 * that wraps centred and balanced (no word alone on its last line), buttons of one width, the footer at
 * the bottom of short pages, no breadcrumb that only says "Home".
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { pageKinds, shortPages } from './page-kinds';
import { useBrowserSite } from './browser-site';

const site = useBrowserSite();

/** 320, 360, … 1440 px. */
const widths = Array.from({ length: (1440 - 320) / 40 + 1 }, (_, index) => 320 + index * 40);

/** Opens one page in a fresh context, runs `body`, closes the context. */
const withPage = (width: number, body: (page: Page) => Promise<void>) => site.withPage(width, body);

/** What sticks out at the current width: the page's scroll width and the first offenders. */
function measureOverflow() {
  const root = document.documentElement;
  const offenders = [...document.querySelectorAll<HTMLElement>('body *')]
    .filter(
      (element) =>
        element.offsetParent !== null &&
        element.getBoundingClientRect().right > root.clientWidth + 1 &&
        !element.closest('.visually-hidden, .honeypot, .skip-link, .prose table'),
    )
    .slice(0, 3)
    .map((element) => `${element.tagName.toLowerCase()}.${String(element.className).split(' ')[0]}`);
  const multiline = (element: HTMLElement) =>
    element.getBoundingClientRect().height >
    parseFloat(getComputedStyle(element).lineHeight) * 1.5 + parseFloat(getComputedStyle(element).paddingTop) * 2 + 6;
  const shown = (selector: string) =>
    [...document.querySelectorAll<HTMLElement>(selector)].filter(
      (element) => element.offsetParent !== null && element.getClientRects().length > 0,
    );
  const wrapped = shown('.pill, .nav-link')
    .filter(multiline)
    .map((element) => element.textContent);
  // A button's label may wrap (a long Norwegian label on a phone), but centred, and balanced:
  // its last line at least half as wide as its longest.
  const unbalanced = shown('.button')
    .filter(multiline)
    .filter((button) => {
      const range = document.createRange();
      range.selectNodeContents(button);
      const lines = new Map<number, number>();
      for (const rect of range.getClientRects())
        lines.set(Math.round(rect.top), (lines.get(Math.round(rect.top)) ?? 0) + rect.width);
      const widths = [...lines.values()];
      return getComputedStyle(button).textAlign !== 'center' || widths.at(-1)! < Math.max(...widths) / 2;
    })
    .map((element) => element.textContent);
  return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, offenders, wrapped, unbalanced };
}

describe('no horizontal overflow', () => {
  for (const [name, url] of pageKinds) {
    it(
      `${name} (${url}) fits every width from 320 to 1440 px, with pills and links on one line and buttons that wrap balanced`,
      { timeout: 120_000 },
      async () => {
        await withPage(320, async (page) => {
          await page.goto(site.url(url));
          const problems: string[] = [];
          for (const width of widths) {
            await page.setViewportSize({ width, height: 800 });
            const result = await page.evaluate(measureOverflow);
            if (result.scrollWidth > result.clientWidth)
              problems.push(
                `${width} px: scrolls sideways (${result.scrollWidth} > ${result.clientWidth}): ${result.offenders.join(', ')}`,
              );
            if (result.wrapped.length) problems.push(`${width} px: wraps ${result.wrapped.join(' | ')}`);
            if (result.unbalanced.length)
              problems.push(`${width} px: button label wraps unbalanced ${result.unbalanced.join(' | ')}`);
          }
          expect(problems).toEqual([]);
        });
      },
    );
  }
});

describe('card grids', () => {
  /** For each grid: the number of cards per row, and whether a lone last card spans the row. */
  function gridRows() {
    return [...document.querySelectorAll<HTMLElement>('.card-grid')].map((grid) => {
      const items = [...grid.children] as HTMLElement[];
      const tops = new Map<number, number>();
      for (const item of items) {
        const top = Math.round(item.getBoundingClientRect().top);
        tops.set(top, (tops.get(top) ?? 0) + 1);
      }
      const rows = [...tops.values()];
      const last = items.at(-1)!.getBoundingClientRect().width;
      return { rows, lastSpans: Math.abs(last - grid.getBoundingClientRect().width) < 2 };
    });
  }

  for (const width of [768, 1024, 1280, 1440]) {
    it(`leave no card alone in a row of several at ${width} px`, { timeout: 120_000 }, async () => {
      const problems: string[] = [];
      await withPage(width, async (page) => {
        for (const url of [
          '/',
          '/hub/',
          '/no/hub/',
          '/shop/',
          '/hub/pricing/',
          '/no/workwear/pricing/',
          '/hub/launch-campaign/',
          '/ourstory/',
          '/blog/',
          '/no/blog/category/saas/',
        ]) {
          await page.goto(site.url(url));
          for (const grid of await page.evaluate(gridRows)) {
            const columns = grid.rows[0]!;
            if (columns > 1 && grid.rows.at(-1) === 1 && !grid.lastSpans)
              problems.push(`${url}: rows ${grid.rows.join('+')}`);
          }
        }
      });
      expect(problems).toEqual([]);
    });
  }

  it('gives a grid of six cards three columns on a desktop (not 4 + 2)', async () => {
    await withPage(1280, async (page) => {
      await page.goto(site.url('/hub/'));
      expect((await page.evaluate(gridRows))[0]!.rows).toEqual([3, 3]);
    });
  });
});

describe('pricing', () => {
  it("lines up the plan names and prices, with the highlighted plan's badge on its top edge", async () => {
    await withPage(1280, async (page) => {
      await page.goto(site.url('/hub/pricing/'));
      const tops = await page.$$eval('.plan', (plans) =>
        plans.map((plan) => ({
          name: Math.round(plan.querySelector('h3')!.getBoundingClientRect().top),
          price: Math.round(plan.querySelector('.plan-price')!.getBoundingClientRect().top),
        })),
      );
      expect(tops.length).toBeGreaterThan(1);
      expect(new Set(tops.map((top) => top.name)).size).toBe(1);
      expect(new Set(tops.map((top) => top.price)).size).toBe(1);
      const badge = await page.$eval('.plan-badge', (element) => {
        const plan = element.closest('.plan')!.getBoundingClientRect();
        const box = element.getBoundingClientRect();
        return { straddles: box.top < plan.top && box.bottom > plan.top };
      });
      expect(badge.straddles).toBe(true);
    });
  });

  it('spaces the feature list evenly inside a stretched plan card', async () => {
    await withPage(1280, async (page) => {
      await page.goto(site.url('/hub/pricing/'));
      const gaps = await page.$$eval('.plan .checklist', (lists) =>
        lists.flatMap((list) => {
          const items = [...list.children].map((item) => item.getBoundingClientRect());
          return items.slice(1).map((item, index) => Math.round(item.top - items[index]!.bottom));
        }),
      );
      expect(new Set(gaps).size).toBe(1);
    });
  });
});

describe('buttons and text', () => {
  it('makes the hero buttons one width on a phone, and the closing buttons too', async () => {
    await withPage(375, async (page) => {
      for (const url of ['/hub/', '/no/shop/']) {
        await page.goto(site.url(url));
        for (const selector of ['.hero .actions', '.closing .actions']) {
          const widths = await page.$$eval(`${selector} .button`, (buttons) =>
            buttons.map((button) => Math.round(button.getBoundingClientRect().width)),
          );
          expect(widths.length, `${url} ${selector}`).toBe(2);
          expect(widths[0], `${url} ${selector}`).toBe(widths[1]);
        }
      }
    });
  });

  it('balances centred headings and leads', async () => {
    await withPage(1280, async (page) => {
      await page.goto(site.url('/hub/'));
      expect(await page.$eval('.closing p', (element) => getComputedStyle(element).textWrap)).toContain('balance');
    });
  });

  it('draws its own FAQ marker instead of the default triangle', async () => {
    await withPage(1280, async (page) => {
      await page.goto(site.url('/hub/pricing/'));
      const summary = await page.$eval('.faq summary', (element) => ({
        display: getComputedStyle(element).display,
        marker: getComputedStyle(element, '::after').borderRightWidth,
      }));
      expect(summary.display).not.toBe('list-item');
      expect(summary.marker).toBe('2px');
    });
  });

  it('lets a wide table scroll inside itself on a phone, without breaking words', async () => {
    await withPage(375, async (page) => {
      await page.goto(site.url('/workwear/blog/qr-codes-for-workwear-repairs/'));
      const table = await page.$eval('.prose table', (element) => ({
        scrolls: element.scrollWidth > element.clientWidth,
        overflowX: getComputedStyle(element).overflowX,
        hyphens: getComputedStyle(element.querySelector('td')!).hyphens,
      }));
      expect(table).toEqual({ scrolls: true, overflowX: 'auto', hyphens: 'manual' });
    });
  });
});

describe('page frame', () => {
  it('puts the footer at the bottom of the window on short pages', async () => {
    const problems: string[] = [];
    await withPage(1440, async (page) => {
      await page.setViewportSize({ width: 1440, height: 1400 });
      for (const url of shortPages) {
        await page.goto(site.url(url));
        const bottom = await page.$eval('.site-footer', (footer) => Math.round(footer.getBoundingClientRect().bottom));
        if (bottom < 1400) problems.push(`${url}: footer ends at ${bottom} px`);
      }
    });
    expect(problems).toEqual([]);
  });

  it('shows a breadcrumb only where it has more than the home page in it', async () => {
    await withPage(1280, async (page) => {
      for (const url of ['/hub/', '/blog/', '/no/ourstory/', '/contactus/']) {
        await page.goto(site.url(url));
        expect(await page.locator('.breadcrumb').count(), url).toBe(0);
      }
      await page.goto(site.url('/hub/pricing/'));
      expect(await page.locator('.breadcrumb li').allTextContents()).toHaveLength(2);
    });
  });

  it('lays the phone footer out in two columns', async () => {
    await withPage(375, async (page) => {
      await page.goto(site.url('/hub/'));
      const lefts = await page.$$eval('.footer-grid > nav', (navs) =>
        navs.map((nav) => Math.round(nav.getBoundingClientRect().left)),
      );
      expect(new Set(lefts).size).toBe(2);
    });
  });
});

describe('audience accents', () => {
  /** WCAG contrast of two "rgb(r, g, b)" colours. */
  function contrast(a: string, b: string): number {
    const luminance = (colour: string) => {
      const [r, g, bl] = colour
        .match(/\d+/g)!
        .slice(0, 3)
        .map((value) => {
          const channel = Number(value) / 255;
          return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
        });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
    };
    const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (light! + 0.05) / (dark! + 0.05);
  }

  it('gives each audience its own accent, carried through its pages, with AA contrast', async () => {
    await withPage(1280, async (page) => {
      const accents: Record<string, string> = {};
      for (const audience of ['hub', 'shop', 'workwear']) {
        await page.goto(site.url(`/${audience}/`));
        const button = await page.$eval('.hero .button-primary', (element) => ({
          background: getComputedStyle(element).backgroundColor,
          text: getComputedStyle(element).color,
        }));
        expect(contrast(button.background, button.text), audience).toBeGreaterThanOrEqual(4.5);
        accents[audience] = button.background;
        for (const path of ['pricing/', 'product/', 'blog/']) {
          await page.goto(site.url(`/no/${audience}/${path}`));
          const pill = await page.$eval('.pill.is-active', (element) => getComputedStyle(element).backgroundColor);
          expect(pill, `${audience}/${path}`).toBe(accents[audience]);
        }
      }
      expect(new Set(Object.values(accents)).size).toBe(3);
    });
  });
});
