/**
 * The inbox names the audience of the page a message or booking came from: the site's base and
 * the language's prefix come off the stored path first (a Norwegian page under a GitHub Pages
 * base is still the retailers' page).
 */
import { describe, expect, it } from 'vitest';
import { audienceOf, pageLink } from '../../src/admin/ui/islands/AdminInbox';

const audiences = [
  { folder: 'hub', label: 'Repairers' },
  { folder: 'shop', label: 'Retailers' },
];

describe('the audience of a stored page', () => {
  it('is found at the domain root, in each language', () => {
    const props = { home: '/', prefixes: ['no'], audiences };
    expect(audienceOf('/shop/book-meeting/', props)).toBe('Retailers');
    expect(audienceOf('/no/hub/book-meeting/', props)).toBe('Repairers');
    expect(audienceOf('/no/', props)).toBeUndefined();
    expect(audienceOf('/hubris/', props)).toBeUndefined();
  });

  it('is found under a base path, in each language', () => {
    const props = { home: '/mendwise/', prefixes: ['no'], audiences };
    expect(audienceOf('/mendwise/shop/book-meeting/', props)).toBe('Retailers');
    expect(audienceOf('/mendwise/no/shop/book-meeting/', props)).toBe('Retailers');
    expect(audienceOf('/mendwise/contactus/', props)).toBeUndefined();
  });
});

describe('the link to a stored page', () => {
  it('is a link only for a path the browser resolves on the site\'s origin: a stored "/\\evil.example" (a browser goes to evil.example by it) stays text', () => {
    const origin = 'https://mendwise.example';
    expect(pageLink('/no/hub/contactus/', origin)).toBe('/no/hub/contactus/');
    for (const page of [
      '/\\evil.example',
      '//evil.example',
      '/\\/evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      '\\\\evil.example',
    ])
      expect(pageLink(page, origin), page).toBeUndefined();
  });
});
