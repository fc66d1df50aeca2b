/**
 * Stage 3: the routes. The config's route table and the entries become the site's pages, expanded
 * again only when the config or what the routes read of the entries (their slugs, dates, terms
 * and locales) changed.
 */
import type { ResolvedConfig } from '../config/load.js';
import { advancePathLock, entryIndexKey, expandPages, type Entry, type Page } from './content-api.js';
import { idOf, type Loaded, type StageRun } from './stage.js';

/** The pages of a build and lookups over them, made once per list of pages. */
export interface PageSet {
  pages: Page[];
  byFile: Map<string, Page>;
  byUrl: Map<string, Page>;
  /** Page file → its index in `pages`. */
  indexOf: Map<string, number>;
  /** Content id → the pages that show it, in page order. */
  byContent: Map<string, Page[]>;
  /** Page URL → JSON of its record (made when first asked for: only a next run compares them). */
  records(): Map<string, string>;
}

/** Expands the routes; the value is missing when they cannot be (two pages that would write one file). */
export async function expandRoutes(run: StageRun, config: ResolvedConfig, entries: readonly Entry[]): Promise<Loaded<PageSet>> {
  const loaded = await run.load('pages', `${idOf(config)} ${entryIndexKey(config, entries)}`, (diagnostics) => pageSetOf(expandPages(config, entries, diagnostics)));
  // Pages kept from a run that failed were not expanded again, and that run's lock was undone
  // (pipeline.ts): the lock of published paths follows them here.
  if (loaded.value) advancePathLock(config, loaded.value.pages);
  return loaded;
}

function pageSetOf(pages: Page[]): PageSet {
  const byContent = new Map<string, Page[]>();
  for (const page of pages) {
    if (page.content === undefined) continue;
    const list = byContent.get(page.content);
    if (list) list.push(page);
    else byContent.set(page.content, [page]);
  }
  let records: Map<string, string> | undefined;
  return {
    pages,
    byFile: new Map(pages.map((page) => [page.file, page])),
    byUrl: new Map(pages.map((page) => [page.url, page])),
    indexOf: new Map(pages.map((page, index) => [page.file, index])),
    byContent,
    records: () => (records ??= new Map(pages.map((page) => [page.url, JSON.stringify(page)]))),
  };
}
