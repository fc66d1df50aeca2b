/**
 * The consent banner's markup, written by the engine at the end of every public page of a site
 * whose counter sets cookies (islands/consent.ts has its script and styles). It starts hidden:
 * the script shows it while the visitor has not chosen, so a page without JavaScript loads no
 * counter and shows no banner it could not act on. Its copy is the site's messages `consent.*`
 * in every locale, so a missing one is reported like any other message.
 */
import { escapeHtml } from './html.js';

/** The banner of a page, its copy looked up with the page's `t`. */
export function consentBanner(t: (key: string) => string): string {
  return (
    '<section id="site-consent" class="site-consent" aria-labelledby="site-consent-title" hidden>' +
    `<p id="site-consent-title" class="site-consent-title">${escapeHtml(t('consent.title'))}</p>` +
    `<p>${escapeHtml(t('consent.text'))}</p>` +
    '<div class="site-consent-actions">' +
    `<button type="button" data-consent="granted">${escapeHtml(t('consent.accept'))}</button>` +
    `<button type="button" data-consent="denied">${escapeHtml(t('consent.decline'))}</button>` +
    '</div></section>'
  );
}
