/**
 * The pieces of site search a visitor would notice without a browser: an excerpt can show marks
 * and nothing else, a result is labelled by the deepest section it is in, and the search page's own policy replaces that of every page where `site
 * serve` and Cloudflare read `_headers`.
 */
import { describe, expect, it } from 'vitest';
import { excerptParts, sectionOf } from '../../src/islands/SiteSearch';
import { headersFor, parseHeaders } from '../../src/serve/static';

describe('search result sections', () => {
  const sections = [
    { path: '/no/hub/', label: 'Reparatører' },
    { path: '/no/hub/blog', label: 'Blogg for reparatører' },
    { path: '/no/blog/', label: 'Blogg' },
  ];

  it('label a result by the longest section path it starts with, at a folder boundary', () => {
    expect(sectionOf('/no/hub/product/', sections)).toBe('Reparatører');
    expect(sectionOf('/no/hub/blog/a-post/', sections)).toBe('Blogg for reparatører');
    expect(sectionOf('https://example.com/no/blog/a-post/', sections)).toBe('Blogg');
    expect(sectionOf('/no/hubs/', sections)).toBeUndefined();
    expect(sectionOf('/no/ourstory/', sections)).toBeUndefined();
  });
});

describe('search excerpts', () => {
  it('keep the marks and turn everything else into text, tags included', () => {
    expect(excerptParts('Put the <mark>kettle</mark> on &lt;img src=x onerror=alert(1)&gt; &amp; <b>go</b>')).toEqual([
      { text: 'Put the ', marked: false },
      { text: 'kettle', marked: true },
      { text: ' on <img src=x onerror=alert(1)> & go', marked: false },
    ]);
  });
});

describe('_headers with a search page', () => {
  const rules = parseHeaders(
    [
      '/*',
      "  Content-Security-Policy: script-src 'self'",
      '  X-Frame-Options: DENY',
      '',
      '/search/',
      '  ! Content-Security-Policy',
      "  Content-Security-Policy: script-src 'self' 'wasm-unsafe-eval'",
      '',
    ].join('\n'),
  );

  it('gives the search page its own policy, and only that one', () => {
    expect(headersFor(rules, '/search/')).toEqual([
      ['X-Frame-Options', 'DENY'],
      ['Content-Security-Policy', "script-src 'self' 'wasm-unsafe-eval'"],
    ]);
  });

  it('leaves every other page the policy of every page', () => {
    expect(headersFor(rules, '/blog/')).toEqual([
      ['Content-Security-Policy', "script-src 'self'"],
      ['X-Frame-Options', 'DENY'],
    ]);
  });
});
