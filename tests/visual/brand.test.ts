/**
 * The brand as Chromium shows it: text set in Inter (loaded, not the fallback, down to the ₂ and ∞
 * beyond its Latin subset, fetched only where a page uses them), blog card titles level across a
 * row even when a category chip wraps, product feature headings a step below the page's H1, and
 * the greyed navigation items opening as a chooser of the audience.
 */
import { describe, expect, it } from 'vitest';
import { useBrowserSite } from './browser-site';

const site = useBrowserSite();

describe('the brand typeface', () => {
  it('sets headings and text in Inter, loaded from the site', { timeout: 60_000 }, async () => {
    await site.withPage(1280, async (page) => {
      await page.goto(site.url('/no/'));
      await page.evaluate(() => document.fonts.ready);
      const loaded = await page.evaluate(() =>
        [...document.fonts]
          .filter((face) => face.family === 'Inter' && face.status === 'loaded' && face.unicodeRange === 'U+0-10FFFF')
          .map((face) => face.weight)
          .sort(),
      );
      expect(loaded).toEqual(['400', '700']);
      expect(await page.evaluate(() => document.fonts.check('700 52px Inter', 'Gjør reparasjon'))).toBe(true);
    });
  });
});

describe('the glyphs beyond the Latin subset', () => {
  const samples = [
    { path: '/blog/', selector: '.post-card p', text: 'CO₂' },
    { path: '/hub-presentation-english/', selector: '.slide-figure', text: '∞' },
  ];
  for (const { path, selector, text } of samples) {
    it(`set "${text}" on ${path} in Inter, not a fallback font`, { timeout: 60_000 }, async () => {
      await site.withPage(1280, async (page) => {
        await page.goto(site.url(path));
        await page.evaluate(() => document.fonts.ready);
        await page
          .locator(selector, { hasText: text })
          .first()
          .evaluate((element) => element.setAttribute('data-sample', ''));
        const cdp = await page.context().newCDPSession(page);
        await cdp.send('DOM.enable');
        await cdp.send('CSS.enable');
        const { root } = await cdp.send('DOM.getDocument');
        const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: '[data-sample]' });
        const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
        expect(fonts.map((font) => font.familyName)).toEqual(['Inter']);
        expect(fonts[0]!.isCustomFont).toBe(true);
      });
    });
  }

  it('are fetched only by a page that uses one of them', { timeout: 60_000 }, async () => {
    for (const [path, expected] of [
      ['/blog/', ['inter-extras-400']],
      ['/hub/', []],
    ] as const) {
      await site.withPage(1280, async (page) => {
        const fonts: string[] = [];
        page.on('request', (request) => {
          const name = /\/assets\/(inter-extras-\d+)\./.exec(request.url())?.[1];
          if (name) fonts.push(name);
        });
        await page.goto(site.url(path));
        await page.evaluate(() => document.fonts.ready);
        expect(fonts, path).toEqual(expected);
      });
    }
  });
});

describe('blog cards', () => {
  for (const width of [1280, 760]) {
    it(`keep the titles of a row level at ${width} px, whatever the chips`, { timeout: 60_000 }, async () => {
      await site.withPage(width, async (page) => {
        await page.goto(site.url('/no/blog/'));
        const rows = await page.$$eval('.post-card', (cards) => {
          const byRow = new Map<number, number[]>();
          for (const card of cards) {
            const top = Math.round(card.getBoundingClientRect().top);
            byRow.set(top, [
              ...(byRow.get(top) ?? []),
              Math.round(card.querySelector('h2')!.getBoundingClientRect().top),
            ]);
          }
          return [...byRow.values()].filter((titles) => titles.length > 1);
        });
        expect(rows.length).toBeGreaterThan(0);
        for (const titles of rows) expect(new Set(titles).size, titles.join(', ')).toBe(1);
      });
    });
  }
});

describe('product pages', () => {
  for (const width of [375, 1280]) {
    it(`set each feature's heading well below the H1 at ${width} px`, { timeout: 60_000 }, async () => {
      await site.withPage(width, async (page) => {
        await page.goto(site.url('/hub/product/'));
        const sizes = await page.evaluate(() => ({
          h1: parseFloat(getComputedStyle(document.querySelector('h1')!).fontSize),
          features: [...document.querySelectorAll('.feature-text h2')].map((heading) =>
            parseFloat(getComputedStyle(heading).fontSize),
          ),
        }));
        expect(sizes.features.length).toBeGreaterThan(3);
        for (const size of sizes.features) expect(sizes.h1 / size).toBeGreaterThanOrEqual(1.4);
      });
    });
  }
});

describe('the greyed navigation items', () => {
  it('stay inactive but open as a chooser of the audience, by keyboard', { timeout: 60_000 }, async () => {
    await site.withPage(1280, async (page) => {
      await page.goto(site.url('/'));
      const item = page.locator('.main-nav .nav-choice summary').first();
      expect(await item.evaluate((summary) => summary.closest('a'))).toBeNull();
      expect(await item.evaluate((summary) => getComputedStyle(summary, '::after').content)).not.toContain('?');
      await item.focus();
      await page.keyboard.press('Enter');
      const choices = page.locator('.main-nav .nav-choice[open] .nav-choice-link');
      expect(await choices.count()).toBe(3);
      const dots = await choices.evaluateAll((links) =>
        links.map((link) => getComputedStyle(link, '::before').backgroundColor),
      );
      expect(new Set(dots).size).toBe(3);
    });
  });
});
