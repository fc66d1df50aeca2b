/**
 * The pipeline's one door into the modules that know what an entry of a collection, a page, its
 * copy, a message and a feed are: every call the pipeline makes into content/ (collections,
 * messages, page copy), routes/, render/render.ts (through render-pages.ts) and emit/feed.ts is
 * here, with the keys that say what each load read of the config. The pipeline handles the
 * entries of every collection as one list; an entry's key is "<collection>/<slug>".
 */
import { join } from 'node:path';
import { keepsPathLock, nextPathLock } from '../routes/path-lock.js';
import { isAdminTemplate } from '../admin-pages.js';
import { adminStylesheet, preloadFontUrls } from '../islands/assets.js';
import { hashParts, installedVersion, type DiskCache } from '../cache/disk-cache.js';
import { generatorFingerprint } from '../cache/render-state.js';
import type { ParseYaml } from '../cache/yaml-cache.js';
import type { ResolvedConfig } from '../config/load.js';
import type { MarkdownRenderer } from '../content/markdown-cache.js';
import { codeStylesheetUrl } from '../content/highlight.js';
import { sourcesOf } from '../config/sources.js';
import { markdownPluginsOf } from '../content/markdown.js';
import { pluginHeadOf } from '../render/plugin-head.js';
import { copyValuesOf, loadMessages, lookupMessage, type MessageTree } from '../content/messages.js';
import { loadPageContent, type PageContent } from '../content/pages.js';
import {
  indexEntries,
  listEntrySlugs,
  loadEntry,
  type Entry,
  type EntryTranslation,
  type LoadedEntry,
} from '../content/collections.js';
import { createFeeds } from '../emit/feed.js';
import type { Diagnostics } from '../diagnostics.js';
import { SiteError, throwIfAny } from '../errors.js';
import { formatPath } from '../yaml-source.js';
import { locateContentField } from '../content/field-position.js';
import { fieldSlots, referenceProblems } from '../content/entry-fields.js';
import { locateConfigField } from '../config/field-position.js';
import { createPageRenderer, type IslandScripts, type PageRenderer } from '../render/render-pages.js';
import { createRenderer, type RenderInput } from '../render/render.js';
import { socialCardOf, socialImageFile, type SocialCard } from '../render/social-card.js';
import type { TemplateSet } from '../render/types.js';
import { templatesIdOf } from '../render/templates.js';
import { createPages, reportUntranslated, sortEntries, type Page } from '../routes/pages.js';
import { redirectProblems, siteRedirects } from '../routes/redirects.js';
import { assetsFolder } from '../url-paths.js';
import { readTracked } from '../render/tracked-view.js';
import { sameJson } from './stage.js';

export type { Entry, LoadedEntry, MessageTree, Page, PageContent };
export { locateContentField };
export { socialFolder } from '../render/social-card.js';
export { copyImagesOf } from '../content/pages.js';
import { copyComponentsOf } from '../content/pages.js';
import { checkComponentUses } from '../content/component-uses.js';
import { videoFrameSources } from '../render/component-files.js';
export type { MarkdownImage } from '../content/markdown-images.js';
/** The path an ASCII spelling of an alias path stands for, which serve and the hosts redirect. */
export { asciiAliasPaths as aliasSpellingsOf } from '../routes/ascii-spellings.js';

/**
 * The components the Markdown of the entries and of the page copy uses, checked against the
 * site's (content/component-uses.ts): CONTENT_COMPONENT at each directive or attribute the check
 * refuses. Run once the templates are loaded, before any page renders.
 */
export function checkContentComponents(
  entries: readonly Entry[],
  contents: ReadonlyMap<string, PageContent>,
  templates: Pick<TemplateSet, 'components'>,
): SiteError[] {
  const errors: SiteError[] = [];
  for (const entry of entries)
    for (const translation of Object.values(entry.translations))
      if (translation.components)
        errors.push(...checkComponentUses(translation.components, translation.file, templates.components));
  for (const copy of contents.values()) {
    const found = copyComponentsOf(copy);
    if (found) errors.push(...checkComponentUses(found.uses, found.file, templates.components));
  }
  return errors;
}

/** The names the Markdown of the entries and of the page copy gives its components, sorted. */
export function componentNamesUsed(entries: readonly Entry[], contents: ReadonlyMap<string, PageContent>): string[] {
  const names = new Set<string>();
  for (const entry of entries)
    for (const translation of Object.values(entry.translations))
      for (const use of translation.components ?? []) names.add(use.name);
  for (const copy of contents.values()) for (const use of copyComponentsOf(copy)?.uses ?? []) names.add(use.name);
  return [...names].sort();
}

/** The frame sources the site's policy allows for its content: the video players' when its Markdown uses `video`. */
export function contentFrameSources(
  entries: readonly Entry[],
  contents: ReadonlyMap<string, PageContent>,
): readonly string[] {
  return componentNamesUsed(entries, contents).some((name) => name.toLowerCase() === 'video') ? videoFrameSources : [];
}

/** The messages of every locale. */
export type Messages = Record<string, MessageTree>;

/** What the messages are loaded from: when it changes, they are loaded again. */
export function messagesSourceKey(config: ResolvedConfig): string {
  return JSON.stringify([config.dirs.content, config.localeIds]);
}

/** Loads content/messages/<locale>.yaml of every locale; problems go to `diagnostics`. */
export function loadSiteMessages(
  config: ResolvedConfig,
  diagnostics: Diagnostics,
  parseYaml: ParseYaml | undefined,
): Promise<Messages> {
  return loadMessages(config, diagnostics, { parseYaml });
}

/** What the entries are loaded from (the folders, the locales, the collections, Markdown settings and the values of placeholders): when it changes, every entry is loaded again. */
export function entriesSourceKey(config: ResolvedConfig, drafts: boolean, publishedBy?: string): string {
  return JSON.stringify([
    config.dirs.content,
    config.localeIds,
    config.collections,
    config.markdown,
    markdownPluginsOf(config),
    copyValuesOf(config),
    drafts,
    publishedBy ?? null,
  ]);
}

/** The key of an entry in the pipeline: "<collection>/<slug>". */
export function entryKey(entry: Pick<Entry, 'collection' | 'slug'>): string {
  return `${entry.collection}/${entry.slug}`;
}

/** The keys of the entries of every collection (one folder each), sorted. */
export async function listEntries(config: ResolvedConfig): Promise<string[]> {
  const names = Object.keys(config.collections).sort();
  const lists = await Promise.all(
    names.map(async (name) => (await listEntrySlugs(config, name)).map((slug) => entryKey({ collection: name, slug }))),
  );
  return lists.flat();
}

/** The folder of an entry, by its key, absolute. */
export function entryFolderOf(config: ResolvedConfig, key: string): string {
  const slash = key.indexOf('/');
  return join(sourcesOf(config).collection(key.slice(0, slash)), key.slice(slash + 1));
}

/** Loads one entry folder by its key (the entry, undefined when nothing of it is shown, and its scheduled translations); problems go to `diagnostics`. */
export function loadEntryFolder(
  config: ResolvedConfig,
  key: string,
  diagnostics: Diagnostics,
  options: { drafts: boolean; publishedBy?: string; markdown: MarkdownRenderer; frontMatterCache: DiskCache | false },
): Promise<LoadedEntry> {
  const slash = key.indexOf('/');
  return loadEntry(config, key.slice(0, slash), key.slice(slash + 1), diagnostics, options);
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

/**
 * The pages of the site; throws SiteErrors (two pages that would write one file, a redirect that
 * does not fit the pages); an entry not translated into a locale that has its pages is a warning.
 * `unsaved` gives the text of an entry file not written yet (the admin's edit), where an error's
 * line is read from; `failed`, the files with errors already reported, whose entries are not
 * also called untranslated.
 */
export function expandPages(
  config: ResolvedConfig,
  entries: readonly Entry[],
  diagnostics: Diagnostics,
  unsaved?: (file: string) => string | undefined,
  failed?: ReadonlySet<string>,
): Page[] {
  const locate = (file: string, field: readonly (string | number)[]) =>
    file === config.file
      ? locateConfigField(config, field)
      : locateContentField(file, String(field[0]), unsaved?.(file));
  const input = { entries: indexEntries(byCollection(config, entries)), locate };
  reportUntranslated(config, input, diagnostics, failed);
  const pages = createPages(config, input);
  advancePathLock(config, pages);
  refuseRedirectProblems(config, pages);
  return pages;
}

/** What the reference check reads: every reference value and the slugs of every collection. */
export function referencesKey(config: ResolvedConfig, entries: readonly Entry[]): string {
  const references = entries.flatMap((entry) => {
    const collection = config.collections[entry.collection];
    return Object.values(entry.translations).flatMap((translation) =>
      collection
        ? fieldSlots(collection.fields, translation.fields, ['reference']).map(
            (slot) => `${translation.file} ${slot.path} ${String(slot.value)}`,
          )
        : [],
    );
  });
  return JSON.stringify([references, entries.map(entryKey)]);
}

/**
 * The reference fields of the entries that name no entry of their collection, each at its line
 * (read from `unsaved` for the admin's edit not yet written) with the entries that exist.
 */
export function referenceErrors(
  config: ResolvedConfig,
  entries: readonly Entry[],
  unsaved?: (file: string) => string | undefined,
): SiteError[] {
  const slugs = new Map<string, Set<string>>();
  for (const entry of entries) {
    if (!slugs.has(entry.collection)) slugs.set(entry.collection, new Set());
    slugs.get(entry.collection)!.add(entry.slug);
  }
  return entries.flatMap((entry) => {
    const collection = config.collections[entry.collection];
    if (!collection) return [];
    return Object.values(entry.translations).flatMap((translation) =>
      referenceProblems(collection, translation.fields, slugs).map(
        (problem) =>
          new SiteError({
            code: 'ENTRY_REFERENCE',
            ...problem,
            ...locateContentField(translation.file, problem.field, unsaved?.(translation.file)),
          }),
      ),
    );
  });
}

/**
 * Moves the config's lock of published paths on to these pages, when the site keeps one: their
 * earlier paths redirect. Written beside the config only once the build has succeeded
 * (config/path-lock.ts `writePathLock`); the same pages leave it as it is.
 */
export function advancePathLock(config: ResolvedConfig, pages: readonly Page[]): void {
  if (keepsPathLock(config, pages)) config.pathLock = nextPathLock(config.pathLock, pages);
}

/** Throws the problems of the site's redirects, each at its key in the config file. */
function refuseRedirectProblems(config: ResolvedConfig, pages: readonly Page[]): void {
  const problems = redirectProblems(siteRedirects(config), pages);
  throwIfAny(
    problems.map(({ code, redirect, key, message, hint }) => {
      const path = redirect.field ? [...redirect.field, key] : undefined;
      return new SiteError({
        code,
        message: redirect.by ? `${message} (made by ${redirect.by})` : message,
        hint,
        file: config.file,
        ...(path ? { field: formatPath(path), ...locateConfigField(config, path) } : {}),
      });
    }),
  );
}

/**
 * Adds to `changed` the render dependencies of the entries that differ between two builds (maps
 * by entry key, in the order the site lists them): `entry:<key>` when an entry appears, goes or
 * changes its locales, `entry:<key>:<locale>` for each translation that differs, each of `reads`
 * of a field of such a translation ("entry:blog/a:en [\"title\"]", see tracked-view.ts) whose
 * value differs, and `entries:<collection>` when the collection's list (which entries, in which
 * locales, in what order) does. A body edit so re-renders the post's pages, not every page that
 * lists posts by title.
 */
export function diffEntries(
  before: ReadonlyMap<string, Entry>,
  now: ReadonlyMap<string, Entry>,
  changed: Set<string>,
  reads: Iterable<string> = [],
): void {
  const locales = (entry: Entry | undefined) =>
    Object.keys(entry?.translations ?? {})
      .sort()
      .join(' ');
  const differing = new Set<string>();
  for (const key of new Set([...now.keys(), ...before.keys()])) {
    const old = before.get(key);
    const current = now.get(key);
    if (old === current || sameJson(old, current)) continue;
    if (!old || !current || locales(old) !== locales(current)) changed.add(`entry:${key}`);
    for (const locale of new Set([
      ...Object.keys(old?.translations ?? {}),
      ...Object.keys(current?.translations ?? {}),
    ])) {
      if (!sameJson(old?.translations[locale], current?.translations[locale])) differing.add(`entry:${key}:${locale}`);
    }
  }
  for (const key of differing) changed.add(key);
  const lists = [collectionLists(before), collectionLists(now)] as const;
  for (const collection of new Set([...lists[0].keys(), ...lists[1].keys()])) {
    if (lists[0].get(collection) !== lists[1].get(collection)) changed.add(`entries:${collection}`);
  }
  if (differing.size === 0) return;
  for (const read of reads) {
    const space = read.indexOf(' ');
    if (space < 0 || !read.startsWith('entry:')) continue;
    const prefix = read.slice(0, space);
    if (!differing.has(prefix)) continue;
    if (
      readTracked(read, prefix, translationAt(before, prefix)) !== readTracked(read, prefix, translationAt(now, prefix))
    )
      changed.add(read);
  }
}

/** Each collection's list as text: its entries' slugs and locales, in the order the site lists them. */
function collectionLists(entries: ReadonlyMap<string, Entry> | readonly Entry[]): Map<string, string> {
  const lists = new Map<string, string>();
  for (const entry of entries.values()) {
    const line = `${entry.slug} ${Object.keys(entry.translations).sort().join(' ')}\n`;
    lists.set(entry.collection, (lists.get(entry.collection) ?? '') + line);
  }
  return lists;
}

/** The translation a dependency "entry:<collection>/<slug>:<locale>" names. */
export function translationAt(entries: ReadonlyMap<string, Entry>, dependency: string): EntryTranslation | undefined {
  const colon = dependency.lastIndexOf(':');
  return entries.get(dependency.slice('entry:'.length, colon))?.translations[dependency.slice(colon + 1)];
}

/**
 * The fingerprint, made with `hash`, of an entry key a render may read: `entry:<key>` (the
 * locales it is written in), `entry:<key>:<locale>` (one whole translation), `entries:<collection>`
 * (the collection's list: which entries, in which locales, in order; what a render reads of them
 * is tracked per field, see fingerprints.ts). Each is taken when asked for: a list page's reads
 * name every entry, and hashing every whole translation (its HTML turned back into text) for them
 * was most of the fingerprints of a one-post edit.
 */
export function entryPrinter(
  entries: ReadonlyMap<string, Entry>,
  list: readonly Entry[],
  hash: (text: string) => string,
): (key: string) => string {
  let lists: Map<string, string> | undefined;
  return (key) => {
    if (key.startsWith('entries:')) {
      lists ??= collectionLists(list);
      const text = lists.get(key.slice('entries:'.length));
      return text === undefined ? '-' : hash(text);
    }
    const rest = key.slice('entry:'.length);
    const entry = entries.get(rest);
    if (entry) return Object.keys(entry.translations).sort().join(' ');
    const colon = rest.lastIndexOf(':');
    const translation = colon < 0 ? undefined : translationAt(entries, key);
    return translation ? hash(JSON.stringify(translation)) : '-';
  };
}

/** What the copy of one content id is loaded from: the config's parts it reads, its pages' locales, templates and routes, and the templates (their schemas). */
export function copySourceKey(config: ResolvedConfig, pages: readonly Page[], templatesId: number): string {
  // The admin's copy names the site (`{siteName}`, see content/pages.ts): renaming it reloads that copy.
  const siteName = pages.some((page) => isAdminTemplate(page.template)) ? config.site.name : null;
  return JSON.stringify([
    templatesId,
    config.dirs.content,
    config.company,
    copyValuesOf(config),
    siteName,
    config.markdown,
    markdownPluginsOf(config),
    config.localeIds,
    pages.map((page) => [page.locale, page.template, page.route.path]),
  ]);
}

/** Loads the copy `pages` show, validated by their templates' schemas; problems go to `diagnostics`. */
export function loadCopy(
  config: ResolvedConfig,
  pages: readonly Page[],
  templates: TemplateSet,
  diagnostics: Diagnostics,
  options: { markdown: MarkdownRenderer; parseYaml: ParseYaml | undefined; copyCache?: DiskCache },
): Promise<Map<string, PageContent>> {
  // The templates' bundle is named by its content (render/templates.ts); zod, which runs their schemas, is not in it.
  const bundle = templatesIdOf(templates);
  const validated =
    options.copyCache && bundle
      ? { cache: options.copyCache, schemas: hashParts(generatorFingerprint(), bundle, installedVersion('zod')) }
      : undefined;
  return loadPageContent(config, pages, (name) => templates.pages[name]?.content, diagnostics, {
    markdown: options.markdown,
    parseYaml: options.parseYaml,
    validated,
  });
}

/**
 * A render's problem with its position in the content file filled in: a template that refuses its
 * copy names the file and the field, and the field's line is found here (rendering is pure and may
 * run on a worker); other problems are returned as they are.
 */
export function positionRenderProblem(problem: SiteError): SiteError {
  if (problem.code !== 'TEMPLATE_REJECTED' || !problem.file || problem.line !== undefined) return problem;
  const { code, message, field, hint, severity, cause } = problem;
  return new SiteError({ code, message, field, hint, severity, cause, ...locateContentField(problem.file, field) });
}

/** What rendering needs besides the templates: plain data, so it can be sent to the workers. */
export type SiteRenderInput = Omit<RenderInput, 'templates' | 'track'>;

/** The render input of a build. */
export function renderInputOf(input: {
  config: ResolvedConfig;
  pages: readonly Page[];
  messages: Messages;
  contents: ReadonlyMap<string, PageContent>;
  entries: readonly Entry[];
  stylesheet: string;
}): SiteRenderInput {
  const { config, pages, messages, contents, stylesheet } = input;
  // Asked once per build and set of pages (the pipeline asks first, to report a plugin's failure).
  const pluginHead = pluginHeadOf(config, pages);
  // The admin's stylesheet is named by its text (admin-pages.ts), so its URL is known here without the assets step.
  const fonts = preloadFontUrls(config);
  // So is highlighted code's, by its themes (content/highlight.ts): a page with such code links it.
  const { highlight } = config.markdown;
  const assets = {
    stylesheet,
    ...(config.admin.enabled ? { admin: adminStylesheet().url } : {}),
    ...(fonts.length ? { fonts } : {}),
    ...(highlight ? { code: codeStylesheetUrl(highlight, assetsFolder) } : {}),
  };
  return {
    config,
    pages,
    messages,
    contents,
    entries: byCollection(config, input.entries),
    assets,
    ...(pluginHead ? { pluginHead } : {}),
  };
}

/** A renderer of the pages of `input`; with `track`, each page comes with what its render read. */
export function createSiteRenderer(
  input: SiteRenderInput,
  templates: TemplateSet,
  islands: IslandScripts,
  track: boolean,
): PageRenderer {
  return createPageRenderer({ ...input, templates }, islands, { track });
}

/**
 * The social card of every page, by its output file (pages that show the same card share it),
 * from each page's meta as the head names it. A page whose meta fails has none: its render
 * reports the failure.
 */
export function socialCardsOf(input: SiteRenderInput, templates: TemplateSet): Map<string, SocialCard> {
  const { metaOf } = createRenderer({ ...input, templates });
  const cards = new Map<string, SocialCard>();
  for (const page of input.pages) {
    let card: SocialCard;
    try {
      card = socialCardOf(page, metaOf(page), input.config);
    } catch {
      continue;
    }
    cards.set(socialImageFile(card), card);
  }
  return cards;
}

/** The feeds of each collection that has one, in each locale: they depend on the entries, the messages and the config. */
export function createFeedFiles(input: {
  config: ResolvedConfig;
  entries: readonly Entry[];
  messages: Messages;
}): Map<string, string> {
  const { config, messages } = input;
  const entries = byCollection(config, input.entries);
  const files = new Map<string, string>();
  for (const collection of Object.keys(entries)) {
    const labels = config.collections[collection]!.taxonomy?.labels ?? `${collection}.terms`;
    for (const locale of config.localeIds) {
      const text = (key: string) => lookupMessage(messages[locale] ?? {}, key, copyValuesOf(config)) ?? key;
      const feeds = createFeeds({
        config,
        collection,
        locale,
        entries: entries[collection]!,
        title: `${config.site.name} · ${text(`${collection}.title`)}`,
        description: text(`${collection}.description`),
        termName: (term) => lookupMessage(messages[locale] ?? {}, `${labels}.${term}`) ?? term,
      });
      for (const feed of feeds) files.set(feed.file, feed.text);
    }
  }
  return files;
}
