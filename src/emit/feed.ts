/**
 * Feeds: per collection that asks for one, per locale, of the entries written in that locale, as
 * RSS 2.0 and as JSON Feed 1.1 beside it. Deterministic: every date comes from the entries
 * (`lastBuildDate` is the newest entry's `updated` or `date`), never from the clock.
 */
import type { ResolvedConfig } from '../config/load.js';
import type { Entry, EntryTranslation } from '../content/collections.js';
import { withBase } from '../render/base-path.js';
import { escapeHtml } from '../render/html.js';
import { withoutComponentMarkers } from '../content/directives.js';
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
  /** The name of a taxonomy term in the feed's locale. */
  termName(term: string): string;
}

/** A feed file: its path in the output and its text. */
export interface FeedFile {
  file: string;
  text: string;
}

/** One item of a feed, whatever the format. */
interface FeedItem {
  url: string;
  translation: EntryTranslation;
}

/** The feeds of one collection in one locale (RSS, then JSON Feed); none when the collection has no feed. */
export function createFeeds(input: FeedInput): FeedFile[] {
  const { config, collection, locale } = input;
  const urls = urlsOf(config);
  const rss = urls.feed(collection, locale);
  const json = urls.jsonFeed(collection, locale);
  if (!rss || !json) return [];
  // The canonical pages: the routes of the collection that belong to no audience.
  const listRoute = urls.collectionRoute(collection, 'list', undefined, true);
  const entryRoute = urls.collectionRoute(collection, 'entry', undefined, true);
  const home = urls.absolute(listRoute ? urls.page(listRoute.path, locale) : urls.page('/', locale));
  // The newest entries written in this locale (the entries come newest first), as many as the collection's feedItems.
  const items: FeedItem[] =
    entryRoute === undefined
      ? []
      : input.entries
          .flatMap((entry) => {
            const translation = entry.translations[locale];
            return translation
              ? [
                  {
                    url: urls.absolute(
                      urls.page(urls.entryPath(entryRoute.path, translation.slug ?? entry.slug), locale),
                    ),
                    translation,
                  },
                ]
              : [];
          })
          .slice(0, config.collections[collection]!.feedItems);
  const feed = { ...input, home, items, rssUrl: urls.absolute(rss.url), jsonUrl: urls.absolute(json.url) };
  return [
    { file: rss.file, text: rssText(feed) },
    { file: json.file, text: jsonFeedText(feed) },
  ];
}

type Feed = FeedInput & { home: string; items: FeedItem[]; rssUrl: string; jsonUrl: string };

/** The newest `updated` or `date` of the items (ISO dates compare as text), or undefined for none. */
function newest(items: readonly FeedItem[]): string | undefined {
  let latest: string | undefined;
  for (const { translation } of items) {
    const date = translation.updated ?? translation.date;
    if (latest === undefined || date > latest) latest = date;
  }
  return latest;
}

const rfc822 = (date: string) => new Date(`${date}T00:00:00Z`).toUTCString();

function rssText(feed: Feed): string {
  const built = newest(feed.items);
  const items = feed.items.map(({ url, translation }) =>
    [
      '<item>',
      `<title>${escapeHtml(translation.title)}</title>`,
      `<link>${escapeHtml(url)}</link>`,
      `<guid isPermaLink="true">${escapeHtml(url)}</guid>`,
      `<description>${escapeHtml(translation.description)}</description>`,
      translation.term === undefined ? '' : `<category>${escapeHtml(feed.termName(translation.term))}</category>`,
      `<pubDate>${rfc822(translation.date)}</pubDate>`,
      '</item>',
    ].join(''),
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel>',
    `<title>${escapeHtml(feed.title)}</title>`,
    `<link>${escapeHtml(feed.home)}</link>`,
    `<description>${escapeHtml(feed.description)}</description>`,
    `<language>${escapeHtml(feed.config.locales[feed.locale]!.htmlLang)}</language>`,
    ...(built ? [`<lastBuildDate>${rfc822(built)}</lastBuildDate>`] : []),
    `<atom:link href="${escapeHtml(feed.rssUrl)}" rel="self" type="application/rss+xml"/>`,
    ...items,
    '</channel></rss>',
    '',
  ].join('\n');
}

/** JSON Feed 1.1 (https://jsonfeed.org/version/1.1). */
function jsonFeedText(feed: Feed): string {
  const document = {
    version: 'https://jsonfeed.org/version/1.1',
    title: feed.title,
    home_page_url: feed.home,
    feed_url: feed.jsonUrl,
    description: feed.description,
    language: feed.config.locales[feed.locale]!.htmlLang,
    items: feed.items.map(({ url, translation }) => ({
      id: url,
      url,
      title: translation.title,
      summary: translation.description,
      content_html: withBase(withoutComponentMarkers(translation.html), feed.config.site.base),
      date_published: `${translation.date}T00:00:00Z`,
      ...(translation.updated ? { date_modified: `${translation.updated}T00:00:00Z` } : {}),
      ...(translation.term === undefined ? {} : { tags: [feed.termName(translation.term)] }),
    })),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
