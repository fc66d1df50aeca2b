/**
 * The site's search index (`search.enabled`): Pagefind indexes the `<main>` of every page the
 * sitemap lists, one index per language (read from `<html lang>`), and its files go into the output
 * under pagefind/ with the pages, before the output is switched into place, so a failed index
 * leaves the previous site as it was. The browser searches it on the search page (see csp.ts for
 * what that page's policy allows), with no server.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
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
 * from `outputFolder`. The pages are added in URL order, so two builds give the same index.
 */
export async function addSearchIndex(input: { config: ResolvedConfig; pages: readonly Page[]; files: OutputFiles; kept: ReadonlyMap<string, FileStamp>; outputFolder: string; folder: string }): Promise<OutputFiles> {
  const { config, files } = input;
  const pagefind = await import('pagefind');
  const { index, errors } = await pagefind.createIndex({ rootSelector: 'main', keepIndexUrl: false });
  if (!index) throw searchIndexFailed(errors);
  try {
    const pages = searchablePages(config, input.pages).sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
    for (const page of pages) {
      const file = input.folder + page.file;
      const data = files.get(file) ?? (input.kept.has(file) ? await readFile(join(input.outputFolder, file)) : undefined);
      if (data === undefined) continue;
      const content = typeof data === 'string' ? data : Buffer.from(data).toString('utf8');
      const added = await index.addHTMLFile({ url: config.site.base + page.url, content });
      if (added.errors.length) throw searchIndexFailed(added.errors, file);
    }
    const written = await index.getFiles();
    if (written.errors.length) throw searchIndexFailed(written.errors);
    const out: OutputFiles = new Map(files);
    for (const indexFile of written.files) {
      if (unusedFile.test(indexFile.path)) continue;
      out.set(`${input.folder}${searchIndexFolder}/${indexFile.path.split('\\').join('/')}`, indexFile.content);
    }
    return out;
  } finally {
    await index.deleteIndex();
    await pagefind.close();
  }
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
