/** RSS 2.0 feeds: per collection that asks for one, per locale, of the entries written in that locale. */
import type { ResolvedConfig } from '../config/load.js';
import type { Entry } from '../content/collections.js';
import { escapeHtml } from '../render/html.js';
import { urlsOf } from '../routes/urls.js';

/** What one feed shows. */
export interface FeedInput {
  config: ResolvedConfig;
  collection: string;
  locale: string;
  /** The collection's entries, newest first. */
  entries: readonly Entry[];
  title: string;
  description: string;
}

/** The feed of one collection in one locale, or undefined when the collection has no feed. */
export function createFeed(input: FeedInput): { file: string; text: string } | undefined {
  const { config, collection, locale } = input;
  const urls = urlsOf(config);
  const feed = urls.feed(collection, locale);
  if (!feed) return undefined;
  // The canonical pages: the routes of the collection that belong to no audience.
  const listRoute = urls.collectionRoute(collection, 'list', undefined, true);
  const entryRoute = urls.collectionRoute(collection, 'entry', undefined, true);
  const link = urls.absolute(listRoute ? urls.page(listRoute.path, locale) : urls.page('/', locale));
  const items = entryRoute === undefined ? [] : input.entries.flatMap((entry) => {
    const translation = entry.translations[locale];
    if (!translation) return [];
    const url = urls.absolute(urls.page(urls.entryPath(entryRoute.path, entry.slug), locale));
    return [[
      '<item>',
      `<title>${escapeHtml(translation.title)}</title>`,
      `<link>${escapeHtml(url)}</link>`,
      `<guid isPermaLink="true">${escapeHtml(url)}</guid>`,
      `<description>${escapeHtml(translation.description)}</description>`,
      translation.term === undefined ? '' : `<category>${escapeHtml(translation.term)}</category>`,
      `<pubDate>${new Date(`${translation.date}T00:00:00Z`).toUTCString()}</pubDate>`,
      '</item>',
    ].join('')];
  });
  const text = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel>',
    `<title>${escapeHtml(input.title)}</title>`,
    `<link>${escapeHtml(link)}</link>`,
    `<description>${escapeHtml(input.description)}</description>`,
    `<language>${escapeHtml(config.locales[locale]!.htmlLang)}</language>`,
    `<atom:link href="${escapeHtml(urls.absolute(feed.url))}" rel="self" type="application/rss+xml"/>`,
    ...items,
    '</channel></rss>',
    '',
  ].join('\n');
  return { file: feed.file, text };
}
