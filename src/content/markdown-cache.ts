/**
 * Markdown through the disk cache: each document's HTML and word count are stored under the
 * SHA-256 of the pipeline id and the source text, so an unchanged document is never parsed again
 * (and a build whose documents are all cached never loads the unified stack). Misses are rendered
 * here, or spread over a worker pool when there are enough of them to pay for it.
 */
import { hashParts, openDiskCache, type DiskCache } from '../cache/disk-cache.js';
import type { WorkerPool } from '../parallel/pool.js';
import { hasMarkdownPlugins, markdownPipelineId, markdownPluginsId, noMarkdownPlugins, renderMarkdownDocument, type FailedMarkdown, type MarkdownPlugins, type RenderedMarkdown } from './markdown.js';

/** What the renderer did, for `--verbose` and the benchmark. */
export interface MarkdownStats {
  /** Documents run through the pipeline. */
  parsed: number;
  /** Documents answered by the cache. */
  cached: number;
}

/** Renders Markdown documents, cached. */
export interface MarkdownRenderer {
  /**
   * Renders the documents through the configured plugins (none by default); results are in the
   * same order, a document the parser or a plugin failed on as its error. `onResult` is told each
   * document's result (by its index in `texts`) as soon as it is known, before the whole call is
   * done; a renderer may then answer with no results (they were told), and holds none.
   */
  renderAll(
    texts: readonly string[],
    plugins?: MarkdownPlugins,
    onResult?: (index: number, result: RenderedMarkdown | FailedMarkdown) => void,
  ): Promise<(RenderedMarkdown | FailedMarkdown)[]>;
  /** Resolves once every cache entry started so far is written. */
  settled(): Promise<void>;
  readonly stats: MarkdownStats;
}

/** Options of `createMarkdownRenderer`. */
export interface MarkdownRendererOptions {
  /** The disk cache, or false for none (default: the "markdown" namespace of the build cache). */
  cache?: DiskCache | false;
  /** The pool for misses, asked for only when there are at least `poolThreshold` of them. */
  pool?: () => WorkerPool | undefined;
  /** Misses from which the pool is used (default `markdownPoolThreshold`); 0 sends every miss to the pool. */
  poolThreshold?: number;
  /** Whether the main thread renders chunks too while the workers do (default true). */
  shareWithMain?: boolean;
  /**
   * Milliseconds the pool may take for the misses of one call: past them its workers are ended
   * and `renderAll` rejects with a JobOverBudget. The main thread then renders no chunk itself.
   */
  budgetMs?: number;
}

/**
 * Fewer misses than this are rendered on the main thread alone. Measured on 2 cores with 6 KB
 * documents (worker start with the bundled unified stack: about 150 ms): 150 documents take as long
 * either way, 300 are 5% faster with the pool, 500 and more 13-15% faster. Micromark is bound by
 * memory traffic, so two threads do 1.3 times the work of one, not twice.
 */
export const markdownPoolThreshold = 200;

/** Creates a renderer; documents repeated within one call are rendered once. */
export function createMarkdownRenderer(options: MarkdownRendererOptions = {}): MarkdownRenderer {
  const cache = options.cache === false ? undefined : options.cache ?? openDiskCache('markdown');
  const threshold = options.poolThreshold ?? markdownPoolThreshold;
  const stats: MarkdownStats = { parsed: 0, cached: 0 };

  async function renderAll(
    texts: readonly string[],
    plugins: MarkdownPlugins = noMarkdownPlugins,
    onResult?: (index: number, result: RenderedMarkdown | FailedMarkdown) => void,
  ): Promise<(RenderedMarkdown | FailedMarkdown)[]> {
    const pipeline = markdownPipelineId();
    // The plugins' identity (a file's hash or a package's version, and the options) is part of the
    // key: an edited plugin or option renders every document again. Without plugins the keys are
    // those of the built-in pipeline alone.
    const pluginsId = markdownPluginsId(plugins);
    const keys = texts.map((text) => (pluginsId ? hashParts(pipeline, pluginsId, text) : hashParts(pipeline, text)));
    // The indices of the texts of each key: the first is the one rendered.
    const places = new Map<string, number[]>();
    keys.forEach((key, index) => places.set(key, [...(places.get(key) ?? []), index]));
    // With `onResult`, a result is told and let go, not kept for the answer: the caller makes its
    // entry of it, and a build of 10,000 posts does not hold every document's HTML to the end.
    const found = new Map<string, RenderedMarkdown | FailedMarkdown | true>();
    const settle = (key: string, entry: RenderedMarkdown | FailedMarkdown, write: boolean) => {
      found.set(key, onResult ? true : entry);
      // Written as each result comes: the cache's pack writes it to disk then (pack-cache.ts).
      if (write && cache && !('error' in entry)) void cache.write(key, encodeEntry(entry));
      if (onResult) for (const index of places.get(key)!) onResult(index, entry);
    };
    if (cache) {
      for (const key of places.keys()) {
        const entry = decodeEntry(cache.readSync(key));
        if (entry) settle(key, entry, false);
      }
    }
    const missing = [...places.keys()].filter((key) => !found.has(key));
    stats.cached += places.size - missing.length;
    stats.parsed += missing.length;
    if (missing.length) {
      const pool = missing.length >= threshold ? options.pool?.() : undefined;
      // Each source let go as its result comes (the pool lets go of its chunks as they are done).
      const sources = missing.map((key) => texts[places.get(key)![0]!]!);
      const local = async (chunk: string[]) => {
        const out: (RenderedMarkdown | FailedMarkdown)[] = [];
        for (const text of chunk) {
          out.push(await renderMarkdownDocument(text, plugins));
          // The pipeline resolves in microtasks, which hold off I/O: let the rest of the build in
          // between documents (esbuild's plugins run on this thread: on a cold demo build the
          // islands were bundled at 620 ms without this, at about 400 ms with it).
          await new Promise((done) => setImmediate(done));
        }
        return out;
      };
      const onResults = (first: number, results: (RenderedMarkdown | FailedMarkdown)[]) =>
        results.forEach((entry, index) => {
          sources[first + index] = '';
          settle(missing[first + index]!, entry, true);
        });
      const rendered = pool
        ? await pool.run<string, RenderedMarkdown | FailedMarkdown>({
            kind: 'markdown',
            setup: hasMarkdownPlugins(plugins) ? plugins : undefined,
            items: sources,
            chunkSize: 4,
            local: options.shareWithMain === false || options.budgetMs !== undefined ? undefined : local,
            budgetMs: options.budgetMs,
            onResults,
            keepResults: !onResult,
            releaseItems: true,
          })
        : await local(sources);
      missing.forEach((key, index) => {
        if (!found.has(key)) settle(key, rendered[index]!, true);
      });
    }
    // Told as they came: none kept.
    if (onResult) return [];
    return keys.map((key) => found.get(key) as RenderedMarkdown | FailedMarkdown);
  }

  return {
    renderAll,
    settled: async () => cache?.settled(),
    stats,
  };
}

/**
 * An entry is the word count on the first line (with, after a space, the JSON of its local images
 * and components, when it has any), then the HTML.
 */
function encodeEntry(entry: RenderedMarkdown): string {
  const extras = entry.images || entry.components ? ` ${JSON.stringify({ images: entry.images, components: entry.components })}` : '';
  return `${entry.words}${extras}\n${entry.html}`;
}

function decodeEntry(data: Buffer | undefined): RenderedMarkdown | undefined {
  if (!data) return undefined;
  const text = data.toString('utf8');
  const newline = text.indexOf('\n');
  if (newline < 1) return undefined;
  const first = text.slice(0, newline);
  const space = first.indexOf(' ');
  const words = Number(space === -1 ? first : first.slice(0, space));
  if (!Number.isInteger(words)) return undefined;
  if (space === -1) return { words, html: text.slice(newline + 1) };
  try {
    const { images, components } = JSON.parse(first.slice(space + 1)) as Pick<RenderedMarkdown, 'images' | 'components'>;
    if ((images !== undefined && !Array.isArray(images)) || (components !== undefined && !Array.isArray(components))) return undefined;
    return { words, html: text.slice(newline + 1), ...(images ? { images } : {}), ...(components ? { components } : {}) };
  } catch {
    return undefined;
  }
}

let shared: MarkdownRenderer | undefined;

/** The renderer used when a loader is given none: disk cache, no pool. */
export function defaultMarkdownRenderer(): MarkdownRenderer {
  shared ??= createMarkdownRenderer();
  return shared;
}
