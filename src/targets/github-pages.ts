/**
 * GitHub Pages: no headers, no redirects, no functions. `.nojekyll` (so folders starting with "_"
 * are published); the CSP goes into every page's head as a `<meta>` (see render/csp.ts for what a
 * meta policy cannot say); GitHub serves the root `404.html` for every missing path, so that page
 * carries a tiny script (allowed by hash; `localeNotFoundScript` in render/head.ts) that sends a
 * path under a locale's prefix to that locale's 404 page; without script, its language switch
 * links there. The contact form must post
 * to a form service (`contact.endpoint`), as a plain urlencoded form.
 */
import type { ResolvedConfig } from '../config/load.js';
import { SiteError } from '../errors.js';
import type { HostTarget } from './shared.js';

/** The problems of a config for GitHub Pages: a form endpoint on the site itself, which Pages cannot answer. */
export function githubPagesWarnings(config: ResolvedConfig): SiteError[] {
  if (!config.contact.endpoint.startsWith('/')) return [];
  return [new SiteError({
    code: 'CONFIG_INVALID',
    severity: 'warning',
    file: config.file,
    field: 'contact.endpoint',
    message: `the contact form posts to ${config.contact.endpoint}, but GitHub Pages answers no POST (the form would fail with 405)`,
    hint: 'Set contact.endpoint to the https:// address of a form service (Formspree, Basin, Getform); the form posts a plain urlencoded body there.',
  })];
}

export const githubPagesTarget: HostTarget = {
  staticFolder: '',
  files: () => new Map([['.nojekyll', '']]),
  functions: () => new Map(),
};
