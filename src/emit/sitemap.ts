/** sitemap.xml, robots.txt and the host files, as pure text from the page list. */
import type { ResolvedConfig } from '../config/load.js';
import type { Page } from '../routes/pages.js';
import { contentSecurityPolicy } from '../render/csp.js';
import { escapeHtml } from '../render/html.js';
import { urlsOf } from '../routes/urls.js';

/** The sitemap: indexable canonical pages only, each with its hreflang alternates. */
export function createSitemap(pages: readonly Page[], config: ResolvedConfig): string {
  const entries = pages
    .filter((page) => page.inSitemap)
    .map((page) => {
      const links = page.alternates.map((alternate) => `<xhtml:link rel="alternate" hreflang="${escapeHtml(alternate.hreflang)}" href="${escapeHtml(alternate.href)}"/>`);
      return `<url><loc>${escapeHtml(config.site.origin + page.url)}</loc>${links.join('')}</url>`;
    });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...entries,
    '</urlset>',
    '',
  ].join('\n');
}

/** robots.txt: the disallowed paths of the config, and where the sitemap is. */
export function createRobots(config: ResolvedConfig): string {
  const disallow = [...config.robots.disallow].sort().map((path) => `Disallow: ${path}`);
  return ['User-agent: *', ...(disallow.length ? disallow : ['Disallow:']), '', `Sitemap: ${config.site.origin}/sitemap.xml`, ''].join('\n');
}

/** The security headers of every page (the CSP allows the inline scripts of `scriptHashes`). */
export function securityHeaders(scriptHashes: readonly string[], config: ResolvedConfig): [name: string, value: string][] {
  return [
    ['Content-Security-Policy', contentSecurityPolicy(config, scriptHashes)],
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', 'strict-origin-when-cross-origin'],
    ['X-Frame-Options', 'DENY'],
    ['Cross-Origin-Opener-Policy', 'same-origin'],
    ['Permissions-Policy', 'camera=(), microphone=(), geolocation=(), interest-cohort=()'],
    ['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'],
  ];
}

/** The caching of built assets, whose names carry a content hash. */
export const assetCacheControl = 'public, max-age=31536000, immutable';

/** Netlify/Cloudflare-style `_headers`: security headers for every page, long caching for hashed assets. */
export function createHeaders(scriptHashes: readonly string[], config: ResolvedConfig): string {
  return [
    '/*',
    ...securityHeaders(scriptHashes, config).map(([name, value]) => `  ${name}: ${value}`),
    '',
    urlsOf(config).assetsPattern,
    `  Cache-Control: ${assetCacheControl}`,
    '',
  ].join('\n');
}
