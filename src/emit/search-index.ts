/**
 * The site's search index (`search.enabled`): Pagefind indexes the `<main>` of every page the
 * sitemap lists, one index per language (read from `<html lang>`), and its files go into the output
 * under pagefind/ with the pages, before the output is switched into place, so a failed index
 * leaves the previous site as it was. The browser searches it on the search page (see csp.ts for
 * what that page's policy allows), with no server.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { hashParts, installedVersion, openDiskCache } from '../cache/disk-cache.js';
import type { FileStamp } from '../cache/render-state.js';
import type { ResolvedConfig } from '../config/load.js';
import { SiteError } from '../errors.js';
import type { OutputFiles } from '../output-files.js';
import { isSearchPage } from '../render/csp.js';
import type { Page } from '../routes/pages.js';
import { searchIndexFolder } from '../routes/paths.js';

/** The pages a search finds: those the sitemap lists, but the search pages themselves. */
export function searchablePages(config: ResolvedConfig, pages: readonly Page[]): Page[] {
  return pages.filter((page) => page.inSitemap && !isSearchPage(config, page.route.path));
}

/**
 * Adds the index's files to the output's `files`. A page left as it was on disk (`kept`) is read
 * from `outputFolder`. With `cache`, an index made from the very same pages is reused (a warm
 * build of an unchanged site skips Pagefind).
 */
export async function addSearchIndex(input: { config: ResolvedConfig; pages: readonly Page[]; files: OutputFiles; kept: ReadonlyMap<string, FileStamp>; outputFolder: string; folder: string; cache?: boolean }): Promise<OutputFiles> {
  const { config, files } = input;
  const pages: { url: string; file: string; content: string }[] = [];
  for (const page of searchablePages(config, input.pages).sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0))) {
    const file = input.folder + page.file;
    const data = files.get(file) ?? (input.kept.has(file) ? await readFile(join(input.outputFolder, file)) : undefined);
    if (data !== undefined) pages.push({ url: page.url, file, content: typeof data === 'string' ? data : Buffer.from(data).toString('utf8') });
  }
  // Pagefind puts the folder above its script (`site.base`) in front of each page's URL itself.
  // A build whose indexed pages are all as before takes the index of the build before from the cache.
  const cache = input.cache ? openDiskCache('search-index') : undefined;
  const fingerprint = hashParts(installedVersion('pagefind'), ...pages.flatMap((page) => [page.url, page.content]));
  let indexFiles = cache && cachedIndex(cache.readSync('index'), fingerprint);
  if (!indexFiles) {
    indexFiles = await buildIndex(pages);
    await cache?.write('index', packIndex(fingerprint, indexFiles));
  }
  const out: OutputFiles = new Map(files);
  for (const [path, content] of indexFiles) out.set(`${input.folder}${searchIndexFolder}/${path}`, content);
  return out;
}

/** Runs Pagefind over the pages (in the order given, so two builds give the same index); its files by path. */
async function buildIndex(pages: readonly { url: string; file: string; content: string }[]): Promise<Map<string, Uint8Array>> {
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
    for (const file of written.files) if (!unusedFile.test(file.path)) files.set(file.path.split('\\').join('/'), file.content);
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
