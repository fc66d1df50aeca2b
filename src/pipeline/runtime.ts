/**
 * How the pipeline does its heavy work: how esbuild runs, which build caches it reads and writes,
 * the worker pool for Markdown and rendering, and the Markdown renderer itself. The stages ask the
 * runtime and do not know whether they run once (`site build`) or again and again (`site dev`).
 */
import { dirname } from 'node:path';
import { cacheScope, openDiskCache, type DiskCache } from '../cache/disk-cache.js';
import { createCachedEsbuild } from '../cache/esbuild-cache.js';
import { openPackCache, packExists } from '../cache/pack-cache.js';
import { cachedYamlParser, type ParseYaml } from '../cache/yaml-cache.js';
import { createMarkdownRenderer, markdownPoolThreshold, type MarkdownRenderer } from '../content/markdown-cache.js';
import { keepImageSizesIn } from '../content/images.js';
import { markdownPluginsId, type MarkdownPlugins } from '../content/markdown.js';
import { createWorkerPool, defaultPoolSize, type WorkerPool } from '../parallel/pool.js';
import type { ResolvedConfig } from '../config/load.js';
import type { RunEsbuild } from '../esbuild-step.js';
import { createEsbuildContexts } from './esbuild-contexts.js';
import { noProgress, type Progress } from '../progress.js';

/**
 * Pages from which rendering goes to the pool. Each worker needs its own copy of the render input
 * (every page record and post) and its own React and templates; measured on 2 cores, the real site
 * renders 1,280 pages in 250 ms alone and 360 ms with a worker, 3,683 in 600 and 720 ms, and
 * 12,080 in 2.1 s either way, so the pool starts to pay only beyond that.
 */
export const renderPoolThreshold = 15_000;

/**
 * Threads that draw social images, by default at most. Each lays a card out in about 4 ms and
 * hands it to sharp, which rasterises and encodes it in about 12 ms on libuv's four threads shared
 * by the whole process: past two layout threads the cards wait for sharp, and each thread more
 * costs its own satori, sharp and parsed font (0.45 s of CPU to start). `--workers` sets it.
 */
const socialPoolLimit = 2;

/**
 * Pages rendered from which a one-shot build collects the render's garbage before going on
 * (`pagesRendered`): the collection takes 50-70 ms at 10,000 pages and 20 ms at 1,000, where the
 * peak is the Markdown's parse rather than this garbage; an edit or a warm build renders few pages.
 */
const collectAfterPages = 250;

/** How esbuild steps (templates, stylesheet, islands) run. */
export type EsbuildMode =
  /** A fresh build, answered from the build cache when none of the files it read changed. */
  | 'cache'
  /** A kept esbuild context per step, rebuilt incrementally: for many runs in one process. */
  | 'contexts';

/** Options of `createRuntime`. */
export interface RuntimeOptions {
  /** What the cache packs belong to: the config file's path (its folder is the site's root). */
  scope: string;
  /** Whether the pipeline runs again after its first run (see `PipelineOptions.incremental`). */
  incremental: boolean;
  /** Worker threads (see `PipelineOptions.workers`). */
  workers?: number;
  /** Read and write the build cache (default true). */
  cache?: boolean;
  esbuild?: EsbuildMode;
  /** Where the stages count how far they are (default: nowhere). */
  progress?: Progress;
}

/** What the runtime did, for `--verbose` and the benchmark. */
export interface RuntimeStats {
  markdownParsed: number;
  markdownCached: number;
  /** Entry folders taken as an earlier build loaded them, their files unchanged (neither read nor parsed). */
  entriesKept: number;
  /** Whether the pages were taken as an earlier build expanded them from the same config and entries (routes-stage.ts). */
  pageSetKept: boolean;
  /** esbuild steps answered by the cache. */
  esbuildCached: number;
  /** Worker threads started, for Markdown and pages and for the social images (0 when everything ran on the main thread). */
  workers: number;
  /** Social images of the last run, and how many of them were drawn (the rest from the cache or the run before). */
  socialImages: number;
  socialImagesDrawn: number;
  /** Variants of the entries' images, and how many were encoded (the rest from the cache or the run before). */
  imageVariants: number;
  imageVariantsMade: number;
}

/** The runtime of one pipeline. */
export interface Runtime {
  /** Where the stages count how far they are (pages rendered, cards drawn). */
  readonly progress: Progress;
  /** Runs an esbuild step (undefined: esbuild's own `build`). */
  readonly esbuild: RunEsbuild | undefined;
  readonly markdown: MarkdownRenderer;
  /** Parses YAML through the cache (undefined: no cache). */
  readonly parseYaml: ParseYaml | undefined;
  /** Validated front matter by the hash of its text, or false for none. */
  readonly frontMatterCache: DiskCache | false;
  /** The code stylesheet by what makes it (undefined: no cache). */
  readonly codeStylesheetCache: DiskCache | undefined;
  /** false when the build runs without its cache: every social image drawn and image variant encoded, none kept. */
  readonly mediaCache: false | undefined;
  /** Entry folders loaded cleanly by an earlier build, by the stat of their files (entry-snapshots.ts; undefined: none kept). */
  readonly entrySnapshots: DiskCache | undefined;
  /** Records an entry folder taken from `entrySnapshots`, for the stats. */
  countEntryKept(): void;
  /** Page copy that passed its template's schema (content/pages.ts `ValidatedCopy`; undefined: none kept). */
  readonly copyCache: DiskCache | undefined;
  /** Page sets expanded by earlier builds, by the fingerprint of what the routes read (undefined: none kept). */
  readonly pageSets: DiskCache | undefined;
  /** Records that the pages were taken from `pageSets`, for the stats. */
  countPageSetKept(): void;
  /**
   * The pool to render `count` pages on, and whether the main thread takes chunks too; undefined
   * to render them here. Needs the templates' bundled module (`templatesFile`).
   */
  renderPool(
    count: number,
    templatesFile: string | undefined,
  ): Promise<{ pool: WorkerPool; local: boolean } | undefined>;
  /** The worker threads that draw the social images (lib/social-worker.js), asked for when a card is to be drawn; undefined to draw them on the main thread. */
  socialPool(): WorkerPool | undefined;
  /**
   * Told that the social images are drawn: a build's cards are drawn once, so their workers (satori,
   * sharp and libvips, tens of megabytes each) end then rather than with the build.
   */
  socialImagesDrawn(): Promise<void>;
  /**
   * Told that `count` pages were rendered and put in the spill: a one-shot command that rendered
   * many collects the render's garbage then (bin/site.js `collect`).
   */
  pagesRendered(count: number): void;
  /**
   * Told the config as soon as it is read: on a build likely to be cold (no cache of this site
   * yet), starts the social images' workers then, so satori and sharp load while the main thread
   * reads the site, and the cards are drawn as soon as they are known.
   */
  configRead(config: ResolvedConfig): void;
  /**
   * Told how many entry folders there are, as soon as they are listed: on a build likely to be
   * cold with enough of them for the Markdown to go to the workers, starts those now, so they load
   * their script while this thread reads the folders and their front matter.
   */
  entriesListed(count: number): void;
  /** Records the social images of a run, for the stats. */
  countSocialImages(total: number, drawn: number): void;
  /** Records the image variants of a run, for the stats. */
  countImageVariants(total: number, made: number): void;
  stats(): RuntimeStats;
  /** Resolves once the cache entries written so far are on disk (packs are rewritten then). */
  settled(): Promise<void>;
  /** Ends the workers and esbuild contexts. */
  dispose(): Promise<void>;
}

/** Creates the runtime of a pipeline. */
export function createRuntime(options: RuntimeOptions): Runtime {
  const forced = options.workers !== undefined && options.workers > 0;
  const poolSize = options.workers ?? defaultPoolSize();
  let pool: WorkerPool | undefined;
  let pageWorkers = 0;
  const poolFor = () => {
    if (poolSize <= 0) return undefined;
    pool ??= createWorkerPool(poolSize);
    pageWorkers = pool.size;
    return pool;
  };
  const closePool = async () => {
    const closing = pool;
    pool = undefined;
    await closing?.close();
  };
  // A pipeline that runs again draws an edit's card or two here, in the process that keeps the fonts parsed.
  let socialPool: WorkerPool | undefined;
  let socialWorkers = 0;
  const socialPoolFor = () => {
    if (poolSize <= 0 || options.incremental) return undefined;
    socialPool ??= createWorkerPool(forced ? poolSize : Math.min(poolSize, socialPoolLimit), 'social-worker.js');
    socialWorkers = socialPool.size;
    return socialPool;
  };

  // A run of `site build` keeps each cache namespace in one pack per site (a cold build of 1,000
  // posts otherwise creates 2,000 cache files, which cost 0.5-1.4 s of kernel time on this
  // project's CI disk). A pipeline that runs again writes an entry or two per edit: one file
  // each, instead of a whole pack rewritten every time.
  const useCache = options.cache !== false;
  let social = { total: 0, drawn: 0 };
  let coldLikely = false;
  let variants = { total: 0, made: 0 };
  const open = (namespace: string, packOptions?: { keepUnused(): boolean }): DiskCache | undefined => {
    if (!useCache) return undefined;
    return options.incremental
      ? openDiskCache(namespace)
      : openPackCache(namespace, cacheScope(options.scope), undefined, packOptions);
  };
  // A pipeline that runs again keeps its entries in memory (the stage memo) and is told what changed.
  const entrySnapshots = options.incremental ? undefined : open('entries');
  let entriesKept = 0;
  const pageSets = options.incremental ? undefined : open('pages');
  let pageSetKept = false;
  // An entry kept from its snapshot asks nothing of the Markdown and front matter caches, yet the
  // next build that loads it again (another config, a new day) does: while a build keeps entries,
  // those packs keep every entry. A build that keeps none (the first of each day, as the date is
  // part of what an entry is loaded with) drops what no entry uses any more.
  const keepForSnapshots = { keepUnused: () => entriesKept > 0 };
  const yamlCache = open('yaml');
  const markdownCache = open('markdown', keepForSnapshots);
  const frontMatterCache = open('front-matter', keepForSnapshots);
  const codeStylesheetCache = open('code-stylesheet');
  const copyCache = open('copy');
  // One file per image: a build reads a few dozen sizes at most, an edit one.
  keepImageSizesIn(useCache ? openDiskCache('image-sizes') : undefined);
  const contexts = options.esbuild === 'contexts' ? createEsbuildContexts() : undefined;
  const cachedEsbuild = !contexts && useCache ? createCachedEsbuild({ root: dirname(options.scope) }) : undefined;
  const markdown = batchMarkdown(
    createMarkdownRenderer({
      cache: markdownCache ?? false,
      pool: poolFor,
      // A forced pool takes every document, so none is parsed on the main thread: in `site dev`
      // a slow document (the limits allow one to take seconds) must not hold up the server.
      poolThreshold: forced ? 0 : undefined,
      shareWithMain: !forced,
    }),
  );

  return {
    progress: options.progress ?? noProgress,
    esbuild: contexts?.run ?? cachedEsbuild,
    markdown,
    parseYaml: yamlCache && cachedYamlParser(yamlCache),
    frontMatterCache: frontMatterCache ?? false,
    codeStylesheetCache,
    mediaCache: useCache ? undefined : false,
    entrySnapshots,
    countEntryKept() {
      entriesKept++;
    },
    copyCache,
    pageSets,
    countPageSetKept() {
      pageSetKept = true;
    },
    async renderPool(count, templatesFile) {
      // A pipeline that runs again renders an edit's few pages here: the workers would each need
      // the whole render input first.
      if (options.incremental) return undefined;
      if (templatesFile && (forced || count >= renderPoolThreshold)) {
        const started = poolFor();
        if (started) return { pool: started, local: !forced };
      }
      // The workers' heaps, grown by the Markdown, would otherwise stay through rendering, when the
      // main thread holds every page: the peak of a cold build of 2,000 posts.
      await closePool();
      return undefined;
    },
    socialPool: socialPoolFor,
    async socialImagesDrawn() {
      const ending = socialPool;
      socialPool = undefined;
      await ending?.terminate();
    },
    pagesRendered(count) {
      if (!options.incremental && count >= collectAfterPages) heapTuning()?.collect();
    },
    configRead(config) {
      // Every build with the cache leaves the YAML pack of its site (the config is parsed through it).
      coldLikely = !useCache || !packExists('yaml', cacheScope(options.scope));
      if (coldLikely && config.output.socialImages) socialPoolFor()?.start();
      // The CLI's heap sizing for a build that reads an earlier one's records (bin/site.js).
      if (!coldLikely && !options.incremental) heapTuning()?.warm();
    },
    entriesListed(count) {
      if (coldLikely && !options.incremental && count >= markdownPoolThreshold) poolFor()?.start();
    },
    countSocialImages(total, drawn) {
      social = { total, drawn };
    },
    countImageVariants(total, made) {
      variants = { total, made };
    },
    stats: () => ({
      markdownParsed: markdown.stats.parsed,
      markdownCached: markdown.stats.cached,
      entriesKept,
      pageSetKept,
      esbuildCached: cachedEsbuild?.stats.hits ?? 0,
      workers: pageWorkers + socialWorkers,
      socialImages: social.total,
      socialImagesDrawn: social.drawn,
      imageVariants: variants.total,
      imageVariantsMade: variants.made,
    }),
    async settled() {
      await Promise.all([
        markdown.settled(),
        yamlCache?.settled(),
        frontMatterCache?.settled(),
        codeStylesheetCache?.settled(),
        entrySnapshots?.settled(),
        pageSets?.settled(),
        copyCache?.settled(),
      ]);
    },
    async dispose() {
      // A run that succeeded has every card; one that failed needs none of those still being drawn.
      await Promise.all([closePool(), socialPool?.terminate(), contexts?.dispose()]);
    },
  };
}

/**
 * A renderer that gathers the documents asked for in one turn of the event loop into one call of
 * `renderer`: posts are loaded one by one (each kept on its own for the next run), yet their
 * Markdown is rendered as one batch, which the renderer can share out over the pool.
 *
 * The first `firstBatch` documents of a turn go at once: a cold build reads the entry folders'
 * files and front matter in long synchronous turns (0.4 s for 1,000 posts; the inputs stage yields
 * once, after the first `markdownPoolThreshold` folders), and the worker, started when the entries
 * were listed, takes its first chunks of that batch while the next turn runs instead of waiting for it.
 */
export function batchMarkdown(renderer: MarkdownRenderer, firstBatch = markdownPoolThreshold): MarkdownRenderer {
  type Request = {
    texts: readonly string[];
    plugins?: MarkdownPlugins;
    done(results: Awaited<ReturnType<MarkdownRenderer['renderAll']>>): void;
    fail(error: unknown): void;
  };
  let waiting: Request[] = [];
  let waitingTexts = 0;
  // A flush is set for the end of this turn; the turn's first batch went early.
  let turnEnd = false;
  let wentEarly = false;
  const flush = () => {
    const all = waiting;
    waiting = [];
    waitingTexts = 0;
    // One call per set of plugins (a run has one; a config edited meanwhile could give two).
    const batches = new Map<string, Request[]>();
    for (const request of all) {
      const id = markdownPluginsId(request.plugins);
      batches.set(id, [...(batches.get(id) ?? []), request]);
    }
    for (const requests of batches.values()) {
      // Each request is answered once its own documents are, not when the batch is: its entry is
      // made, and its sources and results let go, while the rest of the batch renders.
      const batch: (Request | undefined)[] = [...requests];
      const plugins = requests[0]!.plugins;
      const owners: number[] = [];
      const firsts: number[] = [];
      const left: number[] = [];
      const results: Awaited<ReturnType<MarkdownRenderer['renderAll']>>[] = [];
      batch.forEach((request, index) => {
        firsts.push(owners.length);
        left.push(request!.texts.length);
        results.push(new Array(request!.texts.length));
        for (let count = 0; count < request!.texts.length; count++) owners.push(index);
        if (request!.texts.length === 0) request!.done([]);
      });
      const texts = requests.flatMap((request) => request.texts);
      const answer = (owner: number, outcome: Awaited<ReturnType<MarkdownRenderer['renderAll']>>) => {
        left[owner] = 0;
        const request = batch[owner];
        batch[owner] = undefined;
        results[owner] = [];
        request?.done(outcome);
      };
      const failAll = (error: unknown) =>
        batch.forEach((request, owner) => {
          if (left[owner]! > 0) request?.fail(error);
          left[owner] = 0;
          batch[owner] = undefined;
        });
      renderer
        .renderAll(texts, plugins, (index, result) => {
          const owner = owners[index]!;
          if (left[owner] === 0) return;
          texts[index] = '';
          results[owner]![index - firsts[owner]!] = result;
          if (--left[owner]! === 0) answer(owner, results[owner]!);
        })
        .then((all) => {
          // A renderer that tells no result as it comes (or not every one) answers here.
          batch.forEach((request, owner) => {
            if (left[owner]! > 0) answer(owner, all.slice(firsts[owner]!, firsts[owner]! + request!.texts.length));
          });
        }, failAll);
    }
  };
  return {
    renderAll(texts, plugins, onResult) {
      return new Promise((done, fail) => {
        if (!turnEnd) {
          turnEnd = true;
          setImmediate(() => {
            turnEnd = wentEarly = false;
            flush();
          });
        }
        const answer: Request['done'] = onResult
          ? (results) => {
              results.forEach((result, index) => onResult(index, result));
              done(results);
            }
          : done;
        waiting.push({ texts, plugins, done: answer, fail });
        waitingTexts += texts.length;
        if (!wentEarly && waitingTexts >= firstBatch) {
          wentEarly = true;
          flush();
        }
      });
    },
    settled: () => renderer.settled(),
    get stats() {
      return renderer.stats;
    },
  };
}

interface HeapTuning {
  /** A build that reads an earlier one's records: the heap grows by more between collections. */
  warm(): void;
  /** One full collection, at the end of a stage whose working set is now garbage. */
  collect(): void;
}

/** What bin/site.js installs when it sizes the heap of a one-shot command: undefined for any other caller. */
function heapTuning(): HeapTuning | undefined {
  return (globalThis as Record<symbol, HeapTuning | undefined>)[Symbol.for('typed-site.heap')];
}
