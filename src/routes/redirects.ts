/**
 * Redirects: old paths that are not pages any more, and where they go. An alias is a second
 * address of a page that still exists; a redirect's `from` is no page at all, and its `to` is one
 * page of the site (any locale) or an address elsewhere. The config's `redirects:` are one source;
 * the paths of `site.paths.lock.yaml` (a localized path or slug that changed) are another, and code
 * may add more (`generated`) through the same list, so every
 * host target, `site serve`, `site dev` and the link checker see one set. Pure: no I/O.
 */
import type { ResolvedConfig } from '../config/load.js';
import { lockRedirects } from '../config/path-lock.js';
import type { Page } from './pages.js';
import { fromUrl, toUrl } from '../url-paths.js';

/** The statuses a redirect may answer with. */
export type RedirectStatus = 301 | 302 | 307 | 308;

/** One redirect of the site, wherever it was declared. */
export interface SiteRedirect {
  /** The old page path, without the base or a trailing slash ("/no/blogg/gammel"). */
  from: string;
  /** As declared: a site path ("/no/blogg/ny", "/priser#team") or an https:// address. */
  to: string;
  status: RedirectStatus;
  /** Where it is declared in the config (`["redirects", 2]`), for errors; none for a generated one. */
  field?: readonly (string | number)[];
  /** What made a generated redirect (named in its errors). */
  by?: string;
}

/** A redirect code makes rather than the config declares (issue 31: a localized slug that changed). */
export type GeneratedRedirect = Omit<SiteRedirect, 'field'> & { by: string };

/** The page path a redirect's `from` names ("/blog/old/" → "/blog/old"). */
export function redirectFromPath(from: string): string {
  return fromUrl(from) ?? from;
}

/** Whether a redirect goes to an address elsewhere. */
export function isExternalTarget(to: string): boolean {
  return /^https:\/\//.test(to);
}

/** The page path a site-path `to` names, without its fragment ("/priser/#team" → "/priser"). */
export function redirectTargetPath(to: string): string {
  const hash = to.indexOf('#');
  return redirectFromPath(hash === -1 ? to : to.slice(0, hash));
}

/** The Location of a redirect, without the base: the page's URL (its fragment kept) or the address elsewhere. */
export function redirectLocation(to: string): string {
  if (isExternalTarget(to)) return to;
  const hash = to.indexOf('#');
  return toUrl(redirectTargetPath(to)) + (hash === -1 ? '' : to.slice(hash));
}

/** The redirects of a site: the config's, then the generated ones, `from` as a page path. */
export function siteRedirects(
  config: Pick<ResolvedConfig, 'redirects' | 'pathLock'>,
  generated: readonly GeneratedRedirect[] = [],
): SiteRedirect[] {
  return [
    ...config.redirects.map((redirect, index): SiteRedirect => ({
      ...redirect,
      from: redirectFromPath(redirect.from),
      field: ['redirects', index],
    })),
    ...[...lockRedirects(config.pathLock), ...generated].map((redirect) => ({
      ...redirect,
      from: redirectFromPath(redirect.from),
    })),
  ];
}

/**
 * The URL paths, with the base, that answer with a redirect ("/my-site/blog/old"), sorted: what a
 * link checker counts as existing besides the pages.
 */
export function redirectFromPaths(
  config: Pick<ResolvedConfig, 'redirects' | 'pathLock' | 'site'>,
  generated: readonly GeneratedRedirect[] = [],
): string[] {
  return [
    ...new Set(
      siteRedirects(config, generated).map(
        ({ from }) => config.site.base + (from === '/' && config.site.base ? '' : from),
      ),
    ),
  ].sort();
}

/** The answer to a request for an old path: its status and Location (without the base). */
export type RedirectAnswer = { status: RedirectStatus; location: string };

const lookups = new WeakMap<object, { pathLock: unknown; lookup: (pagePath: string) => RedirectAnswer | undefined }>();

/**
 * The redirect a requested page path answers with, for the redirects of a config (`site serve`,
 * `site dev`); made once per config and lock (a rebuild in `site dev` replaces the config's
 * `pathLock` when a localized path or slug changes, so the lookup is made again).
 */
export function siteRedirectFor(
  config: Pick<ResolvedConfig, 'redirects' | 'pathLock'>,
): (pagePath: string) => RedirectAnswer | undefined {
  const made = lookups.get(config);
  if (made && made.pathLock === config.pathLock) return made.lookup;
  const byFrom = new Map<string, RedirectAnswer>();
  for (const { from, to, status } of siteRedirects(config))
    if (!byFrom.has(from)) byFrom.set(from, { status, location: redirectLocation(to) });
  const lookup = (pagePath: string) => byFrom.get(pagePath);
  lookups.set(config, { pathLock: config.pathLock, lookup });
  return lookup;
}

/** Something wrong with one redirect, before it has a position in a file. */
export interface RedirectProblem {
  code: 'REDIRECT_TARGET_MISSING' | 'REDIRECT_LOOP' | 'REDIRECT_FROM_PAGE' | 'REDIRECT_DUPLICATE';
  redirect: SiteRedirect;
  /** The key of the redirect the problem is at. */
  key: 'from' | 'to';
  message: string;
  hint: string;
}

/**
 * The problems of a site's redirects against its pages: a `from` given twice, a `from` that is a
 * page (it would never be reached, or hide the page), a `to` that is no page (a chain names the
 * redirect it lands on), and a chain that comes back to where it started.
 */
export function redirectProblems(redirects: readonly SiteRedirect[], pages: readonly Page[]): RedirectProblem[] {
  const pagePaths = new Set(pages.filter((page) => !page.notFound).map((page) => page.path));
  const byFrom = new Map<string, SiteRedirect>();
  const problems: RedirectProblem[] = [];
  for (const redirect of redirects) {
    const first = byFrom.get(redirect.from);
    if (first) {
      problems.push({
        code: 'REDIRECT_DUPLICATE',
        redirect,
        key: 'from',
        message: `${redirect.from} is already redirected (to ${first.to})`,
        hint: 'Keep one redirect for each old path: remove this one or the other.',
      });
      continue;
    }
    byFrom.set(redirect.from, redirect);
    if (pagePaths.has(redirect.from)) {
      problems.push({
        code: 'REDIRECT_FROM_PAGE',
        redirect,
        key: 'from',
        message: `${redirect.from} is a page of the site, so it cannot redirect`,
        hint: 'Remove the redirect, or, for a second address of a page that stays, use aliases:.',
      });
    }
  }
  for (const redirect of byFrom.values()) {
    if (isExternalTarget(redirect.to)) continue;
    const target = redirectTargetPath(redirect.to);
    if (pagePaths.has(target)) continue;
    const chain = [redirect.from];
    let next = byFrom.get(target);
    while (next && !chain.includes(next.from)) {
      chain.push(next.from);
      next = isExternalTarget(next.to) ? undefined : byFrom.get(redirectTargetPath(next.to));
    }
    if (next) {
      problems.push({
        code: 'REDIRECT_LOOP',
        redirect,
        key: 'to',
        message: `the redirects go round in a loop: ${[...chain.slice(chain.indexOf(next.from)), next.from].join(' → ')}`,
        hint: "Point one of them at a page of the site, and remove the redirect from that page's path.",
      });
    } else if (byFrom.has(target)) {
      problems.push({
        code: 'REDIRECT_TARGET_MISSING',
        redirect,
        key: 'to',
        message: `${redirect.to} is not a page but itself redirects (to ${byFrom.get(target)!.to})`,
        hint: `Point the redirect at ${byFrom.get(target)!.to} directly: a chain of redirects is slower and loses search ranking on the way.`,
      });
    } else {
      problems.push({
        code: 'REDIRECT_TARGET_MISSING',
        redirect,
        key: 'to',
        message: `${redirect.to} is not a page of the site`,
        hint: 'Give the path of a page as it is built, its locale prefix included ("/no/blogg/ny"), or an https:// address.',
      });
    }
  }
  return problems;
}
