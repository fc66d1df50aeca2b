/**
 * `POST /api/admin/preview`: an unsaved post rendered through the real pipeline's templates, in
 * memory. The draft translation takes its place among the last good build's entries (the pages
 * are expanded again, so a new post has its page), its page is rendered with the build's
 * renderer, marked noindex, and kept under a one-time URL that only the session that asked for
 * it can open (`GET /api/admin/preview/<id>`, 10 minutes). The draft's Markdown is rendered in a
 * worker thread within a time budget (createAdminMarkdownRenderer), and a session may ask for 30
 * previews a minute (429 past that).
 */
import { checkComponentUses } from '../content/component-uses.js';
import { createDiagnostics } from '../diagnostics.js';
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import type { ResolvedConfig } from '../config/load.js';
import { collectionNamed } from '../config/sources.js';
import { completeTranslation } from '../content/collections.js';
import { collectSiteErrors, throwIfAny } from '../errors.js';
import { imageVariants } from '../content/image-variants.js';
import { contentKey } from '../content/pages.js';
import { adminStylesheet } from '../islands/assets.js';
import { escapeHtml } from '../render/html.js';
import type { IslandScripts } from '../render/render-pages.js';
import {
  createSiteRenderer,
  entryKey,
  expandPages,
  orderEntries,
  renderInputOf,
  type Entry,
} from '../pipeline/content-api.js';
import type { Build } from '../pipeline/result-stage.js';
import { createRateLimiter } from '../serve/rate-limit.js';
import type { AdminRoute } from './api.js';
import { adminHeaders, sendJson } from './http.js';
import { checkLinksWithEdit } from './site-check.js';
import { PostAddressError, readPostFile, resolvePost } from './post-files.js';
import {
  addressFromBody,
  checkPost,
  createAdminMarkdownRenderer,
  describeError,
  frontMatterProblem,
  postFromBody,
  postText,
} from './posts-api.js';
import { FrontMatterEditError } from './front-matter-edit.js';

/** Where previews are opened: `<previewPrefix><id>`, a page of the site answered by the admin API. */
export const previewPrefix = '/api/admin/preview/';

/** Options of `createPreviewRoutes`. */
export interface PreviewOptions {
  config(): ResolvedConfig | undefined;
  /** The last good build of the site (dev: the dev builder's; serve: the live site's). */
  lastBuild(): Build | undefined;
  collection?: string;
  now?: () => number;
  /** Milliseconds the draft's Markdown may take to render before the preview is refused (default `markdownBudgetMs`). */
  markdownBudgetMs?: number;
  /** Previews a session may ask for per minute (default 30). */
  previewsPerMinute?: number;
}

/** Renders the page of a draft translation with the build's templates and checks its links (placed in `text`, the draft's file); throws SiteErrors. */
export function renderDraftPage(
  build: Build,
  collection: string,
  slug: string,
  locale: string,
  translation: Entry['translations'][string],
  text?: string,
): string {
  const config = build.config;
  // A component the build would refuse is refused here too, at its line.
  if (translation.components)
    throwIfAny(checkComponentUses(translation.components, translation.file, build.templates.components));
  const key = entryKey({ collection, slug });
  const entries = new Map(build.entries);
  const before = entries.get(key);
  entries.set(key, { collection, slug, translations: { ...before?.translations, [locale]: translation } });
  const entryList = orderEntries(config, [...entries.values()]);
  // Warnings of the whole site (an untranslated entry) are the build's to report, not the preview's.
  const pages = expandPages(config, entryList, createDiagnostics());
  const index = pages.findIndex(
    (page) =>
      page.collection?.kind === 'entry' &&
      page.collection.collection === collection &&
      page.collection.slug === slug &&
      page.locale === locale &&
      !page.duplicate,
  );
  if (index === -1)
    throw new PostAddressError(
      `no page of ${collectionNamed(config, collection) ? collection : 'the site'} shows "${slug}" in ${locale}`,
    );
  const pagesForPreview = pages.map((page, position) => (position === index ? { ...page, noindex: true } : page));
  const islands = (build as Build & { islands?: IslandScripts }).islands ?? { entries: {}, graph: {} };
  const input = renderInputOf({
    config,
    pages: pagesForPreview,
    messages: build.messages,
    contents: build.contents,
    entries: entryList,
    stylesheet: build.stylesheet,
  });
  const html = createSiteRenderer(input, build.templates, islands, false).renderOne(index).html;
  throwIfAny(
    checkLinksWithEdit(build, {
      pages,
      entryList,
      rendered: new Map([[pages[index]!.file, html]]),
      edit: { collection, slug, locale, translation, text },
    }),
  );
  return html;
}

/** "Preview – not published", in the admin's language (its blog screen's copy, `editor.previewBanner`). */
function previewBannerText(config: ResolvedConfig, build: Build): string {
  const copy = build.contents.get(contentKey('admin/blog', config.site.defaultLocale)) as
    { editor?: { previewBanner?: unknown } } | undefined;
  const text = copy?.editor?.previewBanner;
  return typeof text === 'string' && text ? text : 'Preview – not published';
}

/**
 * The preview says what it is, above the page's own header: a banner (styled by the admin's
 * stylesheet, which the page then loads too; no inline style, so the site's CSP holds) that a
 * published page never has.
 */
export function withPreviewBanner(html: string, text: string): string {
  const link = `<link rel="stylesheet" href="${escapeHtml(adminStylesheet().url)}" />`;
  const banner = `<p class="admin-preview-banner" role="note">${escapeHtml(text)}</p>`;
  // Functions, so a `$` in the text is not read as a replacement pattern.
  return html.replace('</head>', () => `${link}</head>`).replace(/<body([^>]*)>/, (body) => body + banner);
}

/** Creates the preview routes. */
export function createPreviewRoutes(options: PreviewOptions): AdminRoute[] {
  const defaultCollection = options.collection ?? 'blog';
  const now = options.now ?? Date.now;
  const markdown = createAdminMarkdownRenderer(options.markdownBudgetMs);
  const perMinute = options.previewsPerMinute ?? 30;
  const limiter = createRateLimiter({ limit: perMinute, windowMs: 60_000, now });
  const previews = new Map<string, { html: string; session: string; expires: number }>();
  const prune = () => {
    const time = now();
    for (const [id, preview] of previews) if (preview.expires <= time) previews.delete(id);
  };

  const create: AdminRoute = {
    method: 'POST',
    pattern: /^preview$/,
    role: 'editor',
    async handle(context) {
      const config = options.config();
      const build = options.lastBuild();
      if (!config || !build)
        return sendJson(context.response, 503, { error: 'not_built', message: 'the site has not built yet' });
      const wait = limiter.retryAfter(context.session.id);
      if (wait > 0)
        return sendJson(
          context.response,
          429,
          { error: 'too_many_previews', message: `at most ${perMinute} previews a minute: try again in a moment` },
          { 'retry-after': String(Math.ceil(wait / 1000)) },
        );
      limiter.hit(context.session.id);
      let html: string;
      let display = '';
      try {
        const fields = await context.body();
        const post = postFromBody(fields);
        const named = addressFromBody(fields);
        // `collection` in the body: the preview of /api/admin/collections/<id>/preview (collections-api.ts).
        const collection = typeof fields.collection === 'string' ? fields.collection : defaultCollection;
        if (!collectionNamed(config, collection))
          throw new PostAddressError(`this site has no collection "${collection}"`);
        const target = await resolvePost(config, collection, named.slug, named.locale);
        display = target.display;
        const existing = await readPostFile(target.file);
        const text = postText(existing?.text, post.frontMatter, post.body);
        const checked = await checkPost(config, collection, target.display, text, dirname(target.file), markdown);
        if (!('data' in checked)) return sendJson(context.response, 422, { errors: checked.errors.map(describeError) });
        const translation = completeTranslation(
          config.collections[collection]!,
          checked.data,
          target.locale,
          target.display,
          checked,
        );
        translation.fields = checked.fields;
        // The draft's image as the post will show it, once a build has made its sizes (a new upload has none until it is saved).
        if (checked.image && imageVariants(checked.image).every((variant) => build.siteFiles.images.has(variant.file)))
          translation.image = checked.image;
        html = withPreviewBanner(
          renderDraftPage(build, collection, target.slug, target.locale, translation, text),
          previewBannerText(config, build),
        );
      } catch (error) {
        if (error instanceof PostAddressError)
          return sendJson(context.response, 400, { error: 'invalid_body', message: error.message });
        if (error instanceof FrontMatterEditError)
          return sendJson(context.response, 422, { errors: [frontMatterProblem(error, display)] });
        const errors = collectSiteErrors(error);
        if (errors) return sendJson(context.response, 422, { errors: errors.map(describeError) });
        throw error;
      }
      prune();
      const id = randomBytes(32).toString('base64url');
      previews.set(id, { html, session: context.session.id, expires: now() + 10 * 60_000 });
      sendJson(context.response, 200, { url: `${previewPrefix}${id}` });
    },
  };

  const open: AdminRoute = {
    method: 'GET',
    pattern: /^preview\/([\w-]{43})$/,
    role: 'editor',
    async handle({ response, session, params }) {
      prune();
      const preview = previews.get(params[0]!);
      if (!preview || preview.session !== session.id)
        return sendJson(response, 404, {
          error: 'not_found',
          message: 'this preview was opened already or has expired: preview again',
        });
      previews.delete(params[0]!);
      response.writeHead(200, {
        ...adminHeaders,
        'content-type': 'text/html; charset=utf-8',
        'x-robots-tag': 'noindex, nofollow',
        'content-length': String(Buffer.byteLength(preview.html)),
      });
      response.end(preview.html);
    },
  };

  return [create, open];
}
