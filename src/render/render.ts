/**
 * Rendering: a page's template inside the layout, through `renderToString`, inside the document
 * shell whose head comes from the page record.
 */
import { join } from 'node:path';
import type { ResolvedConfig } from '../config/load.js';
import { copyValuesOf, fillPlaceholders, lookupMessage, type MessageTree } from '../content/messages.js';
import { hasHighlightedCode } from '../content/highlight.js';
import { contentKey, type PageContent } from '../content/pages.js';
import type { Entry, EntryTranslation } from '../content/collections.js';
import { sourcesOf } from '../config/sources.js';
import { SiteError } from '../errors.js';
import { didYouMeanText } from '../did-you-mean.js';
import type { PluginHead } from './plugin-head.js';
import { hasComponentMarkers, renderContentComponents } from './content-components.js';
import { componentFiles, videoFrameSources } from './component-files.js';
import type { Page } from '../routes/pages.js';
import { pickTranslation } from '../routes/fallback.js';
import { toUrl } from '../url-paths.js';
import { urlsOf } from '../routes/urls.js';
import { isAdminTemplate } from '../admin-pages.js';
import { lazyPackage } from '../lazy-package.js';
import { needsConsent } from '../islands/consent.js';
import { consentBanner } from './consent-banner.js';
import { editAttributes, markCopy, markEntry, withoutMarkers, type EditMarks } from './edit-markers.js';
import { focusStylesheet, usesFocusClasses } from './images.js';
import { renderDocument } from './head.js';
import { breadcrumbList, organization } from './json-ld.js';
import { siteDataOf } from './site-data.js';
import { isTemplateDiagnostic } from './template-diagnostic.js';
import { mapTemplateStack, templatePositionOf } from './template-positions.js';
import { trackedView } from './tracked-view.js';
import type { PageMeta, PageProps, SiteContext, TemplateSet } from './types.js';

const react = lazyPackage<typeof import('react')>('react');
const reactServer = lazyPackage<typeof import('react-dom/server')>('react-dom/server');

/** Everything rendering needs, built once per build. */
export interface RenderInput {
  config: ResolvedConfig;
  pages: readonly Page[];
  messages: Record<string, MessageTree>;
  contents: ReadonlyMap<string, PageContent>;
  /** The entries of each collection, newest first. */
  entries: Readonly<Record<string, readonly Entry[]>>;
  templates: TemplateSet;
  /** The built assets' URLs: the site's stylesheet, the admin's while it is on, the fonts every page preloads, highlighted code's. */
  assets: { stylesheet: string; admin?: string; fonts?: readonly string[]; code?: string };
  /** The site plugins' head tags (plugin-head.ts), made before rendering so the CSP can allow them on every page. */
  pluginHead?: PluginHead;
  /** Told of every input a render reads (`site dev` re-renders a page only when one of them changes). */
  track?(dependency: RenderDependency): void;
  /**
   * The admin's visual mode (edit-markers.ts): the copy and entries the templates read are marked,
   * and each page comes with `data-edit` on the elements that show them. Never set for a build.
   */
  editMarks?: EditMarks;
}

/**
 * An input a render reads: a page's copy ("content:hub/product:no"), the messages of a locale, the
 * record of the page itself ("page:/blog/"), a field of another page's record read for its name or
 * meta ("page:/blog/ [\"collection\",\"pageNumber\"]", see tracked-view.ts), whether a URL is a
 * page, the entries of a collection ("entries:blog"), an entry and the locales it is written in
 * ("entry:blog/a-slug"), or one translation of an entry ("entry:blog/a-slug:no").
 */
export type RenderDependency =
  | `content:${string}`
  | `messages:${string}`
  | `page:${string}`
  | `exists:${string}`
  | `entries:${string}`
  | `entry:${string}`;

/** Creates a renderer; `renderPage` returns the full HTML of one page. */
export function createRenderer(input: RenderInput): { renderPage(page: Page): string; metaOf(page: Page): PageMeta } {
  const { config, templates } = input;
  const track = input.track ?? (() => undefined);
  const urls = urlsOf(config);
  const sources = sourcesOf(config);
  const byUrl = new Map(input.pages.map((page) => [page.url, page]));
  const bySlug = new Map(
    Object.entries(input.entries).map(([name, entries]) => [
      name,
      new Map(entries.map((entry) => [entry.slug, entry])),
    ]),
  );
  const contexts = new Map<string, SiteContext>();
  const views = new Map<Entry, Entry>();
  const copyValues = copyValuesOf(config);
  const data = siteDataOf(config, templates);
  const consent = needsConsent(config);
  const marks = input.editMarks;
  const markedCopy = new Map<string, PageContent>();

  // When tracked, an entry is handed out as a view that reports what is read of it: the locales it
  // has, and each field of a translation ("entry:blog/a:en [\"title\"]"). An edit of a post's body
  // so re-renders the pages that show the body, not every page that lists the post by its title.
  const viewOf = (entry: Entry | undefined): Entry | undefined => {
    if (!entry || !input.track) return entry;
    let view = views.get(entry);
    if (!view) {
      const key = `entry:${entry.collection}/${entry.slug}` as const;
      const translationViews = new Map<string, EntryTranslation>();
      const translationView = (locale: string): EntryTranslation | undefined => {
        const translation = entry.translations[locale];
        if (!translation) return undefined;
        let found = translationViews.get(locale);
        if (!found)
          translationViews.set(
            locale,
            (found = trackedView(translation, `${key}:${locale}`, track as (read: string) => void)),
          );
        return found;
      };
      const translations = new Proxy(entry.translations, {
        get: (target, locale) => {
          if (typeof locale !== 'string') return Reflect.get(target, locale);
          track(key);
          return Object.hasOwn(target, locale) ? translationView(locale) : Reflect.get(target, locale);
        },
        has: (target, locale) => (track(key), Reflect.has(target, locale)),
        // A descriptor hands out the raw translation: count it as a read of all of it.
        getOwnPropertyDescriptor: (target, locale) => {
          if (typeof locale === 'string') track(`${key}:${locale}`);
          return Reflect.getOwnPropertyDescriptor(target, locale);
        },
        ownKeys: (target) => (track(key), Reflect.ownKeys(target)),
      });
      view = { ...entry, translations };
      views.set(entry, view);
    }
    return view;
  };

  const propsOf = (page: Page): PageProps => {
    if (page.content !== undefined) track(`content:${contentKey(page.content, page.locale)}`);
    const key = page.content === undefined ? undefined : contentKey(page.content, page.locale);
    let content = key === undefined ? {} : input.contents.get(key);
    if (content === undefined) {
      throw new SiteError({ code: 'CONTENT_MISSING', message: `no copy for ${page.url}`, field: page.content });
    }
    if (marks && key !== undefined) {
      let copy = markedCopy.get(key);
      if (!copy) markedCopy.set(key, (copy = markCopy(marks, content, page.content!, page.locale)));
      content = copy;
    }
    return { page, content, site: contextFor(page.locale) };
  };

  /** The file a template's diagnostic about `page` is about: its copy, its entry's translation, or else the template. */
  const contentFileOf = (page: Page): string => {
    const shown =
      page.collection?.kind === 'entry'
        ? bySlug.get(page.collection.collection)?.get(page.collection.slug)?.translations[page.collection.contentLocale]
        : undefined;
    if (shown) return shown.file;
    // The .yaml name; content-api.ts positions the diagnostic, in the .md file when that is the one there is.
    if (page.content !== undefined) return sources.display(join(sources.copy(page.content), `${page.locale}.yaml`));
    return sources.display(sources.pageTemplate(page.template));
  };

  /** What a template threw while making `page`, as a SiteError. */
  const failureOf = (page: Page, cause: unknown): SiteError => {
    if (cause instanceof SiteError) return cause;
    const message = `${page.url} (template ${page.template}): ${cause instanceof Error ? cause.message : String(cause)}`;
    if (isTemplateDiagnostic(cause))
      return new SiteError({
        code: 'TEMPLATE_REJECTED',
        message,
        file: contentFileOf(page),
        field: cause.field,
        hint: cause.hint,
        cause,
      });
    // The line of the site's template the throw passed through, by the bundle's source map.
    const at = templatePositionOf(cause, sources.templatesFolder);
    if (cause instanceof Error) mapTemplateStack(cause);
    return new SiteError({
      code: 'RENDER_FAILED',
      message,
      file: sources.display(at?.file ?? sources.pageTemplate(page.template)),
      line: at?.line,
      column: at?.column,
      cause,
    });
  };

  /** Runs template code for `page`: whatever it throws becomes a SiteError about that page. */
  const inTemplate = <T>(page: Page, work: () => T): T => {
    try {
      return work();
    } catch (cause) {
      throw failureOf(page, cause);
    }
  };

  const metaOf = (page: Page): PageMeta => {
    const props = propsOf(page);
    const template = templates.pages[page.template]!;
    if (template.meta) return inTemplate(page, () => template.meta!(props));
    const { title, description } = props.content as { title?: unknown; description?: unknown };
    if (typeof title !== 'string' || typeof description !== 'string') {
      throw new SiteError({
        code: 'TEMPLATE_INVALID',
        message: `template ${page.template} needs a meta() export or copy with title and description`,
      });
    }
    return { title, description };
  };

  function contextFor(locale: string): SiteContext {
    const existing = contexts.get(locale);
    if (existing) return existing;
    const messages = input.messages[locale] ?? {};
    const intl = config.locales[locale]!.intl;
    const dateFormat = new Intl.DateTimeFormat(intl, {
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      timeZone: 'UTC',
    });
    // One number format per currency a page shows, made on first use.
    const moneyFormats = new Map<string, Intl.NumberFormat>();
    const formatMoney = (amount: number, currency: string) => {
      let format = moneyFormats.get(currency);
      if (!format)
        moneyFormats.set(
          currency,
          (format = new Intl.NumberFormat(intl, { style: 'currency', currency, maximumFractionDigits: 0 })),
        );
      return format.format(amount);
    };
    // Every page asks for the same few dozen messages, URLs and dates: each is worked out once.
    const found = new Map<string, string | undefined>();
    // A message with the site's values filled in (`{minutes}`: see copyValuesOf), as most calls ask for it.
    const filled = new Map<string, string>();
    const hrefs = new Map<string, string>();
    const dates = new Map<string, string>();
    const context: SiteContext = {
      config,
      locale,
      data,
      consent,
      t(key, values) {
        track(`messages:${locale}`);
        let message = found.get(key);
        if (message === undefined && !found.has(key)) {
          message = lookupMessage(messages, key);
          found.set(key, message);
        }
        if (message === undefined) {
          throw new SiteError({
            code: 'CONTENT_MISSING',
            message: `missing message "${key}"`,
            file: sources.display(sources.messages(locale)),
            field: key,
            hint: `Add the key to every file in ${sources.display(sources.messagesFolder)}/.`,
          });
        }
        if (values) return fillPlaceholders(message, { ...copyValues, ...values });
        let text = filled.get(key);
        if (text === undefined) {
          text = fillPlaceholders(message, copyValues);
          filled.set(key, text);
        }
        return text;
      },
      href(routePath) {
        let url = hrefs.get(routePath);
        if (url === undefined) {
          url = urls.page(routePath, locale);
          hrefs.set(routePath, url);
        }
        track(`exists:${url}`);
        if (!byUrl.has(url)) {
          const single = toUrl(routePath);
          track(`exists:${single}`);
          if (byUrl.has(single)) return single;
          throw new SiteError({
            code: 'UNKNOWN_ROUTE',
            message: `a template links to "${routePath}", which is not a page in locale "${locale}"${didYouMeanText(
              routePath,
              config.routes.map((route) => route.path),
            )}`,
            hint: 'Link only to paths listed under routes: in site.config.yaml.',
          });
        }
        return url;
      },
      nameOf(url) {
        track(`exists:${url}`);
        const found = byUrl.get(url);
        if (!found) return url;
        const page = input.track ? trackedView(found, `page:${url}`, track as (read: string) => void) : found;
        if (page.route.path === '/') return context.t('breadcrumb.home');
        if (page.audience && page.route.path === config.audiences[page.audience]!.path)
          return config.audiences[page.audience]!.label[locale]!;
        return metaOf(page).title;
      },
      formatDate(isoDate) {
        let date = dates.get(isoDate);
        if (date === undefined) {
          date = dateFormat.format(new Date(`${isoDate}T00:00:00Z`));
          dates.set(isoDate, date);
        }
        return date;
      },
      formatMoney,
      formatPrice: (price) => ({
        amount: formatMoney(price.amount, price.currency),
        period: context.t(price.period === 'year' ? 'pricing.perYear' : 'pricing.perMonth'),
      }),
      entries(collection) {
        track(`entries:${collection}`);
        const list = input.entries[collection] ?? [];
        if (marks) return list.map((entry) => markEntry(marks, entry));
        return input.track ? list.map((entry) => viewOf(entry)!) : list;
      },
      entry(collection, slug) {
        track(`entry:${collection}/${slug}`);
        const entry = bySlug.get(collection)?.get(slug);
        if (marks) return entry && markEntry(marks, entry);
        return viewOf(entry);
      },
      translationOf(entry) {
        const chosen = pickTranslation(entry.translations, locale, {
          localeIds: config.localeIds,
          chains: config.collections[entry.collection]?.fallback ?? {},
        });
        return entry.translations[chosen!]!;
      },
      reference(entry, field) {
        const target = config.collections[entry.collection]?.fields[field];
        if (target?.type !== 'reference' || target.collection === undefined) {
          // Thrown in the template's render: reported as RENDER_FAILED at the template's line.
          throw new Error(`site.reference: "${field}" is no reference field of ${entry.collection}`);
        }
        const slug = context.translationOf(entry).fields[field];
        return typeof slug === 'string' ? context.entry(target.collection, slug) : undefined;
      },
      assets: input.assets,
    };
    contexts.set(locale, context);
    return context;
  }

  /** A page whose template is not there: the 404 pages' at the templates folder, which lacks the file; another at the config, with the nearest name. */
  function unknownTemplate(page: Page): SiteError {
    const sources = sourcesOf(config);
    if (page.notFound)
      return new SiteError({
        code: 'UNKNOWN_TEMPLATE',
        message: `the 404 pages need the template NotFound: there is no ${sources.display(sources.pageTemplate('NotFound'))}`,
        file: sources.display(sources.pageTemplatesFolder),
        hint: 'Add NotFound.tsx to the folder (the starter of `site init` has one to copy): it renders the page a visitor gets for an address the site does not have.',
      });
    return new SiteError({
      code: 'UNKNOWN_TEMPLATE',
      message: `unknown template "${page.template}" (route "${page.route.path}")${didYouMeanText(page.template, Object.keys(templates.pages))}`,
      file: config.file,
    });
  }

  function renderPage(page: Page): string {
    const template = templates.pages[page.template];
    if (!template) throw unknownTemplate(page);
    const props = propsOf(page);
    // The head is made from the meta as published (a social card is named by its title's hash).
    const meta = marks ? withoutMarkers(metaOf(page)) : metaOf(page);
    const { createElement } = react();
    let body = inTemplate(page, () =>
      reactServer().renderToString(
        createElement(template.Layout ?? templates.Layout, {
          ...props,
          children: createElement(template.default, props),
        }),
      ),
    );
    // The components of the Markdown the page shows, wherever its templates put that HTML.
    const shown = hasComponentMarkers(body)
      ? inTemplate(page, () => renderContentComponents(body, templates, props.site))
      : undefined;
    const engineShown = shown ? [...shown.used].filter((name) => templates.engineComponents.includes(name)) : [];
    const video = engineShown.includes('Video');
    if (shown) body = shown.html + (video ? `<script src="${componentFiles.videoScript.url}" defer></script>` : '');
    const company = organization(config);
    const structuredData: Record<string, unknown>[] = company ? [company] : [];
    if (page.ancestors.length && !page.notFound && template.breadcrumbs !== false) {
      const trail = [...page.ancestors, page.url].map((url) => ({
        name: props.site.nameOf(url),
        url: urls.absolute(url),
      }));
      trail[trail.length - 1]!.name = meta.title;
      structuredData.push(breadcrumbList(trail));
    }
    structuredData.push(...(inTemplate(page, () => template.structuredData?.(props)) ?? []));
    // The consent banner closes every public page of a site whose counter waits for consent.
    const banner = consent && !isAdminTemplate(page.template) ? consentBanner(props.site.t) : '';
    // Only a page with highlighted code loads the code stylesheet.
    const code = input.assets.code && hasHighlightedCode(body) ? [input.assets.code] : [];
    // Only a page showing an image with a focal point loads the focus classes (render/images.ts).
    const focus = usesFocusClasses(body) ? [focusStylesheet.url] : [];
    // Only a page showing one of the engine's content components loads their stylesheet.
    const parts = engineShown.length ? [componentFiles.stylesheet.url] : [];
    const stylesheets =
      code.length || focus.length || parts.length
        ? [...(meta.stylesheets ?? []), ...code, ...focus, ...parts]
        : meta.stylesheets;
    const html = renderDocument(
      page,
      {
        config,
        meta,
        structuredData,
        stylesheet: input.assets.stylesheet,
        fonts: input.assets.fonts,
        stylesheets,
        // A page with a video allows its players' frames (a meta policy, on GitHub Pages, is the page's own).
        plugins: video ? withFrameSources(input.pluginHead, videoFrameSources) : input.pluginHead,
      },
      body + banner,
    );
    return marks ? editAttributes(html, marks) : html;
  }

  return { renderPage, metaOf };
}

/** The plugins' head with `sources` allowed in frame-src too. */
function withFrameSources(head: PluginHead | undefined, sources: readonly string[]): PluginHead {
  const csp = head?.csp ?? { scriptSrc: [], styleSrc: [], connectSrc: [], imgSrc: [], frameSrc: [] };
  return {
    tags: head?.tags ?? {},
    csp: { ...csp, frameSrc: [...new Set([...csp.frameSrc, ...sources])].sort() },
  };
}
