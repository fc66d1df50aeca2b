/**
 * Rendering: a page's template inside the layout, through `renderToString`, inside the document
 * shell whose head comes from the page record.
 */
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import type { ResolvedConfig } from '../config/load.js';
import { lookupMessage, type MessageTree } from '../content/messages.js';
import { contentKey, type PageContent } from '../content/pages.js';
import type { Post } from '../content/posts.js';
import { SiteError } from '../errors.js';
import type { Page } from '../routes/pages.js';
import { localizePath, toUrl } from '../routes/paths.js';
import { pathRules } from '../routes/pages.js';
import { renderDocument } from './head.js';
import { breadcrumbList, organization } from './json-ld.js';
import type { PageMeta, PageProps, SiteContext, TemplateSet } from './types.js';

/** Everything rendering needs, built once per build. */
export interface RenderInput {
  config: ResolvedConfig;
  pages: readonly Page[];
  messages: Record<string, MessageTree>;
  contents: ReadonlyMap<string, PageContent>;
  posts: readonly Post[];
  templates: TemplateSet;
  assets: { stylesheet: string };
}

/** Creates a renderer; `renderPage` returns the full HTML of one page. */
export function createRenderer(input: RenderInput): { renderPage(page: Page): string; metaOf(page: Page): PageMeta } {
  const { config, templates } = input;
  const rules = pathRules(config);
  const byUrl = new Map(input.pages.map((page) => [page.url, page]));
  const postsBySlug = new Map(input.posts.map((post) => [post.slug, post]));
  const contexts = new Map<string, SiteContext>();

  const propsOf = (page: Page): PageProps => {
    const content = page.content === undefined ? {} : input.contents.get(contentKey(page.content, page.locale));
    if (content === undefined) {
      throw new SiteError({ code: 'CONTENT_MISSING', message: `no copy for ${page.url}`, field: page.content });
    }
    return { page, content, site: contextFor(page.locale) };
  };

  const metaOf = (page: Page): PageMeta => {
    const props = propsOf(page);
    const template = templates.pages[page.template]!;
    if (template.meta) return template.meta(props);
    const { title, description } = props.content as { title?: unknown; description?: unknown };
    if (typeof title !== 'string' || typeof description !== 'string') {
      throw new SiteError({ code: 'TEMPLATE_INVALID', message: `template ${page.template} needs a meta() export or copy with title and description` });
    }
    return { title, description };
  };

  function contextFor(locale: string): SiteContext {
    const existing = contexts.get(locale);
    if (existing) return existing;
    const messages = input.messages[locale] ?? {};
    const intl = config.locales[locale]!.intl;
    const dateFormat = new Intl.DateTimeFormat(intl, { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
    const moneyFormat = new Intl.NumberFormat(intl, { style: 'currency', currency: 'EUR', maximumFractionDigits: 0 });
    const context: SiteContext = {
      config,
      locale,
      t(key, values) {
        const message = lookupMessage(messages, key, values);
        if (message === undefined) {
          throw new SiteError({ code: 'CONTENT_MISSING', message: `missing message "${key}"`, file: `content/messages/${locale}.yaml`, field: key, hint: 'Add the key to every file in content/messages/.' });
        }
        return message;
      },
      href(routePath) {
        const url = toUrl(localizePath(routePath, locale, rules));
        if (!byUrl.has(url)) {
          const single = toUrl(routePath);
          if (byUrl.has(single)) return single;
          throw new SiteError({ code: 'UNKNOWN_ROUTE', message: `a template links to "${routePath}", which is not a page in locale "${locale}"`, hint: 'Link only to paths listed under routes: in site.config.yaml.' });
        }
        return url;
      },
      nameOf(url) {
        const page = byUrl.get(url);
        if (!page) return url;
        if (page.route.path === '/') return context.t('breadcrumb.home');
        if (page.audience && page.route.path === config.audiences[page.audience]!.path) return config.audiences[page.audience]!.label[locale]!;
        return metaOf(page).title;
      },
      formatDate: (isoDate) => dateFormat.format(new Date(`${isoDate}T00:00:00Z`)),
      formatMoney: (amount) => moneyFormat.format(amount),
      posts: input.posts,
      postBySlug: (slug) => postsBySlug.get(slug),
      translationOf: (post) => post.translations[locale] ?? Object.values(post.translations)[0]!,
      assets: input.assets,
    };
    contexts.set(locale, context);
    return context;
  }

  function renderPage(page: Page): string {
    const template = templates.pages[page.template];
    if (!template) throw new SiteError({ code: 'UNKNOWN_TEMPLATE', message: `unknown template "${page.template}"`, file: config.file });
    const props = propsOf(page);
    const meta = metaOf(page);
    let body: string;
    try {
      body = renderToString(createElement(templates.Layout, { ...props, children: createElement(template.default, props) }));
    } catch (cause) {
      if (cause instanceof SiteError) throw cause;
      throw new SiteError({
        code: 'RENDER_FAILED',
        message: `${page.url} (template ${page.template}): ${cause instanceof Error ? cause.message : String(cause)}`,
        file: `templates/pages/${page.template}.tsx`,
        cause,
      });
    }
    const structuredData: Record<string, unknown>[] = [organization(config)];
    if (page.ancestors.length && !page.notFound) {
      const trail = [...page.ancestors, page.url].map((url) => ({ name: props.site.nameOf(url), url: config.site.origin + url }));
      trail[trail.length - 1]!.name = meta.title;
      structuredData.push(breadcrumbList(trail));
    }
    structuredData.push(...(template.structuredData?.(props) ?? []));
    return renderDocument(page, { config, meta, structuredData, stylesheet: input.assets.stylesheet }, body);
  }

  return { renderPage, metaOf };
}
