/**
 * The site's own links, checked against what the build makes (pure): the links and images
 * (`<img src>`, `srcset`, `<source srcset>`) of a post's or a page copy's HTML and of page copy's
 * text, the paths that answer (pages, alias spellings, every output file, and any extra paths
 * such as a host's redirects), the ids of the page a fragment names, and the nearest existing page or id for the hint. Paths are compared without `site.base`:
 * content links are written as if the site were at the root, and the base is put in front of them
 * when the page is rendered (render/base-path.ts).
 */
import { replaceMarkedImages } from '../content/markdown-images.js';
import { nearest, nearestAnchor } from '../did-you-mean.js';

/** A link found in a source, before it is checked. */
export interface FoundLink {
  /** The URL as the source gives it, HTML entities decoded. */
  href: string;
  /** The dotted field of a YAML copy file whose value it is; undefined for a link of Markdown. */
  field?: string;
  /** An image's URL (`<img src>`, a `srcset`'s): it must name a file, and its fragment names nothing. */
  image?: true;
}

/** A link that leads nowhere, and the nearest thing that exists. */
export interface BrokenLink {
  link: FoundLink;
  message: string;
  hint: string;
}

/** Whether an href leads to the site itself: no scheme ("https:", "mailto:"), not "//host", not empty. */
export function isSiteLink(href: string): boolean {
  return href !== '' && !/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(href) && !href.startsWith('//');
}

/** Whether an href leads to a web address of another site (`site check --external`). */
export function isWebLink(href: string): boolean {
  return /^https?:\/\//i.test(href);
}

// The attribute itself, not one that ends in its name ("data-href", "data-id").
const anchorHref = /<a(?:\s[^>]*?)?\shref="([^"]*)"/g;
const elementId = /<[a-zA-Z][^\s/>]*(?:\s[^>]*?)?\sid="([^"]*)"/g;

/** One start tag, its quoted values read whole (one may hold "<img" or ">"), as render/base-path.ts reads them. */
const startTag = /<([a-zA-Z][^\s/>]*)((?:\s+[^\s"'=<>`/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*\/?>/g;
const attribute = /\s([^\s"'=<>`/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

/** The hrefs of the `<a>` elements of HTML, then the URLs of its images (`<img src>`, `srcset`, `<source srcset>`), each in document order. */
export function linksInHtml(html: string): FoundLink[] {
  return [
    ...[...html.matchAll(anchorHref)].map((match) => ({ href: decodeEntities(match[1]!) })),
    ...imagesInHtml(html),
  ];
}

/**
 * The image URLs of HTML. An image of a Markdown body still marked for its loader (one that comes
 * from the document's folder, content/markdown-images.ts) is left out: the loader checks its file.
 */
function imagesInHtml(html: string): FoundLink[] {
  if (!html.includes('<img') && !html.includes('<source')) return [];
  const images: FoundLink[] = [];
  for (const tag of replaceMarkedImages(html, () => '').matchAll(startTag)) {
    const name = tag[1]!.toLowerCase();
    if (name !== 'img' && name !== 'source') continue;
    for (const [, attributeName, double, single, bare] of tag[2]!.matchAll(attribute)) {
      const value = decodeEntities(double ?? single ?? bare ?? '');
      const lower = attributeName!.toLowerCase();
      if (lower === 'src' && name === 'img') images.push({ href: value, image: true });
      else if (lower === 'srcset')
        for (const candidate of value.split(',')) {
          const url = candidate.trim().split(/\s+/)[0];
          if (url) images.push({ href: url, image: true });
        }
    }
  }
  return images;
}

/** The ids of the elements of a page: what a fragment may name. */
export function idsInHtml(html: string): Set<string> {
  return new Set([...html.matchAll(elementId)].map((match) => decodeEntities(match[1]!)));
}

/** A copy value that is a site path or a web address on its own ("/hub/pricing/#faq"), or a Markdown link's destination in a text ("[prices](/hub/pricing/)"). */
const wholePath = /^(?:\/(?!\/)|https?:\/\/)\S*$/;
const inlineLink = /\]\(([^)\s]+)\)/g;

/**
 * The links of page copy: every string that is a path of the site or a web address on its own,
 * and every Markdown link of a string to either, each with its field; `html` (the body of a
 * Markdown copy file) is read as HTML.
 */
export function linksInCopy(copy: Record<string, unknown>): FoundLink[] {
  const links: FoundLink[] = [];
  const visit = (value: unknown, field: string) => {
    if (typeof value === 'string') {
      if (wholePath.test(value)) links.push({ href: value, field });
      else
        for (const match of value.matchAll(inlineLink))
          if (isSiteLink(match[1]!) || isWebLink(match[1]!)) links.push({ href: match[1]!, field });
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => visit(item, `${field}[${index}]`));
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) visit(item, field ? `${field}.${key}` : key);
    }
  };
  for (const [key, value] of Object.entries(copy)) {
    if (key === 'html' && typeof value === 'string') links.push(...linksInHtml(value));
    else visit(value, key);
  }
  return links;
}

/** What answers at a path of the site. */
export interface ExistingPaths {
  /** The page file at a path ("/hub/pricing/" → "hub/pricing/index.html"), "" for another output file, undefined for nothing. */
  fileAt(path: string): string | undefined;
  /** The URLs of the pages, for the nearest one. */
  pageUrls: readonly string[];
  /** `site.base` ("/docs"), which a link written with it has twice once rendered; "" for none. */
  base: string;
}

/**
 * The paths that answer on the site: the pages (alias pages among them), the alias paths typed
 * without their special letters (which serve and the hosts redirect), every other output file,
 * and `extraPaths`: paths that answer without a file of their own (a host's redirects).
 */
export function existingPaths(input: {
  pages: readonly { url: string; file: string; notFound?: boolean }[];
  /** The path an alias spelling stands for ("/no/arbeidsklaer" → "/no/arbeidsklær"), or undefined. */
  aliasOf?: (path: string) => string | undefined;
  /** Output files besides the pages (public/, assets, feeds, sitemap), relative to the output folder. */
  files?: Iterable<string>;
  extraPaths?: Iterable<string>;
  base?: string;
}): ExistingPaths {
  const byPath = new Map<string, string>();
  for (const file of input.files ?? []) byPath.set(normalizePath(`/${file}`), '');
  for (const path of input.extraPaths ?? []) byPath.set(normalizePath(path), '');
  for (const page of input.pages) byPath.set(normalizePath(page.url), page.file);
  return {
    fileAt(path) {
      const normal = normalizePath(path);
      const found = byPath.get(normal);
      if (found !== undefined) return found;
      const alias = input.aliasOf?.(normal);
      return alias === undefined ? undefined : byPath.get(normalizePath(alias));
    },
    // A 404 page exists, but is never the page a link meant.
    pageUrls: input.pages.flatMap((page) => (page.notFound ? [] : [page.url])).sort(),
    base: input.base ?? '',
  };
}

/** A path as pages are known by: decoded, without "index.html" and without a trailing slash ("/" stays). */
function normalizePath(path: string): string {
  let normal = safeDecode(path).replace(/\/index\.html$/, '/');
  while (normal.length > 1 && normal.endsWith('/')) normal = normal.slice(0, -1);
  return normal || '/';
}

/**
 * Checks the links of one source shown at `pageUrl` (which relative links and "#fragment" resolve
 * against): each must lead to a path that answers, and its fragment, on a page, to an id of that
 * page (`idsOf` reads them; undefined when the page's HTML is not at hand, which passes).
 */
export function checkLinks(
  links: readonly FoundLink[],
  pageUrl: string,
  site: ExistingPaths,
  idsOf: (file: string) => ReadonlySet<string> | undefined,
): BrokenLink[] {
  const broken: BrokenLink[] = [];
  for (const link of links) {
    if (!isSiteLink(link.href)) continue;
    const url = resolveLink(link.href, pageUrl);
    const file = site.fileAt(url.pathname);
    if (file === undefined && link.image) {
      broken.push({
        link,
        message: `the image ${link.href} is no file of the site`,
        hint: 'Put the file in public/ (public/images/x.png is /images/x.png), or write the path of a file in the folder of the Markdown file (x.png) to publish it with the post.',
      });
      continue;
    }
    if (file === undefined) {
      const withoutBase =
        site.base && url.pathname.startsWith(`${site.base}/`) ? url.pathname.slice(site.base.length) : undefined;
      const hint =
        withoutBase !== undefined && site.fileAt(withoutBase) !== undefined
          ? `Write the link without site.base: ${withoutBase} (the base is put in front when the page is rendered).`
          : `The nearest existing page is ${nearest(url.pathname, site.pageUrls)}; an alias or a redirect also counts as existing.`;
      broken.push({ link, message: `the link to ${link.href} leads to no page of the site`, hint });
      continue;
    }
    const fragment = safeDecode(url.hash.slice(1));
    // "#" and "#top" scroll to the top of any page (HTML's rule for fragments).
    if (!file || link.image || fragment === '' || fragment.toLowerCase() === 'top') continue;
    const ids = idsOf(file);
    if (!ids || ids.has(fragment)) continue;
    const sorted = [...ids].sort();
    const closest = nearestAnchor(fragment, sorted);
    broken.push({
      link,
      message: link.href.startsWith('#')
        ? `the link to ${link.href} names no id of this page`
        : `the link to ${link.href} names #${fragment}, which is no id of the page ${url.pathname}`,
      hint:
        sorted.length === 0
          ? `The page has no element with an id: link to the page itself, ${url.pathname}.`
          : closest === undefined
            ? `No id on that page is close to #${fragment}; its ids include ${sorted
                .slice(0, 5)
                .map((id) => `#${id}`)
                .join(', ')}.`
            : `The nearest id on that page is #${closest}.`,
    });
  }
  return broken;
}

/**
 * The path and fragment a link leads to from `pageUrl`. Root-relative links and fragments, which
 * are nearly all of them, are split by hand: URL parsing is the most of a warm check's time.
 */
function resolveLink(href: string, pageUrl: string): { pathname: string; hash: string } {
  const plain = href.startsWith('#') ? pageUrl + href : href;
  if (plain.startsWith('/') && !/\/\.\.?(?:[/?#]|$)|[\\%\s]/.test(plain)) {
    const hash = plain.indexOf('#');
    const beforeHash = hash === -1 ? plain : plain.slice(0, hash);
    const query = beforeHash.indexOf('?');
    return {
      pathname: query === -1 ? beforeHash : beforeHash.slice(0, query),
      hash: hash === -1 ? '' : plain.slice(hash),
    };
  }
  const url = new URL(href, `http://site${pageUrl}`);
  return { pathname: url.pathname, hash: url.hash };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * The text of an attribute value with its character references decoded, as a string of its own:
 * V8 keeps a match of 13 characters or more as a view into the string it was found in, so the
 * links kept of an entry's HTML (`linksOfTranslation`) kept the whole HTML alive, after the build
 * had put it in the spill: 44 MB of the write stage of 10,000 posts. Joined to one character,
 * then sliced off it, the value is copied out (V8 flattens the joined string before slicing it).
 */
function decodeEntities(text: string): string {
  return ` ${decodeReferences(text)}`.slice(1);
}

function decodeReferences(text: string): string {
  return text.replace(
    /&(?:#(\d+)|#x([0-9a-fA-F]+)|(\w+));/g,
    (whole, decimal: string | undefined, hex: string | undefined, name: string | undefined) => {
      if (decimal) return String.fromCodePoint(Number(decimal));
      if (hex) return String.fromCodePoint(parseInt(hex, 16));
      return entities[name!] ?? whole;
    },
  );
}

/**
 * Where the `occurrence`-th link to `href` is written in a source text (line and column of the URL,
 * 1-based): as a Markdown link's destination, a reference's definition, or anywhere, as written or
 * as the HTML encodes it; undefined when it cannot be found (a plugin made the link).
 */
export function locateLink(
  text: string,
  href: string,
  occurrence: number,
): { line: number; column: number } | undefined {
  for (const written of new Set([href, safeDecodeUri(href), href.replace(/&/g, '&amp;')])) {
    for (const prefix of ['](', '](<', ']: ', '']) {
      const at = nthIndex(text, prefix + written, occurrence);
      if (at === -1) continue;
      const start = at + prefix.length;
      const before = text.slice(0, start);
      return { line: before.split('\n').length, column: start - before.lastIndexOf('\n') };
    }
  }
  return undefined;
}

/** The index of the `occurrence`-th (0-based) match of `search`, else of the last one; -1 for none. */
function nthIndex(text: string, search: string, occurrence: number): number {
  let last = -1;
  for (
    let seen = 0, at = text.indexOf(search);
    at !== -1 && seen <= occurrence;
    seen++, at = text.indexOf(search, at + 1)
  )
    last = at;
  return last;
}

function safeDecodeUri(text: string): string {
  try {
    return decodeURI(text);
  } catch {
    return text;
  }
}
