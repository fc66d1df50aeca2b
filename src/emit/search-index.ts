/**
 * The site's search index (`search.enabled`): Pagefind indexes the `<main>` of every page the
 * sitemap lists, one index per language (read from `<html lang>`), and its files go into the output
 * under pagefind/ with the pages, before the output is switched into place, so a failed index
 * leaves the previous site as it was. The browser searches it on the search page (see csp.ts for
 * what that page's policy allows), with no server.
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { hashParts, installedVersion, openDiskCache } from '../cache/disk-cache.js';
import type { FileStamp } from '../cache/render-state.js';
import type { ResolvedConfig } from '../config/load.js';
import { SiteError } from '../errors.js';
import type { OutputFiles } from '../output-files.js';
import { isSearchPage } from '../render/csp.js';
import type { Page } from '../routes/pages.js';
import { searchIndexFolder } from '../url-paths.js';
import { noProgress, type Progress } from '../progress.js';

/**
 * The pages a search finds: those the sitemap lists, but the search pages themselves and the pages
 * of a list after its first (they repeat their entries' text, which each entry's own page holds;
 * alias pages and audience copies are not in the sitemap).
 */
export function searchablePages(config: ResolvedConfig, pages: readonly Page[]): Page[] {
  return pages.filter(
    (page) =>
      page.inSitemap &&
      !isSearchPage(config, page.route.path) &&
      !(page.collection?.kind === 'list' && page.collection.pageNumber > 1),
  );
}

/**
 * The part of the index a page goes to: the primary subtag of its `<html lang>`. Pagefind makes one
 * index per language, and an index holds nothing of another language's pages, so each part is
 * indexed on its own and an edit indexes again only the part of the pages it changed; a part is at
 * least as coarse as Pagefind's languages, so no language of Pagefind's spans two parts.
 */
function partOf(config: ResolvedConfig, page: Page): string {
  return config.locales[page.locale]!.htmlLang.split('-')[0]!.toLowerCase();
}

/**
 * Adds the index's files to the output's `files`. A page left as it was on disk (`kept`) is read
 * from `outputFolder`, unless an earlier build's index read it with the same size and
 * modification time (the stamp the build keeps it by). With `cache`, each part's index (one per
 * language, `partOf`) made from the very same pages is reused: a build of an unchanged site neither
 * runs Pagefind nor reads a page, and a one-post edit indexes that post's language only.
 */
export async function addSearchIndex(input: {
  config: ResolvedConfig;
  pages: readonly Page[];
  files: OutputFiles;
  kept: ReadonlyMap<string, FileStamp>;
  outputFolder: string;
  folder: string;
  cache?: boolean;
  /**
   * The hashes an earlier run of the same pipeline took, by file and the very data it hashed: a
   * pipeline that lives on (the admin's live site, `site dev`) hashes again only the pages a run
   * made anew. Updated with this run's.
   */
  memo?: Map<string, { data: string | Uint8Array; hash: string }>;
  /** Where the pages indexed are counted, as Pagefind takes them (a part taken from the cache counts at once). */
  progress?: Progress;
}): Promise<IndexedOutput> {
  const { config, files } = input;
  const cache = input.cache ? openDiskCache('search-index') : undefined;
  const hashesKey = `pages ${hashParts(resolve(input.outputFolder))}`;
  const storedHashes = cache?.readSync(hashesKey)?.toString('utf8');
  const known = new Map(storedHashes ? (JSON.parse(storedHashes) as KeptHash[]) : []);
  const hashes: KeptHash[] = [];
  // The pages rendered now, known by their hash until the write gives their files' stamps.
  const rendered: [file: string, hash: string][] = [];
  const parts = new Map<string, IndexedPage[]>();
  for (const page of searchablePages(config, input.pages).sort((a, b) =>
    a.url < b.url ? -1 : a.url > b.url ? 1 : 0,
  )) {
    const file = input.folder + page.file;
    const data = files.get(file);
    const stamp = data === undefined ? input.kept.get(file) : undefined;
    if (data === undefined && !stamp) continue;
    const part = partOf(config, page);
    const pages = parts.get(part) ?? [];
    parts.set(part, pages);
    const earlier = stamp && known.get(file);
    if (stamp && earlier && earlier[0] === stamp.size && earlier[1] === stamp.mtimeMs) {
      hashes.push([file, earlier]);
      pages.push({ url: page.url, file, hash: earlier[2] });
      continue;
    }
    const memo = data === undefined ? undefined : input.memo?.get(file);
    if (data !== undefined && memo?.data === data) {
      rendered.push([file, memo.hash]);
      pages.push({ url: page.url, file, hash: memo.hash, data });
      continue;
    }
    const content = textOf(data ?? (await readFile(join(input.outputFolder, file))));
    const hash = hashParts(page.url, content);
    if (data !== undefined) input.memo?.set(file, { data, hash });
    if (stamp) hashes.push([file, [stamp.size, stamp.mtimeMs, hash]]);
    else rendered.push([file, hash]);
    pages.push({ url: page.url, file, hash, content });
  }
  if (input.memo) for (const file of input.memo.keys()) if (!files.has(file)) input.memo.delete(file);
  // Pagefind puts the folder above its script (`site.base`) in front of each page's URL itself.
  // A part whose pages are all as before takes its index of the build before from the cache.
  const made: Map<string, Uint8Array>[] = [];
  let indexed = 0;
  let searchable = 0;
  const progress = (input.progress ?? noProgress).begin(
    'search index',
    [...parts.values()].reduce((sum, pages) => sum + pages.length, 0),
    'pages',
  );
  try {
    for (const [part, pages] of [...parts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      searchable += pages.length;
      const fingerprint = hashParts(installedVersion('pagefind'), part, ...pages.map((page) => page.hash));
      const key = `index ${part}`;
      let partFiles = cache && cachedIndex(cache.readSync(key), fingerprint);
      if (!partFiles) {
        for (const page of pages)
          page.content ??= textOf(page.data ?? (await readFile(join(input.outputFolder, page.file))));
        partFiles = await buildIndex(pages as (IndexedPage & { content: string })[], () => progress.tick());
        indexed += pages.length;
        await cache?.write(key, packIndex(fingerprint, partFiles));
      } else {
        progress.tick(pages.length);
      }
      made.push(partFiles);
    }
  } finally {
    progress.end();
  }
  const indexFiles = mergeIndexes(made);
  // With no page kept there is nothing to record before the write (`written` records the rest): an
  // index of the pages in memory (`site dev`, the admin's live site) leaves the folder's record be.
  const nextHashes = JSON.stringify(hashes);
  if (cache && hashes.length && nextHashes !== storedHashes) await cache.write(hashesKey, Buffer.from(nextHashes));
  const out: OutputFiles = new Map(files);
  for (const [path, content] of indexFiles) out.set(`${input.folder}${searchIndexFolder}/${path}`, content);
  return {
    files: out,
    pages: searchable,
    indexed,
    async written(stamps) {
      if (!cache || rendered.length === 0) return;
      // A build after one that rendered every page (the first, a template edit) reads none back.
      const now = rendered.flatMap(([file, hash]): KeptHash[] => {
        const stamp = stamps.get(file);
        return stamp ? [[file, [stamp.size, stamp.mtimeMs, hash]]] : [];
      });
      await cache.write(
        hashesKey,
        Buffer.from(JSON.stringify([...hashes, ...now].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))),
      );
    },
  };
}

/** Pagefind's list of the languages of a bundle, which each part's run writes for its own. */
const entryFile = 'pagefind-entry.json';

interface PagefindEntry {
  version: string;
  languages: Record<string, unknown>;
  [field: string]: unknown;
}

/**
 * One bundle of the parts' indexes, as one run of Pagefind over all the pages writes it: their
 * files together (those every run writes, its script and worker, are the same bytes), and one
 * entry file listing every part's languages in order.
 */
function mergeIndexes(parts: readonly Map<string, Uint8Array>[]): Map<string, Uint8Array> {
  if (parts.length === 1) return parts[0]!;
  const files = new Map<string, Uint8Array>();
  let entry: PagefindEntry | undefined;
  for (const part of parts)
    for (const [path, content] of part) {
      if (path === entryFile) {
        const next = JSON.parse(Buffer.from(content).toString('utf8')) as PagefindEntry;
        entry = entry ? { ...entry, languages: { ...entry.languages, ...next.languages } } : next;
      } else if (!files.has(path)) files.set(path, content);
      else if (!Buffer.from(files.get(path)!).equals(content))
        throw searchIndexFailed([`two parts of the index made different ${path}`]);
    }
  if (entry) {
    const languages = Object.fromEntries(
      Object.entries(entry.languages).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    );
    files.set(entryFile, Buffer.from(JSON.stringify({ ...entry, languages })));
  }
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The output with the index's files, and what to tell the index once it is written. */
export interface IndexedOutput {
  files: OutputFiles;
  /** The pages the index holds. */
  pages: number;
  /** Those of them Pagefind indexed in this build (the others' parts came from the build cache). */
  indexed: number;
  /** Records the stamps the write gave the files of the pages rendered by this build, so the next build need not read them to know their hash. */
  written(stamps: ReadonlyMap<string, FileStamp>): Promise<void>;
}

/** A kept page file's size and modification time, and the hash of its URL and HTML, when an index read it. */
type KeptHash = [file: string, [size: number, mtimeMs: number, hash: string]];

/** A page to index: its HTML, read (or turned into text) only when Pagefind is to run. */
interface IndexedPage {
  url: string;
  file: string;
  hash: string;
  content?: string;
  /** The page's bytes in the output, when its text was not needed to know its hash. */
  data?: string | Uint8Array;
}

const textOf = (data: string | Uint8Array) => (typeof data === 'string' ? data : Buffer.from(data).toString('utf8'));

/** Runs Pagefind over the pages (in the order given, so two builds give the same index); its files by path. */
async function buildIndex(
  pages: readonly { url: string; file: string; content: string }[],
  onAdded: () => void,
): Promise<Map<string, Uint8Array>> {
  const pagefind = await import('pagefind');
  const { index, errors } = await pagefind.createIndex({ rootSelector: 'main', keepIndexUrl: false });
  if (!index) throw searchIndexFailed(errors);
  try {
    // Sent without waiting for each answer: the service takes its messages in the order sent, so
    // the index is the same, and no page waits for the round trip of the one before.
    const added = await Promise.all(
      pages.map((page) =>
        index.addHTMLFile({ url: page.url, content: page.content }).then((answer) => {
          onAdded();
          return answer;
        }),
      ),
    );
    added.forEach((answer, at) => {
      if (answer.errors.length) throw searchIndexFailed(answer.errors, pages[at]!.file);
    });
    const written = await index.getFiles();
    if (written.errors.length) throw searchIndexFailed(written.errors);
    const files = new Map<string, Uint8Array>();
    for (const file of written.files)
      if (!unusedFile.test(file.path)) files.set(file.path.split('\\').join('/'), file.content);
    return files;
  } finally {
    await index.deleteIndex();
    await pagefind.close();
  }
}

/** The cache entry: the fingerprint and a list of paths and sizes on one line each, then the files' bytes. */
function packIndex(fingerprint: string, files: ReadonlyMap<string, Uint8Array>): Uint8Array[] {
  const list = JSON.stringify([...files].map(([path, content]) => [path, content.length]));
  return [Buffer.from(`${fingerprint}\n${list}\n`), ...files.values()];
}

/** The index of a cache entry made from the same pages, or undefined. */
function cachedIndex(entry: Buffer | undefined, fingerprint: string): Map<string, Uint8Array> | undefined {
  if (!entry || entry.toString('latin1', 0, fingerprint.length + 1) !== `${fingerprint}\n`) return undefined;
  const end = entry.indexOf(10, fingerprint.length + 1);
  const files = new Map<string, Uint8Array>();
  let offset = end + 1;
  for (const [path, size] of JSON.parse(entry.toString('utf8', fingerprint.length + 1, end)) as [string, number][]) {
    files.set(path, entry.subarray(offset, offset + size));
    offset += size;
  }
  return offset === entry.length ? files : undefined;
}

/** Pagefind's ready-made search interfaces, which the engine's island does without (and their styles). */
const unusedFile = /^pagefind-(component-ui|modular-ui|ui|highlight)\./;

function searchIndexFailed(errors: readonly string[], file?: string): SiteError {
  return new SiteError({
    code: 'SEARCH_INDEX_FAILED',
    message: `the search index could not be built: ${errors.join('; ') || 'Pagefind gave no reason'}`,
    ...(file ? { file } : {}),
    field: 'search',
  });
}
