/**
 * Route expansion: the config's route table becomes a flat list of `Page` records, one per URL:
 * every route × every locale it exists in × its aliases, plus the pages of the collections.
 * Pure data, no I/O: every decision about which page exists where, what its canonical URL is,
 * which pages are its language alternates and where its language switch leads, is made here.
 */
import { join } from 'node:path';
import type { ResolvedConfig } from '../config/load.js';
import type { RouteConfig } from '../config/schema.js';
import { sourcesOf } from '../config/sources.js';
import type { Diagnostics } from '../diagnostics.js';
import { SiteError, throwIfAny } from '../errors.js';
import { pickTranslation, type FallbackRules } from './fallback.js';
import { absoluteUrl, aliasPath, ancestorPaths, toUrl } from '../url-paths.js';
import { siteRootOf, urlsOf } from './urls.js';

/** What route expansion needs to know about one translation of an entry. */
export interface EntryTranslationMeta {
  date: string;
  /** The taxonomy term, when the collection has a taxonomy. */
  term?: string;
  /** The slug of this translation's URL, when it has its own (front matter `slug:`). */
  slug?: string;
  /** With `slug`: the translation's file, named when its URL collides with another page's. */
  file?: string;
}

/** An entry of a collection: its slug and the locales it is written in. */
export interface EntryIndex {
  collection: string;
  slug: string;
  translations: Record<string, EntryTranslationMeta>;
}

/** An entry a list page shows: which one, in which language, and its page in the list's section. */
export interface ListedEntry {
  slug: string;
  /** The language of the translation shown (the page's own, or its fallback). */
  locale: string;
  /** The entry's page, in the same audience section as the list when there is one. */
  url?: string;
}

/** Which entries of a collection a list page shows. */
export interface CollectionListData {
  kind: 'list';
  collection: string;
  /** The taxonomy term filtered on, or undefined for all entries. */
  term?: string;
  pageNumber: number;
  pageCount: number;
  /** The entries on this page, newest first. */
  entries: ListedEntry[];
  /** URL of the list's first page for each filter: all entries first, then each term. */
  filterUrls: { term?: string; url: string }[];
  previousUrl?: string;
  nextUrl?: string;
  /** The collection's feed in the page's locale, when it has one. */
  feedUrl?: string;
}

/** Which entry an entry page shows, and in which language its text is. */
export interface CollectionEntryData {
  kind: 'entry';
  collection: string;
  slug: string;
  /** The language of the translation shown (the page's own, or its fallback). */
  contentLocale: string;
  /** The list of the collection in the page's section and locale, when one exists. */
  listUrl?: string;
  /** The list page of the entry's term, when the collection has a taxonomy. */
  termUrl?: string;
  feedUrl?: string;
}

/** A link to the same page in another language. */
export interface LanguageLink {
  locale: string;
  url: string;
  /** True when this is the page itself. */
  current: boolean;
  /** True when the target is the same page translated, false when it is that language's home. */
  counterpart: boolean;
}

/** One output page. */
export interface Page {
  /** Pages that are translations of one another share a cluster key. */
  cluster: string;
  route: RouteConfig;
  /** Page path without trailing slash ("/no/hub/product"). */
  path: string;
  /** The URL that links name ("/no/hub/product/"). */
  url: string;
  /** Output file relative to the output folder. */
  file: string;
  locale: string;
  audience?: string;
  template: string;
  /** Folder under content/pages/ with the page copy, when the page has one. */
  content?: string;
  noindex: boolean;
  /** Absolute canonical URL: the page itself, or the original of an alias or copy. */
  canonical: string;
  /** True for alias pages, audience copies and untranslated fallbacks: not in the sitemap. */
  duplicate: boolean;
  /** For a duplicate: the page its canonical URL names (whose social image it shares). */
  original?: { url: string; locale: string; audience?: string };
  /** Set on the pages an alias mirrors at a second path ("/no/arbeidsklær/…"). */
  alias?: true;
  /** hreflang alternates (absolute), including the page itself and x-default; empty for duplicates. */
  alternates: { hreflang: string; href: string }[];
  languageLinks: LanguageLink[];
  /** URLs of the ancestor pages that exist, root first (for breadcrumbs). */
  ancestors: string[];
  /** What a collection's list or entry page shows. */
  collection?: CollectionListData | CollectionEntryData;
  inSitemap: boolean;
  /** The 404 page of its locale. */
  notFound?: boolean;
}

/** What `createPages` needs besides the config: the entries of each collection. */
export interface CreatePagesInput {
  entries: Readonly<Record<string, readonly EntryIndex[]>>;
  /**
   * Finds the line and column of a field in a file (the config's `paths:`, an entry's `slug:`),
   * and the field as the file writes it when that differs (a route's path map), for the errors.
   */
  locate?: (
    file: string,
    field: readonly (string | number)[],
  ) => { line?: number; column?: number; written?: readonly (string | number)[] };
}

interface Draft extends Omit<
  Page,
  'alternates' | 'languageLinks' | 'ancestors' | 'canonical' | 'inSitemap' | 'original'
> {
  /** The page this one duplicates (aliases, audience copies, fallbacks). */
  original?: Draft;
  /** For alias pages: the page they mirror. */
  mirrorOf?: Draft;
  /** Where a localized path or slug gives this page its path: the file and field, for a collision's error. */
  claim?: { file: string; field: (string | number)[] };
}

/** Expands the route table into pages, sorted by path. Throws when two pages share a file. */
export function createPages(config: ResolvedConfig, input: CreatePagesInput): Page[] {
  const urls = urlsOf(config);
  const drafts: Draft[] = [];
  const entries = (name: string) => sortEntries(input.entries[name] ?? []);

  for (const route of config.routes) {
    const locales = route.locale ? [route.locale] : config.localeIds;
    for (const locale of locales) {
      const base: Omit<Draft, 'cluster' | 'path' | 'url' | 'file'> = {
        route,
        locale,
        audience: route.audience,
        template: route.template,
        content: route.content,
        noindex: route.noindex,
        duplicate: false,
      };
      const place = (routePath: string) => urls.place(route.locale ? routePath : urls.pagePath(routePath, locale));
      const cluster = route.alternate ?? route.path;
      const routeClaim =
        route.paths?.[locale] === undefined
          ? undefined
          : { file: config.file, field: ['routes', config.routes.indexOf(route), 'paths', locale] };
      if (route.list !== undefined) {
        for (const list of expandList(route, locale, entries(route.list), config)) {
          drafts.push({
            ...base,
            cluster: list.routePath,
            ...place(list.localPath),
            collection: list.data,
            ...(routeClaim ? { claim: routeClaim } : {}),
          });
        }
      } else if (route.entry !== undefined) {
        for (const entry of expandEntries(route, locale, entries(route.entry), config)) {
          const claim = entry.slugFile ? { file: entry.slugFile, field: ['slug'] } : routeClaim;
          drafts.push({
            ...base,
            cluster: entry.routePath,
            ...place(entry.localPath),
            collection: entry.data,
            ...(claim ? { claim } : {}),
          });
        }
      } else {
        drafts.push({ ...base, cluster, ...place(route.path), ...(routeClaim ? { claim: routeClaim } : {}) });
      }
    }
  }

  // Audience copies of collection pages duplicate the generic page of the same locale. Pages are
  // found by cluster and locale, not path: a localized slug makes the path differ per locale.
  const byCluster = new Map(drafts.map((draft) => [`${draft.locale} ${draft.cluster}`, draft]));
  for (const draft of drafts) {
    if (!draft.collection || !draft.audience) continue;
    const audiencePath = config.audiences[draft.audience]!.path;
    const genericRoutePath = draft.cluster.slice(audiencePath.length);
    const original = byCluster.get(`${draft.locale} ${genericRoutePath}`);
    if (original) {
      draft.original = original;
      draft.duplicate = true;
    }
  }
  // An entry shown in another language than its page's is a fallback of the translated original.
  for (const draft of drafts) {
    if (draft.collection?.kind !== 'entry' || draft.collection.contentLocale === draft.locale || draft.original)
      continue;
    const original = byCluster.get(`${draft.collection.contentLocale} ${draft.cluster}`);
    if (original) {
      draft.original = original;
      draft.duplicate = true;
    }
  }

  // Aliases mirror every page under `from` at `to`, in one locale.
  for (const alias of config.aliases) {
    for (const draft of drafts.filter((page) => page.locale === alias.locale && !page.route.locale)) {
      const mirrored = aliasPath(draft.cluster, alias.from, alias.to);
      if (mirrored === undefined) continue;
      drafts.push({
        ...draft,
        ...urls.place(urls.pagePath(mirrored, alias.locale)),
        duplicate: true,
        alias: true,
        original: draft.original ?? draft,
        mirrorOf: draft,
      });
    }
  }

  for (const locale of config.localeIds) {
    drafts.push({
      cluster: '/404',
      route: { path: '/404', template: 'NotFound', noindex: true },
      ...urls.notFound(locale),
      locale,
      template: 'NotFound',
      noindex: true,
      duplicate: false,
      notFound: true,
    });
  }

  refuseCollisions(drafts, config.file, input.locate);
  return finishPages(drafts, config);
}

function finishPages(drafts: Draft[], config: ResolvedConfig): Page[] {
  const urls = urlsOf(config);
  // hreflang clusters hold only canonical pages; language switches may also land on a copy
  // (an audience's blog post, an untranslated fallback), never on an alias.
  const hreflangClusters = groupBy(
    drafts.filter((draft) => !draft.duplicate && !draft.notFound),
    (draft) => draft.cluster,
  );
  const switchClusters = groupBy(
    drafts.filter((draft) => !draft.mirrorOf && !draft.notFound),
    (draft) => draft.cluster,
  );
  const existing = new Set(drafts.map((draft) => draft.path));
  const origin = siteRootOf(config);

  const pages = drafts.map((draft): Page => {
    let original = draft;
    while (original.original) original = original.original;
    const alternates: Page['alternates'] = [];
    const cluster = hreflangClusters.get(draft.cluster) ?? [];
    if (!draft.duplicate && cluster.length > 1) {
      for (const locale of config.localeIds) {
        const member = cluster.find((candidate) => candidate.locale === locale);
        if (member)
          alternates.push({ hreflang: config.locales[locale]!.hreflang, href: absoluteUrl(origin, member.url) });
      }
      const fallback = cluster.find((candidate) => candidate.locale === config.site.defaultLocale);
      if (fallback) alternates.push({ hreflang: 'x-default', href: absoluteUrl(origin, fallback.url) });
    }
    const switchCluster = switchClusters.get((draft.mirrorOf ?? draft).cluster) ?? [];
    const languageLinks = config.localeIds.map((locale): LanguageLink => {
      if (locale === draft.locale) return { locale, url: draft.url, current: true, counterpart: true };
      const member = switchCluster.find((candidate) => candidate.locale === locale);
      if (member) return { locale, url: member.url, current: false, counterpart: true };
      return { locale, url: urls.page('/', locale), current: false, counterpart: false };
    });
    const { original: _original, mirrorOf: _mirrorOf, ...rest } = draft;
    const ancestors = draft.notFound
      ? []
      : ancestorPaths(draft.route.locale ? draft.path : urls.routePathOf(draft.path))
          .map((routePath) => (draft.route.locale ? routePath : urls.pagePath(routePath, draft.locale)))
          .filter((path) => existing.has(path))
          .map(toUrl);
    return {
      ...rest,
      ...(original === draft
        ? {}
        : {
            original: {
              url: original.url,
              locale: original.locale,
              ...(original.audience ? { audience: original.audience } : {}),
            },
          }),
      canonical: absoluteUrl(origin, original.url),
      alternates,
      languageLinks,
      ancestors,
      inSitemap: !draft.duplicate && !draft.noindex && !draft.notFound,
    };
  });
  return pages.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function groupBy<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

/**
 * Two pages on one file stop the build. When a localized path or slug put one of them there, the
 * error is PATH_COLLISION at that `paths:` entry or `slug:` line; otherwise OUTPUT_COLLISION.
 */
function refuseCollisions(drafts: readonly Draft[], file: string, locate: CreatePagesInput['locate']): void {
  const where = (claim: NonNullable<Draft['claim']>) => {
    const found = locate?.(claim.file, claim.field);
    return { line: found?.line, column: found?.column, field: (found?.written ?? claim.field).join('.') };
  };
  const seen = new Map<string, Draft>();
  const errors: SiteError[] = [];
  for (const draft of drafts) {
    const first = seen.get(draft.file);
    const claim = draft.claim ?? first?.claim;
    if (first && claim) {
      const at = where(claim);
      errors.push(
        new SiteError({
          code: 'PATH_COLLISION',
          message: `${draft.url} is claimed by ${describeDraft(first)} and by ${describeDraft(draft)}${draft.claim && first.claim ? ` (the other claim: ${where(first.claim).field} in ${first.claim.file})` : ''}`,
          file: claim.file,
          hint: 'Give one of them another localized path or slug: every page needs its own URL in every locale.',
          ...at,
        }),
      );
    } else if (first) {
      errors.push(
        new SiteError({
          code: 'OUTPUT_COLLISION',
          message: `${draft.file} would be written by route "${first.route.path}" (${first.locale}) and by route "${draft.route.path}" (${draft.locale})`,
          file,
        }),
      );
    } else seen.set(draft.file, draft);
  }
  throwIfAny(errors);
}

function describeDraft(draft: Draft): string {
  return draft.collection?.kind === 'entry'
    ? `${draft.collection.collection} entry "${draft.collection.slug}" (${draft.locale})`
    : `route "${draft.route.path}" (${draft.locale})`;
}

/** Newest first (by the latest date of any translation); the same date sorts by slug, so the order never depends on the file system. */
export function sortEntries<T extends { slug: string; translations: Record<string, { date: string }> }>(
  entries: readonly T[],
): T[] {
  // Each entry's date taken once, not at every comparison.
  const dated = entries.map((entry) => ({ entry, date: latestDate(entry.translations) }));
  dated.sort((a, b) => {
    if (a.date !== b.date) return a.date < b.date ? 1 : -1;
    return a.entry.slug < b.entry.slug ? -1 : a.entry.slug > b.entry.slug ? 1 : 0;
  });
  return dated.map(({ entry }) => entry);
}

function latestDate(translations: Record<string, { date: string }>): string {
  let latest = '';
  for (const locale in translations) {
    const { date } = translations[locale]!;
    if (date > latest) latest = date;
  }
  return latest;
}

/** The URL of a route path in a locale, or in its own locale for a single-locale route. */
function urlIn(route: RouteConfig, routePath: string, locale: string, config: ResolvedConfig): string {
  const urls = urlsOf(config);
  return route.locale ? toUrl(routePath) : urls.page(routePath, locale);
}

/**
 * Records a warning for each entry that is not written in every locale with a route for its pages:
 * it names the entry folder, the locales it is missing in, and the language readers there get
 * instead (the fallback decision of `pickTranslation`, as on the pages). A locale whose file is in
 * `failed` (files with an error reported, such as a bad front-matter date) is not called missing.
 */
export function reportUntranslated(
  config: ResolvedConfig,
  input: CreatePagesInput,
  diagnostics: Diagnostics,
  failed: ReadonlySet<string> = new Set(),
): void {
  const sources = sourcesOf(config);
  for (const name of Object.keys(input.entries).sort()) {
    const routed = new Set(
      config.routes
        .filter((route) => route.entry === name)
        .flatMap((route) => (route.locale ? [route.locale] : config.localeIds)),
    );
    const rules = fallbackRulesOf(config, name);
    for (const entry of input.entries[name]!) {
      // A translation whose file has an error already reported is not missing: one mistake, one message.
      const missing = config.localeIds.filter(
        (locale) =>
          routed.has(locale) &&
          entry.translations[locale] === undefined &&
          !failed.has(sources.display(sources.entry(name, entry.slug, locale))),
      );
      if (missing.length === 0) continue;
      // Readers of each missing locale, grouped by the language they get.
      const readers = new Map<string, string[]>();
      for (const locale of missing) {
        const shown = pickTranslation(entry.translations, locale, rules)!;
        readers.set(shown, [...(readers.get(shown) ?? []), locale]);
      }
      const instead = [...readers]
        .map(([shown, locales]) => `readers in ${locales.join(' and ')} get the ${shown} text`)
        .join('; ');
      diagnostics.warn({
        code: 'ENTRY_UNTRANSLATED',
        message: `${name} entry "${entry.slug}" is not translated into ${missing.join(', ')}: ${instead}`,
        file: sources.display(join(sources.collection(name), entry.slug)),
        hint: `Add ${missing.map((locale) => `${locale}.md`).join(' and ')} to the folder; until then its pages there show the fallback language (collections.${name}.fallback in site.config.yaml decides which).`,
      });
    }
  }
}

function fallbackRulesOf(config: ResolvedConfig, collection: string): FallbackRules {
  return { localeIds: config.localeIds, chains: config.collections[collection]!.fallback };
}

/** The slug of an entry's page in a locale: its translation's own (front matter `slug:`), else the folder name. */
function localSlug(entry: EntryIndex, locale: string): string {
  return entry.translations[locale]?.slug ?? entry.slug;
}

/** An entry route becomes one page per entry, each showing the translation the fallback rules pick. */
export function expandEntries(
  route: RouteConfig,
  locale: string,
  entries: readonly EntryIndex[],
  config: ResolvedConfig,
): { routePath: string; localPath: string; slugFile?: string; data: CollectionEntryData }[] {
  const name = route.entry!;
  const urls = urlsOf(config);
  const rules = fallbackRulesOf(config, name);
  const listRoute = urls.collectionRoute(name, 'list', route.audience);
  const taxonomy = config.collections[name]!.taxonomy;
  return entries.flatMap((entry) => {
    const contentLocale = pickTranslation(entry.translations, locale, rules);
    if (contentLocale === undefined) return [];
    const term = entry.translations[contentLocale]!.term;
    const data: CollectionEntryData = { kind: 'entry', collection: name, slug: entry.slug, contentLocale };
    if (listRoute) {
      data.listUrl = urlIn(listRoute, listRoute.path, locale, config);
      if (taxonomy && term !== undefined)
        data.termUrl = urlIn(listRoute, urls.listPath(listRoute.path, name, term, 1, locale), locale, config);
    }
    const feed = urls.feed(name, locale);
    if (feed) data.feedUrl = feed.url;
    const slugFile = entry.translations[locale]?.slug === undefined ? undefined : entry.translations[locale]!.file;
    return [
      {
        routePath: urls.entryPath(route.path, entry.slug),
        localPath: urls.entryPath(route.path, localSlug(entry, locale)),
        ...(slugFile ? { slugFile } : {}),
        data,
      },
    ];
  });
}

/**
 * A list route becomes its first page, its further pages ("/blog/page/2"), and the same for
 * each taxonomy term ("/blog/category/retail", "/blog/category/retail/page/2"), all in one pass.
 */
export function expandList(
  route: RouteConfig,
  locale: string,
  entries: readonly EntryIndex[],
  config: ResolvedConfig,
): { routePath: string; localPath: string; data: CollectionListData }[] {
  const name = route.list!;
  const collection = config.collections[name]!;
  const urls = urlsOf(config);
  const rules = fallbackRulesOf(config, name);
  const entryRoute = urls.collectionRoute(name, 'entry', route.audience);
  const shown = entries.flatMap((entry) => {
    const contentLocale = pickTranslation(entry.translations, locale, rules);
    if (contentLocale === undefined) return [];
    const listed: ListedEntry = { slug: entry.slug, locale: contentLocale };
    if (entryRoute)
      listed.url = urlIn(entryRoute, urls.entryPath(entryRoute.path, localSlug(entry, locale)), locale, config);
    return [{ listed, term: entry.translations[contentLocale]!.term }];
  });
  const filters: (string | undefined)[] = [undefined, ...(collection.taxonomy?.terms ?? [])];
  // The term pages' segment may differ per locale (taxonomy.path: { en: sector, no: bransje }): the
  // route path (the default locale's) pairs the translations, the local path is this locale's.
  const routePathOf = (term: string | undefined, pageNumber: number) =>
    urls.listPath(route.path, name, term, pageNumber);
  const pathOf = (term: string | undefined, pageNumber: number) =>
    urls.listPath(route.path, name, term, pageNumber, locale);
  const filterUrls = filters.map((term) => ({
    ...(term === undefined ? {} : { term }),
    url: urlIn(route, pathOf(term, 1), locale, config),
  }));
  const feedUrl = urls.feed(name, locale)?.url;
  const out: { routePath: string; localPath: string; data: CollectionListData }[] = [];
  for (const term of filters) {
    const selected = term === undefined ? shown : shown.filter((entry) => entry.term === term);
    const pageCount = Math.max(1, Math.ceil(selected.length / collection.pageSize));
    for (let pageNumber = 1; pageNumber <= pageCount; pageNumber++) {
      const start = (pageNumber - 1) * collection.pageSize;
      out.push({
        routePath: routePathOf(term, pageNumber),
        localPath: pathOf(term, pageNumber),
        data: {
          kind: 'list',
          collection: name,
          ...(term === undefined ? {} : { term }),
          pageNumber,
          pageCount,
          entries: selected.slice(start, start + collection.pageSize).map((entry) => entry.listed),
          filterUrls,
          previousUrl: pageNumber > 1 ? urlIn(route, pathOf(term, pageNumber - 1), locale, config) : undefined,
          nextUrl: pageNumber < pageCount ? urlIn(route, pathOf(term, pageNumber + 1), locale, config) : undefined,
          feedUrl,
        },
      });
    }
  }
  return out;
}
