/**
 * The build: config → content → routes → render → emit, each stage timed. `site build`,
 * `site check` and `site dev` all run this one pipeline. Markdown and esbuild outputs come from the
 * disk cache when their inputs are unchanged; Markdown misses and page rendering are spread over a
 * worker pool when there is enough of them to pay for it.
 */
import { resolve } from 'node:path';
import { createCachedEsbuild } from './cache/esbuild-cache.js';
import { openPackCache } from './cache/pack-cache.js';
import { cachedYamlParser } from './cache/yaml-cache.js';
import { loadConfig, type ResolvedConfig } from './config/load.js';
import { createMarkdownRenderer } from './content/markdown-cache.js';
import { loadMessages, lookupMessage, type MessageTree } from './content/messages.js';
import { loadPageContent } from './content/pages.js';
import { indexEntries, loadCollections, type Entry } from './content/collections.js';
import { createFeed } from './emit/feed.js';
import { createHeaders, createRobots, createSitemap } from './emit/sitemap.js';
import { SiteError, throwIfAny, uniqueErrors, warningsOf } from './errors.js';
import { buildAssets } from './islands/assets.js';
import { bundleIslands, listIslands, type IslandRuntime } from './islands/bundle.js';
import type { OutputFiles } from './output-files.js';
import { createWorkerPool, defaultPoolSize, type WorkerPool } from './parallel/pool.js';
import { languageScript, notFoundScript, scriptHash } from './render/head.js';
import { createPageRenderer, type PageOutput } from './render/render-pages.js';
import { listPageTemplates, loadTemplates, templatesFileOf } from './render/templates.js';
import type { TemplateSet } from './render/types.js';
import { createPages, sortEntries, type Page } from './routes/pages.js';
import { sourcesOf } from './config/sources.js';
import type { RenderSetup } from './worker.js';

/** Options of `buildSite`. */
export interface BuildOptions {
  /** Path of site.config.yaml. */
  config: string;
  /** Include posts marked as drafts. */
  drafts?: boolean;
  /** The client runtime of the islands (default preact/compat). */
  islandRuntime?: IslandRuntime;
  /**
   * Worker threads for Markdown and rendering. By default one per core besides the main thread,
   * used only when the work is large enough to pay for starting them; 0 never uses workers; a
   * positive number always uses that many and leaves all chunks to them (to test them).
   */
  workers?: number;
  /** Read and write the disk cache (Markdown, esbuild outputs); default true. */
  cache?: boolean;
  /** Called with the config as soon as it is loaded, before any other work; throw to stop the build. */
  checkConfig?(config: ResolvedConfig): void;
}

/** What a build computed and what it took from the cache. */
export interface BuildStats {
  markdownParsed: number;
  markdownCached: number;
  /** esbuild steps (templates, stylesheet, islands) answered by the cache. */
  esbuildCached: number;
  pagesRendered: number;
  /** Worker threads started (0 when everything ran on the main thread). */
  workers: number;
}

/**
 * Pages from which rendering goes to the pool. Each worker needs its own copy of the render input
 * (every page record and post) and its own React and templates; measured on 2 cores, the real site
 * renders 1,280 pages in 250 ms alone and 360 ms with a worker, 3,683 in 600 and 720 ms, and
 * 12,080 in 2.1 s either way, so the pool starts to pay only beyond that.
 */
export const renderPoolThreshold = 15_000;

/** What a build produced, in memory. */
export interface BuildResult {
  config: ResolvedConfig;
  pages: Page[];
  /** The entries of each collection, newest first. */
  entries: Record<string, Entry[]>;
  files: OutputFiles;
  /** Milliseconds per stage. */
  timings: Record<string, number>;
  /** For each page URL, the JavaScript files it loads. */
  scripts: Map<string, string[]>;
  stats: BuildStats;
  /** Problems that did not stop the build. */
  warnings: SiteError[];
}

/** Runs the whole pipeline in memory; throws SiteError(s) describing every problem found. */
export async function buildSite(options: BuildOptions): Promise<BuildResult> {
  const forced = options.workers !== undefined && options.workers > 0;
  const poolSize = options.workers ?? defaultPoolSize();
  let pool: WorkerPool | undefined;
  const poolFor = () => (poolSize > 0 ? (pool ??= createWorkerPool(poolSize)) : undefined);
  const closePool = async () => {
    const closing = pool;
    pool = undefined;
    await closing?.close();
  };
  try {
    return await runBuild(options, poolFor, closePool, forced);
  } finally {
    await closePool();
  }
}

async function runBuild(options: BuildOptions, startPool: () => WorkerPool | undefined, closePool: () => Promise<void>, forced: boolean): Promise<BuildResult> {
  let workers = 0;
  const poolFor = () => {
    const pool = startPool();
    workers = pool?.size ?? 0;
    return pool;
  };
  const timings: Record<string, number> = {};
  let mark = performance.now();
  const lap = (stage: string) => {
    const now = performance.now();
    timings[stage] = Math.round((now - mark) * 10) / 10;
    mark = now;
  };

  const useCache = options.cache !== false;
  // One pack per namespace and site: a cold build of 1,000 posts otherwise creates 2,000 cache
  // files, which cost 0.5-1.4 s of kernel time on this project's CI disk.
  const scope = resolve(options.config);
  const yamlCache = useCache ? openPackCache('yaml', scope) : undefined;
  const parseYaml = yamlCache ? cachedYamlParser(yamlCache) : undefined;
  const config = await loadConfig(options.config, { listTemplates: listPageTemplates, parseYaml });
  options.checkConfig?.(config);
  const templateNames = await listPageTemplates(config.dirs.templates);
  lap('config');

  const errors: SiteError[] = [];
  const markdown = createMarkdownRenderer({ cache: useCache ? openPackCache('markdown', scope) : false, pool: poolFor, poolThreshold: forced ? 0 : undefined, shareWithMain: !forced });
  const run = useCache ? createCachedEsbuild() : undefined;
  const frontMatterCache = useCache ? openPackCache('front-matter', scope) : false;
  const templatesPromise = loadTemplates(config.dirs.templates, templateNames, { run });
  const assetsPromise = buildAssets(config.dirs, { run });
  const islandsPromise = listIslands(config.dirs.templates).then((names) => bundleIslands(config.dirs.templates, names, options.islandRuntime, { run }));
  // Attach handlers now so a failure here is reported with the content errors, not as unhandled.
  for (const promise of [templatesPromise, assetsPromise, islandsPromise]) promise.catch(() => undefined);
  const [messages, loaded] = await Promise.all([loadMessages(config, errors, { parseYaml }), loadCollections(config, errors, { drafts: options.drafts, markdown, frontMatterCache })]);
  const entries = sortCollections(loaded);
  lap('content');

  const pages = createPages(config, { entries: indexEntries(entries) });
  lap('routes');

  const templates = await templatesPromise;
  const contents = await loadPageContent(config, pages, (name) => templates.pages[name]?.content, errors, { markdown, parseYaml });
  errors.push(...checkPageTemplates(config, pages, templates));
  throwIfAny(uniqueErrors(errors));
  const [assets, islands] = await Promise.all([assetsPromise, islandsPromise]);
  errors.push(...assets.warnings);
  lap('templates');

  const input = { config, pages, messages, contents, entries, assets: { stylesheet: assets.stylesheet } };
  const islandScripts = { entries: islands.entries, graph: islands.graph };
  let local: ReturnType<typeof createPageRenderer> | undefined;
  const renderHere = (indexes: readonly number[]) => (local ??= createPageRenderer({ ...input, templates }, islandScripts)).render(indexes);
  const indexes = pages.map((_, index) => index);
  const templatesFile = templatesFileOf(templates);
  const renderInPool = Boolean(templatesFile) && (forced || pages.length >= renderPoolThreshold);
  // The workers' heaps, grown by the Markdown, would otherwise stay through rendering, when the
  // main thread holds every page: the peak of a cold build of 2,000 posts.
  if (!renderInPool) await closePool();
  const pool = renderInPool ? poolFor() : undefined;
  const outputs: PageOutput[] = pool
    ? await pool.run<number, PageOutput>({
      kind: 'render',
      setup: { input, templatesFile: templatesFile!, islands: islandScripts } satisfies RenderSetup,
      items: indexes,
      chunkSize: 16,
      local: forced ? undefined : renderHere,
    })
    : renderHere(indexes);
  const files: OutputFiles = new Map([...assets.files, ...islands.files]);
  const scripts = new Map<string, string[]>();
  outputs.forEach((output, index) => {
    const page = pages[index]!;
    if ('error' in output) errors.push(new SiteError(output.error));
    else {
      if (output.scripts.length) scripts.set(page.url, output.scripts);
      files.set(page.file, output.html);
    }
  });
  throwIfAny(uniqueErrors(errors));
  lap('render');

  for (const [path, text] of createSiteFiles({ config, pages, entries, messages })) files.set(path, text);
  await Promise.all([markdown.settled(), frontMatterCache && frontMatterCache.settled(), yamlCache?.settled()]);
  lap('emit');
  const stats: BuildStats = {
    markdownParsed: markdown.stats.parsed,
    markdownCached: markdown.stats.cached,
    esbuildCached: run?.stats.hits ?? 0,
    pagesRendered: pages.length,
    workers,
  };
  return { config, pages, entries, files, timings, scripts, stats, warnings: uniqueErrors(warningsOf(errors)) };
}

/** A template used with `content:` must export the schema of that copy. */
export function checkPageTemplates(config: ResolvedConfig, pages: readonly Page[], templates: TemplateSet): SiteError[] {
  const sources = sourcesOf(config);
  const errors: SiteError[] = [];
  for (const page of pages) {
    const template = templates.pages[page.template];
    if (page.content !== undefined && template && !template.content) {
      errors.push(new SiteError({ code: 'TEMPLATE_INVALID', message: `template ${page.template} is used with content: but exports no \`content\` schema`, file: sources.display(sources.pageTemplate(page.template)) }));
    }
  }
  return errors;
}

/** The entries of each collection, newest first. */
export function sortCollections(entries: Readonly<Record<string, readonly Entry[]>>): Record<string, Entry[]> {
  return Object.fromEntries(Object.entries(entries).map(([name, list]) => [name, sortEntries(list)]));
}

/** The files derived from the whole site rather than one page: sitemap, robots.txt, `_headers`, feeds. */
export function createSiteFiles(input: { config: ResolvedConfig; pages: readonly Page[]; entries: Readonly<Record<string, readonly Entry[]>>; messages: Record<string, MessageTree> }): Map<string, string> {
  return new Map([...createRouteFiles(input.config, input.pages), ...createFeedFiles(input)]);
}

/** sitemap.xml, robots.txt and `_headers`: they depend on the pages and the config only. */
export function createRouteFiles(config: ResolvedConfig, pages: readonly Page[]): Map<string, string> {
  return new Map([
    ['sitemap.xml', createSitemap(pages, config)],
    ['robots.txt', createRobots(config)],
    ['_headers', createHeaders([scriptHash(languageScript), scriptHash(notFoundScript)], config)],
  ]);
}

/** The feed of each collection that has one, in each locale: they depend on the entries, the messages and the config. */
export function createFeedFiles(input: { config: ResolvedConfig; entries: Readonly<Record<string, readonly Entry[]>>; messages: Record<string, MessageTree> }): Map<string, string> {
  const { config, entries, messages } = input;
  const files = new Map<string, string>();
  for (const collection of Object.keys(config.collections).sort()) {
    for (const locale of config.localeIds) {
      const text = (key: string) => lookupMessage(messages[locale] ?? {}, `${collection}.${key}`) ?? `${collection}.${key}`;
      const feed = createFeed({ config, collection, locale, entries: entries[collection] ?? [], title: `${config.site.name} · ${text('title')}`, description: text('description') });
      if (feed) files.set(feed.file, feed.text);
    }
  }
  return files;
}
