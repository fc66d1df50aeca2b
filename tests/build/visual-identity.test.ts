/**
 * The visual identity in the built HTML: icons are inline SVG (no icon font, no script), each
 * audience's pages name their audience for its accent, and the 92-million-tons band is shown
 * where it earns its place, not on every page.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { builtSite } from '../helpers/paths';
import { readPages } from '../helpers/site-files';

let pages: { url: string; html: string }[];
beforeAll(async () => {
  pages = await readPages(builtSite);
});

const page = (url: string) => pages.find((candidate) => candidate.url === url)!.html;
const count = (html: string, pattern: RegExp) => (html.match(pattern) ?? []).length;

describe('icons', () => {
  it('gives every feature card of each audience home an inline SVG icon', () => {
    for (const url of ['/hub/', '/shop/', '/workwear/', '/no/hub/']) {
      const html = page(url);
      const features = html.slice(html.indexOf('id="features"'));
      const cards = count(features, /<li class="card">/g);
      expect(cards, url).toBeGreaterThan(3);
      expect(
        count(
          features,
          /<span class="card-icon"><svg class="icon" width="24" height="24" viewBox="0 0 24 24"[^>]*aria-hidden="true"[^>]*><(path|circle|rect)/g,
        ),
        url,
      ).toBe(cards);
    }
  });

  it('gives each product feature and each step an icon', () => {
    const product = page('/workwear/product/');
    const features = count(product, /<li><a href="#/g);
    expect(features).toBeGreaterThan(2);
    expect(count(product, /<span class="section-icon"><svg class="icon"/g)).toBe(features);
    expect(count(page('/shop/pricing/'), /<li class="card"><span class="card-icon">/g)).toBe(8);
    expect(count(page('/hub/launch-campaign/'), /<li class="card"[^>]*><span class="card-icon">/g)).toBe(7);
  });

  it('uses no icon font and no icon script', () => {
    for (const { url, html } of pages) {
      expect(html, url).not.toMatch(/@font-face|<i class="(icon|lucide)|lucide\.js|<img[^>]*icon/);
    }
  });
});

describe('audience accents', () => {
  it('marks every page of an audience with it, and no other page', () => {
    const audienceOf = (html: string) => /<html[^>]* data-audience="([a-z]+)"/.exec(html)?.[1];
    expect(audienceOf(page('/shop/pricing/'))).toBe('shop');
    expect(audienceOf(page('/no/arbeidskl%C3%A6r/product/'))).toBe('workwear');
    expect(audienceOf(page('/hub/blog/'))).toBe('hub');
    expect(audienceOf(page('/'))).toBeUndefined();
    expect(audienceOf(page('/blog/'))).toBeUndefined();
  });
});

describe('the 92 million tons band', () => {
  it('is on the landing page, the generic story and the workwear home only', () => {
    const withBand = pages
      .filter(({ html }) => html.includes('class="claim"'))
      .map(({ url }) => url)
      .sort();
    expect(withBand).toEqual(
      ['/', '/no/', '/no/arbeidskl%C3%A6r/', '/no/ourstory/', '/no/workwear/', '/ourstory/', '/workwear/'].sort(),
    );
  });
});
