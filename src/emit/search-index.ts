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

/** The pages a search finds: those the sitemap lists, but the search pages themselves. */
export function searchablePages(config: ResolvedConfig, pages: readonly Page[]): Page[] {
  return pages.filter((page) => page.inSitemap && !isSearchPage(config, page.route.path));
}

/**
 * Adds the index's files to the output's `files`. A page left as it was on disk (`kept`) is read
 * from `outputFolder`, unless an earlier build's index read it with the same size and
 * modification time (the stamp the build keeps it by). With `cache`, an index made from the very
 * same pages is reused: a build of an unchanged site neither runs Pagefind nor reads a page.
 */
export async function addSearchIndex(input: {
  config: ResolvedConfig;
  pages: readonly Page[];
  files: OutputFiles;
  kept: ReadonlyMap<string, FileStamp>;
  outputFolder: string;
  folder: string;
  cache?: boolean;
}): Promise<IndexedOutput> {
  const { config, files } = input;
  const cache = input.cache ? openDiskCache('search-index') : undefined;
  const hashesKey = `pages ${hashParts(resolve(input.outputFolder))}`;
  const storedHashes = cache?.readSync(hashesKey)?.toString('utf8');
  const known = new Map(storedHashes ? (JSON.parse(storedHashes) as KeptHash[]) : []);
  const hashes: KeptHash[] = [];
  // The pages rendered now, known by their hash until the write gives their files' stamps.
  const rendered: [file: string, hash: string][] = [];
  const pages: IndexedPage[] = [];
  for (const page of searchablePages(config, input.pages).sort((a, b) =>
    a.url < b.url ? -1 : a.url > b.url ? 1 : 0,
  )) {
    const file = input.folder + page.file;
    const data = files.get(file);
    const stamp = data === undefined ? input.kept.get(file) : undefined;
    if (data === undefined && !stamp) continue;
    const earlier = stamp && known.get(file);
    if (stamp && earlier && earlier[0] === stamp.size && earlier[1] === stamp.mtimeMs) {
      hashes.push([file, earlier]);
      pages.push({ url: page.url, file, hash: earlier[2] });
      continue;
    }
    const content = textOf(data ?? (await readFile(join(input.outputFolder, file))));
    const hash = hashParts(page.url, content);
    if (stamp) hashes.push([file, [stamp.size, stamp.mtimeMs, hash]]);
    else rendered.push([file, hash]);
    pages.push({ url: page.url, file, hash, content });
  }
  // Pagefind puts the folder above its script (`site.base`) in front of each page's URL itself.
  // A build whose indexed pages are all as before takes the index of the build before from the cache.
  const fingerprint = hashParts(installedVersion('pagefind'), ...pages.map((page) => page.hash));
  let indexFiles = cache && cachedIndex(cache.readSync('index'), fingerprint);
  if (!indexFiles) {
    for (const page of pages) page.content ??= textOf(await readFile(join(input.outputFolder, page.file)));
    indexFiles = await buildIndex(pages as Required<IndexedPage>[]);
    await cache?.write('index', packIndex(fingerprint, indexFiles));
  }
  // With no page kept there is nothing to record before the write (`written` records the rest): an
  // index of the pages in memory (`site dev`, the admin's live site) leaves the folder's record be.
  const nextHashes = JSON.stringify(hashes);
  if (cache && hashes.length && nextHashes !== storedHashes) await cache.write(hashesKey, Buffer.from(nextHashes));
  const out: OutputFiles = new Map(files);
  for (const [path, content] of indexFiles) out.set(`${input.folder}${searchIndexFolder}/${path}`, content);
  return {
    files: out,
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

/** The output with the index's files, and what to tell the index once it is written. */
export interface IndexedOutput {
  files: OutputFiles;
  /** Records the stamps the write gave the files of the pages rendered by this build, so the next build need not read them to know their hash. */
  written(stamps: ReadonlyMap<string, FileStamp>): Promise<void>;
}

/** A kept page file's size and modification time, and the hash of its URL and HTML, when an index read it. */
type KeptHash = [file: string, [size: number, mtimeMs: number, hash: string]];

/** A page to index: its HTML, read only when Pagefind is to run. */
interface IndexedPage {
  url: string;
  file: string;
  hash: string;
  content?: string;
}

const textOf = (data: string | Uint8Array) => (typeof data === 'string' ? data : Buffer.from(data).toString('utf8'));

/** Runs Pagefind over the pages (in the order given, so two builds give the same index); its files by path. */
async function buildIndex(
  pages: readonly { url: string; file: string; content: string }[],
): Promise<Map<string, Uint8Array>> {
  const pagefind = await import('pagefind');
  const { index, errors } = await pagefind.createIndex({ rootSelector: 'main', keepIndexUrl: false });
  if (!index) throw searchIndexFailed(errors);
  try {
    for (const page of pages) {
      const added = await index.addHTMLFile({ url: page.url, content: page.content });
      if (added.errors.length) throw searchIndexFailed(added.errors, page.file);
    }
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
