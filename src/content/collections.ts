/**
 * Collections: dated Markdown entries, `<content>/<folder>/<slug>/<locale>.md`, one folder per
 * entry and one file per language, with front matter checked against the schema the config
 * declares for the collection. Each translation's Markdown is rendered once, whatever number of
 * pages (audience copies, fallbacks) show it. The blog is one collection among any others.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { hashParts, openDiskCache, type DiskCache } from '../cache/disk-cache.js';
import type { ResolvedConfig } from '../config/load.js';
import type { CollectionConfig } from '../config/schema.js';
import { sourcesOf } from '../config/sources.js';
import { createDiagnostics, type Diagnostics } from '../diagnostics.js';
import { SiteError } from '../errors.js';
import type { EntryIndex } from '../routes/pages.js';
import { locate, validateYaml } from '../yaml-source.js';
import { bodyStartLine, findFrontMatter, splitFrontMatter } from './front-matter.js';
import { markdownFailure, markdownLimitError, markdownPluginsOf, readingMinutes } from './markdown.js';
import { copyValuesOf, fillPlaceholders } from './messages.js';
import { readTextFile } from './text-file.js';
import { createFrontMatterSchema } from './front-matter-schema.js';

export { createFrontMatterSchema, frontMatterFields, type FrontMatterField } from './front-matter-schema.js';
import { locateContentField } from './field-position.js';
import { readEntryImage, type EntryImage } from './images.js';
import { resolveFieldValues, type FieldValue } from './entry-fields.js';
import { resolveMarkdownImages, type MarkdownImage } from './markdown-images.js';
import { placeUses } from './component-uses.js';
import type { ComponentUse } from './directives.js';
import { defaultMarkdownRenderer, type MarkdownRenderer } from './markdown-cache.js';
import type { ScheduledTranslation } from './schedule.js';

/** Slugs are folder names of lowercase letters, digits and hyphens. */
export const entrySlugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The front matter every entry has. */
interface EntryBasics {
  title: string;
  description: string;
  date: string;
  updated?: string;
  draft: boolean;
  /** The slug of this translation's URL when it differs from the folder name (front matter `slug:`). */
  slug?: string;
}

/** Front matter after validation. */
export type EntryFrontMatter = EntryBasics & { image?: string; imageAlt?: string } & Record<string, unknown>;

/** One translation of an entry, rendered. */
export interface EntryTranslation extends EntryBasics {
  /** Its image, checked (content/images.ts), when its front matter names one. */
  image?: EntryImage;
  /** The image files its Markdown shows (content/markdown-images.ts), when it shows any: the build publishes their variants. */
  bodyImages?: MarkdownImage[];
  /** The components its Markdown uses (content/directives.ts), at their lines in `file`, when it uses any: the build checks them. */
  components?: ComponentUse[];
  locale: string;
  /** The source file, relative to the working directory. */
  file: string;
  /** The taxonomy term (the value of the collection's taxonomy field), when it has one. */
  term?: string;
  /**
   * The front matter declared under the collection's `fields:`: a Markdown field as its HTML, an
   * image field as its checked `EntryImage`, a reference as the slug of its entry (`site.entry`).
   */
  fields: Record<string, FieldValue>;
  /** The images its image fields show, when it has any: the build publishes their variants. */
  fieldImages?: EntryImage[];
  html: string;
  words: number;
  readingMinutes: number;
}

/** An entry with all its translations. */
export interface Entry {
  collection: string;
  slug: string;
  translations: Record<string, EntryTranslation>;
}

/** Options of `loadCollections` and `loadEntry`. */
export interface LoadEntriesOptions {
  /** Include entries marked `draft: true`. */
  drafts?: boolean;
  /** Leave out translations dated after this ISO date (scheduled); undefined includes every date. */
  publishedBy?: string;
  /** Renders the Markdown (default: through the disk cache, on this thread). */
  markdown?: MarkdownRenderer;
  /** Validated front matter by the hash of its text, or false for none (default: the build cache). */
  frontMatterCache?: DiskCache | false;
}

/** Raise when the validation of front matter changes in a way the source of its schema's function does not show (`isoDate`). */
const frontMatterRevision = 3;

/** A translation read and checked, waiting for its Markdown. */
interface PendingTranslation {
  data: EntryFrontMatter;
  locale: string;
  file: string;
  body: string;
  /** The line of the file the body starts on. */
  bodyLine: number;
}

/** An entry folder read and checked, waiting for its Markdown. */
interface PendingEntry {
  collection: string;
  slug: string;
  /** The entry's folder, absolute: its image is read from there. */
  folder: string;
  translations: PendingTranslation[];
  /** The translations left out until their day. */
  scheduled: ScheduledTranslation[];
}

/** An entry folder loaded: the entry (undefined when nothing of it is shown) and its translations waiting for their day. */
export interface LoadedEntry {
  entry?: Entry;
  scheduled: ScheduledTranslation[];
}

interface FrontMatterSchema {
  schema: ReturnType<typeof createFrontMatterSchema>;
  /** Identifies the schema in cache keys. */
  id: string;
}

/** Whether a translation dated `date` is shown on `publishedBy` (an ISO date; undefined: always). Scheduled posts appear on their day. */
export function isPublished(date: string, publishedBy: string | undefined): boolean {
  return publishedBy === undefined || date <= publishedBy;
}

/** Reads the entries of every collection, in slug order; problems go to `diagnostics`, and entries with errors are left out. */
export async function loadCollections(config: ResolvedConfig, diagnostics: Diagnostics, options: LoadEntriesOptions = {}): Promise<Record<string, Entry[]>> {
  const names = Object.keys(config.collections).sort();
  const pending = await Promise.all(names.map(async (name) => {
    const slugs = await listEntrySlugs(config, name);
    return Promise.all(slugs.map((slug) => readEntry(config, name, slug, diagnostics, options)));
  }));
  // All bodies in one batch, so the renderer can share the misses out over a worker pool.
  const entries = await renderEntries(config, pending.flat(), diagnostics, options.markdown);
  const byCollection: Record<string, Entry[]> = {};
  for (const name of names) byCollection[name] = entries.filter((entry) => entry.collection === name);
  return byCollection;
}

/** The entry folders of a collection, sorted ([] when the folder does not exist). */
export async function listEntrySlugs(config: ResolvedConfig, collection: string): Promise<string[]> {
  try {
    const entries = await readdir(sourcesOf(config).collection(collection), { withFileTypes: true });
    return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
  } catch {
    return [];
  }
}

/** Reads one entry folder; problems go to `diagnostics`. */
export async function loadEntry(config: ResolvedConfig, collection: string, slug: string, diagnostics: Diagnostics, options: LoadEntriesOptions = {}): Promise<LoadedEntry> {
  const pending = await readEntry(config, collection, slug, diagnostics, options);
  const [entry] = await renderEntries(config, [pending], diagnostics, options.markdown);
  return { entry, scheduled: pending?.scheduled ?? [] };
}

const frontMatterSchemas = new WeakMap<CollectionConfig, FrontMatterSchema>();
let defaultFrontMatterCache: DiskCache | undefined;

/** The front matter schema of a collection and what identifies it in cache keys. */
function frontMatterSchemaOf(collection: CollectionConfig): FrontMatterSchema {
  let entry = frontMatterSchemas.get(collection);
  if (!entry) {
    const id = hashParts(`revision ${frontMatterRevision}`, createFrontMatterSchema.toString(), JSON.stringify([collection.fields, collection.taxonomy]));
    entry = { schema: createFrontMatterSchema(collection), id };
    frontMatterSchemas.set(collection, entry);
  }
  return entry;
}

/**
 * Checks the text of one translation exactly as the build does (front matter against the
 * collection's schema, the Markdown limits), without reading a file: the errors are the ones
 * `site check` would report for that file. The admin checks an edit with it before writing.
 */
export function checkEntryText(config: ResolvedConfig, collection: string, text: string, file: string): { data?: EntryFrontMatter; body: string; errors: SiteError[] } {
  const diagnostics = createDiagnostics();
  const translation = readTranslation(text, file, '', frontMatterSchemaOf(config.collections[collection]!), undefined, diagnostics);
  const tooMuch = translation && markdownLimitError(translation.body, translation.bodyLine, file, config.markdown);
  if (tooMuch) diagnostics.add(tooMuch);
  const errors = diagnostics.of('error');
  return { data: errors.length ? undefined : translation?.data, body: translation?.body ?? text, errors };
}

/** Reads and checks the translations of an entry folder that are shown, without their Markdown. */
async function readEntry(config: ResolvedConfig, collection: string, slug: string, diagnostics: Diagnostics, options: LoadEntriesOptions): Promise<PendingEntry | undefined> {
  const sources = sourcesOf(config);
  const schema = frontMatterSchemaOf(config.collections[collection]!);
  const cache = options.frontMatterCache === false ? undefined : options.frontMatterCache ?? (defaultFrontMatterCache ??= openDiskCache('front-matter'));
  const folder = sources.display(join(sources.collection(collection), slug));
  if (!entrySlugPattern.test(slug)) {
    diagnostics.error({ code: 'ENTRY_INVALID', message: `"${slug}" is not a valid slug`, file: folder, hint: 'Rename the folder with lowercase letters, digits and hyphens only.' });
    return undefined;
  }
  const translations: PendingTranslation[] = [];
  const scheduled: ScheduledTranslation[] = [];
  let found = 0;
  for (const locale of config.localeIds) {
    const path = sources.entry(collection, slug, locale);
    let text: string;
    try {
      // Synchronous: thousands of small files read several times faster than through the thread pool.
      text = readTextFile(path, diagnostics);
    } catch {
      continue;
    }
    found++;
    const translation = readTranslation(text, sources.display(path), locale, schema, cache, diagnostics);
    const tooMuch = translation && markdownLimitError(translation.body, translation.bodyLine, translation.file, config.markdown);
    if (tooMuch) {
      diagnostics.add(tooMuch);
      continue;
    }
    const shown = translation && (options.drafts || !translation.data.draft);
    if (shown && isPublished(translation.data.date, options.publishedBy)) translations.push(translation);
    else if (shown) scheduled.push({ collection, slug, locale, title: fillPlaceholders(translation.data.title, copyValuesOf(config)), date: translation.data.date, file: translation.file });
    else if (translation && translation.data.draft && !options.drafts) diagnostics.info({ code: 'ENTRY_DRAFT', message: `${collection} entry "${slug}" in ${locale} is a draft (draft: true): left out`, file: translation.file });
  }
  if (found === 0) {
    diagnostics.error({
      code: 'ENTRY_INVALID',
      message: `${collection} entry "${slug}" has no translation`,
      file: folder,
      hint: `Add ${config.localeIds.map((locale) => `${locale}.md`).join(' or ')} to the folder.`,
    });
  }
  return translations.length || scheduled.length ? { collection, slug, folder: join(sources.collection(collection), slug), translations, scheduled } : undefined;
}

/**
 * Checks a translation's front matter. Front matter that passed before (same text, same schema)
 * comes from the cache without parsing; anything else is parsed with positions for its errors.
 */
function readTranslation(
  text: string,
  file: string,
  locale: string,
  schema: FrontMatterSchema,
  cache: DiskCache | undefined,
  diagnostics: Diagnostics,
): PendingTranslation | undefined {
  const parts = cache && findFrontMatter(text);
  const key = parts ? hashParts(schema.id, parts.yaml) : undefined;
  if (parts && key) {
    const cached = decodeFrontMatter(cache.readSync(key));
    if (cached) return { data: cached, locale, file, body: parts.body, bodyLine: bodyStartLine(text, parts.body) };
  }
  const { source, body, errors: syntax } = splitFrontMatter(text, file);
  if (syntax.length) {
    diagnostics.add(...syntax);
    return undefined;
  }
  const { data, errors: invalid } = validateYaml(source, schema.schema, 'FRONT_MATTER');
  if (!data) {
    diagnostics.add(...invalid.map((error) => (error.line === undefined ? new SiteError({ ...error, code: error.code, message: error.message, hint: error.hint, ...locate(source, []) }) : error)));
    return undefined;
  }
  // A data collection's entry may have neither date nor description: the rest of the build reads ''.
  const filled = { ...data, date: data.date ?? '', description: data.description ?? '' };
  if (cache && key) void cache.write(key, JSON.stringify(filled));
  return { data: filled, locale, file, body, bodyLine: bodyStartLine(text, body) };
}

function decodeFrontMatter(entry: Buffer | undefined): EntryFrontMatter | undefined {
  if (!entry) return undefined;
  try {
    const data = JSON.parse(entry.toString('utf8')) as unknown;
    return typeof data === 'object' && data !== null ? (data as EntryFrontMatter) : undefined;
  } catch {
    return undefined;
  }
}

/** A translation from its checked front matter and its rendered Markdown (the build's and the admin preview's one way to make it). */
export function completeTranslation(collection: CollectionConfig, data: EntryFrontMatter, locale: string, file: string, rendered: { html: string; words: number; components?: ComponentUse[] }): EntryTranslation {
  const termField = collection.taxonomy?.field;
  const { title, description, date, updated, draft, slug } = data;
  const fields: Record<string, FieldValue> = {};
  for (const name of Object.keys(collection.fields).sort()) {
    const value = data[name];
    // A copy: the Markdown and image fields are resolved in place.
    if (value !== undefined) fields[name] = structuredClone(value) as FieldValue;
  }
  return {
    locale,
    file,
    title,
    description,
    date,
    ...(updated === undefined ? {} : { updated }),
    draft,
    ...(slug === undefined ? {} : { slug }),
    ...(termField === undefined ? {} : { term: data[termField] as string }),
    fields,
    html: rendered.html,
    words: rendered.words,
    readingMinutes: readingMinutes(rendered.words, collection.wordsPerMinute),
    ...(rendered.components?.length ? { components: rendered.components } : {}),
  };
}

/** Renders the Markdown of the entries in one batch and completes their translations; a translation the parser fails on is an error. */
async function renderEntries(
  config: ResolvedConfig,
  pending: readonly (PendingEntry | undefined)[],
  diagnostics: Diagnostics,
  markdown: MarkdownRenderer = defaultMarkdownRenderer(),
): Promise<Entry[]> {
  const entries = pending.filter((entry) => entry !== undefined);
  // The site's `{name}` placeholders (`{minutes}`: see copyValuesOf) are filled before the Markdown is rendered.
  const values = copyValuesOf(config);
  const fill = (text: string) => fillPlaceholders(text, values);
  const rendered = await markdown.renderAll(entries.flatMap((entry) => entry.translations.map((translation) => fill(translation.body))), markdownPluginsOf(config));
  let next = 0;
  const done = await Promise.all(entries.map(async (entry) => {
    const collection = config.collections[entry.collection]!;
    const translations: Record<string, EntryTranslation> = {};
    for (const { data, locale, file, bodyLine } of entry.translations) {
      const outcome = rendered[next++]!;
      if ('error' in outcome) {
        diagnostics.error(markdownFailure(outcome, file, bodyLine));
        continue;
      }
      // The images its body shows from the entry's folder, published as the cover is.
      const body = await resolveMarkdownImages(outcome, entry.folder, { file, bodyLine });
      if (body.errors.length) {
        diagnostics.add(...body.errors);
        continue;
      }
      const components = outcome.components && placeUses(outcome.components, bodyLine);
      const translation = completeTranslation(collection, { ...data, title: fill(data.title), description: fill(data.description) }, locale, file, { html: body.html, words: outcome.words, ...(components ? { components } : {}) });
      if (body.images.length) translation.bodyImages = body.images;
      const resolved = await resolveFieldValues(collection, translation.fields, { folder: entry.folder, locale }, markdown, markdownPluginsOf(config));
      if (resolved.problems.length) {
        diagnostics.add(...resolved.problems.map((problem) => new SiteError({ code: 'ENTRY_FIELD', ...problem, ...locateContentField(file, problem.field) })));
        continue;
      }
      if (resolved.images.length) translation.fieldImages = resolved.images;
      if (data.image !== undefined) {
        const image = await readEntryImage(entry.folder, data.image, data.imageAlt, locale);
        if ('message' in image) {
          diagnostics.error({ code: 'ENTRY_IMAGE', message: image.message, hint: image.hint, field: image.field, ...locateContentField(file, image.field in data ? image.field : 'image') });
          continue;
        }
        translation.image = image;
      }
      translations[locale] = translation;
    }
    return Object.keys(translations).length ? [{ collection: entry.collection, slug: entry.slug, translations }] : [];
  }));
  return done.flat();
}

/** The part of the entries that route expansion needs. */
export function indexEntries(entries: Readonly<Record<string, readonly Entry[]>>): Record<string, EntryIndex[]> {
  const index: Record<string, EntryIndex[]> = {};
  for (const [name, list] of Object.entries(entries)) {
    index[name] = list.map((entry) => ({
      collection: entry.collection,
      slug: entry.slug,
      translations: Object.fromEntries(Object.entries(entry.translations).map(([locale, t]) => [locale, { date: t.date, ...(t.term === undefined ? {} : { term: t.term }), ...(t.slug === undefined ? {} : { slug: t.slug, file: t.file }) }])),
    }));
  }
  return index;
}
