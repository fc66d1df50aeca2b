/**
 * GitHub Pages: no headers, no functions, and no redirects but pages that send the reader on.
 * `.nojekyll` (so folders starting with "_"
 * are published); the CSP goes into every page's head as a `<meta>` (see render/csp.ts for what a
 * meta policy cannot say); GitHub serves the root `404.html` for every missing path, so that page
 * carries a tiny script (allowed by hash; `localeNotFoundScript` in render/head.ts) that sends a
 * path under a locale's prefix to that locale's 404 page; without script, its language switch
 * links there. Each redirect's old path gets a page that
 * refreshes to the new one at once (`redirectPage`: canonical to it, noindex, a link for who stays).
 * The contact form must post to a form service (`contact.endpoint`), as a plain urlencoded form.
 */
import type { ResolvedConfig } from '../config/load.js';
import { SiteError } from '../errors.js';
import { escapeHtml } from '../render/html.js';
import { splitLocale, toOutputFile } from '../url-paths.js';
import { isExternalTarget, redirectLocation, type SiteRedirect } from '../routes/redirects.js';
import { pathRulesOf, siteRootOf } from '../routes/urls.js';
import type { HostTarget } from './shared.js';

/** The problems of a config for GitHub Pages: a form endpoint on the site itself, which Pages cannot answer. */
export function githubPagesWarnings(config: ResolvedConfig): SiteError[] {
  if (!config.contact.endpoint.startsWith('/')) return [];
  return [
    new SiteError({
      code: 'CONFIG_INVALID',
      severity: 'warning',
      file: config.file,
      field: 'contact.endpoint',
      message: `the contact form posts to ${config.contact.endpoint}, but GitHub Pages answers no POST (the form would fail with 405)`,
      hint: 'Set contact.endpoint to the https:// address of a form service (Formspree, Basin, Getform); the form posts a plain urlencoded body there.',
    }),
  ];
}

/**
 * The page at a redirect's old path: GitHub Pages sends no status or Location, so the page
 * refreshes to the new address at once, names it canonical (search engines move the ranking there)
 * and is kept out of the index; its only text is the new address as a link. No script, no style:
 * a policy of its own allows nothing at all.
 */
export function redirectPage(config: ResolvedConfig, redirect: SiteRedirect): string {
  const location = isExternalTarget(redirect.to) ? redirect.to : config.site.base + redirectLocation(redirect.to);
  const absolute = isExternalTarget(redirect.to) ? location : siteRootOf(config) + redirectLocation(redirect.to);
  const lang = config.locales[splitLocale(redirect.from, pathRulesOf(config)).locale]!.htmlLang;
  const href = escapeHtml(location);
  return [
    '<!doctype html>',
    `<html lang="${escapeHtml(lang)}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'">',
    '<meta name="robots" content="noindex">',
    `<meta http-equiv="refresh" content="0; url=${href}">`,
    `<link rel="canonical" href="${escapeHtml(absolute)}">`,
    `<title>${escapeHtml(absolute)}</title>`,
    '</head>',
    `<body><a href="${href}">${escapeHtml(absolute)}</a></body>`,
    '</html>',
    '',
  ].join('\n');
}

/** The file of an old path: "/blog/old" → "blog/old/index.html"; an old "/about.html" is that file. */
const redirectFile = (from: string) => (/\.html?$/.test(from) ? from.slice(1) : toOutputFile(from));

export const githubPagesTarget: HostTarget = {
  staticFolder: '',
  files: ({ config, redirects }) =>
    new Map([
      ['.nojekyll', ''],
      ...redirects.map((redirect): [string, string] => [redirectFile(redirect.from), redirectPage(config, redirect)]),
    ]),
  functions: () => new Map(),
};
