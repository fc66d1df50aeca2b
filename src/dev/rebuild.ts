/**
 * The incremental build of `site dev`. It keeps every input the last build loaded (config,
 * templates, stylesheet and public files, islands, messages, each post, each page's copy) and, for
 * each page, what its render read. A change reloads only the inputs the changed files feed; the
 * new inputs are compared with those of the last good build, and only the pages that read
 * something that differs are rendered again. Templates, islands and CSS go through kept esbuild
 * contexts. The files are the ones `buildSite` returns for the same input, byte for byte.
 */
import { dirname, join, resolve } from 'node:path';
import { checkPageTemplates, createFeedFiles, createRouteFiles } from '../build.js';
import { loadConfig, type ResolvedConfig } from '../config/load.js';
import { loadMessages, type MessageTree } from '../content/messages.js';
import { loadPageContent, type PageContent } from '../content/pages.js';
import { indexPosts, listPostSlugs, loadPost, type Post } from '../content/posts.js';
import type { OutputFiles } from '../emit/write.js';
import { collectSiteErrors, SiteError, uniqueErrors, warningsOf } from '../errors.js';
import { buildAssets, type Assets } from '../islands/assets.js';
import { addIslandScripts, bundleIslands, listIslands, type IslandBundle, type IslandRuntime } from '../islands/bundle.js';
import { createRenderer } from '../render/render.js';
import { readTracked } from '../render/tracked-view.js';
import { listPageTemplates, loadTemplates } from '../render/templates.js';
import type { TemplateSet } from '../render/types.js';
import { createPages, sortPosts, type Page } from '../routes/pages.js';
import { classifyChange, type WatchedPaths } from '../pipeline/changes.js';
import { createEsbuildContexts } from '../pipeline/esbuild-contexts.js';
import { createMarkdownRenderer } from '../content/markdown-cache.js';
import { createWorkerPool, type WorkerPool } from '../parallel/pool.js';

/** Options of `createDevBuilder`. */
export interface DevBuilderOptions {
  /** Path of site.config.yaml. */
  config: string;
  drafts?: boolean;
  islandRuntime?: IslandRuntime;
}

/** A changed file or folder, as the watcher reports it. */
export interface FileChange {
  path: string;
  directory?: boolean;
}

/** What a successful rebuild did. */
export interface RebuildSuccess {
  ok: true;
  /** Counts the successful builds of this builder, from 1. */
  build: number;
  /** Inputs loaded again: config, templates, islands, styles (stylesheet and public/), messages, posts, copy. */
  reloaded: string[];
  /** Pages rendered in this rebuild, and the pages of the site. */
  rendered: number;
  pages: number;
  /** Output files added or changed, and removed, since the last good build. */
  changed: string[];
  removed: string[];
  /** URLs of the pages among them. */
  urls: string[];
  /** Set when nothing but the stylesheet changed: a page can swap it without reloading. */
  stylesheet?: { from: string; to: string };
  ms: number;
  /** Milliseconds per stage: load, routes, copy, render, emit. */
  timings: Record<string, number>;
  /** Problems that do not stop the build (a file that is not UTF-8, say). */
  warnings: SiteError[];
}

/** A rebuild that found problems; the last good build stays in place. */
export interface RebuildFailure {
  ok: false;
  reloaded: string[];
  errors: SiteError[];
  /** An unexpected failure (a bug in the generator or a template, not bad input). */
  crash?: unknown;
  ms: number;
}

/** The outcome of a rebuild. */
export type RebuildOutcome = RebuildSuccess | RebuildFailure;

/** The incremental builder. */
export interface DevBuilder {
  /** The files of the last good build (what `site build` writes), undefined before the first. */
  readonly files: OutputFiles | undefined;
  /** The config of the last good build. */
  readonly config: ResolvedConfig | undefined;
  /** The config file and the folders to watch (defaults until a config has loaded). */
  watched(): WatchedPaths;
  /** Reloads what the changed files feed and re-renders what that affects; with none, builds what is not built yet. */
  rebuild(changes?: readonly FileChange[]): Promise<RebuildOutcome>;
  dispose(): Promise<void>;
}

/** An input as last loaded: its value (when it loaded), its errors, and what it was loaded from. */
interface Loaded<T> {
  value: T | undefined;
  errors: SiteError[];
  from: string;
}

/** Lookups over one list of pages, kept as long as the list is. */
interface PageLayout {
  pages: Page[];
  byFile: Map<string, Page>;
  /** Content id → the pages that show it, in page order. */
  byContent: Map<string, Page[]>;
  /** Page URL → JSON of its record. */
  records: Map<string, string>;
}

function layoutOf(pages: Page[]): PageLayout {
  const byContent = new Map<string, Page[]>();
  for (const page of pages) {
    if (page.content === undefined) continue;
    const list = byContent.get(page.content);
    if (list) list.push(page);
    else byContent.set(page.content, [page]);
  }
  return { pages, byFile: new Map(pages.map((page) => [page.file, page])), byContent, records: new Map(pages.map((page) => [page.url, JSON.stringify(page)])) };
}

/** The last good build and what produced it. */
interface Committed {
  config: ResolvedConfig;
  templates: TemplateSet;
  islands: IslandBundle;
  islandsKey: string;
  assets: Assets;
  stylesheet: string;
  messages: Record<string, MessageTree>;
  posts: Map<string, Post>;
  contents: Map<string, PageContent>;
  pages: Page[];
  postIndex: string;
  layout: PageLayout;
  /** Page file → HTML, and what its render read. */
  html: Map<string, string>;
  reads: Map<string, Set<string>>;
  /** Input → the page files whose render read it (the inverse of `reads`). */
  readers: Map<string, Set<string>>;
  /** The files of the stylesheet, public/ and the islands; sitemap, robots.txt, `_headers`; feeds. */
  staticFiles: OutputFiles;
  routeFiles: Map<string, string>;
  feedFiles: Map<string, string>;
  /** Everything, as `buildSite` returns it. */
  files: OutputFiles;
}

function indexReads(readers: Map<string, Set<string>>, file: string, keys: Iterable<string>): void {
  for (const key of keys) {
    const files = readers.get(key);
    if (files) files.add(file);
    else readers.set(key, new Set([file]));
  }
}

function unindexReads(readers: Map<string, Set<string>>, file: string, keys: Iterable<string> | undefined): void {
  for (const key of keys ?? []) {
    const files = readers.get(key);
    files?.delete(file);
    if (files?.size === 0) readers.delete(key);
  }
}

const sameJson = (a: unknown, b: unknown) => a === b || (a !== undefined && b !== undefined && JSON.stringify(a) === JSON.stringify(b));
const sameBytes = (a: string | Uint8Array, b: string | Uint8Array) =>
  a === b || (typeof a !== 'string' && typeof b !== 'string' && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b));


/** Creates an incremental builder for the site of `options.config`. */
export function createDevBuilder(options: DevBuilderOptions): DevBuilder {
  const configPath = resolve(options.config);
  const esbuild = createEsbuildContexts();
  const run = esbuild.run;
  // Markdown is parsed on a worker thread, never on the server's event loop: a slow document
  // (the limits allow one to take seconds) must not stop the dev server from answering.
  let pool: WorkerPool | undefined;
  const markdown = createMarkdownRenderer({ pool: () => (pool ??= createWorkerPool(1)), poolThreshold: 0, shareWithMain: false });

  let config: Loaded<ResolvedConfig> | undefined;
  let templates: Loaded<TemplateSet> | undefined;
  let islands: Loaded<IslandBundle> | undefined;
  let assets: Loaded<Assets> | undefined;
  let messages: Loaded<Record<string, MessageTree>> | undefined;
  let slugs: Loaded<string[]> | undefined;
  const posts = new Map<string, Loaded<Post>>();
  const copies = new Map<string, Loaded<Map<string, PageContent>>>();
  let templatesGeneration = 0;
  let lastTemplates: TemplateSet | undefined;
  let lastDirs: WatchedPaths['dirs'] | undefined;
  let committed: Committed | undefined;
  let templateCheck: { pages: Page[]; templates: TemplateSet; errors: SiteError[] } | undefined;
  let builds = 0;
  let queue: Promise<unknown> = Promise.resolve();

  function watched(): WatchedPaths {
    const root = dirname(configPath);
    return { configFile: configPath, dirs: lastDirs ?? { content: join(root, 'content'), templates: join(root, 'templates'), public: join(root, 'public') } };
  }

  function invalidate(changes: readonly FileChange[]): void {
    for (const change of changes) {
      const input = classifyChange(resolve(change.path), watched(), change.directory);
      switch (input.kind) {
        case 'config':
          config = undefined;
          break;
        case 'templates':
          // A page template added or removed changes the names the config is checked against.
          config = undefined;
          templates = undefined;
          islands = undefined;
          if (input.withStyles) assets = undefined;
          break;
        case 'styles':
        case 'public':
          assets = undefined;
          break;
        case 'messages':
          messages = undefined;
          break;
        case 'content':
          messages = undefined;
          slugs = undefined;
          posts.clear();
          copies.clear();
          break;
        case 'post':
          slugs = undefined;
          if (input.slug !== undefined) posts.delete(input.slug);
          break;
        case 'copy':
          // A folder event names every copy below it too.
          for (const id of [...copies.keys()]) if (input.id === '' || id === input.id || id.startsWith(`${input.id}/`)) copies.delete(id);
          break;
        case 'none':
          break;
      }
    }
  }

  async function attempt(): Promise<RebuildOutcome> {
    const started = performance.now();
    const reloaded = new Set<string>();
    const elapsed = () => Math.round((performance.now() - started) * 10) / 10;
    const timings: Record<string, number> = {};
    let mark = started;
    const lap = (stage: string) => {
      const now = performance.now();
      timings[stage] = Math.round((now - mark) * 10) / 10;
      mark = now;
    };

    async function refresh<T>(current: Loaded<T> | undefined, from: string, stage: string, load: (errors: SiteError[]) => Promise<T | undefined>): Promise<Loaded<T>> {
      if (current && current.from === from) return current;
      reloaded.add(stage);
      const errors: SiteError[] = [];
      try {
        return { value: await load(errors), errors, from };
      } catch (error) {
        const found = collectSiteErrors(error);
        if (!found) throw error;
        return { value: undefined, errors: found, from };
      }
    }

    config = await refresh(config, '', 'config', async () => {
      const loaded = await loadConfig(configPath, { listTemplates: listPageTemplates });
      // The same config keeps its identity, so what depends on it is not redone.
      return committed && sameJson(loaded, committed.config) ? committed.config : loaded;
    });
    const site = config.value;
    if (!site) return { ok: false, reloaded: [...reloaded], errors: uniqueErrors(config.errors), ms: elapsed() };
    lastDirs = site.dirs;
    const { dirs } = site;
    const postsFrom = JSON.stringify([dirs.content, site.localeIds, site.blog, Boolean(options.drafts)]);

    const [loadedTemplates, loadedIslands, loadedAssets, loadedMessages] = await Promise.all([
      refresh(templates, dirs.templates, 'templates', async () => loadTemplates(dirs.templates, await listPageTemplates(dirs.templates), { run })),
      refresh(islands, JSON.stringify([dirs.templates, options.islandRuntime]), 'islands', async () =>
        bundleIslands(dirs.templates, await listIslands(dirs.templates), options.islandRuntime, { run })),
      refresh(assets, JSON.stringify([dirs.templates, dirs.public]), 'styles', () => buildAssets(dirs, { run })),
      refresh(messages, JSON.stringify([dirs.content, site.localeIds]), 'messages', (errors) => loadMessages(site, errors)),
      (async () => {
        slugs = await refresh(slugs, postsFrom, 'posts', () => listPostSlugs(site));
        const current = new Set(slugs.value);
        for (const slug of [...posts.keys()]) if (!current.has(slug)) posts.delete(slug);
        await Promise.all([...current].map(async (slug) => {
          posts.set(slug, await refresh(posts.get(slug), postsFrom, 'posts', (errors) => loadPost(site, slug, errors, { drafts: options.drafts, markdown })));
        }));
      })(),
    ]);
    lap('load');
    templates = loadedTemplates;
    islands = loadedIslands;
    assets = loadedAssets;
    messages = loadedMessages;
    if (templates.value && templates.value !== lastTemplates) {
      lastTemplates = templates.value;
      templatesGeneration++;
    }

    const errors: SiteError[] = [...templates.errors, ...islands.errors, ...assets.errors, ...(assets.value?.warnings ?? []), ...messages.errors, ...(slugs?.errors ?? [])];
    const postList = sortPosts((slugs?.value ?? []).flatMap((slug) => {
      const loaded = posts.get(slug);
      errors.push(...(loaded?.errors ?? []));
      return loaded?.value ? [loaded.value] : [];
    }));
    const postIndex = JSON.stringify(indexPosts(postList));
    let pages: Page[];
    if (committed && committed.config === site && committed.postIndex === postIndex) pages = committed.pages;
    else {
      try {
        pages = createPages(site, { posts: indexPosts(postList) });
      } catch (error) {
        const found = collectSiteErrors(error);
        if (!found) throw error;
        return { ok: false, reloaded: [...reloaded], errors: uniqueErrors([...errors, ...found]), ms: elapsed() };
      }
    }

    lap('routes');
    // Page copy, per content id: the pages that show it decide the locales and the schema.
    const layout = committed?.layout.pages === pages ? committed.layout : layoutOf(pages);
    const template = templates.value;
    const contents = new Map<string, PageContent>();
    if (template) {
      for (const id of [...copies.keys()]) if (!layout.byContent.has(id)) copies.delete(id);
      await Promise.all([...layout.byContent].map(async ([id, idPages]) => {
        const from = JSON.stringify([templatesGeneration, dirs.content, site.company, site.localeIds, idPages.map((page) => [page.locale, page.template, page.route.path])]);
        copies.set(id, await refresh(copies.get(id), from, 'copy', (found) => loadPageContent(site, idPages, (name) => template.pages[name]?.content, found, { markdown })));
      }));
      for (const loaded of copies.values()) {
        errors.push(...loaded.errors);
        for (const [key, value] of loaded.value ?? []) contents.set(key, value);
      }
      if (templateCheck?.pages !== pages || templateCheck.templates !== template) templateCheck = { pages, templates: template, errors: checkPageTemplates(pages, template) };
      errors.push(...templateCheck.errors);
    }
    const fatal = () => errors.some((error) => error.severity === 'error');
    if (fatal() || !template || !islands.value || !assets.value || !messages.value) {
      return { ok: false, reloaded: [...reloaded], errors: uniqueErrors(errors), ms: elapsed() };
    }
    lap('copy');
    const bundle = islands.value;
    const stylesheet = assets.value.stylesheet;
    const islandsKey = JSON.stringify([bundle.entries, bundle.graph]);
    const postsBySlug = new Map(postList.map((post) => [post.slug, post]));
    const before = committed;

    // What differs from the last good build, as the inputs renders read (see RenderDependency).
    const changed = new Set<string>();
    if (before) {
      for (const locale of new Set([...Object.keys(messages.value), ...Object.keys(before.messages)])) {
        if (!sameJson(messages.value[locale], before.messages[locale])) changed.add(`messages:${locale}`);
      }
      let postsChanged = false;
      for (const slug of new Set([...postsBySlug.keys(), ...before.posts.keys()])) {
        const old = before.posts.get(slug);
        const now = postsBySlug.get(slug);
        if (old === now || sameJson(old, now)) continue;
        postsChanged = true;
        const locales = (post: Post | undefined) => Object.keys(post?.translations ?? {}).sort().join(' ');
        if (!old || !now || locales(old) !== locales(now)) changed.add(`post:${slug}`);
        for (const locale of new Set([...Object.keys(old?.translations ?? {}), ...Object.keys(now?.translations ?? {})])) {
          if (!sameJson(old?.translations[locale], now?.translations[locale])) changed.add(`post:${slug}:${locale}`);
        }
      }
      if (postsChanged) changed.add('posts');
      for (const key of new Set([...contents.keys(), ...before.contents.keys()])) {
        if (!sameJson(contents.get(key), before.contents.get(key))) changed.add(`content:${key}`);
      }
      if (layout !== before.layout) {
        const records = new Map<string, { old?: string; now?: string; parsed?: [unknown, unknown] }>();
        for (const url of new Set([...layout.records.keys(), ...before.layout.records.keys()])) {
          const old = before.layout.records.get(url);
          const now = layout.records.get(url);
          if (old === now) continue;
          changed.add(`page:${url}`);
          if ((old === undefined) !== (now === undefined)) changed.add(`exists:${url}`);
          records.set(url, { old, now });
        }
        // Another page's record counts as changed for a reader only in the fields it read.
        for (const read of records.size ? before.readers.keys() : []) {
          const space = read.indexOf(' ');
          if (!read.startsWith('page:') || space < 0) continue;
          const record = records.get(read.slice('page:'.length, space));
          if (!record) continue;
          const parse = (json: string | undefined): unknown => (json === undefined ? undefined : JSON.parse(json));
          const [old, now] = (record.parsed ??= [parse(record.old), parse(record.now)]);
          const prefix = read.slice(0, space);
          if (readTracked(read, prefix, old) !== readTracked(read, prefix, now)) changed.add(read);
        }
      }
    }
    const renderAll = !before || before.config !== site || before.templates !== template || before.islandsKey !== islandsKey || before.stylesheet !== stylesheet;
    let toRender: Page[];
    if (!before || renderAll) toRender = pages;
    else {
      const readers = new Set<string>();
      for (const key of changed) for (const file of before.readers.get(key) ?? []) readers.add(file);
      toRender = layout === before.layout
        ? [...readers].flatMap((file) => layout.byFile.get(file) ?? [])
        : pages.filter((page) => readers.has(page.file) || !before.html.has(page.file));
    }

    let reads: Set<string> | undefined;
    const renderer = createRenderer({
      config: site,
      pages,
      messages: messages.value,
      contents,
      posts: postList,
      templates: template,
      assets: { stylesheet },
      track: (dependency) => reads?.add(dependency),
    });
    const rendered = new Map<string, { html: string; reads: Set<string> }>();
    for (const page of toRender) {
      reads = new Set([`page:${page.url}`]);
      try {
        rendered.set(page.file, { html: addIslandScripts(renderer.renderPage(page), bundle).html, reads });
      } catch (error) {
        if (!(error instanceof SiteError)) throw error;
        errors.push(error);
      }
    }
    reads = undefined;
    lap('render');
    if (fatal()) return { ok: false, reloaded: [...reloaded], errors: uniqueErrors(errors), ms: elapsed() };

    // The site-wide files, made again only when what they are made from changed.
    const messagesChanged = [...changed].some((key) => key.startsWith('messages:'));
    const staticFiles = before && before.assets === assets.value && before.islands === bundle ? before.staticFiles : new Map([...assets.value.files, ...bundle.files]);
    const routeFiles = before && before.config === site && before.layout === layout ? before.routeFiles : createRouteFiles(site, pages);
    const feedFiles = before && before.config === site && !changed.has('posts') && !messagesChanged ? before.feedFiles : createFeedFiles({ config: site, posts: postList, messages: messages.value });

    // Everything below only updates the committed build, in one synchronous step.
    const changedFiles: string[] = [];
    const removed: string[] = [];
    let next: Pick<Committed, 'files' | 'html' | 'reads' | 'readers'>;
    if (!before || renderAll) {
      const files: OutputFiles = new Map(staticFiles);
      for (const page of pages) files.set(page.file, rendered.get(page.file)!.html);
      for (const [path, text] of [...routeFiles, ...feedFiles]) files.set(path, text);
      for (const [path, data] of files) {
        const old = before?.files.get(path);
        if (old === undefined || !sameBytes(old, data)) changedFiles.push(path);
      }
      if (before) removed.push(...[...before.files.keys()].filter((path) => !files.has(path)));
      const html = new Map([...rendered].map(([file, page]) => [file, page.html]));
      const readsByFile = new Map([...rendered].map(([file, page]) => [file, page.reads]));
      const readers = new Map<string, Set<string>>();
      for (const [file, keys] of readsByFile) indexReads(readers, file, keys);
      next = { files, html, reads: readsByFile, readers };
    } else {
      const { files, html, reads: readsByFile, readers } = before;
      const put = (path: string, data: string | Uint8Array) => {
        const old = files.get(path);
        if (old !== undefined && sameBytes(old, data)) return;
        files.set(path, data);
        changedFiles.push(path);
      };
      const drop = (path: string) => {
        if (files.delete(path)) removed.push(path);
      };
      if (staticFiles !== before.staticFiles) {
        for (const path of before.staticFiles.keys()) if (!staticFiles.has(path)) drop(path);
        for (const [path, data] of staticFiles) put(path, data);
      }
      if (layout !== before.layout) {
        for (const file of before.layout.byFile.keys()) {
          if (layout.byFile.has(file)) continue;
          unindexReads(readers, file, readsByFile.get(file));
          html.delete(file);
          readsByFile.delete(file);
          drop(file);
        }
      }
      for (const [file, page] of rendered) {
        unindexReads(readers, file, readsByFile.get(file));
        indexReads(readers, file, page.reads);
        html.set(file, page.html);
        readsByFile.set(file, page.reads);
        put(file, page.html);
      }
      for (const [path, text] of [...routeFiles, ...feedFiles]) put(path, text);
      for (const path of [...before.routeFiles.keys(), ...before.feedFiles.keys()]) if (!routeFiles.has(path) && !feedFiles.has(path)) drop(path);
      next = { files, html, reads: readsByFile, readers };
    }

    const touched = [...changedFiles, ...removed];
    const urls = [...new Set(touched.flatMap((file) => (layout.byFile.get(file) ?? before?.layout.byFile.get(file))?.url ?? []))].sort();
    let stylesheetSwap: RebuildSuccess['stylesheet'];
    if (before && renderAll && before.stylesheet !== stylesheet && before.config === site && before.templates === template && before.islandsKey === islandsKey && changed.size === 0) {
      const from = before.stylesheet;
      const onlyLinks = pages.every((page) => next.html.get(page.file) === before.html.get(page.file)?.split(from).join(stylesheet));
      if (onlyLinks) stylesheetSwap = { from, to: stylesheet };
    }
    committed = {
      ...next,
      config: site,
      templates: template,
      islands: bundle,
      islandsKey,
      assets: assets.value,
      stylesheet,
      messages: messages.value,
      posts: postsBySlug,
      contents,
      pages,
      postIndex,
      layout,
      staticFiles,
      routeFiles,
      feedFiles,
    };
    lap('emit');
    builds++;
    return {
      ok: true,
      build: builds,
      reloaded: [...reloaded],
      rendered: rendered.size,
      pages: pages.length,
      changed: changedFiles,
      removed,
      urls,
      stylesheet: stylesheetSwap,
      ms: elapsed(),
      timings,
      warnings: uniqueErrors(warningsOf(errors)),
    };
  }

  return {
    get files() {
      return committed?.files;
    },
    get config() {
      return committed?.config;
    },
    watched,
    rebuild(changes = []) {
      const next = queue.then(async (): Promise<RebuildOutcome> => {
        const started = performance.now();
        invalidate(changes);
        try {
          return await attempt();
        } catch (crash) {
          return { ok: false, reloaded: [], errors: [], crash, ms: Math.round((performance.now() - started) * 10) / 10 };
        }
      });
      queue = next.catch(() => undefined);
      return next;
    },
    async dispose() {
      await Promise.all([esbuild.dispose(), pool?.close()]);
    },
  };
}
