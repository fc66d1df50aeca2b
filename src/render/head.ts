/**
 * The document head, derived from the page record and its meta: never written per template.
 * Also the two tiny inline scripts (language, 404 logging), which are constant so a
 * Content-Security-Policy can allow them by hash.
 */
import { createHash } from 'node:crypto';
import type { ResolvedConfig } from '../config/load.js';
import type { Page } from '../routes/pages.js';
import { siteRootOf, urlsOf } from '../routes/urls.js';
import type { PluginHead } from './plugin-head.js';
import { contentSecurityPolicy, isSearchPage } from './csp.js';
import { escapeHtml, serializeJsonForScript } from './html.js';
import { socialCardOf, socialImageFile, socialImageSize } from './social-card.js';
import type { PageMeta } from './types.js';

const languagePart =
  "(function(d,w){var h=d.documentElement;h.className+=' js';" +
  "try{var s=w.localStorage,r=(h.getAttribute('data-redirect')||'').split(' '),n=(navigator.language||'').toLowerCase(),i,k;" +
  "if(!s.getItem('preferredLanguage'))for(i=0;i<r.length;i++){k=r[i].indexOf('=');if(k>0&&n.indexOf(r[i].slice(0,k))===0){location.replace(r[i].slice(k+1)+location.search+location.hash);return}}" +
  "s.setItem('preferredLanguage',h.getAttribute('data-lang'));";
const audiencePart =
  "var a=h.getAttribute('data-audience');if(a)s.setItem('preferredAudience',a);else if((a=s.getItem('preferredAudience'))&&/^[\\w-]+$/.test(a))" +
  "d.addEventListener('DOMContentLoaded',function(){d.querySelectorAll('[data-remember] [data-audience='+a+']').forEach(function(l){var e=l.closest('details');l.textContent=e.firstChild.textContent;l.className='nav-link';e.replaceWith(l)})})";
const scriptEnd = '}catch(e){}})(document,window)';

/**
 * The inline language script of the pages of a site with audiences (constant, so a CSP can allow
 * it by hash). It marks the document as scripted (`js` class); stores the page's language as
 * `preferredLanguage`, or, on a first visit whose browser language starts with one of the prefixes
 * in `data-redirect` ("nb=/no/hub/ de=/de/hub/", longest prefix first), goes to that page (the
 * page's counterpart in that language) instead. Likewise it stores the audience of an audience's
 * page as `preferredAudience`, and on a page without one replaces each greyed navigation item
 * marked `data-remember` by its link for that audience (`[data-audience]` inside it), named like
 * the item.
 */
export const languageScript = languagePart + audiencePart + scriptEnd;

/** The language script of a site without audiences: the same, with no audience handling. */
export const languageOnlyScript = languagePart + scriptEnd;

/** The language script the pages of a config carry: audience handling only when it has audiences. */
export function languageScriptOf(config: ResolvedConfig): string {
  return Object.keys(config.audiences).length ? languageScript : languageOnlyScript;
}

/** Whether the pages of a config carry the menu script: only a site with navigation has a menu to drive. */
export function hasMenu(config: ResolvedConfig): boolean {
  return config.navigation.length > 0;
}

/**
 * The inline menu script of the pages of a site with navigation (constant too). It drives the
 * mobile menu toggle (`data-menu-toggle`, which controls the element named by its `aria-controls`): a click on it
 * opens or closes the menu; while the menu is open (and the toggle shown), Escape or a click
 * outside the menu closes it, and Tab and Shift+Tab cycle through the toggle and the menu's links
 * and buttons. Every close gives focus back to the toggle. The label, icon, overlay and scroll
 * lock follow `aria-expanded` / `data-open` in CSS. Escape first closes an open disclosure
 * (`<details>`) in the menu, such as a navigation item's choice, and gives focus back to its
 * `<summary>` (its first child, as HTML wants it); the next Escape closes the menu.
 */
export const menuScript =
  "(function(d){var b,m;function q(){b=d.querySelector('[data-menu-toggle]');m=b&&d.getElementById(b.getAttribute('aria-controls'))}" +
  "function o(){return m&&b.offsetParent&&b.getAttribute('aria-expanded')=='true'}" +
  "function t(x){b.setAttribute('aria-expanded',x);m.toggleAttribute('data-open',x);if(!x)b.focus()}" +
  "d.addEventListener('click',function(e){q();if(!m)return;if(b.contains(e.target))t(!o());else if(o()&&!m.contains(e.target))t(false)});" +
  "d.addEventListener('keydown',function(e){q();var x=e.key=='Escape'&&m&&m.querySelector('details[open]');if(x)x.open=!1,x.children[0].focus();" +
  "else if(o()){if(e.key=='Escape')t(!1);else if(e.key=='Tab'){" +
  "var f=[b].concat([].slice.call(m.querySelectorAll('a[href],button'))).filter(function(x){return x.offsetParent}),l=f.length,i=f.indexOf(d.activeElement),n=i+(e.shiftKey?-1:1);" +
  'if(i<0||n<0||n>=l){e.preventDefault();f[i<0?0:(n+l)%l].focus()}}}})})(document)';

/** Logs the unknown path on a 404 page. */
export const notFoundScript = "console.warn('Page not found:',location.pathname)";

/**
 * The script of the root 404 page on GitHub Pages, which serves that page for every missing path:
 * a path under a locale's prefix ("/no/…") goes to that locale's 404 page. Constant for a config,
 * so the CSP allows it by hash.
 */
export function localeNotFoundScript(config: ResolvedConfig): string {
  const targets: Record<string, string> = {};
  for (const locale of config.localeIds) {
    const prefix = config.locales[locale]!.prefix;
    if (prefix) targets[config.site.base + prefix] = config.site.base + urlsOf(config).notFound(locale).url;
  }
  return `(function(l,m){for(var p in m)if(l.pathname===p||l.pathname.indexOf(p+'/')===0){l.replace(m[p]);return}})(location,${JSON.stringify(targets)})`;
}

const hashesOf = new WeakMap<ResolvedConfig, string[]>();

/**
 * The CSP sources of every inline script the pages of a config carry: the language script, the
 * menu script (with navigation), the 404 script and, for GitHub Pages, the root 404 page's
 * language script.
 */
export function inlineScriptHashes(config: ResolvedConfig): string[] {
  let hashes = hashesOf.get(config);
  if (!hashes) {
    const scripts = [
      languageScriptOf(config),
      ...(hasMenu(config) ? [menuScript] : []),
      notFoundScript,
      ...(config.output.target === 'github-pages' ? [localeNotFoundScript(config)] : []),
    ];
    hashes = scripts.map(scriptHash);
    hashesOf.set(config, hashes);
  }
  return hashes;
}

/** The CSP source of an inline script. */
export function scriptHash(script: string): string {
  return `'sha256-${createHash('sha256').update(script).digest('base64')}'`;
}

/**
 * Attributes of <html>: lang, dir (for a right-to-left locale), data-lang, data-audience (on an audience's pages) and, on a page of
 * the default locale, where a first visit goes for each browser language another locale claims:
 * every such locale, not only the first.
 */
export function htmlAttributes(page: Page, config: ResolvedConfig): Record<string, string> {
  const locale = config.locales[page.locale]!;
  const attributes: Record<string, string> = { lang: locale.htmlLang, 'data-lang': page.locale };
  // Only a right-to-left language says so: left-to-right is the default, and pages stay as they were.
  if (locale.dir === 'rtl') attributes.dir = 'rtl';
  // The page's audience, for styles that follow it (each audience's accent colour).
  if (page.audience) attributes['data-audience'] = page.audience;
  if (page.locale !== config.site.defaultLocale) return attributes;
  const targets: { language: string; url: string }[] = [];
  for (const link of page.languageLinks) {
    if (link.current || !link.counterpart) continue;
    for (const language of config.locales[link.locale]!.browserLanguages)
      targets.push({ language: language.toLowerCase(), url: config.site.base + link.url });
  }
  // Longest prefix first, so "pt-br" wins over "pt"; then in plain string order, for stable output.
  targets.sort(
    (a, b) => b.language.length - a.language.length || (a.language < b.language ? -1 : a.language > b.language ? 1 : 0),
  );
  if (targets.length)
    attributes['data-redirect'] = targets.map((target) => `${target.language}=${target.url}`).join(' ');
  return attributes;
}

/** Everything the head needs besides the page. */
export interface HeadInput {
  config: ResolvedConfig;
  meta: PageMeta;
  structuredData: readonly Record<string, unknown>[];
  stylesheet: string;
  /** Fonts to preload (`output.preloadFonts`, at the URLs the stylesheet gives them). */
  fonts?: readonly string[];
  /** The site plugins' head tags of every page and what the CSP allows for them (none without such plugins). */
  plugins?: PluginHead;
  /** Stylesheets after the site's (PageMeta's `stylesheets`). */
  stylesheets?: readonly string[];
}

/** The MIME type of a font file, by its extension. */
function fontType(href: string): string {
  return `font/${href.slice(href.lastIndexOf('.') + 1)}`;
}

/** The inner HTML of <head>. */
export function renderHead(page: Page, input: HeadInput): string {
  const { config, meta } = input;
  const locale = config.locales[page.locale]!;
  const title =
    page.template === 'Landing' ? `${config.site.name} · ${meta.title}` : `${meta.title} · ${config.site.name}`;
  const githubPages = config.output.target === 'github-pages';
  const tags: string[] = [
    '<meta charset="utf-8" />',
    '<meta name="viewport" content="width=device-width, initial-scale=1" />',
    // Before any script: a meta policy covers only what follows it.
    ...(githubPages
      ? [
          `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(config, inlineScriptHashes(config), 'meta', input.plugins?.csp, isSearchPage(config, page.route.path)))}" />`,
        ]
      : []),
    `<title>${escapeHtml(title)}</title>`,
    `<meta name="description" content="${escapeHtml(meta.description)}" />`,
    `<script>${languageScriptOf(config)}</script>`,
    ...(hasMenu(config) ? [`<script>${menuScript}</script>`] : []),
  ];
  if (githubPages && page.notFound && page.locale === config.site.defaultLocale)
    tags.push(`<script>${localeNotFoundScript(config)}</script>`);
  if (page.noindex || config.preview) tags.push('<meta name="robots" content="noindex" />');
  if (!page.notFound) tags.push(`<link rel="canonical" href="${escapeHtml(page.canonical)}" />`);
  for (const alternate of page.alternates) {
    tags.push(
      `<link rel="alternate" hreflang="${escapeHtml(alternate.hreflang)}" href="${escapeHtml(alternate.href)}" />`,
    );
  }
  if (meta.feed)
    tags.push(
      `<link rel="alternate" type="application/rss+xml" title="${escapeHtml(meta.feed.title)}" href="${escapeHtml(meta.feed.url)}" />`,
    );
  tags.push(
    // Fetched with the stylesheet rather than after it, so the text swaps to the font before the first paint.
    ...(input.fonts ?? []).map(
      (href) => `<link rel="preload" href="${escapeHtml(href)}" as="font" type="${fontType(href)}" crossorigin />`,
    ),
    `<link rel="stylesheet" href="${escapeHtml(input.stylesheet)}" />`,
    ...(input.stylesheets ?? []).map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}" />`),
    '<link rel="icon" href="/favicon.svg" type="image/svg+xml" />',
    `<meta name="theme-color" content="${escapeHtml(config.site.themeColor)}" />`,
    `<meta property="og:site_name" content="${escapeHtml(config.site.name)}" />`,
    `<meta property="og:title" content="${escapeHtml(meta.title)}" />`,
    `<meta property="og:description" content="${escapeHtml(meta.description)}" />`,
    `<meta property="og:type" content="${meta.og?.type ?? 'website'}" />`,
    `<meta property="og:url" content="${escapeHtml(page.canonical)}" />`,
    `<meta property="og:locale" content="${escapeHtml(locale.ogLocale)}" />`,
  );
  for (const id of config.localeIds) {
    if (id !== page.locale)
      tags.push(`<meta property="og:locale:alternate" content="${escapeHtml(config.locales[id]!.ogLocale)}" />`);
  }
  if (meta.og?.publishedTime)
    tags.push(`<meta property="article:published_time" content="${escapeHtml(meta.og.publishedTime)}" />`);
  if (meta.og?.modifiedTime)
    tags.push(`<meta property="article:modified_time" content="${escapeHtml(meta.og.modifiedTime)}" />`);
  if (meta.og?.section) tags.push(`<meta property="article:section" content="${escapeHtml(meta.og.section)}" />`);
  const card = config.output.socialImages ? socialCardOf(page, meta, config) : undefined;
  if (card) {
    tags.push(
      `<meta property="og:image" content="${escapeHtml(`${siteRootOf(config)}/${socialImageFile(card)}`)}" />`,
      `<meta property="og:image:type" content="${card.photo ? 'image/jpeg' : 'image/png'}" />`,
      `<meta property="og:image:width" content="${socialImageSize.width}" />`,
      `<meta property="og:image:height" content="${socialImageSize.height}" />`,
      `<meta property="og:image:alt" content="${escapeHtml(card.photo?.alt ?? card.title)}" />`,
    );
  }
  tags.push(
    `<meta name="twitter:card" content="${card ? 'summary_large_image' : 'summary'}" />`,
    `<meta name="twitter:title" content="${escapeHtml(meta.title)}" />`,
    `<meta name="twitter:description" content="${escapeHtml(meta.description)}" />`,
  );
  for (const data of input.structuredData)
    tags.push(`<script type="application/ld+json">${serializeJsonForScript(data)}</script>`);
  if (page.notFound) tags.push(`<script>${notFoundScript}</script>`);
  // Last: the site plugins' tags, written as plugin-head.ts made them.
  const pluginTags = input.plugins?.tags[page.url];
  if (pluginTags) tags.push(pluginTags);
  return tags.join('');
}

/** The whole document around a rendered body. */
export function renderDocument(page: Page, input: HeadInput, body: string): string {
  const attributes = Object.entries(htmlAttributes(page, input.config))
    .map(([name, value]) => ` ${name}="${escapeHtml(value)}"`)
    .join('');
  return `<!DOCTYPE html><html${attributes}><head>${renderHead(page, input)}</head><body>${body}</body></html>\n`;
}
