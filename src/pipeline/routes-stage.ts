/**
 * Stage 3: the routes. The config's route table and the entries become the site's pages, expanded
 * again only when the config or what the routes read of the entries (their slugs, dates, terms
 * and locales) changed. A `site build` keeps the pages it expanded in the build cache, under the
 * fingerprint of the config and of what expansion reads of the entries, so a build with nothing
 * changed, or only an entry's text, takes them from there instead of expanding the routes again.
 */
import { deserialize, serialize } from 'node:v8';
import { hashParts, namesFolder, portableText, type DiskCache } from '../cache/disk-cache.js';
import type { ResolvedConfig } from '../config/load.js';
import { SiteError, type SiteErrorOptions } from '../errors.js';
import {
  advancePathLock,
  entryIndexKey,
  expandPages,
  referenceErrors,
  referencesKey,
  type Entry,
  type Page,
} from './content-api.js';
import { idOf, type Loaded, type StageRun } from './stage.js';

/**
 * Where a build keeps its pages: `key` fingerprints what expansion reads besides the entries (the
 * generator, the config with its lock of published paths, without the project's folder, and its
 * text, where a warning's line is read); the pages are kept under it and what expansion reads of
 * the entries (`entryIndexKey`) and the files that failed before it.
 */
export interface KeptPageSets {
  cache: DiskCache;
  key: string;
  /** Called when the pages were taken from the cache. */
  counted(): void;
}

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
export async function expandRoutes(
  run: StageRun,
  config: ResolvedConfig,
  entries: readonly Entry[],
  kept?: KeptPageSets,
): Promise<Loaded<PageSet>> {
  // The files with errors so far (an entry's bad front matter): its entry is not also called untranslated.
  const failed = new Set(run.diagnostics.of('error').flatMap((problem) => (problem.file ? [problem.file] : [])));
  const index = entryIndexKey(config, entries);
  const failures = [...failed].sort().join('\n');
  // Kept under what expansion reads of the entries (their slugs, dates, terms and locales), not
  // their whole text: a post's body edit takes the pages as they were (0.5 s of 12,000 pages).
  const keptKey = kept && hashParts(kept.key, portableText(index, config.root), failures);
  const from = keptKey ? `kept ${keptKey}` : `${idOf(config)} ${index} ${failures}`;
  const loaded = await run.load('pages', from, (diagnostics) => {
    const stored = kept && readPages(kept, keptKey!, config);
    if (stored) {
      kept.counted();
      // Its warnings (an entry not in every language) are reported again, as a build that expands them does.
      diagnostics.add(...stored.warnings.map((options) => new SiteError(options)));
      return pageSetOf(stored.pages);
    }
    const pages = expandPages(config, entries, diagnostics, undefined, failed);
    if (kept) keepPages(kept, keptKey!, config, pages, diagnostics.list());
    return pageSetOf(pages);
  });
  // Every reference field names an entry that exists (checked apart: the pages do not depend on them).
  await run.load('references', `${idOf(config)} ${referencesKey(config, entries)}`, (diagnostics) => {
    diagnostics.add(...referenceErrors(config, entries));
  });
  // Pages kept from a run that failed were not expanded again, and that run's lock was undone
  // (pipeline.ts): the lock of published paths follows them here.
  if (loaded.value) advancePathLock(config, loaded.value.pages);
  return loaded;
}

/** A page as kept: its route by its place in the config's route table, or whole when it is none of the table's (a 404 page's). */
type KeptPage = Omit<Page, 'route'> & { route: number | Page['route'] };

/** What is kept of an expansion: its pages and its warnings. */
interface KeptExpansion {
  pages: KeptPage[];
  warnings: SiteErrorOptions[];
  /** The project folder, when a page names it (an entry's field holding an absolute path): then only that folder's builds take it. */
  root?: string;
}

function keepPages(
  kept: KeptPageSets,
  key: string,
  config: ResolvedConfig,
  pages: readonly Page[],
  problems: readonly SiteError[],
): void {
  if (problems.some((problem) => problem.severity === 'error')) return;
  const places = new Map(config.routes.map((route, index) => [route, index]));
  const stored: KeptExpansion = {
    pages: pages.map((page) => ({ ...page, route: places.get(page.route) ?? page.route })),
    warnings: problems.map(({ code, message, hint, file, line, column, field, severity }) => ({
      code,
      message,
      hint,
      file,
      line,
      column,
      field,
      severity,
    })),
  };
  // The key leaves the project's folder out: another checkout keeps the pages, unless they name it.
  const bytes = serialize(stored);
  void kept.cache.write(key, namesFolder(bytes, config.root) ? serialize({ ...stored, root: config.root }) : bytes);
}

/** The kept expansion, its pages' routes the config's own objects again; undefined when there is none (or it cannot be read). */
function readPages(
  kept: KeptPageSets,
  key: string,
  config: ResolvedConfig,
): { pages: Page[]; warnings: SiteErrorOptions[] } | undefined {
  const data = kept.cache.readSync(key);
  if (!data) return undefined;
  try {
    const stored = deserialize(data) as KeptExpansion;
    if (stored.root !== undefined && stored.root !== config.root) return undefined;
    const pages = stored.pages.map((page) => ({
      ...page,
      route: typeof page.route === 'number' ? config.routes[page.route]! : page.route,
    }));
    return pages.every((page) => page.route !== undefined) ? { pages, warnings: stored.warnings } : undefined;
  } catch {
    return undefined;
  }
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
