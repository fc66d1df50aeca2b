/**
 * Blog posts: `content/blog/<slug>/<locale>.md` with zod-checked front matter. Each translation's
 * Markdown is rendered once, whatever number of pages (audience copies, fallbacks) show it.
 */
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { z } from 'zod';
import { hashParts, openDiskCache, type DiskCache } from '../cache/disk-cache.js';
import type { ResolvedConfig } from '../config/load.js';
import { SiteError } from '../errors.js';
import type { PostIndexEntry } from '../routes/pages.js';
import { locate, validateYaml } from '../yaml-source.js';
import { bodyStartLine, findFrontMatter, splitFrontMatter } from './front-matter.js';
import { markdownLimitError, readingMinutes } from './markdown.js';
import { readTextFile } from './text-file.js';
import { defaultMarkdownRenderer, type MarkdownRenderer } from './markdown-cache.js';

/** Slugs are folder names of lowercase letters, digits and hyphens. */
export const postSlugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'use an ISO date such as 2026-03-18')
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value), 'not a real calendar date');

/** The front matter of a post; the categories come from the config. */
export function createFrontMatterSchema(categories: readonly string[]) {
  return z.strictObject({
    title: z.string().min(1),
    description: z.string().min(1),
    date: isoDate,
    updated: isoDate.optional(),
    category: z.enum(categories as [string, ...string[]]),
    author: z.string().min(1),
    image: z.string().optional(),
    draft: z.boolean().default(false),
  });
}

/** Front matter after validation. */
export type PostFrontMatter = z.output<ReturnType<typeof createFrontMatterSchema>>;

/** One translation of a post, rendered. */
export interface PostTranslation extends PostFrontMatter {
  locale: string;
  html: string;
  words: number;
  readingMinutes: number;
  file: string;
}

/** A post with all its translations. */
export interface Post {
  slug: string;
  translations: Record<string, PostTranslation>;
}

/** Options of `loadPosts`. */
export interface LoadPostsOptions {
  /** Include posts marked `draft: true`. */
  drafts?: boolean;
  /** Renders the Markdown (default: through the disk cache, on this thread). */
  markdown?: MarkdownRenderer;
  /** Validated front matter by the hash of its text, or false for none (default: the build cache). */
  frontMatterCache?: DiskCache | false;
}

/** Raise when the validation of front matter changes in a way the source of its schema's function does not show (`isoDate`). */
const frontMatterRevision = 1;

/** A translation read and checked, waiting for its Markdown. */
interface PendingTranslation {
  data: PostFrontMatter;
  locale: string;
  file: string;
  body: string;
  /** The line of the file the body starts on. */
  bodyLine: number;
}


/** Reads every post; errors are collected, and posts with errors are left out. */
export async function loadPosts(config: ResolvedConfig, errors: SiteError[], options: LoadPostsOptions = {}): Promise<Post[]> {
  const slugs = await listPostSlugs(config);
  const pending = await Promise.all(slugs.map((slug) => readPost(config, slug, errors, options)));
  // All bodies in one batch, so the renderer can share the misses out over a worker pool.
  return renderPosts(config, pending, errors, options.markdown);
}

/** The folder names under content/blog/, sorted ([] when there is no blog folder). */
export async function listPostSlugs(config: ResolvedConfig): Promise<string[]> {
  try {
    const entries = await readdir(join(config.dirs.content, 'blog'), { withFileTypes: true });
    return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
  } catch {
    return [];
  }
}

const frontMatterSchemas = new WeakMap<ResolvedConfig, { schema: ReturnType<typeof createFrontMatterSchema>; id: string }>();
let defaultFrontMatterCache: DiskCache | undefined;

/** The front matter schema of a config and what identifies it in cache keys. */
function frontMatterSchemaOf(config: ResolvedConfig): { schema: ReturnType<typeof createFrontMatterSchema>; id: string } {
  let entry = frontMatterSchemas.get(config);
  if (!entry) {
    const id = hashParts(`revision ${frontMatterRevision}`, createFrontMatterSchema.toString(), JSON.stringify(config.blog.categories));
    entry = { schema: createFrontMatterSchema(config.blog.categories), id };
    frontMatterSchemas.set(config, entry);
  }
  return entry;
}

/** Reads one post folder; errors are collected, and undefined is returned when nothing is shown. */
export async function loadPost(config: ResolvedConfig, slug: string, errors: SiteError[], options: LoadPostsOptions = {}): Promise<Post | undefined> {
  const [post] = await renderPosts(config, [await readPost(config, slug, errors, options)], errors, options.markdown);
  return post;
}

/** Reads and checks the translations of a post folder that are shown, without their Markdown. */
async function readPost(config: ResolvedConfig, slug: string, errors: SiteError[], options: LoadPostsOptions): Promise<{ slug: string; translations: PendingTranslation[] } | undefined> {
  const dir = join(config.dirs.content, 'blog');
  const schema = frontMatterSchemaOf(config);
  const cache = options.frontMatterCache === false ? undefined : options.frontMatterCache ?? (defaultFrontMatterCache ??= openDiskCache('front-matter'));
  const folder = relative(process.cwd(), join(dir, slug));
  if (!postSlugPattern.test(slug)) {
    errors.push(new SiteError({ code: 'POST_INVALID', message: `"${slug}" is not a valid slug`, file: folder, hint: 'Rename the folder with lowercase letters, digits and hyphens only.' }));
    return undefined;
  }
  const translations: PendingTranslation[] = [];
  let found = 0;
  for (const locale of config.localeIds) {
    const path = join(dir, slug, `${locale}.md`);
    let text: string;
    try {
      // Synchronous: thousands of small files read several times faster than through the thread pool.
      text = readTextFile(path, errors);
    } catch {
      continue;
    }
    found++;
    const translation = readTranslation(text, relative(process.cwd(), path), locale, schema, cache, errors);
    const tooMuch = translation && markdownLimitError(translation.body, translation.bodyLine, translation.file, config.markdown);
    if (tooMuch) {
      errors.push(tooMuch);
      continue;
    }
    if (translation && (options.drafts || !translation.data.draft)) translations.push(translation);
  }
  if (found === 0) {
    errors.push(new SiteError({
      code: 'POST_INVALID',
      message: `post "${slug}" has no translation`,
      file: folder,
      hint: `Add ${config.localeIds.map((locale) => `${locale}.md`).join(' or ')} to the folder.`,
    }));
  }
  return translations.length ? { slug, translations } : undefined;
}

/**
 * Checks a translation's front matter. Front matter that passed before (same text, same schema)
 * comes from the cache without parsing; anything else is parsed with positions for its errors.
 */
function readTranslation(
  text: string,
  file: string,
  locale: string,
  schema: { schema: ReturnType<typeof createFrontMatterSchema>; id: string },
  cache: DiskCache | undefined,
  errors: SiteError[],
): PendingTranslation | undefined {
  const parts = cache && findFrontMatter(text);
  const key = parts ? hashParts(schema.id, parts.yaml) : undefined;
  if (parts && key) {
    const cached = decodeFrontMatter(cache.readSync(key));
    if (cached) return { data: cached, locale, file, body: parts.body, bodyLine: bodyStartLine(text, parts.body) };
  }
  const { source, body, errors: syntax } = splitFrontMatter(text, file);
  if (syntax.length) {
    errors.push(...syntax);
    return undefined;
  }
  const { data, errors: invalid } = validateYaml(source, schema.schema, 'FRONT_MATTER');
  if (!data) {
    errors.push(...invalid.map((error) => (error.line === undefined ? new SiteError({ ...error, code: error.code, message: error.message, hint: error.hint, ...locate(source, []) }) : error)));
    return undefined;
  }
  if (cache && key) void cache.write(key, JSON.stringify(data));
  return { data, locale, file, body, bodyLine: bodyStartLine(text, body) };
}

function decodeFrontMatter(entry: Buffer | undefined): PostFrontMatter | undefined {
  if (!entry) return undefined;
  try {
    const data = JSON.parse(entry.toString('utf8')) as unknown;
    return typeof data === 'object' && data !== null ? (data as PostFrontMatter) : undefined;
  } catch {
    return undefined;
  }
}

/** Renders the Markdown of the posts in one batch and completes their translations; a translation the parser fails on is an error. */
async function renderPosts(
  config: ResolvedConfig,
  pending: readonly ({ slug: string; translations: PendingTranslation[] } | undefined)[],
  errors: SiteError[],
  markdown: MarkdownRenderer = defaultMarkdownRenderer(),
): Promise<Post[]> {
  const posts = pending.filter((post) => post !== undefined);
  const rendered = await markdown.renderAll(posts.flatMap((post) => post.translations.map((translation) => translation.body)));
  let next = 0;
  return posts.flatMap((post) => {
    const translations: Record<string, PostTranslation> = {};
    for (const { data, locale, file, bodyLine } of post.translations) {
      const outcome = rendered[next++]!;
      if ('error' in outcome) {
        errors.push(new SiteError({ code: 'MARKDOWN_FAILED', message: outcome.error, file, line: bodyLine }));
        continue;
      }
      translations[locale] = { ...data, locale, file, html: outcome.html, words: outcome.words, readingMinutes: readingMinutes(outcome.words, config.blog.wordsPerMinute) };
    }
    return Object.keys(translations).length ? [{ slug: post.slug, translations }] : [];
  });
}

/** The part of the posts that route expansion needs. */
export function indexPosts(posts: readonly Post[]): PostIndexEntry[] {
  return posts.map((post) => ({
    slug: post.slug,
    translations: Object.fromEntries(Object.entries(post.translations).map(([locale, t]) => [locale, { date: t.date, category: t.category }])),
  }));
}
