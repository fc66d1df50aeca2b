/**
 * Stage 6: the site files, derived from the whole site rather than one page: the stylesheet,
 * public/ and the islands' scripts as built; sitemap.xml, robots.txt and `_headers` from the pages
 * and the config; the feeds from the entries, the messages and the config. Each group is made again
 * only when what it is made from changed.
 */
import type { ResolvedConfig } from '../config/load.js';
import type { SiteError } from '../errors.js';
import { createHeaders, createRobots, createSitemap } from '../emit/sitemap.js';
import type { OutputFiles } from '../output-files.js';
import type { Assets } from '../islands/assets.js';
import type { IslandBundle } from '../islands/bundle.js';
import { languageScript, menuScript, notFoundScript, scriptHash } from '../render/head.js';
import { createFeedFiles, type Entry, type Messages, type Page } from './content-api.js';
import type { PageSet } from './routes-stage.js';
import { idOf, type StageRun } from './stage.js';

/** The site files of a build, by group. */
export interface SiteFiles {
  /** The stylesheet, public/ and the islands. */
  built: OutputFiles;
  /** sitemap.xml, robots.txt, `_headers`. */
  routes: Map<string, string>;
  feeds: Map<string, string>;
}

/** What the site files are made from. */
export interface SiteFilesInput {
  config: ResolvedConfig;
  pageSet: PageSet;
  assets: Assets;
  islands: IslandBundle;
  messages: Messages;
  entryList: readonly Entry[];
}

/** Makes the site files, each group kept while what it is made from stays the same. */
export async function createSiteFiles(run: StageRun, input: SiteFilesInput): Promise<{ files?: SiteFiles; errors: SiteError[] }> {
  const { config, pageSet, assets, islands, messages, entryList } = input;
  const [built, routes, feeds] = await Promise.all([
    run.load('built files', `${idOf(assets)} ${idOf(islands)}`, (): OutputFiles => new Map([...assets.files, ...islands.files])),
    run.load('route files', `${idOf(config)} ${idOf(pageSet)}`, () => createRouteFiles(config, pageSet.pages)),
    run.load('feeds', `${idOf(config)} ${idOf(messages)} ${entryList.map(idOf).join(' ')}`, () => createFeedFiles({ config, entries: entryList, messages })),
  ]);
  const errors = [built, routes, feeds].flatMap((group) => group.errors);
  if (!built.value || !routes.value || !feeds.value) return { errors };
  return { files: { built: built.value, routes: routes.value, feeds: feeds.value }, errors };
}

/** sitemap.xml, robots.txt and `_headers`: they depend on the pages and the config only. */
export function createRouteFiles(config: ResolvedConfig, pages: readonly Page[]): Map<string, string> {
  return new Map([
    ['sitemap.xml', createSitemap(pages, config)],
    ['robots.txt', createRobots(config)],
    ['_headers', createHeaders([scriptHash(languageScript), scriptHash(menuScript), scriptHash(notFoundScript)], config)],
  ]);
}
