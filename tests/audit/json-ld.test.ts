import { describe, expect, it } from 'vitest';
import { builtSite } from '../helpers/paths';
import { readPages } from '../helpers/site-files';

type Thing = Record<string, unknown>;

/** The properties each type needs (Google's required properties, plus what our pages promise). */
const required: Record<string, string[]> = {
  Organization: ['name', 'url', 'logo', 'address'],
  BreadcrumbList: ['itemListElement'],
  FAQPage: ['mainEntity'],
  SoftwareApplication: ['name', 'applicationCategory', 'operatingSystem'],
  LocalBusiness: ['name', 'address', 'openingHoursSpecification'],
  BlogPosting: ['headline', 'datePublished', 'author', 'publisher'],
};

function blocksOf(html: string): Thing[] {
  return [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map(
    (match) => JSON.parse(match[1]!) as Thing,
  );
}

describe('structured data', async () => {
  const pages = await readPages(builtSite);

  it('parses on every page and has the required properties of its type', () => {
    const problems: string[] = [];
    for (const page of pages) {
      for (const block of blocksOf(page.html)) {
        const type = String(block['@type']);
        if (block['@context'] !== 'https://schema.org')
          problems.push(`${page.url}: ${type} without schema.org context`);
        for (const property of required[type] ?? ['(unknown type)']) {
          if (block[property] === undefined) problems.push(`${page.url}: ${type} lacks ${property}`);
        }
        if (type === 'BreadcrumbList') {
          const items = block.itemListElement as Thing[];
          items.forEach((item, index) => {
            if (
              item.position !== index + 1 ||
              typeof item.name !== 'string' ||
              !String(item.item).startsWith('https://mendwise.example/')
            )
              problems.push(`${page.url}: bad breadcrumb item ${index + 1}`);
          });
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('puts Organization everywhere and BreadcrumbList on every subpage', () => {
    for (const page of pages) {
      const types = blocksOf(page.html).map((block) => block['@type']);
      expect(types[0], page.url).toBe('Organization');
      const isHome =
        page.url === '/' ||
        page.url === '/no/' ||
        page.url.endsWith('404.html') ||
        page.url === '/hub-presentation-english/' ||
        page.url === '/hub-presentation-no/';
      // The admin's screens show no breadcrumb trail (the engine's admin layout), so they describe none.
      const isAdmin = page.url === '/auth/' || page.url === '/no/auth/' || page.url.startsWith('/admin/');
      if (isAdmin) expect(types, page.url).not.toContain('BreadcrumbList');
      else if (!isHome) expect(types, page.url).toContain('BreadcrumbList');
    }
  });

  it('has FAQPage on pricing pages, offers in EUR only where prices exist, LocalBusiness with opening hours', () => {
    const byUrl = new Map(pages.map((page) => [page.url, blocksOf(page.html)]));
    for (const url of ['/hub/pricing/', '/no/shop/pricing/', '/workwear/pricing/'])
      expect(
        byUrl.get(url)!.map((block) => block['@type']),
        url,
      ).toContain('FAQPage');
    const app = byUrl.get('/hub/pricing/')!.find((block) => block['@type'] === 'SoftwareApplication')!;
    expect(app.offers).toEqual([
      {
        '@type': 'Offer',
        name: 'Free',
        price: '0.00',
        priceCurrency: 'EUR',
        url: 'https://mendwise.example/hub/pricing/',
      },
    ]);
    for (const url of ['/contactus/', '/no/hub/book-meeting/']) {
      const business = byUrl.get(url)!.find((block) => block['@type'] === 'LocalBusiness')!;
      expect(business.openingHours).toBe('Mo-Fr 09:00-17:00');
    }
  });
});
