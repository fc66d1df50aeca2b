/**
 * The link check, after the pages are rendered and before the build is kept: every link to the
 * site itself in the posts' Markdown and in the page copy (YAML strings and Markdown bodies) must
 * lead to a path the build answers (links.ts), and its fragment to an id of the page as rendered,
 * so ids a template makes (`#faq`) count as well as the headings' ids. A broken one is a
 * `LINK_BROKEN` error at the place it is written. Links are read from the HTML already in memory
 * (each source's list kept with it); a page's ids are read from its HTML only when a fragment
 * names it, and kept while its HTML stays the same, so a warm rebuild scans next to nothing.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isAdminTemplate } from '../admin-pages.js';
import type { ResolvedConfig } from '../config/load.js';
import { sourcesOf } from '../config/sources.js';
import { SiteError } from '../errors.js';
import { siteRedirects } from '../routes/redirects.js';
import { aliasSpellingsOf, locateContentField, type Entry, type Page, type PageContent } from './content-api.js';
import {
  checkLinks,
  existingPaths,
  idsInHtml,
  isWebLink,
  linksInCopy,
  linksInHtml,
  locateLink,
  type ExistingPaths,
  type FoundLink,
} from './links.js';

/** The links of one source file, and the page they are shown on (what relative links resolve against). */
export interface LinkSource {
  /** The file, relative to the working directory. */
  file: string;
  pageUrl: string;
  links: FoundLink[];
  /** For page copy: the YAML file whose fields the links with a `field` are values of. */
  copyFile?: string;
}

/** A link with the place it is written. */
export interface PlacedLink {
  href: string;
  file: string;
  line?: number;
  column?: number;
  field?: string;
}

/** What the check reads of a build. */
export interface LinkCheckInput {
  config: ResolvedConfig;
  pages: readonly Page[];
  entryList: readonly Entry[];
  contents: ReadonlyMap<string, PageContent>;
  /** Output files besides the pages (public/, assets, feeds, the sitemap). */
  otherFiles: Iterable<string>;
  /** A page's HTML as the build has it, undefined when it is not at hand. */
  htmlOf(file: string): string | undefined;
  /** Paths that answer without a file of their own (a host's redirects). */
  extraPaths?: Iterable<string>;
  /** A source file's text (default: read from disk); the admin gives the text of an edit not yet saved. */
  readSource?(file: string): string | undefined;
}

/** Checks links; keeps what it read of sources and pages for the next check. */
export interface LinkChecker {
  check(input: LinkCheckInput): SiteError[];
}

const linksOfTranslation = new WeakMap<object, FoundLink[]>();
const linksOfCopy = new WeakMap<object, FoundLink[]>();

/** The sources of the site's links: each post translation on its page, each page copy on a page that shows it. */
export function linkSourcesOf(
  input: Pick<LinkCheckInput, 'config' | 'pages' | 'entryList' | 'contents'>,
): LinkSource[] {
  const sources: LinkSource[] = [];
  const entryPages = new Map<string, string>();
  for (const page of input.pages) {
    if (page.collection?.kind !== 'entry') continue;
    const key = `${page.collection.collection}/${page.collection.slug}:${page.collection.contentLocale}`;
    // A translation's own page, before the copies that show it (audiences, fallbacks, aliases).
    if (!entryPages.has(key) || !page.duplicate) entryPages.set(key, page.url);
  }
  for (const entry of input.entryList) {
    for (const translation of Object.values(entry.translations)) {
      const pageUrl = entryPages.get(`${entry.collection}/${entry.slug}:${translation.locale}`);
      if (pageUrl === undefined) continue;
      let links = linksOfTranslation.get(translation);
      if (!links) linksOfTranslation.set(translation, (links = linksInHtml(translation.html)));
      if (links.length) sources.push({ file: translation.file, pageUrl, links });
    }
  }
  const copyPages = new Map<string, Page>();
  for (const page of input.pages)
    if (page.content !== undefined && !copyPages.has(`${page.content}:${page.locale}`))
      copyPages.set(`${page.content}:${page.locale}`, page);
  for (const [key, copy] of input.contents) {
    const page = copyPages.get(key);
    // The admin's screens: their copy is the engine's and links to the admin's own API.
    if (!page || isAdminTemplate(page.template)) continue;
    let links = linksOfCopy.get(copy);
    if (!links) linksOfCopy.set(copy, (links = linksInCopy(copy)));
    if (!links.length) continue;
    const base = join(sourcesOf(input.config).copy(page.content!), page.locale);
    const yaml = relative(process.cwd(), `${base}.yaml`);
    // A Markdown body's links are in the .md file; the fields are in the .yaml, or the .md's front matter.
    sources.push({
      file: typeof copy.html === 'string' ? relative(process.cwd(), `${base}.md`) : yaml,
      pageUrl: page.url,
      links,
      copyFile: yaml,
    });
  }
  return sources;
}

/** The web addresses the sources link to, each at the place it is written (`site check --external`). */
export function placedWebLinks(
  input: Pick<LinkCheckInput, 'config' | 'pages' | 'entryList' | 'contents'>,
): PlacedLink[] {
  return linkSourcesOf(input).flatMap((source) => {
    const web = source.links.filter((link) => isWebLink(link.href));
    return web.length ? placeLinks(source, web, readSourceFile) : [];
  });
}

/** Where each link of a source is written (the file is read only when asked). */
export function placeLinks(
  source: LinkSource,
  links: readonly FoundLink[],
  readSource: (file: string) => string | undefined,
): PlacedLink[] {
  let text: string | undefined | null = null;
  const seen = new Map<string, number>();
  const occurrences = new Map<FoundLink, number>();
  for (const link of source.links) {
    if (link.field !== undefined) continue;
    const count = seen.get(link.href) ?? 0;
    occurrences.set(link, count);
    seen.set(link.href, count + 1);
  }
  return links.map((link) => {
    if (link.field !== undefined) {
      const place = locateContentField(source.copyFile ?? source.file, link.field);
      // A Markdown link inside the value: the column of its destination, when it is on the value's line.
      const lineText = place.line === undefined ? undefined : readSource(place.file)?.split('\n')[place.line - 1];
      const at = lineText?.indexOf(link.href, (place.column ?? 1) - 1) ?? -1;
      return { href: link.href, ...place, ...(at === -1 ? {} : { column: at + 1 }), field: link.field };
    }
    if (text === null) text = readSource(source.file);
    const place = text === undefined ? undefined : locateLink(text, link.href, occurrences.get(link) ?? 0);
    return { href: link.href, file: source.file, ...place };
  });
}

/** A source file's text, undefined when it cannot be read. */
export function readSourceFile(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** The paths that answer in a build: its pages, the alias spellings, its other files, the config's redirects and any extra paths. */
export function sitePathsOf(
  input: Pick<LinkCheckInput, 'config' | 'pages' | 'otherFiles' | 'extraPaths'>,
): ExistingPaths {
  // An old address the config redirects answers too (without the base, like the pages' urls).
  const extraPaths = [...(input.extraPaths ?? []), ...siteRedirects(input.config).map((redirect) => redirect.from)];
  return existingPaths({
    pages: input.pages,
    aliasOf: aliasSpellingsOf(input.config),
    files: input.otherFiles,
    extraPaths,
    base: input.config.site.base,
  });
}

/** Creates a checker that keeps each page's ids while its HTML is the same. */
export function createLinkChecker(): LinkChecker {
  const ids = new Map<string, { html: string; ids: Set<string> }>();
  return {
    check(input) {
      const site = sitePathsOf(input);
      const idsOf = (file: string) => {
        const html = input.htmlOf(file);
        if (html === undefined) return undefined;
        const known = ids.get(file);
        if (known && known.html === html) return known.ids;
        const found = idsInHtml(html);
        ids.set(file, { html, ids: found });
        return found;
      };
      const errors: SiteError[] = [];
      for (const source of linkSourcesOf(input)) {
        const broken = checkLinks(source.links, source.pageUrl, site, idsOf);
        if (!broken.length) continue;
        const places = placeLinks(
          source,
          broken.map((problem) => problem.link),
          input.readSource ?? readSourceFile,
        );
        broken.forEach((problem, index) => {
          const place = places[index]!;
          errors.push(
            new SiteError({
              code: 'LINK_BROKEN',
              message: problem.message,
              hint: problem.hint,
              file: place.file,
              line: place.line,
              column: place.column,
              field: place.field,
            }),
          );
        });
      }
      return errors;
    },
  };
}
