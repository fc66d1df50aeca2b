/**
 * The pipeline's one door into the modules that know what a post, a page, its copy, a message and
 * a feed are: every call the pipeline makes into content/ (posts, messages, page copy), routes/,
 * render/render.ts (through render-pages.ts) and emit/feed.ts is here, with the keys that say
 * what each load read of the config. A change of their API (posts becoming collections, the URL
 * rules a `Urls` object) is a change of this file.
 */
import type { DiskCache } from '../cache/disk-cache.js';
import type { ParseYaml } from '../cache/yaml-cache.js';
import type { ResolvedConfig } from '../config/load.js';
import type { MarkdownRenderer } from '../content/markdown-cache.js';
import { loadMessages, lookupMessage, type MessageTree } from '../content/messages.js';
import { loadPageContent, type PageContent } from '../content/pages.js';
import { indexPosts, listPostSlugs, loadPost, type Post } from '../content/posts.js';
import { createFeed, feedPath } from '../emit/feed.js';
import type { SiteError } from '../errors.js';
import { createPageRenderer, type IslandScripts, type PageRenderer } from '../render/render-pages.js';
import type { RenderInput } from '../render/render.js';
import type { TemplateSet } from '../render/types.js';
import { createPages, pathRules, sortPosts, type Page } from '../routes/pages.js';
import { sameJson } from './stage.js';

export type { MessageTree, Page, PageContent, Post };

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

/** What the posts are loaded from (the folder, the locales, the blog and Markdown settings): when it changes, every post is loaded again. */
export function postsSourceKey(config: ResolvedConfig, drafts: boolean): string {
  return JSON.stringify([config.dirs.content, config.localeIds, config.blog, config.markdown, drafts]);
}

/** The slugs of the posts (the folders under content/blog/), sorted. */
export function listPosts(config: ResolvedConfig): Promise<string[]> {
  return listPostSlugs(config);
}

/** Loads one post folder; problems go to `errors`; undefined when nothing of it is shown. */
export function loadPostFolder(
  config: ResolvedConfig,
  slug: string,
  errors: SiteError[],
  options: { drafts: boolean; markdown: MarkdownRenderer; frontMatterCache: DiskCache | false },
): Promise<Post | undefined> {
  return loadPost(config, slug, errors, options);
}

/** The posts in the order the site lists them, from posts in slug order. */
export function orderPosts(posts: readonly Post[]): Post[] {
  return sortPosts(posts);
}

/** What route expansion reads of the posts, as text: the pages are expanded again only when it changes. */
export function postIndexKey(posts: readonly Post[]): string {
  return JSON.stringify(indexPosts(posts));
}

/** The pages of the site; throws SiteErrors (two pages that would write one file). */
export function expandPages(config: ResolvedConfig, posts: readonly Post[]): Page[] {
  return createPages(config, { posts: indexPosts(posts) });
}

/**
 * Adds to `changed` the render dependencies of the posts that differ between two builds: `post:<slug>`
 * when a post appears, goes or changes its locales, `post:<slug>:<locale>` for each translation
 * that differs, and `posts` when any does.
 */
export function diffPosts(before: ReadonlyMap<string, Post>, now: ReadonlyMap<string, Post>, changed: Set<string>): void {
  let postsChanged = false;
  const locales = (post: Post | undefined) => Object.keys(post?.translations ?? {}).sort().join(' ');
  for (const slug of new Set([...now.keys(), ...before.keys()])) {
    const old = before.get(slug);
    const current = now.get(slug);
    if (old === current || sameJson(old, current)) continue;
    postsChanged = true;
    if (!old || !current || locales(old) !== locales(current)) changed.add(`post:${slug}`);
    for (const locale of new Set([...Object.keys(old?.translations ?? {}), ...Object.keys(current?.translations ?? {})])) {
      if (!sameJson(old?.translations[locale], current?.translations[locale])) changed.add(`post:${slug}:${locale}`);
    }
  }
  if (postsChanged) changed.add('posts');
}

/**
 * The fingerprint, made with `hash`, of each post key a render may read: `post:<slug>` (the locales
 * it is written in), `post:<slug>:<locale>` (one translation), `posts` (every post, in order).
 */
export function fingerprintPosts(posts: readonly Post[], hash: (text: string) => string): Map<string, string> {
  const prints = new Map<string, string>();
  const all: string[] = [];
  for (const post of posts) {
    const locales = Object.keys(post.translations).sort();
    prints.set(`post:${post.slug}`, locales.join(' '));
    for (const locale of locales) {
      const print = hash(JSON.stringify(post.translations[locale]));
      prints.set(`post:${post.slug}:${locale}`, print);
      all.push(post.slug, locale, print);
    }
  }
  prints.set('posts', hash(all.join('\n')));
  return prints;
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
export function renderInputOf(input: { config: ResolvedConfig; pages: readonly Page[]; messages: Messages; contents: ReadonlyMap<string, PageContent>; posts: readonly Post[]; stylesheet: string }): SiteRenderInput {
  const { config, pages, messages, contents, posts, stylesheet } = input;
  return { config, pages, messages, contents, posts, assets: { stylesheet } };
}

/** A renderer of the pages of `input`; with `track`, each page comes with what its render read. */
export function createSiteRenderer(input: SiteRenderInput, templates: TemplateSet, islands: IslandScripts, track: boolean): PageRenderer {
  return createPageRenderer({ ...input, templates }, islands, { track });
}

/** The feed of each locale when the site has a blog: it depends on the posts, the messages and the config. */
export function createFeedFiles(input: { config: ResolvedConfig; posts: readonly Post[]; messages: Messages }): Map<string, string> {
  const { config, posts, messages } = input;
  const rules = pathRules(config);
  const files = new Map<string, string>();
  if (config.routes.some((route) => route.blog)) {
    for (const locale of config.localeIds) {
      const text = (key: string) => lookupMessage(messages[locale] ?? {}, key) ?? key;
      files.set(feedPath(locale, rules).slice(1), createFeed({ config, rules, locale, posts, title: `${config.site.name} · ${text('blog.title')}`, description: text('blog.description') }));
    }
  }
  return files;
}

