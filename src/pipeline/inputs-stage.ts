/**
 * The first two stages: the config, then everything the pages are made from (templates, islands,
 * stylesheet and public/, messages, posts). Each input is kept with what it was loaded from and
 * loaded again only when that changed or a change of its files made the pipeline forget it.
 */
import { loadConfig, type ResolvedConfig } from '../config/load.js';
import type { SiteError } from '../errors.js';
import { buildAssets, type Assets } from '../islands/assets.js';
import { bundleIslands, listIslands, type IslandBundle, type IslandRuntime } from '../islands/bundle.js';
import { listPageTemplates, loadTemplates } from '../render/templates.js';
import type { TemplateSet } from '../render/types.js';
import { listPosts, loadPostFolder, loadSiteMessages, messagesSourceKey, orderPosts, postsSourceKey, type Messages, type Post } from './content-api.js';
import type { Runtime } from './runtime.js';
import { sameJson, type Loaded, type StageRun } from './stage.js';

/** What the input stages need of the pipeline's options. */
export interface InputOptions {
  drafts: boolean;
  islandRuntime?: IslandRuntime;
  runtime: Runtime;
}

/**
 * Stage 1: the config. `check` runs on it before any other work (and may throw to stop the run);
 * a config equal to `previous` is answered as `previous`, so what depends on it is not redone.
 */
export function loadSiteConfig(run: StageRun, file: string, options: { runtime: Runtime; previous?: ResolvedConfig; check?(config: ResolvedConfig): void }): Promise<Loaded<ResolvedConfig>> {
  return run.load('config', '', async () => {
    const loaded = await loadConfig(file, { listTemplates: listPageTemplates, parseYaml: options.runtime.parseYaml });
    options.check?.(loaded);
    return options.previous && sameJson(loaded, options.previous) ? options.previous : loaded;
  }, 'config');
}

/** The inputs of a run; the esbuild steps still running while the routes are expanded. */
export interface Inputs {
  templates: Promise<Loaded<TemplateSet>>;
  islands: Promise<Loaded<IslandBundle>>;
  assets: Promise<Loaded<Assets>>;
  messages: Loaded<Messages>;
  /** The posts that loaded, in the order the site lists them. */
  posts: Post[];
  /** Problems of the messages and posts. */
  errors: SiteError[];
}

/** Stage 2: starts the esbuild steps, and loads the messages and the posts. */
export async function loadInputs(run: StageRun, config: ResolvedConfig, options: InputOptions): Promise<Inputs> {
  const { dirs } = config;
  const esbuild = { run: options.runtime.esbuild };
  const templates = run.load('templates', dirs.templates, async () => loadTemplates(dirs.templates, await listPageTemplates(dirs.templates), esbuild), 'templates');
  const islands = run.load('islands', JSON.stringify([dirs.templates, options.islandRuntime]), async () =>
    bundleIslands(dirs.templates, await listIslands(dirs.templates), options.islandRuntime, esbuild), 'islands');
  const assets = run.load('assets', JSON.stringify([dirs.templates, dirs.public]), () => buildAssets(dirs, esbuild), 'styles');
  // Awaited by a later stage: a failure meanwhile is not unhandled.
  for (const step of [templates, islands, assets]) step.catch(() => undefined);
  const [messages, posts] = await Promise.all([
    run.load('messages', messagesSourceKey(config), (errors) => loadSiteMessages(config, errors, options.runtime.parseYaml), 'messages'),
    loadPosts(run, config, options),
  ]);
  return { templates, islands, assets, messages, posts: posts.posts, errors: [...messages.errors, ...posts.errors] };
}

/** Every post, each kept on its own: an edit loads one post again. */
async function loadPosts(run: StageRun, config: ResolvedConfig, options: InputOptions): Promise<{ posts: Post[]; errors: SiteError[] }> {
  const from = postsSourceKey(config, options.drafts);
  const slugs = await run.load('posts', from, () => listPosts(config), 'posts');
  const current = new Set(slugs.value);
  run.forget((name) => name.startsWith('post:') && !current.has(name.slice('post:'.length)));
  const { markdown, frontMatterCache } = options.runtime;
  const loaded = await Promise.all([...current].map((slug) =>
    run.load(`post:${slug}`, from, (errors) => loadPostFolder(config, slug, errors, { drafts: options.drafts, markdown, frontMatterCache }), 'posts')));
  return {
    posts: orderPosts(loaded.flatMap((post) => post.value ?? [])),
    errors: [...slugs.errors, ...loaded.flatMap((post) => post.errors)],
  };
}
