/**
 * The inbox names the audience of the page a message or booking came from: the site's base and
 * the language's prefix come off the stored path first (a Norwegian page under a GitHub Pages
 * base is still the retailers' page).
 */
import { describe, expect, it } from 'vitest';
import { audienceOf } from '../../src/admin/ui/islands/AdminInbox';

const audiences = [{ folder: 'hub', label: 'Repairers' }, { folder: 'shop', label: 'Retailers' }];

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
