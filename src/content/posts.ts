/**
 * Blog posts: `content/blog/<slug>/<locale>.md` with zod-checked front matter. Each translation's
 * Markdown is rendered once, whatever number of pages (audience copies, fallbacks) show it.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { z } from 'zod';
import type { ResolvedConfig } from '../config/load.js';
import { SiteError } from '../errors.js';
import type { PostIndexEntry } from '../routes/pages.js';
import { locate, validateYaml } from '../yaml-source.js';
import { splitFrontMatter } from './front-matter.js';
import { countWords, readingMinutes, renderMarkdown } from './markdown.js';

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
}

/** Reads every post; errors are collected, and posts with errors are left out. */
export async function loadPosts(config: ResolvedConfig, errors: SiteError[], options: LoadPostsOptions = {}): Promise<Post[]> {
  const dir = join(config.dirs.content, 'blog');
  let entries: string[];
  try {
    entries = (await readdir(dir, { withFileTypes: true })).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  } catch {
    return [];
  }
  const schema = createFrontMatterSchema(config.blog.categories);
  const posts = await Promise.all(entries.sort().map(async (slug): Promise<Post | undefined> => {
    const folder = relative(process.cwd(), join(dir, slug));
    if (!postSlugPattern.test(slug)) {
      errors.push(new SiteError({ code: 'POST_INVALID', message: `"${slug}" is not a valid slug`, file: folder, hint: 'Rename the folder with lowercase letters, digits and hyphens only.' }));
      return undefined;
    }
    const translations: Record<string, PostTranslation> = {};
    let found = 0;
    for (const locale of config.localeIds) {
      const path = join(dir, slug, `${locale}.md`);
      let text: string;
      try {
        text = await readFile(path, 'utf8');
      } catch {
        continue;
      }
      found++;
      const translation = await readTranslation(text, relative(process.cwd(), path), locale, schema, config, errors);
      if (translation && (options.drafts || !translation.draft)) translations[locale] = translation;
    }
    if (found === 0) {
      errors.push(new SiteError({
        code: 'POST_INVALID',
        message: `post "${slug}" has no translation`,
        file: folder,
        hint: `Add ${config.localeIds.map((locale) => `${locale}.md`).join(' or ')} to the folder.`,
      }));
    }
    return Object.keys(translations).length ? { slug, translations } : undefined;
  }));
  return posts.filter((post): post is Post => post !== undefined);
}

async function readTranslation(
  text: string,
  file: string,
  locale: string,
  schema: ReturnType<typeof createFrontMatterSchema>,
  config: ResolvedConfig,
  errors: SiteError[],
): Promise<PostTranslation | undefined> {
  const { source, body, errors: syntax } = splitFrontMatter(text, file);
  if (syntax.length) {
    errors.push(...syntax);
    return undefined;
  }
  const { data, errors: invalid } = validateYaml(source, schema, 'FRONT_MATTER');
  if (!data) {
    errors.push(...invalid.map((error) => (error.line === undefined ? new SiteError({ ...error, code: error.code, message: error.message, hint: error.hint, ...locate(source, []) }) : error)));
    return undefined;
  }
  const words = countWords(body);
  return { ...data, locale, file, html: await renderMarkdown(body), words, readingMinutes: readingMinutes(words, config.blog.wordsPerMinute) };
}

/** The part of the posts that route expansion needs. */
export function indexPosts(posts: readonly Post[]): PostIndexEntry[] {
  return posts.map((post) => ({
    slug: post.slug,
    translations: Object.fromEntries(Object.entries(post.translations).map(([locale, t]) => [locale, { date: t.date, category: t.category }])),
  }));
}
