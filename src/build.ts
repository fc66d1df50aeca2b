/**
 * The build: config → content → routes → render → emit, each stage timed. `site build`,
 * `site check` and `site dev` all run this one pipeline.
 */
import { loadConfig, type ResolvedConfig } from './config/load.js';
import { loadMessages, lookupMessage } from './content/messages.js';
import { loadPageContent } from './content/pages.js';
import { indexPosts, loadPosts, type Post } from './content/posts.js';
import { createFeed, feedPath } from './emit/feed.js';
import { createHeaders, createRobots, createSitemap } from './emit/sitemap.js';
import type { OutputFiles } from './emit/write.js';
import { SiteError, throwIfAny } from './errors.js';
import { buildAssets } from './islands/assets.js';
import { bundleIslands, islandsInHtml, listIslands, type IslandRuntime } from './islands/bundle.js';
import { languageScript, notFoundScript, scriptHash } from './render/head.js';
import { createRenderer } from './render/render.js';
import { listPageTemplates, loadTemplates } from './render/templates.js';
import { createPages, pathRules, sortPosts, type Page } from './routes/pages.js';

/** Options of `buildSite`. */
export interface BuildOptions {
  /** Path of site.config.yaml. */
  config: string;
  /** Include posts marked as drafts. */
  drafts?: boolean;
  /** The client runtime of the islands (default preact/compat). */
  islandRuntime?: IslandRuntime;
}

/** What a build produced, in memory. */
export interface BuildResult {
  config: ResolvedConfig;
  pages: Page[];
  posts: Post[];
  files: OutputFiles;
  /** Milliseconds per stage. */
  timings: Record<string, number>;
  /** For each page URL, the JavaScript files it loads. */
  scripts: Map<string, string[]>;
}

/** Runs the whole pipeline in memory; throws SiteError(s) describing every problem found. */
export async function buildSite(options: BuildOptions): Promise<BuildResult> {
  const timings: Record<string, number> = {};
  let mark = performance.now();
  const lap = (stage: string) => {
    const now = performance.now();
    timings[stage] = Math.round((now - mark) * 10) / 10;
    mark = now;
  };

  const config = await loadConfig(options.config, { listTemplates: listPageTemplates });
  const templateNames = await listPageTemplates(config.dirs.templates);
  lap('config');

  const errors: SiteError[] = [];
  const templatesPromise = loadTemplates(config.dirs.templates, templateNames);
  const assetsPromise = buildAssets(config.dirs);
  const islandsPromise = listIslands(config.dirs.templates).then((names) => bundleIslands(config.dirs.templates, names, options.islandRuntime));
  // Attach handlers now so a failure here is reported with the content errors, not as unhandled.
  for (const promise of [templatesPromise, assetsPromise, islandsPromise]) promise.catch(() => undefined);
  const [messages, unsortedPosts] = await Promise.all([loadMessages(config, errors), loadPosts(config, errors, { drafts: options.drafts })]);
  const posts = sortPosts(unsortedPosts);
  lap('content');

  const pages = createPages(config, { posts: indexPosts(posts) });
  lap('routes');

  const templates = await templatesPromise;
  const contents = await loadPageContent(config, pages, (name) => templates.pages[name]?.content, errors);
  for (const page of pages) {
    const template = templates.pages[page.template];
    if (page.content !== undefined && template && !template.content) {
      errors.push(new SiteError({ code: 'TEMPLATE_INVALID', message: `template ${page.template} is used with content: but exports no \`content\` schema`, file: `templates/pages/${page.template}.tsx` }));
    }
  }
  throwIfAny(dedupe(errors));
  const [assets, islands] = await Promise.all([assetsPromise, islandsPromise]);
  lap('templates');

  const renderer = createRenderer({ config, pages, messages, contents, posts, templates, assets: { stylesheet: assets.stylesheet } });
  const files: OutputFiles = new Map([...assets.files, ...islands.files]);
  const scripts = new Map<string, string[]>();
  for (const page of pages) {
    try {
      let html = renderer.renderPage(page);
      const used = islandsInHtml(html);
      if (used.length) {
        const tags = used.map((name) => `<script type="module" src="${islands.entries[name]}"></script>`).join('');
        html = html.replace('</body>', `${tags}</body>`);
        scripts.set(page.url, [...new Set(used.flatMap((name) => islands.graph[name] ?? []))].sort());
      }
      files.set(page.file, html);
    } catch (error) {
      if (!(error instanceof SiteError)) throw error;
      errors.push(error);
    }
  }
  throwIfAny(dedupe(errors));
  lap('render');

  const rules = pathRules(config);
  files.set('sitemap.xml', createSitemap(pages, config));
  files.set('robots.txt', createRobots(config));
  files.set('_headers', createHeaders([scriptHash(languageScript), scriptHash(notFoundScript)], config));
  if (config.routes.some((route) => route.blog)) {
    for (const locale of config.localeIds) {
      const text = (key: string) => lookupMessage(messages[locale] ?? {}, key) ?? key;
      files.set(feedPath(locale, rules).slice(1), createFeed({ config, rules, locale, posts, title: `${config.site.name} · ${text('blog.title')}`, description: text('blog.description') }));
    }
  }
  lap('emit');
  return { config, pages, posts, files, timings, scripts };
}

function dedupe(errors: readonly SiteError[]): SiteError[] {
  const seen = new Set<string>();
  return errors.filter((error) => {
    const key = error.format();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
