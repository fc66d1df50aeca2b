/**
 * The site's search index (`search.enabled`): Pagefind indexes the `<main>` of every page the
 * sitemap lists, one index per language (read from `<html lang>`), and its files go into the output
 * under pagefind/ with the pages, before the output is switched into place, so a failed index
 * leaves the previous site as it was. The browser searches it on the search page (see csp.ts for
 * what that page's policy allows), with no server. A language with more entry pages than
 * `search.pagesPerPart` has them in parts, each a bundle of its own under pagefind/<language>-<n>/
 * that the search page merges into the search (Pagefind's `mergeIndex`), so an edit indexes again
 * the part its post is in.
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { hashParts, installedVersion, openDiskCache } from '../cache/disk-cache.js';
import type { FileStamp } from '../cache/render-state.js';
import type { ResolvedConfig } from '../config/load.js';
import { SiteError } from '../errors.js';
import { copyFiles, type OutputFiles } from '../output-files.js';
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
 * The language a page is indexed under: the primary subtag of its `<html lang>`. Pagefind makes one
 * index per language, and an index holds nothing of another language's pages, so each language is
 * indexed on its own and an edit indexes again only the part of the pages it changed; this is at
 * least as coarse as Pagefind's languages, so no language of Pagefind's spans two of them. The
 * search page asks for the parts of its language by the same subtag of its `<html lang>`.
 */
function languageOf(config: ResolvedConfig, page: Page): string {
  return config.locales[page.locale]!.htmlLang.split('-')[0]!.toLowerCase();
}

/**
 * The parts of each language's index, by page. Part 0 is the language's pages but its entry pages
 * (home, lists, pages of their own: what an edit of a post renders again besides the post); a
 * language with more entry pages than `pagesPerPart` has them in 2, 4, 8… parts (the smallest power
 * of two that leaves at most about `pagesPerPart` in each), by the hash of their URL, so a post keeps
 * its part while posts come and go and a part splits in two when the count doubles. A language
 * with few entries has them in part 0 too: one bundle, as without parts. A language whose part 0
 * would be empty has its first part as part 0, so the main bundle holds every language.
 */
function partsOf(config: ResolvedConfig, pages: readonly Page[]): Map<Page, { language: string; part: number }> {
  const entries = new Map<string, number>();
  for (const page of pages)
    if (page.collection?.kind === 'entry')
      entries.set(languageOf(config, page), (entries.get(languageOf(config, page)) ?? 0) + 1);
  const partOf = new Map<Page, { language: string; part: number }>();
  const used = new Map<string, Set<number>>();
  for (const page of pages) {
    const language = languageOf(config, page);
    const count = entries.get(language) ?? 0;
    const parts =
      count > config.search.pagesPerPart ? 2 ** Math.ceil(Math.log2(count / config.search.pagesPerPart)) : 1;
    const part =
      page.collection?.kind === 'entry' && parts > 1 ? 1 + (parseInt(hashParts(page.url).slice(0, 8), 16) % parts) : 0;
    partOf.set(page, { language, part });
    used.set(language, (used.get(language) ?? new Set()).add(part));
  }
  for (const [language, parts] of used) {
    if (parts.has(0)) continue;
    const first = Math.min(...parts);
    for (const place of partOf.values()) if (place.language === language && place.part === first) place.part = 0;
  }
  return partOf;
}

/** A part's key in the build cache (and in the memo of a pipeline that lives on). */
const unitKey = ({ language, part }: { language: string; part: number }) =>
  part === 0 ? `index ${language}` : `index ${language}-${part}`;

/** The index of each part the last run of a pipeline that lives on made, by the memo of page hashes the pipeline passes. */
const memoizedParts = new WeakMap<object, Map<string, { fingerprint: string; files: Map<string, Uint8Array> }>>();

/** The folder of a part of a language's index under pagefind/, or '' for the main bundle's (part 0). */
const partFolder = (language: string, part: number) => (part === 0 ? '' : `${language}-${part}/`);

/**
 * Adds the index's files to the output's `files`. A page left as it was on disk (`kept`) is read
 * from `outputFolder`, unless an earlier build's index read it with the same size and
 * modification time (the stamp the build keeps it by). With `cache`, each part's index (a
 * language's, or a part of its entry pages: `partsOf`) made from the very same pages is reused: a
 * build of an unchanged site neither runs Pagefind nor reads a page, and a one-post edit indexes
 * again the parts of the pages it changed only.
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
  const parts = new Map<string, { language: string; part: number; pages: IndexedPage[] }>();
  const searchable = searchablePages(config, input.pages).sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  const placeOf = partsOf(config, searchable);
  for (const page of searchable) {
    const file = input.folder + page.file;
    const data = files.get(file);
    const stamp = data === undefined ? input.kept.get(file) : undefined;
    if (data === undefined && !stamp) continue;
    const { language, part } = placeOf.get(page)!;
    const key = `${language} ${part}`;
    const pages = parts.get(key)?.pages ?? [];
    if (!parts.has(key)) parts.set(key, { language, part, pages });
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
    // Its text is read again when its part is indexed: the pages' text is not held all at once.
    pages.push({ url: page.url, file, hash });
  }
  if (input.memo) for (const file of input.memo.keys()) if (!files.has(file)) input.memo.delete(file);
  // Pagefind puts the folder above its script (`site.base`) in front of each page's URL itself.
  // A part whose pages are all as before takes its index of the build before from the cache, or,
  // in a pipeline that lives on, from the run before (the very same bytes: nothing to read, and
  // the publish compares them by reference).
  let partsMemo = input.memo && memoizedParts.get(input.memo);
  if (input.memo && !partsMemo) memoizedParts.set(input.memo, (partsMemo = new Map()));
  const made: { language: string; part: number; files: Map<string, Uint8Array> }[] = [];
  let indexed = 0;
  let pageCount = 0;
  const progress = (input.progress ?? noProgress).begin(
    'search index',
    [...parts.values()].reduce((sum, { pages }) => sum + pages.length, 0),
    'pages',
  );
  // One Pagefind service for the parts of this run, closed once they are made.
  let pagefind: typeof import('pagefind') | undefined;
  try {
    for (const [key, { language, part, pages }] of [...parts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      pageCount += pages.length;
      const fingerprint = hashParts(installedVersion('pagefind'), key, ...pages.map((page) => page.hash));
      const cacheKey = unitKey({ language, part });
      const remembered = partsMemo?.get(cacheKey);
      let partFiles =
        remembered?.fingerprint === fingerprint
          ? remembered.files
          : cache && cachedIndex(cache.readSync(cacheKey), fingerprint);
      if (!partFiles) {
        const contentOf = async (page: IndexedPage) =>
          textOf(page.data ?? files.get(page.file) ?? (await readFile(join(input.outputFolder, page.file))));
        pagefind ??= await import('pagefind');
        partFiles = await buildIndex(pagefind, pages, contentOf, () => progress.tick());
        indexed += pages.length;
        await cache?.write(cacheKey, packIndex(fingerprint, partFiles));
      } else {
        progress.tick(pages.length);
      }
      partsMemo?.set(cacheKey, { fingerprint, files: partFiles });
      made.push({ language, part, files: partFiles });
    }
  } finally {
    progress.end();
    await pagefind?.close();
  }
  if (partsMemo)
    for (const key of partsMemo.keys()) if (!made.some((unit) => unitKey(unit) === key)) partsMemo.delete(key);
  const indexFiles = bundleParts(made);
  // With no page kept there is nothing to record before the write (`written` records the rest): an
  // index of the pages in memory (`site dev`, the admin's live site) leaves the folder's record be.
  const nextHashes = JSON.stringify(hashes);
  if (cache && hashes.length && nextHashes !== storedHashes) await cache.write(hashesKey, Buffer.from(nextHashes));
  const out = copyFiles(files);
  for (const [path, content] of indexFiles) out.set(`${input.folder}${searchIndexFolder}/${path}`, content);
  return {
    files: out,
    pages: pageCount,
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

/**
 * The files of pagefind/: the main bundle (every language's part 0, merged) and each further part
 * in its folder, holding what a merged index reads (its entry, metadata, words, fragments, filters;
 * the script and WebAssembly are the main bundle's). With parts, the main entry file lists them by
 * language, each with the hash of its index (so the entry changes with any part), for the search
 * page to merge: `parts: { en: [{ path: "en-1/", hash }] }`. Without, it is what Pagefind wrote.
 */
function bundleParts(made: readonly { language: string; part: number; files: Map<string, Uint8Array> }[]) {
  // A copy: one part's files may be the map a later run takes again (the memo, the cache's).
  const files = new Map(mergeIndexes(made.filter(({ part }) => part === 0).map(({ files }) => files)));
  const parts: Record<string, { path: string; hash: string }[]> = {};
  for (const { language, part, files: partFiles } of made) {
    if (part === 0) continue;
    const path = partFolder(language, part);
    const entry = JSON.parse(Buffer.from(partFiles.get(entryFile)!).toString('utf8')) as PagefindEntry;
    const hash = Object.values(entry.languages)
      .map((index) => (index as { hash: string }).hash)
      .join(' ');
    (parts[language] ??= []).push({ path, hash });
    for (const [file, content] of partFiles) if (mergedFile.test(file)) files.set(path + file, content);
  }
  if (Object.keys(parts).length === 0) return files;
  const entry = JSON.parse(Buffer.from(files.get(entryFile)!).toString('utf8')) as PagefindEntry;
  files.set(entryFile, Buffer.from(JSON.stringify({ ...entry, parts })));
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The files of a part that a merged index reads (`mergeIndex` takes the script and WebAssembly from the main bundle). */
const mergedFile = /^(pagefind-entry\.json|pagefind\.[^/]*\.pf_meta|(index|fragment|filter)\/)/;

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
  /** The page's bytes in the output, as the memo of a pipeline that lives on has them. */
  data?: string | Uint8Array;
}

/** Pages sent to Pagefind and not yet answered: enough that no page waits for the round trip of the one before, few enough that their text is not all held at once. */
const pagesInFlight = 32;

const textOf = (data: string | Uint8Array) => (typeof data === 'string' ? data : Buffer.from(data).toString('utf8'));

/** Runs Pagefind's service over the pages (in the order given, so two builds give the same index); its files by path. */
async function buildIndex(
  pagefind: typeof import('pagefind'),
  pages: readonly IndexedPage[],
  contentOf: (page: IndexedPage) => Promise<string>,
  onAdded: () => void,
): Promise<Map<string, Uint8Array>> {
  const { index, errors } = await pagefind.createIndex({ rootSelector: 'main', keepIndexUrl: false });
  if (!index) throw searchIndexFailed(errors);
  try {
    // Sent in order without waiting for each answer (up to `pagesInFlight`): the service takes its
    // messages in the order sent, so the index is the same.
    const added: { errors: string[] }[] = new Array(pages.length);
    const waiting = new Set<Promise<void>>();
    for (const [at, page] of pages.entries()) {
      if (waiting.size >= pagesInFlight) await Promise.race(waiting);
      const content = await contentOf(page);
      const sent: Promise<void> = index.addHTMLFile({ url: page.url, content }).then((answer) => {
        added[at] = answer;
        onAdded();
        waiting.delete(sent);
      });
      // Its failure is heard by the race or the wait below; the pages still under way when one fails are not.
      sent.catch(() => undefined);
      waiting.add(sent);
    }
    await Promise.all(waiting);
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
