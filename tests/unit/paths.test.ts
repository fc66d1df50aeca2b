import { describe, expect, it } from 'vitest';
import {
  aliasPath,
  ancestorPaths,
  fromUrl,
  isPlainSitePath,
  localizePath,
  splitLocale,
  toOutputFile,
  toUrl,
} from '../../src/url-paths';

const rules = { defaultLocale: 'en', prefixes: { en: '', no: '/no' } };

describe('path rules', () => {
  it('puts Norwegian pages under /no and leaves English unprefixed', () => {
    expect(localizePath('/', 'en', rules)).toBe('/');
    expect(localizePath('/', 'no', rules)).toBe('/no');
    expect(localizePath('/hub/pricing', 'en', rules)).toBe('/hub/pricing');
    expect(localizePath('/hub/pricing', 'no', rules)).toBe('/no/hub/pricing');
  });

  it('reads the locale from the first path segment only', () => {
    expect(splitLocale('/no', rules)).toEqual({ locale: 'no', routePath: '/' });
    expect(splitLocale('/no/hub', rules)).toEqual({ locale: 'no', routePath: '/hub' });
    expect(splitLocale('/hub-presentation-no', rules)).toEqual({ locale: 'en', routePath: '/hub-presentation-no' });
    expect(splitLocale('/november', rules)).toEqual({ locale: 'en', routePath: '/november' });
  });

  it('gives every page a trailing-slash URL and an index.html file', () => {
    expect(toUrl('/')).toBe('/');
    expect(toUrl('/no')).toBe('/no/');
    expect(toUrl('/hub/product')).toBe('/hub/product/');
    expect(toOutputFile('/')).toBe('index.html');
    expect(toOutputFile('/no/hub/product')).toBe('no/hub/product/index.html');
  });

  it('percent-encodes non-ASCII paths in URLs but not in file names', () => {
    expect(toUrl('/no/arbeidsklær/product')).toBe('/no/arbeidskl%C3%A6r/product/');
    expect(toOutputFile('/no/arbeidsklær/product')).toBe('no/arbeidsklær/product/index.html');
    expect(fromUrl('/no/arbeidskl%C3%A6r/product/')).toBe('/no/arbeidsklær/product');
  });

  it('refuses request paths that climb out of the site', () => {
    expect(fromUrl('/../etc/passwd')).toBeUndefined();
    expect(fromUrl('/%2e%2e/package.json')).toBeUndefined();
    expect(fromUrl('/assets/%E0%A4%A')).toBeUndefined();
    expect(fromUrl('/hub/?q=1#x')).toBe('/hub');
  });

  it('mirrors an alias and everything below it', () => {
    expect(aliasPath('/workwear', '/workwear', '/arbeidsklær')).toBe('/arbeidsklær');
    expect(aliasPath('/workwear/blog/post', '/workwear', '/arbeidsklær')).toBe('/arbeidsklær/blog/post');
    expect(aliasPath('/workwearable', '/workwear', '/arbeidsklær')).toBeUndefined();
  });

  it('lists ancestors root first', () => {
    expect(ancestorPaths('/')).toEqual([]);
    expect(ancestorPaths('/hub')).toEqual(['/']);
    expect(ancestorPaths('/hub/blog/x')).toEqual(['/', '/hub', '/hub/blog']);
  });

  it('takes as a plain site path only one that starts with a single / and that no browser resolves to another host', () => {
    for (const path of ['/', '/hub/contactus/', '/no/arbeidskl%C3%A6r/', '/blog/a-post/?x=1#top'])
      expect(isPlainSitePath(path), path).toBe(true);
    for (const path of [
      '',
      'hub/',
      '//evil.example',
      '/\\evil.example',
      '\\/evil.example',
      '/a//b',
      '/a\\b',
      'https://evil.example/',
      'javascript:alert(1)',
      '/a b',
      '/\tx',
      '/\nx',
      `/${'a'.repeat(300)}`,
    ])
      expect(isPlainSitePath(path), JSON.stringify(path)).toBe(false);
  });
});
