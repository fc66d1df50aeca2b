/**
 * The head tags of the site plugins (`headTags`), asked once per page of a build, and what the
 * Content-Security-Policy must allow for them: the origin of an external script or stylesheet,
 * the SHA-256 hash of an inline script or style. The policy is one for the whole site (a header,
 * or a meta on GitHub Pages), so it allows what any page's tags need. The config's own third
 * parties (`analytics:`, `head:`, see analytics.ts) come first on every public page, the same way.
 */
import { createHash } from 'node:crypto';
import type { ResolvedConfig } from '../config/load.js';
import type { HeadTag, PluginPage } from '../config/plugin-api.js';
import { escapeHtml } from './html.js';
import type { Page } from '../routes/pages.js';
import { runPluginHookSync } from '../config/plugin-hooks.js';
import { pluginFailure, sitePluginsOf } from '../config/plugins.js';
import { SiteError } from '../errors.js';
import { isAdminTemplate } from '../admin-pages.js';
import { thirdPartiesOf, type ExtraSources } from './analytics.js';

/** The sources the plugins' and the config's tags add to the policy, each list sorted and without repeats. */
export interface CspAdditions extends ExtraSources {
  styleSrc: string[];
}

/** The plugins' head tags of every page, as HTML by page URL, and the policy's additions (plain data: it crosses to the render workers). */
export interface PluginHead {
  tags: Record<string, string>;
  csp: CspAdditions;
}

const heads = new WeakMap<readonly Page[], { config: ResolvedConfig; head: PluginHead | undefined }>();

/**
 * The head tags of the pages, or undefined when no plugin adds any (the pages are then exactly as
 * without plugins). Asked once per build and set of pages; throws a PLUGIN_FAILED naming the
 * plugin, the hook and the page when a plugin throws or returns a tag that cannot be written.
 */
export function pluginHeadOf(config: ResolvedConfig, pages: readonly Page[]): PluginHead | undefined {
  const known = heads.get(pages);
  if (known && known.config === config) return known.head;
  const plugins = sitePluginsOf(config).filter((entry) => entry.plugin.headTags);
  const parties = thirdPartiesOf(config);
  let head: PluginHead | undefined;
  if (plugins.length || parties) {
    const tags: Record<string, string> = {};
    const csp = {
      scriptSrc: new Set(parties?.csp.scriptSrc),
      styleSrc: new Set<string>(),
      connectSrc: new Set(parties?.csp.connectSrc),
      imgSrc: new Set(parties?.csp.imgSrc),
      frameSrc: new Set(parties?.csp.frameSrc),
    };
    // Written once: the same on every public page; the admin's screens carry no third party.
    let own = '';
    for (const tag of parties?.tags ?? []) {
      own += renderHeadTag(tag);
      addCspSources(tag, csp.scriptSrc, csp.styleSrc);
    }
    for (const page of pages) {
      let html = isAdminTemplate(page.template) ? '' : own;
      for (const entry of plugins) {
        const context = {
          page: pluginPageOf(page),
          locale: page.locale,
          site: config.site,
          options: entry.ref.options,
        };
        try {
          const returned = runPluginHookSync(
            entry,
            'headTags()',
            config.file,
            () => entry.plugin.headTags!(context),
            page.url,
          );
          if (!Array.isArray(returned)) throw new Error('headTags() must return an array of tags');
          for (const tag of returned) {
            html += renderHeadTag(tag);
            addCspSources(tag, csp.scriptSrc, csp.styleSrc);
          }
        } catch (cause) {
          if (cause instanceof SiteError && cause.code === 'PLUGIN_EXIT') throw cause;
          throw pluginFailure(entry, 'headTags()', cause, config.file, page.url);
        }
      }
      if (html) tags[page.url] = html;
    }
    const sorted = (set: Set<string>) => [...set].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    head = {
      tags,
      csp: {
        scriptSrc: sorted(csp.scriptSrc),
        styleSrc: sorted(csp.styleSrc),
        connectSrc: sorted(csp.connectSrc),
        imgSrc: sorted(csp.imgSrc),
        frameSrc: sorted(csp.frameSrc),
      },
    };
  }
  heads.set(pages, { config, head });
  return head;
}

/** What a plugin is told of a page: facts that follow from the config and the page's URL alone. */
function pluginPageOf(page: Page): PluginPage {
  return {
    url: page.url,
    route: page.route.path,
    template: page.template,
    ...(page.audience ? { audience: page.audience } : {}),
    notFound: Boolean(page.notFound),
  };
}

const tagNames: ReadonlySet<string> = new Set(['meta', 'link', 'script', 'style']);

/** The HTML of one tag; throws when it cannot be written safely. */
export function renderHeadTag(tag: HeadTag): string {
  if (!tag || typeof tag !== 'object' || !tagNames.has(tag.tag))
    throw new Error(`a head tag must be one of meta, link, script or style (got ${JSON.stringify(tag?.tag ?? tag)})`);
  let attributes = '';
  for (const [name, value] of Object.entries(tag.attrs ?? {})) {
    if (!/^[a-zA-Z][a-zA-Z0-9:-]*$/.test(name)) throw new Error(`"${name}" is not an attribute name`);
    if (/^on/i.test(name))
      throw new Error(
        `event handler attributes such as "${name}" are not allowed (the CSP forbids them): use an inline script`,
      );
    if (value === false) continue;
    attributes += value === true ? ` ${name}` : ` ${name}="${escapeHtml(String(value))}"`;
  }
  if (tag.tag === 'meta' || tag.tag === 'link') {
    if (tag.content !== undefined) throw new Error(`a ${tag.tag} tag has no content`);
    return `<${tag.tag}${attributes} />`;
  }
  const content = tag.content ?? '';
  if (new RegExp(`</${tag.tag}`, 'i').test(content))
    throw new Error(`the content of a ${tag.tag} tag may not contain </${tag.tag}`);
  return `<${tag.tag}${attributes}>${content}</${tag.tag}>`;
}

/** The origin of an absolute http(s) URL, undefined for a URL of the site itself. */
function externalOrigin(url: unknown): string | undefined {
  if (typeof url !== 'string' || !/^(?:https?:)?\/\//i.test(url)) return undefined;
  return new URL(url, 'https://site.invalid').origin;
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

function addCspSources(tag: HeadTag, scriptSrc: Set<string>, styleSrc: Set<string>): void {
  const attrs = tag.attrs ?? {};
  if (tag.tag === 'script') {
    const origin = externalOrigin(attrs.src);
    if (origin) scriptSrc.add(origin);
    // JSON-LD and other data blocks are not run, so the policy need not allow them.
    const type = typeof attrs.type === 'string' ? attrs.type : '';
    if (attrs.src === undefined && tag.content && (type === '' || type === 'module' || /javascript/i.test(type)))
      scriptSrc.add(sha256(tag.content));
  } else if (tag.tag === 'style' && tag.content) styleSrc.add(sha256(tag.content));
  else if (
    tag.tag === 'link' &&
    String(attrs.rel ?? '')
      .split(/\s+/)
      .includes('stylesheet')
  ) {
    const origin = externalOrigin(attrs.href);
    if (origin) styleSrc.add(origin);
  }
}
