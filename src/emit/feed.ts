/** RSS 2.0 feeds, one per locale, of the posts written in that locale. */
import type { ResolvedConfig } from '../config/load.js';
import type { Post } from '../content/posts.js';
import { escapeHtml } from '../render/html.js';
import { localizePath, toUrl, type PathRules } from '../routes/paths.js';

/** Where a locale's feed is: "/rss.xml", "/no/rss.xml". */
export function feedPath(locale: string, rules: PathRules): string {
  const home = localizePath('/', locale, rules);
  return home === '/' ? '/rss.xml' : `${home}/rss.xml`;
}

/** The feed of one locale; `posts` are sorted newest first. */
export function createFeed(input: { config: ResolvedConfig; rules: PathRules; locale: string; posts: readonly Post[]; title: string; description: string }): string {
  const { config, locale, rules } = input;
  const origin = config.site.origin;
  const listUrl = origin + toUrl(localizePath('/blog', locale, rules));
  const items = input.posts.flatMap((post) => {
    const translation = post.translations[locale];
    if (!translation) return [];
    const url = origin + toUrl(localizePath(`/blog/${post.slug}`, locale, rules));
    return [[
      '<item>',
      `<title>${escapeHtml(translation.title)}</title>`,
      `<link>${escapeHtml(url)}</link>`,
      `<guid isPermaLink="true">${escapeHtml(url)}</guid>`,
      `<description>${escapeHtml(translation.description)}</description>`,
      `<category>${escapeHtml(translation.category)}</category>`,
      `<pubDate>${new Date(`${translation.date}T00:00:00Z`).toUTCString()}</pubDate>`,
      '</item>',
    ].join('')];
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel>',
    `<title>${escapeHtml(input.title)}</title>`,
    `<link>${escapeHtml(listUrl)}</link>`,
    `<description>${escapeHtml(input.description)}</description>`,
    `<language>${escapeHtml(config.locales[locale]!.htmlLang)}</language>`,
    `<atom:link href="${escapeHtml(origin + feedPath(locale, rules))}" rel="self" type="application/rss+xml"/>`,
    ...items,
    '</channel></rss>',
    '',
  ].join('\n');
}
