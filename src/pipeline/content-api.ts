/**
 * The pipeline's one door into the modules that know what an entry of a collection, a page, its
 * copy, a message and a feed are: every call the pipeline makes into content/ (collections,
 * messages, page copy), routes/, render/render.ts (through render-pages.ts) and emit/feed.ts is
 * here, with the keys that say what each load read of the config. The pipeline handles the
 * entries of every collection as one list; an entry's key is "<collection>/<slug>".
 */
import type { DiskCache } from '../cache/disk-cache.js';
import type { ParseYaml } from '../cache/yaml-cache.js';
import type { ResolvedConfig } from '../config/load.js';
import type { MarkdownRenderer } from '../content/markdown-cache.js';
import { loadMessages, lookupMessage, type MessageTree } from '../content/messages.js';
import { loadPageContent, type PageContent } from '../content/pages.js';
import { indexEntries, listEntrySlugs, loadEntry, type Entry } from '../content/collections.js';
import { createFeed } from '../emit/feed.js';
import type { SiteError } from '../errors.js';
import { createPageRenderer, type IslandScripts, type PageRenderer } from '../render/render-pages.js';
import type { RenderDependency, RenderInput } from '../render/render.js';
import type { TemplateSet } from '../render/types.js';
import { createPages, sortEntries, type Page } from '../routes/pages.js';
import { sameJson } from './stage.js';

export type { Entry, MessageTree, Page, PageContent, RenderDependency };

/** The messages of every locale. */
export type Messages = Record<string, MessageTree>;

/** What the messages are loaded from: when it changes, they are loaded again. */
export function messagesSourceKey(config: ResolvedConfig): string {
  return JSON.stringify([config.dirs.content, config.localeIds]);
}

/** Loads content/messages/<locale>.yaml of every locale; problems go to `errors`. */
export function loadSiteMessages(config: ResolvedConfig, errors: SiteError[], parseYaml: ParseYaml | undefined): Promise<Messages> {
  return loadMessages(config, errors, { parseYaml });
}

/** What the entries are loaded from (the folders, the locales, the collections and Markdown settings): when it changes, every entry is loaded again. */
export function entriesSourceKey(config: ResolvedConfig, drafts: boolean, publishedBy?: string): string {
  return JSON.stringify([config.dirs.content, config.localeIds, config.collections, config.markdown, drafts, publishedBy ?? null]);
}

/** The key of an entry in the pipeline: "<collection>/<slug>". */
export function entryKey(entry: Pick<Entry, 'collection' | 'slug'>): string {
  return `${entry.collection}/${entry.slug}`;
}

/** The keys of the entries of every collection (one folder each), sorted. */
export async function listEntries(config: ResolvedConfig): Promise<string[]> {
  const names = Object.keys(config.collections).sort();
  const lists = await Promise.all(names.map(async (name) => (await listEntrySlugs(config, name)).map((slug) => entryKey({ collection: name, slug }))));
  return lists.flat();
}

/** Loads one entry folder by its key; problems go to `errors`; undefined when nothing of it is shown. */
export function loadEntryFolder(
  config: ResolvedConfig,
  key: string,
  errors: SiteError[],
  options: { drafts: boolean; publishedBy?: string; markdown: MarkdownRenderer; frontMatterCache: DiskCache | false },
): Promise<Entry | undefined> {
  const slash = key.indexOf('/');
  return loadEntry(config, key.slice(0, slash), key.slice(slash + 1), errors, options);
}

/** The entries of each collection of the config, newest first ([] for a collection without entries). */
export function byCollection(config: ResolvedConfig, entries: readonly Entry[]): Record<string, Entry[]> {
  const grouped: Record<string, Entry[]> = {};
  for (const name of Object.keys(config.collections).sort()) grouped[name] = [];
  for (const entry of entries) grouped[entry.collection]?.push(entry);
  for (const name of Object.keys(grouped)) grouped[name] = sortEntries(grouped[name]!);
  return grouped;
}

/** The entries in the order the site lists them (by collection, newest first). */
export function orderEntries(config: ResolvedConfig, entries: readonly Entry[]): Entry[] {
  return Object.values(byCollection(config, entries)).flat();
}

/** What route expansion reads of the entries, as text: the pages are expanded again only when it changes. */
export function entryIndexKey(config: ResolvedConfig, entries: readonly Entry[]): string {
  return JSON.stringify(indexEntries(byCollection(config, entries)));
}

/** The pages of the site; throws SiteErrors (two pages that would write one file). */
export function expandPages(config: ResolvedConfig, entries: readonly Entry[]): Page[] {
  return createPages(config, { entries: indexEntries(byCollection(config, entries)) });
}

/**
 * Adds to `changed` the render dependencies of the entries that differ between two builds (maps
 * by entry key): `entry:<key>` when an entry appears, goes or changes its locales,
 * `entry:<key>:<locale>` for each translation that differs, and `entries:<collection>` when any
 * entry of the collection does.
 */
export function diffEntries(before: ReadonlyMap<string, Entry>, now: ReadonlyMap<string, Entry>, changed: Set<string>): void {
  const locales = (entry: Entry | undefined) => Object.keys(entry?.translations ?? {}).sort().join(' ');
  for (const key of new Set([...now.keys(), ...before.keys()])) {
    const old = before.get(key);
    const current = now.get(key);
    if (old === current || sameJson(old, current)) continue;
    changed.add(`entries:${key.slice(0, key.indexOf('/'))}`);
    if (!old || !current || locales(old) !== locales(current)) changed.add(`entry:${key}`);
    for (const locale of new Set([...Object.keys(old?.translations ?? {}), ...Object.keys(current?.translations ?? {})])) {
      if (!sameJson(old?.translations[locale], current?.translations[locale])) changed.add(`entry:${key}:${locale}`);
    }
  }
}

/** What the copy of one content id is loaded from: the config's parts it reads, its pages' locales, templates and routes, and the templates (their schemas). */
export function copySourceKey(config: ResolvedConfig, pages: readonly Page[], templatesId: number): string {
  return JSON.stringify([templatesId, config.dirs.content, config.company, config.markdown, config.localeIds, pages.map((page) => [page.locale, page.template, page.route.path])]);
}

/** Loads the copy `pages` show, validated by their templates' schemas; problems go to `errors`. */
export function loadCopy(
  config: ResolvedConfig,
  pages: readonly Page[],
  templates: TemplateSet,
  errors: SiteError[],
  options: { markdown: MarkdownRenderer; parseYaml: ParseYaml | undefined },
): Promise<Map<string, PageContent>> {
  return loadPageContent(config, pages, (name) => templates.pages[name]?.content, errors, options);
}

/** What rendering needs besides the templates: plain data, so it can be sent to the workers. */
export type SiteRenderInput = Omit<RenderInput, 'templates' | 'track'>;

/** The render input of a build. */
export function renderInputOf(input: { config: ResolvedConfig; pages: readonly Page[]; messages: Messages; contents: ReadonlyMap<string, PageContent>; entries: readonly Entry[]; stylesheet: string }): SiteRenderInput {
  const { config, pages, messages, contents, stylesheet } = input;
  return { config, pages, messages, contents, entries: byCollection(config, input.entries), assets: { stylesheet } };
}

/** A renderer of the pages of `input`; `track` is told what each render reads. */
export function createSiteRenderer(
  input: SiteRenderInput,
  templates: TemplateSet,
  islands: IslandScripts,
  track?: (dependency: RenderDependency) => void,
): PageRenderer {
  return createPageRenderer({ ...input, templates, track }, islands);
}

/** The feed of each collection that has one, in each locale: it depends on the entries, the messages and the config. */
export function createFeedFiles(input: { config: ResolvedConfig; entries: readonly Entry[]; messages: Messages }): Map<string, string> {
  const { config, messages } = input;
  const entries = byCollection(config, input.entries);
  const files = new Map<string, string>();
  for (const collection of Object.keys(entries)) {
    for (const locale of config.localeIds) {
      const text = (key: string) => lookupMessage(messages[locale] ?? {}, `${collection}.${key}`) ?? `${collection}.${key}`;
      const feed = createFeed({ config, collection, locale, entries: entries[collection]!, title: `${config.site.name} · ${text('title')}`, description: text('description') });
      if (feed) files.set(feed.file, feed.text);
    }
  }
  return files;
}
