/** The presentation pages behave as presentations: window-high slides, arrow keys, plan figures from the config, print. */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { readYaml } from '../e2e/support';
import { useBrowserSite } from './browser-site';

const site = useBrowserSite();
let plans: { limits: { ordersPerMonth: number | 'unlimited' } }[];
beforeAll(async () => {
  ({ plans } = await readYaml<{ plans: { limits: { ordersPerMonth: number | 'unlimited' } }[] }>('site.config.yaml'));
});

const withPage = (body: (page: Page) => Promise<void>) => site.withPage(1280, body);

const slideTops = (page: Page) =>
  page.$$eval('.slide', (slides) =>
    slides.map((slide) => Math.round(slide.getBoundingClientRect().top + window.scrollY)),
  );

describe('presentation pages', () => {
  for (const url of ['/hub-presentation-english/', '/hub-presentation-no/']) {
    it(`${url}: every slide fills the window below the header, and the arrow keys move one slide at a time`, async () => {
      await withPage(async (page) => {
        await page.goto(site.url(url));
        const header = await page.$eval('.site-header', (element) => element.getBoundingClientRect().height);
        const heights = await page.$$eval('.slide', (slides) =>
          slides.map((slide) => slide.getBoundingClientRect().height),
        );
        expect(heights.length).toBeGreaterThan(5);
        for (const height of heights) expect(height).toBeGreaterThanOrEqual(800 - header - 1);
        const starts = (await slideTops(page)).map((top) => top - header);
        const scrollY = () => page.evaluate(() => window.scrollY);
        /** Presses a key and waits for the scroll (smooth, then snapped) to settle. */
        const press = async (key: string) => {
          await page.keyboard.press(key);
          let last = -1;
          let now = await scrollY();
          while (now !== last) {
            await page.waitForTimeout(250);
            [last, now] = [now, await scrollY()];
          }
          return now;
        };
        await page.locator('main').focus();
        // One press from the title lands exactly on the next slide; within a slide taller than the
        // window the keys scroll it, and the next slide's start is never skipped.
        expect(Math.abs((await press('ArrowDown')) - starts[1]!)).toBeLessThanOrEqual(2);
        let position = starts[1]!;
        for (let step = 0; step < 12 && position < starts[2]! - 2; step += 1) position = await press('ArrowDown');
        expect(Math.abs(position - starts[2]!)).toBeLessThanOrEqual(2);
        expect(Math.abs((await press('PageUp')) - starts[1]!)).toBeLessThanOrEqual(header + 2);
      });
    });
  }

  it('shows the plan limits of the config as big numbers, and drawings of its own beside the title and feature slides', async () => {
    await withPage(async (page) => {
      await page.goto(site.url('/hub-presentation-english/'));
      const figures = await page.$$eval('.slide-figure', (items) => items.map((item) => item.textContent));
      expect(figures).toEqual(
        plans.map((plan) => (plan.limits.ordersPerMonth === 'unlimited' ? '∞' : String(plan.limits.ordersPerMonth))),
      );
      const drawings = page.locator('.slide-visual svg.illustration[aria-hidden="true"]');
      expect(await drawings.count()).toBe(4);
      for (const box of await drawings.evaluateAll((svgs) => svgs.map((svg) => svg.getBoundingClientRect().width)))
        expect(box).toBeGreaterThan(300);
      expect(await page.locator('.slide svg.illustration[role="img"]').count()).toBe(0);
      expect(await page.locator('.slide-title svg.illustration').count()).toBe(1);
    });
  });

  it('prints one slide per page, without the site header and footer', async () => {
    await withPage(async (page) => {
      await page.goto(site.url('/hub-presentation-no/'));
      await page.emulateMedia({ media: 'print' });
      const printed = await page.evaluate(() => ({
        header: getComputedStyle(document.querySelector('.site-header')!).display,
        footer: getComputedStyle(document.querySelector('.site-footer')!).display,
        breaks: [...document.querySelectorAll('.slide')]
          .slice(0, -1)
          .map((slide) => getComputedStyle(slide).breakAfter),
      }));
      expect(printed.header).toBe('none');
      expect(printed.footer).toBe('none');
      expect(new Set(printed.breaks)).toEqual(new Set(['page']));
      const pdf = await page.pdf({ format: 'A4', landscape: true });
      const pages = (pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length;
      expect(pages).toBeGreaterThanOrEqual(await page.locator('.slide').count());
    });
  });
});
