/**
 * The illustrations in a real browser: the product pages' app mock-ups and the audience homes'
 * heroes are named images with their words from the page's language, the landing page's hero is
 * a drawn scene without words, none
 * shifts the layout, the workwear label's QR code scans to the page it promises, and product
 * features alternate text and picture.
 */
import jsQR from 'jsqr';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadMessages } from '../e2e/support';
import { useBrowserSite } from './browser-site';

const site = useBrowserSite();
let en: (key: string) => string;
let no: (key: string) => string;
beforeAll(async () => {
  [en, no] = await Promise.all([loadMessages('en'), loadMessages('no')]);
});

const withPage = (width: number, body: (page: Page) => Promise<void>) =>
  site.withPage(width, body, { viewport: { width, height: 900 } });

/** The labels and texts of the illustrations in an element. */
function illustrationsIn(selector: string) {
  return [...document.querySelectorAll<SVGSVGElement>(`${selector} svg.illustration`)].map((svg) => ({
    role: svg.getAttribute('role'),
    label: svg.getAttribute('aria-label'),
    width: svg.getAttribute('width'),
    height: svg.getAttribute('height'),
    text: svg.textContent ?? '',
  }));
}

describe('product mock-ups', () => {
  const mockups: [url: string, t: () => (key: string) => string, labels: string[], words: string[]][] = [
    [
      '/hub/product/',
      () => en,
      ['orderList.label', 'sms.label'],
      ['statuses.ready', 'orderList.newOrder', 'sms.message'],
    ],
    [
      '/no/hub/product/',
      () => no,
      ['orderList.label', 'sms.label'],
      ['statuses.inProgress', 'orderList.order2.garment'],
    ],
    ['/shop/product/', () => en, ['claimPortal.label'], ['claimPortal.decision']],
    ['/no/shop/product/', () => no, ['claimPortal.label'], ['claimPortal.route']],
    ['/workwear/product/', () => en, ['garmentLabel.label'], ['garmentLabel.scan']],
    ['/no/arbeidsklær/product/', () => no, ['garmentLabel.label'], ['garmentLabel.scan']],
  ];
  for (const [url, messages, labels, words] of mockups) {
    it(`${url}: shows the app as named images whose words are the page's language`, async () => {
      const t = messages();
      await withPage(1280, async (page) => {
        await page.goto(site.url(encodeURI(url)));
        const found = (await page.evaluate(illustrationsIn, '.feature-visual')).filter((item) => item.role === 'img');
        expect(found.map((item) => item.label)).toEqual(
          expect.arrayContaining(labels.map((key) => t(`illustrations.${key}`))),
        );
        for (const item of found) {
          expect(Number(item.width)).toBeGreaterThan(0);
          expect(Number(item.height)).toBeGreaterThan(0);
        }
        const text = found
          .map((item) => item.text)
          .join(' ')
          .replace(/\s+/g, ' ');
        for (const key of words) {
          // Wrapped text is split over lines: compare word by word.
          for (const word of t(`illustrations.${key}`).split(' ')) expect(text, key).toContain(word);
        }
      });
    });
  }
});

describe('hero scenes', () => {
  for (const url of ['/', '/no/']) {
    it(`${url}: fills the hero beside the text with a drawn scene, decoration without words`, async () => {
      await withPage(1280, async (page) => {
        await page.goto(site.url(url));
        const found = await page.evaluate(() =>
          [...document.querySelectorAll('.hero svg.illustration')].map((svg) => ({
            hidden: svg.getAttribute('aria-hidden'),
            text: svg.textContent,
          })),
        );
        expect(found).toEqual([{ hidden: 'true', text: '' }]);
        const boxes = await page.evaluate(() => ({
          text: document.querySelector('.hero-text')!.getBoundingClientRect().right,
          visual: document.querySelector('.hero-visual')!.getBoundingClientRect().left,
        }));
        expect(boxes.visual).toBeGreaterThan(boxes.text);
      });
    });
  }
});

describe('product heroes', () => {
  for (const [url, t, name] of [
    ['/hub/', () => en, 'orderBoard'],
    ['/no/workwear/', () => no, 'repairMap'],
    ['/no/shop/', () => no, 'claimInbox'],
  ] as const) {
    it(`${url}: shows the product beside the text, a named image whose words are the page's language`, async () => {
      await withPage(1280, async (page) => {
        await page.goto(site.url(url));
        const found = await page.evaluate(illustrationsIn, '.hero');
        expect(found.map((item) => [item.role, item.label])).toEqual([['img', t()(`illustrations.${name}.label`)]]);
        expect(found[0]!.text).toContain(t()(`illustrations.${name}.title`));
        const boxes = await page.evaluate(() => ({
          text: document.querySelector('.hero-text')!.getBoundingClientRect().right,
          visual: document.querySelector('.hero-visual')!.getBoundingClientRect().left,
        }));
        expect(boxes.visual).toBeGreaterThan(boxes.text);
      });
    });
  }
});

describe('layout shift', () => {
  for (const width of [375, 1280]) {
    it(`no page with illustrations shifts while loading at ${width} px`, async () => {
      await withPage(width, async (page) => {
        for (const url of ['/hub/', '/no/shop/', '/workwear/', '/hub/product/', '/shop/product/']) {
          await page.goto(site.url(url), { waitUntil: 'load' });
          const shift = await page.evaluate(
            () =>
              new Promise<number>((resolve) => {
                let total = 0;
                new PerformanceObserver((list) => {
                  for (const entry of list.getEntries() as (PerformanceEntry & { value: number })[])
                    total += entry.value;
                }).observe({ type: 'layout-shift', buffered: true });
                setTimeout(() => resolve(total), 300);
              }),
          );
          expect(shift, url).toBe(0);
        }
      });
    });
  }
});

describe('the workwear garment label', () => {
  for (const [url, target] of [
    ['/workwear/product/', 'https://mendwise.example/workwear/product/#qr-repairs'],
    ['/no/workwear/product/', 'https://mendwise.example/no/workwear/product/#qr-repairs'],
  ] as const) {
    it(`${url}: carries a QR code that scans to ${target}`, async () => {
      await withPage(1280, async (page) => {
        await page.goto(site.url(url));
        const image = await page.evaluate(async () => {
          const svg = document.querySelector<SVGSVGElement>('#qr-repairs svg.ill-label')!;
          const copy = svg.cloneNode(true) as SVGSVGElement;
          // Inline the computed fills, so the picture drawn off the page keeps its colours.
          const originals = svg.querySelectorAll('*');
          copy
            .querySelectorAll('*')
            .forEach((element, index) => element.setAttribute('fill', getComputedStyle(originals[index]!).fill));
          copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
          const size = 400;
          copy.setAttribute('width', String(size));
          copy.setAttribute('height', String(size));
          const img = new Image();
          img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(new XMLSerializer().serializeToString(copy))}`;
          await img.decode();
          const canvas = document.createElement('canvas');
          canvas.width = size;
          canvas.height = size;
          const context = canvas.getContext('2d')!;
          context.fillStyle = '#fff';
          context.fillRect(0, 0, size, size);
          context.drawImage(img, 0, 0);
          // As base64: a plain array of 640 000 numbers takes the protocol many seconds.
          const bytes = context.getImageData(0, 0, size, size).data;
          let binary = '';
          for (let index = 0; index < bytes.length; index += 0x8000)
            binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
          return { data: btoa(binary), size };
        });
        const code = jsQR(new Uint8ClampedArray(Buffer.from(image.data, 'base64')), image.size, image.size);
        expect(code?.data).toBe(target);
      });
    });
  }

  it('leads to a page that exists, in the same language', async () => {
    for (const path of ['/workwear/product/', '/no/workwear/product/']) {
      const response = await fetch(site.url(path));
      expect(response.status, path).toBe(200);
      expect(await response.text()).toContain('id="qr-repairs"');
    }
  });
});

describe('product features', () => {
  it('alternate text and illustration from side to side on a desktop', async () => {
    await withPage(1280, async (page) => {
      await page.goto(site.url('/hub/product/'));
      const sides = await page.$$eval('.feature-split', (splits) =>
        splits.map((split) => {
          const text = split.querySelector('.feature-text')!.getBoundingClientRect().left;
          const visual = split.querySelector('.feature-visual')!.getBoundingClientRect().left;
          return visual > text ? 'right' : 'left';
        }),
      );
      expect(sides).toEqual(['right', 'left', 'right', 'left', 'right', 'left']);
    });
  });

  it('stack text above the illustration on a phone', async () => {
    await withPage(375, async (page) => {
      await page.goto(site.url('/no/hub/product/'));
      const order = await page.$$eval('.feature-split', (splits) =>
        splits.map(
          (split) =>
            split.querySelector('.feature-text')!.getBoundingClientRect().top <
            split.querySelector('.feature-visual')!.getBoundingClientRect().top,
        ),
      );
      expect(order.length).toBeGreaterThan(0);
      expect(order.every(Boolean)).toBe(true);
    });
  });
});

describe('audience rhythm', () => {
  it('tells how a claim travels on the shop home, and scan → nearest repairer → back in service on the workwear home', async () => {
    await withPage(1280, async (page) => {
      for (const [url, t, prefix] of [
        ['/shop/', en, 'flow'],
        ['/no/workwear/', no, 'journey'],
        ['/workwear/', en, 'journey'],
      ] as const) {
        await page.goto(site.url(url));
        const steps = await page.$$eval('#how-it-works .flow-step h3', (titles) =>
          titles.map((title) => title.textContent),
        );
        expect(steps, url).toEqual([1, 2, 3].map((step) => t(`illustrations.${prefix}.step${step}.title`)));
        const tops = await page.$$eval('#how-it-works .flow-step', (items) =>
          items.map((item) => Math.round(item.getBoundingClientRect().top)),
        );
        expect(new Set(tops).size, url).toBe(1);
      }
      await page.goto(site.url('/hub/'));
      expect(await page.locator('#how-it-works').count()).toBe(0);
    });
  });
});
