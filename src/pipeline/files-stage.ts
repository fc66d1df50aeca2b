/**
 * Stage 6: the site files, derived from the whole site rather than one page: the stylesheet,
 * public/ and the islands' scripts as built; sitemap.xml, robots.txt and `_headers` from the pages
 * and the config; the feeds from the entries, the messages and the config; the social images from
 * every page's meta (render/social-card.ts), started before the pages render (`startSocialImages`)
 * so their workers draw them meanwhile, and drawn by this thread too once the pages are rendered.
 * Each group is made again only when what it is made from changed.
 */
import type { Spill } from '../spill.js';
import { hashParts, type DiskCache } from '../cache/disk-cache.js';
import type { FileStamp } from '../cache/render-state.js';
import type { ResolvedConfig } from '../config/load.js';
import { createRobots, createSitemaps, lastModifiedOf } from '../emit/sitemap.js';
import type { RunEsbuild } from '../esbuild-step.js';
import { createHostFiles, createHostFunctions, hasBookingFunction, targetWarnings } from '../targets/index.js';
import type { OutputFiles } from '../output-files.js';
import type { Assets } from '../islands/assets.js';
import type { IslandBundle } from '../islands/bundle.js';
import { createImageVariants } from '../emit/images.js';
import { codeStylesheet, codeStylesheetUrl, hasHighlightedCode } from '../content/highlight.js';
import { translationHasCode } from './entry-html.js';
import { assetsFolder } from '../url-paths.js';
import { drawSocialImages, socialDrawingKey } from '../emit/social-images.js';
import type { EntryImage } from '../content/images.js';
import { focusStylesheet } from '../render/images.js';
import type { PageContent } from '../content/pages.js';
import type { TemplateSet } from '../render/types.js';
import { componentFiles } from '../render/component-files.js';
import {
  byCollection,
  componentNamesUsed,
  contentFrameSources,
  copyImagesOf,
  createFeedFiles,
  renderInputOf,
  socialCardsOf,
  type Entry,
  type MarkdownImage,
  type Messages,
  type Page,
} from './content-api.js';
import type { PageSet } from './routes-stage.js';
import type { WorkerPool } from '../parallel/pool.js';
import type { Progress } from '../progress.js';
import { idOf, type Loaded, type StageRun } from './stage.js';

/** The site files of a build, by group. */
export interface SiteFiles {
  /** The stylesheet, public/, the islands and the host's functions. */
  built: OutputFiles;
  /** The sitemap files, robots.txt, `_headers`. */
  routes: Map<string, string>;
  feeds: Map<string, string>;
  /** The social images (`_social/<hash>.png`); empty with `output.socialImages: false`. */
  social: Map<string, Uint8Array>;
  /** The social images the output folder keeps as an earlier build wrote them (not in `social`), with their stamps. */
  socialKept: Map<string, FileStamp>;
  /** The mark they were drawn with (public/logo.svg's text, or "" for none): a new one draws them again. */
  socialMark: string;
  /** The variants of the entries' images (`assets/images/<hash>-<width>.<format>`). */
  images: Map<string, Uint8Array>;
}

/** What the site files are made from. */
export interface SiteFilesInput {
  config: ResolvedConfig;
  pageSet: PageSet;
  assets: Assets;
  islands: IslandBundle;
  messages: Messages;
  entryList: readonly Entry[];
  contents: ReadonlyMap<string, PageContent>;
  /** The site files of the run before, in a pipeline that runs again: its image variants are reused. */
  previous?: SiteFiles;
  /** The social images, started by `startSocialImages`. */
  social: SocialImagesRun;
  /** Told how many image variants there are and how many were encoded. */
  countImageVariants?(total: number, made: number): void;
  /** Where the code stylesheet is kept between builds (undefined: made each time). */
  codeStylesheetCache?: DiskCache;
  /** false: encode every image variant and keep none (a build without its cache). */
  mediaCache?: false;
  /** How the functions' esbuild step runs (the pipeline's runtime). */
  esbuild?: RunEsbuild;
}

/** Makes the site files, each group kept while what it is made from stays the same; undefined when one could not be made (its problems are the run's). */
export async function createSiteFiles(run: StageRun, input: SiteFilesInput): Promise<SiteFiles | undefined> {
  const { config, pageSet, assets, islands, messages, entryList } = input;
  // The host's functions are bundled from the generator's own modules: made again when the config changes.
  // The booking's calendar file takes its words from the messages, when the build has a booking function.
  const functions = await run.load(
    'host functions',
    `${idOf(config)} ${hasBookingFunction(config) ? idOf(messages) : ''}`,
    () => createHostFunctions(config, { messages, run: input.esbuild }),
  );
  // The code stylesheet is published only when a page has highlighted code (render.ts links it there).
  const { highlight } = config.markdown;
  const code = highlight && hasCodeToHighlight(entryList, input.contents) ? highlight : undefined;
  // The engine components' stylesheet and the video's script are published when the Markdown uses a component (render.ts links them where one is shown).
  const components = componentNamesUsed(entryList, input.contents).length > 0;
  const frames = contentFrameSources(entryList, input.contents);
  const [built, routes, feeds, social, images] = await Promise.all([
    run.load(
      'built files',
      `${idOf(assets)} ${idOf(islands)} ${functions.value ? idOf(functions.value) : ''} ${JSON.stringify(code ?? null)} ${components}`,
      async (): Promise<OutputFiles> =>
        new Map([
          ...assets.files,
          ...islands.files,
          ...(functions.value ?? []),
          ...(code
            ? [
                [
                  codeStylesheetUrl(code, assetsFolder).slice(1),
                  await codeStylesheet(code, input.codeStylesheetCache),
                ] as const,
              ]
            : []),
          ...(components
            ? [componentFiles.stylesheet, componentFiles.videoScript].map(
                (file) => [file.url.slice(1), file.text] as const,
              )
            : []),
        ]),
    ),
    run.load(
      'route files',
      `${idOf(config)} ${idOf(pageSet)} ${entryList.map(idOf).join(' ')} ${frames.join(' ')}`,
      () => createRouteFiles(config, pageSet.pages, entryList, frames),
    ),
    run.load('feeds', `${idOf(config)} ${idOf(messages)} ${entryList.map(idOf).join(' ')}`, () =>
      createFeedFiles({ config, entries: entryList, messages }),
    ),
    input.social.loaded,
    run.load('images', `${entryList.map(idOf).join(' ')} ${idOf(input.contents)}`, async () => {
      const { files, made } = await createImageVariants(
        [...imagesOf(entryList), ...bodyImagesOf(entryList, input.contents)],
        { reuse: input.previous?.images, cache: input.mediaCache },
      );
      input.countImageVariants?.(files.size, made);
      // The focus classes are published only when some image has a focal point (render.ts links them there).
      if ([...imagesOf(entryList)].some((image) => image.focus))
        files.set(focusStylesheet.url.slice(1), new TextEncoder().encode(focusStylesheet.text));
      return files;
    }),
  ]);
  run.diagnostics.add(...targetWarnings(config));
  if (!functions.value || !built.value || !routes.value || !feeds.value || !social.value || !images.value)
    return undefined;
  return {
    built: built.value,
    routes: routes.value,
    feeds: feeds.value,
    social: social.value.files,
    socialKept: social.value.kept,
    socialMark: socialMarkOf(assets),
    images: images.value,
  };
}

/** The social images made, and those kept in the output folder as written. */
export interface SocialFiles {
  files: Map<string, Uint8Array>;
  kept: Map<string, FileStamp>;
}

/** What the social images are made from: all known once the page copy is, before the pages render. */
export type SocialImagesInput = Pick<
  SiteFilesInput,
  'config' | 'pageSet' | 'assets' | 'messages' | 'entryList' | 'contents'
> & {
  /** What the pages' meta is made from. */
  templates: TemplateSet;
  stylesheet: string;
  /** The site files of the run before, in a pipeline that runs again: its social images are reused. */
  previous?: SiteFiles;
  /** Told how many social images there are and how many were drawn. */
  countSocialImages?(total: number, drawn: number): void;
  /** The worker threads that draw them (the runtime's `socialPool`); without them the main thread does. */
  pool?: () => WorkerPool | undefined;
  /** Told once the cards are drawn (the runtime's `socialImagesDrawn`): their workers are no longer needed. */
  drawn?(): Promise<void>;
  /** Where the cards drawn are counted (the runtime's `progress`). */
  progress?: Progress;
  /** false: draw every card and keep none (a build without its cache). */
  cache?: false;
  /** The stamps of a card's file the output folder keeps as written, drawn the same way (see `SocialImageOptions.keep`). */
  keep?: (file: string) => [string, FileStamp][] | undefined;
  /**
   * Given when the build is made from what the output folder's last build was made from (the
   * same pages, so the same cards): the stamps of every card's file it holds as written, when it
   * holds them all; then no card is worked out.
   */
  keepAll?: () => Map<string, FileStamp> | undefined;
  /** Where the images go as they are drawn (a build that spills its pages, spill.ts). */
  spill?: Spill;
};

/** The social images as they are made (`startSocialImages`). */
export interface SocialImagesRun {
  loaded: Promise<Loaded<SocialFiles>>;
}

/**
 * Starts the social images, kept while what they are made from stays the same: their worker draws
 * them while this thread renders the pages and makes the rest of the site's files (`createSiteFiles`).
 */
export function startSocialImages(run: StageRun, input: SocialImagesInput): SocialImagesRun {
  const { config, pageSet, messages, entryList } = input;
  const mark = socialMarkOf(input.assets);
  const key = config.output.socialImages
    ? `${idOf(config)} ${hashParts(mark)} ${idOf(pageSet)} ${idOf(input.templates)} ${idOf(messages)} ${idOf(input.contents)} ${entryList.map(idOf).join(' ')} ${input.keep ? idOf(input.keep) : ''} ${input.keepAll ? idOf(input.keepAll) : ''}`
    : 'off';
  const loaded = run.load('social images', key, () => createSocialImages(input, mark));
  // Awaited by the site files stage: a run that fails before it does not leave it unhandled.
  loaded.catch(() => undefined);
  return { loaded };
}

/** What the social images' bytes depend on besides their cards ("" without social images): part of what every page of the output depends on (written-output.ts `globalFingerprint`). */
export function socialKeyOf(config: ResolvedConfig, assets: Assets): string {
  return config.output.socialImages ? socialDrawingKey(socialMarkOf(assets)) : '';
}

/** The mark the cards show: the site's logo (public/logo.svg, which comes with the assets), or "" for none. */
function socialMarkOf(assets: Assets): string {
  const logo = assets.files.get('logo.svg');
  return logo === undefined ? '' : typeof logo === 'string' ? logo : Buffer.from(logo).toString('utf8');
}

/** The names of the site files, every group: what a link may lead to besides a page. */
export function* siteFileNames(files: SiteFiles): Generator<string> {
  for (const group of [files.built, files.routes, files.feeds, files.social, files.socialKept, files.images])
    yield* group.keys();
}

/** Whether an entry or a page's copy (its Markdown is HTML among its values) has highlighted code. */
function hasCodeToHighlight(entries: readonly Entry[], contents: ReadonlyMap<string, PageContent>): boolean {
  return (
    entries.some((entry) => Object.values(entry.translations).some(translationHasCode)) ||
    [...contents.values()].some(hasCodeIn)
  );
}

function hasCodeIn(value: unknown): boolean {
  if (typeof value === 'string') return hasHighlightedCode(value);
  return typeof value === 'object' && value !== null && Object.values(value).some(hasCodeIn);
}

/** The images of the entries' translations: their covers and the images of their image fields. */
function* imagesOf(entries: readonly Entry[]): Generator<EntryImage> {
  for (const entry of entries)
    for (const translation of Object.values(entry.translations)) {
      if (translation.image) yield translation.image;
      if (translation.fieldImages) yield* translation.fieldImages;
    }
}

/** The image files the Markdown of the entries and of the page copy shows. */
function* bodyImagesOf(
  entries: readonly Entry[],
  contents: ReadonlyMap<string, PageContent>,
): Generator<MarkdownImage> {
  for (const entry of entries)
    for (const translation of Object.values(entry.translations))
      if (translation.bodyImages) yield* translation.bodyImages;
  for (const copy of contents.values()) yield* copyImagesOf(copy);
}

/** The social image of every page, drawn or from the cache. */
async function createSocialImages(input: SocialImagesInput, mark: string): Promise<SocialFiles> {
  if (!input.config.output.socialImages) return { files: new Map(), kept: new Map() };
  const all = input.keepAll?.();
  if (all) {
    input.countSocialImages?.(all.size, 0);
    return { files: new Map(), kept: all };
  }
  const renderInput = renderInputOf({ ...input, pages: input.pageSet.pages, entries: input.entryList });
  // A file's name says what its card shows, but not with which logo: a new logo draws them all again.
  const reuse = input.previous?.socialMark === mark ? input.previous.social : undefined;
  const { files, drawn, kept } = await drawSocialImages(socialCardsOf(renderInput, input.templates), {
    reuse,
    pool: input.pool,
    progress: input.progress,
    cache: input.cache,
    keep: input.keep,
    spill: input.spill,
    ...(mark ? { mark } : {}),
  });
  input.countSocialImages?.(files.size + kept.size, drawn);
  await input.drawn?.();
  return { files, kept };
}

/** The sitemap files, robots.txt and the files of the host the output is for (`_headers` for node; see src/targets): they depend on the pages, the config, and the entries' dates. */
export function createRouteFiles(
  config: ResolvedConfig,
  pages: readonly Page[],
  entries: readonly Entry[],
  frameSources: readonly string[] = [],
): Map<string, string> {
  return new Map([
    ...createSitemaps(pages, config, lastModifiedOf(byCollection(config, entries))),
    ['robots.txt', createRobots(config)],
    ...createHostFiles(config, pages, frameSources),
  ]);
}
