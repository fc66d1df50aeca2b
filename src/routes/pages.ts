/**
 * Route expansion: the config's route table becomes a flat list of `Page` records, one per URL:
 * every route × every locale it exists in × its aliases, plus the blog's dynamic pages.
 * Pure data, no I/O: every decision about which page exists where, what its canonical URL is,
 * which pages are its language alternates and where its language switch leads, is made here.
 */
import type { ResolvedConfig } from '../config/load.js';
import type { RouteConfig } from '../config/schema.js';
import { SiteError, throwIfAny } from '../errors.js';
import { absoluteUrl, aliasPath, ancestorPaths, localizePath, toOutputFile, toUrl, type PathRules } from './paths.js';

/** What the routes need to know about one translation of a blog post. */
export interface PostTranslationMeta {
  date: string;
  category: string;
}

/** A blog post: its slug and the locales it is written in. */
export interface PostIndexEntry {
  slug: string;
  translations: Record<string, PostTranslationMeta>;
}

/** Which blog posts a list page shows. */
export interface BlogListData {
  kind: 'list';
  /** The category filter, or undefined for all posts. */
  category?: string;
  pageNumber: number;
  pageCount: number;
  /** Slugs on this page, newest first. */
  slugs: string[];
  /** URL of the list's first page for each filter: "" for all, then each category. */
  filterUrls: { category?: string; url: string }[];
  previousUrl?: string;
  nextUrl?: string;
}

/** Which blog post a post page shows, and in which language its text is. */
export interface BlogPostData {
  kind: 'post';
  slug: string;
  contentLocale: string;
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
  /** Set on the pages an alias mirrors at a second path ("/no/arbeidsklær/…"). */
  alias?: true;
  /** hreflang alternates (absolute), including the page itself and x-default; empty for duplicates. */
  alternates: { hreflang: string; href: string }[];
  languageLinks: LanguageLink[];
  /** URLs of the ancestor pages that exist, root first (for breadcrumbs). */
  ancestors: string[];
  blog?: BlogListData | BlogPostData;
  inSitemap: boolean;
  /** The 404 page of its locale. */
  notFound?: boolean;
}

/** What `createPages` needs besides the config. */
export interface CreatePagesInput {
  posts: readonly PostIndexEntry[];
}

/** Returns the path rules of a config. */
export function pathRules(config: ResolvedConfig): PathRules {
  const prefixes: Record<string, string> = {};
  for (const id of config.localeIds) prefixes[id] = config.locales[id]!.prefix;
  return { defaultLocale: config.site.defaultLocale, prefixes };
}

interface Draft extends Omit<Page, 'alternates' | 'languageLinks' | 'ancestors' | 'canonical' | 'inSitemap'> {
  /** The page this one duplicates (aliases, audience copies, fallbacks). */
  original?: Draft;
  /** For alias pages: the page they mirror. */
  mirrorOf?: Draft;
}

/** Expands the route table into pages, sorted by path. Throws when two pages share a file. */
export function createPages(config: ResolvedConfig, input: CreatePagesInput): Page[] {
  const rules = pathRules(config);
  const drafts: Draft[] = [];
  const posts = sortPosts(input.posts);

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
      const place = (routePath: string) => {
        const path = route.locale ? routePath : localizePath(routePath, locale, rules);
        return { path, url: toUrl(path), file: toOutputFile(path) };
      };
      const cluster = route.alternate ?? route.path;
      if (route.blog === 'list') {
        for (const list of expandBlogList(route.path, locale, posts, config, rules)) {
          drafts.push({ ...base, cluster: list.routePath, ...place(list.routePath), blog: list.data });
        }
      } else if (route.blog === 'post') {
        for (const post of posts) {
          const contentLocale = post.translations[locale] ? locale : Object.keys(post.translations).sort()[0]!;
          const routePath = route.path.replace('{slug}', post.slug);
          drafts.push({ ...base, cluster: routePath, ...place(routePath), blog: { kind: 'post', slug: post.slug, contentLocale } });
        }
      } else {
        drafts.push({ ...base, cluster, ...place(route.path) });
      }
    }
  }

  // Audience copies of blog pages duplicate the generic blog page of the same locale.
  const byPath = new Map(drafts.map((draft) => [draft.path, draft]));
  for (const draft of drafts) {
    if (!draft.blog || !draft.audience) continue;
    const audiencePath = config.audiences[draft.audience]!.path;
    const genericRoutePath = draft.cluster.slice(audiencePath.length);
    const original = byPath.get(localizePath(genericRoutePath, draft.locale, rules));
    if (original) {
      draft.original = original;
      draft.duplicate = true;
    }
  }
  // A post shown in another language than its page's is a fallback of the translated original.
  for (const draft of drafts) {
    if (draft.blog?.kind !== 'post' || draft.blog.contentLocale === draft.locale || draft.original) continue;
    const original = byPath.get(localizePath(draft.cluster, draft.blog.contentLocale, rules));
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
      const path = localizePath(mirrored, alias.locale, rules);
      drafts.push({ ...draft, path, url: toUrl(path), file: toOutputFile(path), duplicate: true, alias: true, original: draft.original ?? draft, mirrorOf: draft });
    }
  }

  for (const locale of config.localeIds) {
    const path = localizePath('/404', locale, rules);
    const file = locale === config.site.defaultLocale ? '404.html' : `${localizePath('/', locale, rules).slice(1)}/404.html`;
    drafts.push({
      cluster: '/404',
      route: { path: '/404', template: 'NotFound', noindex: true },
      path,
      url: `/${file}`,
      file,
      locale,
      template: 'NotFound',
      noindex: true,
      duplicate: false,
      notFound: true,
    });
  }

  refuseCollisions(drafts, config.file);
  return finishPages(drafts, config, rules);
}

function finishPages(drafts: Draft[], config: ResolvedConfig, rules: PathRules): Page[] {
  // hreflang clusters hold only canonical pages; language switches may also land on a copy
  // (an audience's blog post, an untranslated fallback), never on an alias.
  const hreflangClusters = groupBy(drafts.filter((draft) => !draft.duplicate && !draft.notFound), (draft) => draft.cluster);
  const switchClusters = groupBy(drafts.filter((draft) => !draft.mirrorOf && !draft.notFound), (draft) => draft.cluster);
  const existing = new Set(drafts.map((draft) => draft.path));
  const origin = config.site.origin;

  const pages = drafts.map((draft): Page => {
    let original = draft;
    while (original.original) original = original.original;
    const alternates: Page['alternates'] = [];
    const cluster = hreflangClusters.get(draft.cluster) ?? [];
    if (!draft.duplicate && cluster.length > 1) {
      for (const locale of config.localeIds) {
        const member = cluster.find((candidate) => candidate.locale === locale);
        if (member) alternates.push({ hreflang: config.locales[locale]!.hreflang, href: absoluteUrl(origin, member.url) });
      }
      const fallback = cluster.find((candidate) => candidate.locale === config.site.defaultLocale);
      if (fallback) alternates.push({ hreflang: 'x-default', href: absoluteUrl(origin, fallback.url) });
    }
    const switchCluster = switchClusters.get((draft.mirrorOf ?? draft).cluster) ?? [];
    const languageLinks = config.localeIds.map((locale): LanguageLink => {
      if (locale === draft.locale) return { locale, url: draft.url, current: true, counterpart: true };
      const member = switchCluster.find((candidate) => candidate.locale === locale);
      if (member) return { locale, url: member.url, current: false, counterpart: true };
      return { locale, url: toUrl(localizePath('/', locale, rules)), current: false, counterpart: false };
    });
    const { original: _original, mirrorOf: _mirrorOf, ...rest } = draft;
    const ancestors = draft.notFound
      ? []
      : ancestorPaths(draft.route.locale ? draft.path : stripPrefix(draft.path, draft.locale, rules))
          .map((routePath) => (draft.route.locale ? routePath : localizePath(routePath, draft.locale, rules)))
          .filter((path) => existing.has(path))
          .map(toUrl);
    return {
      ...rest,
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

function stripPrefix(path: string, locale: string, rules: PathRules): string {
  const prefix = rules.prefixes[locale] ?? '';
  if (!prefix) return path;
  return path === prefix ? '/' : path.slice(prefix.length);
}

function refuseCollisions(drafts: readonly Draft[], file: string): void {
  const seen = new Map<string, Draft>();
  const errors: SiteError[] = [];
  for (const draft of drafts) {
    const first = seen.get(draft.file);
    if (first) {
      errors.push(new SiteError({
        code: 'OUTPUT_COLLISION',
        message: `${draft.file} would be written by route "${first.route.path}" (${first.locale}) and by route "${draft.route.path}" (${draft.locale})`,
        file,
      }));
    } else seen.set(draft.file, draft);
  }
  throwIfAny(errors);
}

/** Newest first; the same date sorts by slug so the order never depends on the file system. */
export function sortPosts<T extends PostIndexEntry>(posts: readonly T[]): T[] {
  const dateOf = (post: T) => Object.values(post.translations).map((t) => t.date).sort().at(-1) ?? '';
  return [...posts].sort((a, b) => {
    const dateA = dateOf(a);
    const dateB = dateOf(b);
    if (dateA !== dateB) return dateA < dateB ? 1 : -1;
    return a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0;
  });
}

/** The category a post has in a locale (its own translation, or the one it falls back to). */
function categoryOf(post: PostIndexEntry, locale: string): string | undefined {
  return (post.translations[locale] ?? Object.values(post.translations)[0])?.category;
}

/**
 * A blog list route becomes its first page, its further pages ("/blog/page/2"), and the same for
 * each category ("/blog/category/retail", "/blog/category/retail/page/2"), all in one pass.
 */
export function expandBlogList(
  listPath: string,
  locale: string,
  posts: readonly PostIndexEntry[],
  config: Pick<ResolvedConfig, 'blog'>,
  rules: PathRules,
): { routePath: string; data: BlogListData }[] {
  const filters: (string | undefined)[] = [undefined, ...config.blog.categories];
  const firstPath = (category: string | undefined) => (category ? `${listPath}/category/${category}` : listPath);
  const filterUrls = filters.map((category) => ({ category, url: toUrl(localizePath(firstPath(category), locale, rules)) }));
  const out: { routePath: string; data: BlogListData }[] = [];
  for (const category of filters) {
    const selected = category ? posts.filter((post) => categoryOf(post, locale) === category) : posts;
    const pageCount = Math.max(1, Math.ceil(selected.length / config.blog.pageSize));
    const pathOf = (pageNumber: number) => (pageNumber === 1 ? firstPath(category) : `${firstPath(category)}/page/${pageNumber}`);
    for (let pageNumber = 1; pageNumber <= pageCount; pageNumber++) {
      const start = (pageNumber - 1) * config.blog.pageSize;
      out.push({
        routePath: pathOf(pageNumber),
        data: {
          kind: 'list',
          category,
          pageNumber,
          pageCount,
          slugs: selected.slice(start, start + config.blog.pageSize).map((post) => post.slug),
          filterUrls,
          previousUrl: pageNumber > 1 ? toUrl(localizePath(pathOf(pageNumber - 1), locale, rules)) : undefined,
          nextUrl: pageNumber < pageCount ? toUrl(localizePath(pathOf(pageNumber + 1), locale, rules)) : undefined,
        },
      });
    }
  }
  return out;
}
