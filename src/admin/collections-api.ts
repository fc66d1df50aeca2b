/**
 * `/api/admin/collections…`: every collection of the site, not only the blog. `GET collections`
 * describes each (label, routes, front-matter fields from the build's own schema, taxonomy terms
 * with their names per locale); an entry of any collection is at `collections/<id>/…` with the
 * routes of posts-api.ts (list, create, read, save, delete, rename), made once per collection, and
 * `collections/<id>/preview` and `…/media` are preview.ts's and media-api.ts's for that collection.
 * `posts…` stays the blog's alias (or the first collection's when the site has no `blog`): the
 * same route set (its writes, like every admin write, go through write-queue.ts).
 */
import { componentDirectiveName, componentFields, type ComponentInfo } from '../content/component-uses.js';
import type { TemplateSet } from '../render/types.js';
import type { ResolvedConfig } from '../config/load.js';
import { builtInEntryFields } from '../config/schema.js';
import { collectionNamed } from '../config/sources.js';
import { frontMatterFields, type Entry } from '../content/collections.js';
import { lookupMessage, type MessageTree } from '../content/messages.js';
import { urlsOf } from '../routes/urls.js';
import type { Build } from '../pipeline/result-stage.js';
import type { AdminRequest, AdminRoute } from './api.js';
import { hasRole } from './guard.js';
import { sendJson } from './http.js';

/** Options of `createCollectionRoutes`. */
export interface CollectionRoutesOptions {
  /** The config the site is built from now. */
  config(): ResolvedConfig | undefined;
  /** The last good build: the messages the labels and term names come from. */
  lastBuild?(): Build | undefined;
  /** The routes of one collection's entries, with the paths posts-api.ts, preview.ts and media-api.ts give them (`posts…`, `preview`, `media`). */
  routesOf(collection: string): readonly AdminRoute[];
  /** The collection `posts…` edits when the site has no `blog` is its first one; this one when given. */
  alias?: string;
}

/** The site's content components and the engine's it keeps, by the name Markdown gives them, as `GET /api/admin/components` lists them. */
export function describeComponents(templates: Pick<TemplateSet, 'components' | 'engineComponents'>): ComponentInfo[] {
  return Object.entries(templates.components)
    .map(([file, module]): ComponentInfo => ({
      name: componentDirectiveName(file),
      kind: templates.engineComponents.includes(file) ? 'engine' : 'site',
      ...(typeof module.description === 'string' ? { description: module.description } : {}),
      fields: componentFields(module.props),
    }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** "authorRole" → "Author role": a field's label where the admin's copy has none. */
export function humanize(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[-_]+/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The collection `posts…` addresses: the given one, else `blog`, else the site's first collection. */
export function aliasCollection(config: ResolvedConfig | undefined, given?: string): string {
  if (given || !config || config.collections.blog) return given ?? 'blog';
  return Object.keys(config.collections)[0] ?? 'blog';
}

/** Stands for the slug while the URL rules place an entry (`{slug}` itself would be percent-encoded). */
const slugMarker = 'slug-marker-0';

/** A collection as `GET collections` describes it. */
export function describeCollection(
  config: ResolvedConfig,
  id: string,
  messages: Readonly<Record<string, MessageTree>> = {},
  entries: Iterable<Entry> = [],
) {
  const spec = config.collections[id]!;
  const urls = urlsOf(config);
  const message = (locale: string, key: string) => lookupMessage(messages[locale] ?? {}, key);
  const labels = spec.taxonomy?.labels ?? `${id}.terms`;
  const routes = config.routes
    .filter((route) => route.entry === id || route.list === id)
    .map((route) => ({
      kind: route.entry === id ? ('entry' as const) : ('list' as const),
      path: route.path,
      audience: route.audience ?? null,
      // The address in each locale; an entry route's with `{slug}` for the entry's slug in that locale.
      urls: Object.fromEntries(
        (route.locale ? [route.locale] : config.localeIds).map((locale) => {
          const path = route.entry === id ? urls.entryPath(route.path, slugMarker) : route.path;
          return [locale, (route.locale ? path : urls.page(path, locale)).replace(slugMarker, '{slug}')];
        }),
      ),
    }));
  return {
    id,
    label: message(config.site.defaultLocale, `${id}.title`) ?? id,
    routes,
    builtIn: [...builtInEntryFields, 'imageAlt'],
    termField: spec.taxonomy?.field ?? null,
    wordsPerMinute: spec.wordsPerMinute,
    fields: frontMatterFields(spec).map((field) => {
      const declared = Object.hasOwn(spec.fields, field.name) ? spec.fields[field.name] : undefined;
      // A select's options are named by its own labels key; the taxonomy's terms by the taxonomy's.
      const names = declared?.type === 'select' ? declared.labels : labels;
      return {
        ...field,
        label: declared?.label ?? humanize(field.name),
        builtIn: builtInEntryFields.includes(field.name) || field.name === 'imageAlt',
        ...(field.options
          ? {
              options: field.options.map((value) => ({
                value,
                names: Object.fromEntries(
                  config.localeIds.map((locale) => [locale, (names && message(locale, `${names}.${value}`)) ?? value]),
                ),
              })),
            }
          : {}),
        // A reference picks one of the entries of its collection, named by its title in each language.
        ...(declared?.type === 'reference' ? { options: referenceOptions(config, declared.collection!, entries) } : {}),
      };
    }),
  };
}

/** The entries of a collection a reference field may name, in slug order, each with its title per locale (else its slug). */
function referenceOptions(config: ResolvedConfig, collection: string, entries: Iterable<Entry>) {
  return [...entries]
    .filter((entry) => entry.collection === collection)
    .sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0))
    .map((entry) => ({
      value: entry.slug,
      names: Object.fromEntries(
        config.localeIds.map((locale) => [locale, entry.translations[locale]?.title ?? entry.slug]),
      ),
    }));
}

/** The answer while the site has no config (site dev before its first good build). */
function notBuilt(response: AdminRequest['response']): void {
  sendJson(response, 503, { error: 'not_built', message: 'the site has not built yet: fix the errors site dev shows' });
}

/** The path of a collection route as its own route set names it: `collections/cases/a/en` → `posts/a/en`, `collections/cases/preview` → `preview`, `collections/cases/reviews` → `reviews`. */
function innerPath(rest: string | undefined): string {
  if (rest === 'preview' || rest === 'media' || rest === 'reviews' || rest?.startsWith('reviews/')) return rest;
  return rest ? `posts/${rest}` : 'posts';
}

/** Creates `GET collections`, the routes under `collections/<id>/` and the `posts…` alias. */
export function createCollectionRoutes(options: CollectionRoutesOptions): AdminRoute[] {
  /** Answers a request with the route of `collection`'s set at `path`: 404 or 405 when it has none. */
  async function dispatch(context: AdminRequest, collection: string, path: string) {
    const matching = options.routesOf(collection).filter((route) => route.pattern.test(path));
    if (!matching.length) return sendJson(context.response, 404, { error: 'not_found' });
    const route = matching.find((candidate) => candidate.method === context.request.method);
    if (!route)
      return sendJson(
        context.response,
        405,
        { error: 'method_not_allowed' },
        { allow: matching.map((candidate) => candidate.method).join(', ') },
      );
    // The outer route asked only for an editor: the inner one's own role is checked here, as api.ts does.
    if (!hasRole(context.session, route.role))
      return sendJson(context.response, 403, { error: 'forbidden', message: `this needs the ${route.role} role` });
    await route.handle({ ...context, params: route.pattern.exec(path)!.slice(1) });
  }

  const list: AdminRoute = {
    method: 'GET',
    pattern: /^collections$/,
    role: 'editor',
    async handle({ response }) {
      const config = options.config();
      if (!config) return notBuilt(response);
      const build = options.lastBuild?.();
      sendJson(
        response,
        200,
        Object.keys(config.collections).map((id) =>
          describeCollection(config, id, build?.messages, build?.entries.values()),
        ),
      );
    },
  };

  // The content components the Markdown editor offers (docs/content.md "Components"), with their attributes as form fields.
  const components: AdminRoute = {
    method: 'GET',
    pattern: /^components$/,
    role: 'editor',
    async handle({ response }) {
      const build = options.lastBuild?.();
      if (!build) return notBuilt(response);
      sendJson(response, 200, describeComponents(build.templates));
    },
  };

  const methods = ['GET', 'POST', 'PUT', 'DELETE'];
  const entries: AdminRoute[] = methods.map((method) => ({
    method,
    pattern: /^collections\/([^/]+)(?:\/(.+))?$/,
    role: 'editor',
    async handle(context) {
      const [id, rest] = context.params;
      const config = options.config();
      // Only a collection of the config gets its set of routes: a name in a URL never makes one.
      if (!config) return notBuilt(context.response);
      if (!collectionNamed(config, id!)) {
        return sendJson(context.response, 404, {
          error: 'unknown_collection',
          message: `this site has no collection "${id}": it has ${Object.keys(config.collections).join(', ') || 'none'}`,
        });
      }
      await dispatch(context, id!, innerPath(rest));
    },
  }));

  const alias: AdminRoute[] = methods.map((method) => ({
    method,
    // `posts…` and the review of held changes (`reviews…`, review.ts) mean the blog's, as before collections.
    pattern: /^((?:posts|reviews)(?:\/.+)?)$/,
    role: 'editor',
    handle: (context) => dispatch(context, aliasCollection(options.config(), options.alias), context.params[0]!),
  }));

  return [list, components, ...entries, ...alias];
}
