/**
 * The brand in the built site: the typeface is self-hosted and preloaded at the URL the stylesheet
 * names (with a small subset for the characters beyond its Latin one), each kind of page has its
 * own picture (the audience homes' heroes and the product pages show the product with each
 * audience's data, the presentation's drawn for it, no grey bar standing in for a word), every
 * blog post has a cover, and the landing hero ends in its calls to action.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadMessages } from '../helpers/messages';
import { builtSite } from '../helpers/paths';
import { readPages } from '../helpers/site-files';

let pages: { url: string; html: string }[];
beforeAll(async () => {
  pages = await readPages(builtSite);
});

const page = (url: string) => pages.find((candidate) => candidate.url === url)!.html;
const stylesheetOf = (html: string) =>
  readFileSync(join(builtSite, /<link rel="stylesheet" href="\/([^"]+)"/.exec(html)![1]!), 'utf8');

describe('the brand typeface', () => {
  it('is preloaded by every page, before the stylesheet, at the hashed URLs the stylesheet names', () => {
    const css = stylesheetOf(page('/'));
    for (const { url, html } of pages) {
      const preloads = [
        ...html.matchAll(/<link rel="preload" href="([^"]+)" as="font" type="font\/woff2" crossorigin \/>/g),
      ].map((match) => match[1]!);
      expect(preloads, url).toHaveLength(2);
      expect(html.indexOf('rel="preload"'), url).toBeLessThan(html.indexOf('rel="stylesheet"'));
      // The stylesheet names them relative to itself (it is published in /assets/ too): right under any base path.
      for (const font of preloads) expect(css, url).toContain(`url("${font.replace(/^\/assets\//, '')}")`);
    }
  });

  it('is published from node_modules as hashed woff2 files, swapped in, with a fallback scaled to its metrics', () => {
    const css = stylesheetOf(page('/no/'));
    const fonts = readdirSync(join(builtSite, 'assets')).filter((file) => file.endsWith('.woff2'));
    expect(fonts.filter((file) => file.startsWith('inter-latin-'))).toEqual([
      expect.stringMatching(/^inter-latin-400-normal\.[0-9a-f]{10}\.woff2$/),
      expect.stringMatching(/^inter-latin-700-normal\.[0-9a-f]{10}\.woff2$/),
    ]);
    expect(
      readFileSync(join(builtSite, 'assets', fonts[0]!))
        .subarray(0, 4)
        .toString('latin1'),
    ).toBe('wOF2');
    expect(css.match(/font-display:swap/g)).toHaveLength(4);
    expect(css).toMatch(
      /@font-face\{font-family:Inter fallback;src:local\("Arial"\)[^}]*size-adjust:107\.12%;ascent-override:90\.44%/,
    );
    expect(css).toContain('--font-sans: "Inter", "Inter fallback", system-ui');
    expect(existsSync(join(builtSite, 'node_modules'))).toBe(false);
  });
});

describe('the glyphs beyond the Latin subset', () => {
  const extras = 'U+2082,U+2190,U+2192,U+221E';

  it('come from a small Inter subset per weight, published beside the stylesheet and fetched by unicode-range', () => {
    const css = stylesheetOf(page('/'));
    for (const weight of [400, 700]) {
      const face = new RegExp(
        `@font-face\\{font-family:Inter;font-style:normal;font-weight:${weight};font-display:swap;src:url\\("(inter-extras-${weight}\\.[0-9a-f]{10}\\.woff2)"\\) format\\("woff2"\\);unicode-range:${extras.replaceAll('+', '\\+')}\\}`,
      ).exec(css);
      expect(face, String(weight)).not.toBeNull();
      const font = readFileSync(join(builtSite, 'assets', face![1]!));
      expect(font.subarray(0, 4).toString('latin1')).toBe('wOF2');
      expect(font.length).toBeLessThan(4096);
    }
    for (const { url, html } of pages) expect(html, url).not.toMatch(/rel="preload" href="[^"]*inter-extras/);
  });

  it('cover every character the pages show that the Latin subset lacks', () => {
    const ranges = [
      ...JSON.parse(readFileSync('node_modules/@fontsource/inter/unicode.json', 'utf8')).latin.split(','),
      ...extras.split(','),
    ].map((range: string) =>
      range
        .trim()
        .slice(2)
        .split('-')
        .map((hex) => parseInt(hex, 16)),
    );
    const covered = (point: number) => ranges.some(([first, last]) => point >= first! && point <= (last ?? first!));
    const uncovered = new Set<string>();
    for (const { html } of pages) {
      const text =
        html
          .replace(/<(script|style)\b[\s\S]*?<\/\1>/g, '')
          .match(/>[^<]*</g)
          ?.join('') ?? '';
      for (const char of text) if (char.codePointAt(0)! > 0x20 && !covered(char.codePointAt(0)!)) uncovered.add(char);
    }
    expect([...uncovered]).toEqual([]);
  });
});

/** The words an SVG shows, as one line. */
const wordsOf = (svg: string) =>
  [...svg.matchAll(/>([^<]+)</g)]
    .map((match) => match[1]!.trim())
    .filter(Boolean)
    .join(' ')
    .replaceAll('&#x27;', "'")
    .replaceAll('&quot;', '"')
    .replaceAll('&amp;', '&');
const labelOf = (svg: string) => wordsOf(`>${/aria-label="([^"]*)"/.exec(svg)?.[1] ?? ''}<`);

describe('pictures', () => {
  const mockups = /class="illustration ill-(phone|label)"|aria-label="[^"]*(order|claim)/i;
  /** The SVG of each product feature on a page, by the feature's id. */
  const featureVisuals = (html: string) =>
    new Map(
      [
        ...html.matchAll(
          /<section[^>]* id="([a-z0-9-]+)"[\s\S]*?<div class="feature-visual">(<svg[\s\S]*?<\/svg>)<\/div>/g,
        ),
      ].map((match) => [match[1]!, match[2]!]),
    );

  it('gives the landing page a drawn scene, and no app mock-up', () => {
    const scenes = new Set<string>();
    for (const url of ['/', '/no/']) {
      const visual = /<div class="hero-visual">([\s\S]*?)<\/svg><\/div>/.exec(page(url))?.[1];
      expect(visual, url).toMatch(
        /^<svg class="illustration[^"]*" viewBox="0 0 400 300" width="400" height="300" aria-hidden="true"/,
      );
      expect(page(url), url).not.toMatch(mockups);
      if (!url.startsWith('/no/')) scenes.add(visual!);
    }
    expect(scenes.size).toBe(1);
  });

  it("shows the product itself in each audience home's hero, with that audience's data, named, in the page's language", async () => {
    const heroes: [url: string, locale: string, name: string, keys: string[]][] = [
      ['/hub/', 'en', 'orderBoard', ['title', 'received.card1.customer', 'inProgress.card2.garment']],
      ['/no/hub/', 'no', 'orderBoard', ['title', 'ready.card1.customer', 'inProgress.card3.garment']],
      ['/workwear/', 'en', 'repairMap', ['title', 'site1.name', 'route.partner']],
      ['/shop/', 'en', 'claimInbox', ['title', 'claim1.product', 'claim3.outcome']],
      ['/no/shop/', 'no', 'claimInbox', ['week', 'claim2.source', 'claim4.outcome']],
      ['/no/workwear/', 'no', 'repairMap', ['summary', 'site4.open', 'route.distance']],
    ];
    for (const [url, locale, name, keys] of heroes) {
      const t = await loadMessages(locale);
      const visual = /<div class="hero-visual">(<svg[\s\S]*?<\/svg>)<\/div>/.exec(page(url))?.[1];
      expect(visual, url).toMatch(
        /^<svg class="illustration ill-[a-z]+" viewBox="0 0 400 300" width="400" height="300" role="img" aria-label=/,
      );
      expect(labelOf(visual!), url).toBe(t(`illustrations.${name}.label`));
      const words = wordsOf(visual!);
      for (const key of keys) expect(words, `${url} ${key}`).toContain(t(`illustrations.${name}.${key}`));
    }
  });

  it("pins up its own release note in the launch campaign's hero: what the page announces, hidden as decoration", async () => {
    const { parse } = await import('yaml');
    for (const [url, locale] of [
      ['/hub/launch-campaign/', 'en'],
      ['/no/hub/launch-campaign/', 'no'],
    ] as const) {
      const copy = parse(readFileSync(`content/pages/hub/launch-campaign/${locale}.yaml`, 'utf8'));
      const visual = /<div class="hero-visual">(<svg[\s\S]*?<\/svg>)<\/div>/.exec(page(url))?.[1];
      expect(visual, url).toMatch(
        /^<svg class="illustration ill-launch" viewBox="0 0 400 300" width="400" height="300" aria-hidden="true"/,
      );
      const words = wordsOf(visual!);
      for (const item of copy.news.items as { title: string }[])
        for (const word of item.title.split(' ')) expect(words, `${url} ${item.title}`).toContain(word);
      const others = pages.filter((other) => !other.url.includes('launch-campaign'));
      expect(others.some((other) => other.html.includes('ill-launch'))).toBe(false);
    }
  });

  it('tells the company in brief beside each our-story page: why, where, what, now and beliefs, from what the site knows', async () => {
    const { parse } = await import('yaml');
    const config = parse(readFileSync('site.config.yaml', 'utf8'));
    for (const [url, locale, content, first] of [
      ['/ourstory/', 'en', 'ourstory', 'hub'],
      ['/no/ourstory/', 'no', 'ourstory', 'hub'],
      ['/shop/ourstory/', 'en', 'shop/ourstory', 'shop'],
      ['/no/workwear/ourstory/', 'no', 'workwear/ourstory', 'workwear'],
    ] as const) {
      const t = await loadMessages(locale);
      const copy = parse(readFileSync(`content/pages/${content}/${locale}.yaml`, 'utf8'));
      const brief = /<aside class="company-brief"[\s\S]*?<\/aside>/.exec(page(url))?.[0];
      expect(brief, url).toBeDefined();
      const words = wordsOf(brief!);
      expect(words, url).toContain(t('story.brief.heading'));
      expect(words, url).toContain(copy.claim.figure);
      expect(words, url).toContain(`${config.company.legalName}, `);
      expect(words, url).toContain(config.company.address.city);
      expect(words, url).toContain(locale === 'en' ? 'Norway' : 'Norge');
      for (const value of copy.values.items as { title: string }[]) expect(words, url).toContain(value.title);
      const products = [...brief!.matchAll(/<li>([^<]+)<\/li>/g)].map((match) => match[1]);
      expect(products[0], url).toBe(t(`story.brief.products.${first}`));
      expect(products, url).toHaveLength(3);
      expect(page(url), url).not.toMatch(/<div class="hero-visual"><svg/);
    }
  });

  it('gives every product feature its own picture of the product, no two alike, each with its words', () => {
    const seen = new Map<string, string>();
    for (const url of [
      '/hub/product/',
      '/shop/product/',
      '/workwear/product/',
      '/no/hub/product/',
      '/no/shop/product/',
    ]) {
      const html = page(url);
      const features = html.match(/<div class="feature-text">/g)!;
      expect(features.length, url).toBeGreaterThanOrEqual(4);
      const visuals = featureVisuals(html);
      expect(visuals.size, url).toBe(features.length);
      for (const [id, svg] of visuals) {
        expect(svg, `${url}#${id}`).toMatch(
          /^<svg class="illustration[^"]*" viewBox="[^"]+" width="\d+" height="\d+" role="img" aria-label="[^"]{40,}"/,
        );
        expect(wordsOf(svg).length, `${url}#${id}`).toBeGreaterThan(40);
        expect(seen.get(svg), `${url}#${id}`).toBeUndefined();
        seen.set(svg, `${url}#${id}`);
      }
    }
  });

  it("draws each audience's product with its own business: a tailor shop's orders, a fashion brand's claims, a fleet's garments", async () => {
    const expected: [url: string, locale: string, feature: string, keys: string[]][] = [
      ['/hub/product/', 'en', 'invoicing', ['invoice.line1.text', 'invoice.totalAmount']],
      ['/hub/product/', 'en', 'online-order-module', ['onlineBooking.repairValue', 'onlineBooking.submit']],
      ['/hub/product/', 'en', 'ai-agent', ['agent.order']],
      ['/hub/product/', 'en', 'analytics', ['chart.title']],
      ['/shop/product/', 'en', 'hub-integration', ['claimRouting.shop.case', 'claimRouting.hub.case']],
      ['/shop/product/', 'en', 'analytics', ['claimAnalytics.title', 'claimAnalytics.cat1.name']],
      ['/shop/product/', 'en', 'billing-credit-notes', ['claimDocuments.case2.document']],
      ['/workwear/product/', 'en', 'bulk-orders', ['bulkOrder.title', 'bulkOrder.item2.garment']],
      ['/workwear/product/', 'en', 'co2-savings', ['keptInService.avoided.name']],
      ['/workwear/product/', 'en', 'cost-control', ['siteCosts.site2.name', 'siteCosts.budgetUsed']],
      ['/no/shop/product/', 'no', 'analytics', ['claimAnalytics.cat1.name', 'claimAnalytics.repaired.name']],
      ['/no/workwear/product/', 'no', 'bulk-orders', ['bulkOrder.batch', 'bulkOrder.item1.damage']],
      ['/no/hub/product/', 'no', 'ai-agent', ['agent.order', 'agent.footnote']],
    ];
    for (const [url, locale, feature, keys] of expected) {
      const t = await loadMessages(locale);
      const words = wordsOf(featureVisuals(page(url)).get(feature) ?? '');
      for (const key of keys) expect(words, `${url}#${feature}`).toContain(t(`illustrations.${key}`));
    }
  });

  it('leaves no grey placeholder bar standing in for a word on any page', () => {
    for (const { url, html } of pages) expect(/class="ill-(on-accent-)?line(-strong)?"/.test(html), url).toBe(false);
  });
});

describe('the presentation', () => {
  it("draws its own picture beside the title and each feature slide, shown on no other page, its few words in the slide's language", async () => {
    const others = pages
      .filter(({ url }) => !url.includes('presentation'))
      .map(({ html }) => html)
      .join('\n');
    for (const [url, locale] of [
      ['/hub-presentation-english/', 'en'],
      ['/hub-presentation-no/', 'no'],
    ] as const) {
      const t = await loadMessages(locale);
      const visuals = [...page(url).matchAll(/<div class="slide-visual">(<svg[\s\S]*?<\/svg>)<\/div>/g)].map(
        (match) => match[1]!,
      );
      expect(visuals, url).toHaveLength(4);
      expect(new Set(visuals).size, url).toBe(4);
      for (const visual of visuals) {
        expect(visual, url).toMatch(
          /^<svg class="illustration" viewBox="0 0 400 300" width="400" height="300" aria-hidden="true" focusable="false">/,
        );
        expect(others, url).not.toContain(visual);
      }
      const [title, orders, sms, invoice] = visuals.map(wordsOf);
      for (const status of ['received', 'inProgress', 'ready', 'pickedUp'])
        expect(title, url).toContain(t(`illustrations.statuses.${status}`));
      expect(orders, url).toContain(t('illustrations.orderBoard.ready.card1.customer'));
      expect(sms, url).toBe(t('illustrations.statuses.ready'));
      expect(invoice, url).toContain(t('illustrations.invoice.totalAmount'));
    }
  });
});

describe('blog covers', () => {
  it('puts a cover on every card of the blog list, one of its own per post', () => {
    const covers = new Set<string>();
    for (const url of ['/blog/', '/blog/page/2/']) {
      for (const card of page(url).split('<article class="post-card"').slice(1)) {
        const cover =
          /^[^>]*>(<picture class="post-card-image"|<svg class="blog-cover post-card-image"[\s\S]*?<\/svg>)/.exec(
            card,
          )?.[1];
        expect(cover, card.slice(0, 200)).toBeDefined();
        covers.add(cover!);
      }
    }
    expect(covers.size).toBe(
      pages.filter(
        ({ url }) =>
          /^\/blog\/[a-z-]+\/$/.test(url) && !url.startsWith('/blog/category/') && !url.startsWith('/blog/page/'),
      ).length,
    );
  });

  it('draws each post its own subject, not one motif per category', () => {
    const covers = new Map<string, string>();
    for (const url of ['/blog/', '/blog/page/2/', '/no/blog/', '/no/blog/page/2/']) {
      for (const card of page(url).split('<article class="post-card"').slice(1)) {
        const cover = /<svg class="blog-cover[\s\S]*?<\/svg>/.exec(card)?.[0];
        const title = /<h2><a href="([^"]+)"/.exec(card)![1]!;
        if (!cover) continue;
        // The drawing without its numbers: what it shows, not where the slug placed it.
        const shapes = cover.replace(/-?\d+(\.\d+)?/g, '#');
        const other = covers.get(`${url.slice(0, 4)}${shapes}`);
        expect(other, `${title} draws the same as ${other}`).toBeUndefined();
        covers.set(`${url.slice(0, 4)}${shapes}`, title);
      }
    }
    expect(covers.size).toBeGreaterThanOrEqual(14);
  });

  it("shows the post's cover above its text, hidden from assistive technology", () => {
    const html = page('/no/blog/a-day-in-a-tailor-shop/');
    expect(html).toMatch(
      /<\/header><svg class="blog-cover post-image" viewBox="0 0 320 180" width="320" height="180" aria-hidden="true" focusable="false">/,
    );
  });
});

describe('the landing hero', () => {
  it('ends in a call to action in each language, leading to the solutions and the contact page', () => {
    expect(page('/')).toMatch(
      /<div class="actions"><a class="button button-primary" href="#audiences">Find your solution<\/a><a class="button button-secondary" href="\/contactus\/">Talk to us<\/a><\/div>/,
    );
    expect(page('/no/')).toMatch(
      /<div class="actions"><a class="button button-primary" href="#audiences">Finn løsningen din<\/a><a class="button button-secondary" href="\/no\/contactus\/">Snakk med oss<\/a><\/div>/,
    );
    expect(page('/')).toContain('id="audiences"');
  });
});
