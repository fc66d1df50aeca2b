/**
 * `GET /api/admin/visual?path=/hub/`: a page of the site as the last good build publishes it,
 * rendered again in the visual mode (render/edit-markers.ts), so each element that shows a text of
 * the page's copy or of an entry's front matter says where it comes from:
 * `data-edit="hub#hero.heading"`, `data-edit="blog/<slug>#title"`, with `data-edit-locale`. The
 * screen /admin/visual shows it in a frame and saves a text through the pages' and the entries'
 * own APIs (pages-api.ts, posts-api.ts), so a change is checked, audited and reviewed as there.
 * The page runs no script (its own CSP): its islands show as rendered, and only the admin's screen
 * around it acts on it. 404 for a path that is no page of the site (or one of the admin's).
 */
import { isAdminTemplate } from '../admin-pages.js';
import { SiteError } from '../errors.js';
import { adminStylesheet } from '../islands/assets.js';
import { renderInputOf } from '../pipeline/content-api.js';
import type { Build } from '../pipeline/result-stage.js';
import { createEditMarks } from '../render/edit-markers.js';
import { escapeHtml } from '../render/html.js';
import { createPageRenderer, type IslandScripts } from '../render/render-pages.js';
import type { AdminRoute } from './api.js';
import { adminHeaders, sendJson } from './http.js';

/** The policy of the page in the frame: the site's files, no script, framed by the admin alone. */
const visualPolicy = [
  "default-src 'self'",
  "script-src 'none'",
  "style-src 'self'",
  "img-src 'self' data:",
  "form-action 'none'",
  "frame-ancestors 'self'",
  "base-uri 'self'",
  "object-src 'none'",
].join('; ');

/** Options of `createVisualRoutes`. */
export interface VisualOptions {
  /** The last good build of the site (dev: the dev builder's; serve: the live site's). */
  lastBuild(): Build | undefined;
}

/** The page of `build` at `path` ("/hub" and "/hub/" alike), unless it is one of the admin's. */
function pageAt(build: Build, path: string): number {
  const wanted = path.endsWith('/') || path.endsWith('.html') ? [path] : [path, `${path}/`];
  return build.pageSet.pages.findIndex(
    (page) => wanted.includes(page.url) && !page.duplicate && !isAdminTemplate(page.template),
  );
}

/** The page's HTML with data-edit attributes, and the admin's stylesheet, which outlines them. */
export function renderVisualPage(build: Build, index: number): string {
  const islands = (build as Build & { islands?: IslandScripts }).islands ?? { entries: {}, graph: {} };
  const input = renderInputOf({
    config: build.config,
    pages: build.pageSet.pages,
    messages: build.messages,
    contents: build.contents,
    entries: build.entryList,
    stylesheet: build.stylesheet,
  });
  const html = createPageRenderer(
    { ...input, templates: build.templates, editMarks: createEditMarks() },
    islands,
  ).renderOne(index).html;
  const link = `<link rel="stylesheet" href="${escapeHtml(adminStylesheet().url)}" />`;
  return html.replace('</head>', () => `${link}</head>`);
}

/** Creates the visual mode's route. */
export function createVisualRoutes(options: VisualOptions): AdminRoute[] {
  return [
    {
      method: 'GET',
      pattern: /^visual$/,
      role: 'editor',
      async handle({ request, response }) {
        const build = options.lastBuild();
        if (!build) return sendJson(response, 503, { error: 'not_built', message: 'the site has not built yet' });
        const path = new URL(request.url ?? '/', 'http://admin.invalid').searchParams.get('path') ?? '';
        const index = path.startsWith('/') ? pageAt(build, path) : -1;
        if (index === -1)
          return sendJson(response, 404, { error: 'not_found', message: `the site has no page at "${path}"` });
        let html: string;
        try {
          html = renderVisualPage(build, index);
        } catch (error) {
          if (!(error instanceof SiteError)) throw error;
          // The build rendered this page: a template that reads a marked text as a value fails here alone.
          return sendJson(response, 500, { error: 'render_failed', message: error.message });
        }
        response.writeHead(200, {
          ...adminHeaders,
          'content-type': 'text/html; charset=utf-8',
          'content-security-policy': visualPolicy,
          'x-robots-tag': 'noindex, nofollow',
          'content-length': String(Buffer.byteLength(html)),
        });
        response.end(html);
      },
    },
  ];
}
