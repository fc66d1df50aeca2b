/**
 * Loads the plugins the config names, once per config load (a build, or a rebuild of `site dev`
 * after the config or a plugin file changed): finds each (resolve.ts), imports it, checks its
 * export, and asks the site plugins for their routes and collections. Problems are SiteErrors at
 * the config field naming the plugin, with its YAML position.
 */
import type { Diagnostics } from '../diagnostics.js';
import { SiteError } from '../errors.js';
import type { SiteConfig } from './schema.js';
import { locate, type YamlSource } from '../yaml-source.js';
import type { ConfigContext, SitePlugin } from './plugin-api.js';
import { pluginFailure, runPluginHook, type LoadedSitePlugin } from './plugin-hooks.js';
import { resolvePlugin, type PluginRef } from './plugin-resolve.js';

/** The plugins of a config, found (plain data: part of the resolved config and its JSON). */
export interface PluginRefs {
  /** `markdown.remarkPlugins`, then `markdown.rehypePlugins`, then `plugins`. */
  remark: PluginRef[];
  rehype: PluginRef[];
  site: PluginRef[];
}

/** The site plugins imported so far, by URL and options: the hooks of a config are looked up here. */
const loaded = new Map<string, SitePlugin>();

const keyOf = (ref: PluginRef) => `${ref.url}\n${JSON.stringify(ref.options)}`;

/** The site plugins of a config loaded by `loadPlugins`, in the config's order. */
export function sitePluginsOf(config: { extensions: PluginRefs }): LoadedSitePlugin[] {
  return config.extensions.site.flatMap((ref) => {
    const plugin = loaded.get(keyOf(ref));
    return plugin ? [{ ref, plugin }] : [];
  });
}

/** Where the config names the plugin of `ref`, for an error: file, field and YAML position. */
function placeOf(ref: { field: string }, path: PropertyKey[], source: YamlSource) {
  return { file: source.file, field: ref.field, ...locate(source, path) };
}

/**
 * Finds and imports every plugin of `data`; records a problem per plugin that cannot be used.
 * Returns undefined when one could not be.
 */
export async function loadPlugins(
  data: SiteConfig,
  root: string,
  source: YamlSource,
  diagnostics: Diagnostics,
): Promise<PluginRefs | undefined> {
  const lists = [
    ['remark', ['markdown', 'remarkPlugins'], data.markdown.remarkPlugins],
    ['rehype', ['markdown', 'rehypePlugins'], data.markdown.rehypePlugins],
    ['site', ['plugins'], data.plugins],
  ] as const;
  const refs: PluginRefs = { remark: [], rehype: [], site: [] };
  let failed = false;
  for (const [kind, base, entries] of lists) {
    for (const [index, entry] of entries.entries()) {
      const path = [...base, index];
      const field = `${base.join('.')}[${index}]`;
      const found = resolvePlugin(entry, root, field);
      if (!('file' in found)) {
        diagnostics.error({ code: 'PLUGIN_NOT_FOUND', message: found.message, ...placeOf({ field }, path, source) });
        failed = true;
        continue;
      }
      let module: { default?: unknown };
      try {
        module = (await import(found.url)) as { default?: unknown };
      } catch (cause) {
        diagnostics.error({
          code: 'PLUGIN_INVALID',
          message: `plugin "${found.specifier}" could not be loaded: ${cause instanceof Error ? cause.message : String(cause)}`,
          cause,
          ...placeOf(found, path, source),
        });
        failed = true;
        continue;
      }
      const problem =
        kind === 'site'
          ? sitePluginProblem(module.default)
          : typeof module.default === 'function'
            ? undefined
            : 'its default export is not a function';
      if (problem) {
        diagnostics.error({
          code: 'PLUGIN_INVALID',
          message: `plugin "${found.specifier}" cannot be used: ${problem}`,
          ...placeOf(found, path, source),
        });
        failed = true;
        continue;
      }
      if (kind === 'site') loaded.set(keyOf(found), module.default as SitePlugin);
      refs[kind].push(found);
    }
  }
  return failed ? undefined : refs;
}

function sitePluginProblem(value: unknown): string | undefined {
  if (!value || typeof value !== 'object')
    return 'its default export is not a plugin (export default definePlugin({ name, ... }))';
  const plugin = value as Partial<SitePlugin>;
  if (typeof plugin.name !== 'string' || !plugin.name)
    return 'its plugin has no name (definePlugin({ name: "...", ... }))';
  for (const hook of ['headTags', 'routes', 'collections', 'buildEnd'] as const) {
    if (plugin[hook] !== undefined && typeof plugin[hook] !== 'function') return `its ${hook} is not a function`;
  }
  return undefined;
}

export { pluginFailure } from './plugin-hooks.js';

/** What the site plugins add to the config, and which plugin added each. */
export interface PluginAdditions {
  routes: { plugin: LoadedSitePlugin; route: unknown }[];
  collections: { plugin: LoadedSitePlugin; name: string; collection: unknown }[];
}

/**
 * Asks each site plugin for its routes and collections, each hook within `budgetSeconds`
 * (`build.pluginTimeout`); a throw is a PLUGIN_FAILED, a hook past its budget PLUGIN_TIMEOUT, a
 * `process.exit` in one PLUGIN_EXIT (plugin-hooks.ts).
 */
export async function collectAdditions(
  plugins: readonly LoadedSitePlugin[],
  config: ConfigContext['config'],
  diagnostics: Diagnostics,
  configFile: string,
  budgetSeconds: number,
): Promise<PluginAdditions> {
  const additions: PluginAdditions = { routes: [], collections: [] };
  for (const entry of plugins) {
    const context = { config, options: entry.ref.options };
    const { routes: routesHook, collections: collectionsHook } = entry.plugin;
    try {
      const routes = routesHook
        ? await runPluginHook(entry, 'routes()', budgetSeconds, configFile, () =>
            routesHook.call(entry.plugin, context),
          )
        : [];
      if (!Array.isArray(routes))
        throw pluginFailure(entry, 'routes()', new Error('routes() must return an array of routes'), configFile);
      for (const route of routes) additions.routes.push({ plugin: entry, route });
    } catch (error) {
      diagnostics.add(error as SiteError);
    }
    try {
      const collections = collectionsHook
        ? await runPluginHook(entry, 'collections()', budgetSeconds, configFile, () =>
            collectionsHook.call(entry.plugin, context),
          )
        : {};
      if (typeof collections !== 'object' || collections === null || Array.isArray(collections))
        throw pluginFailure(
          entry,
          'collections()',
          new Error('collections() must return an object of collections by name'),
          configFile,
        );
      for (const [name, collection] of Object.entries(collections))
        additions.collections.push({ plugin: entry, name, collection });
    } catch (error) {
      diagnostics.add(error as SiteError);
    }
  }
  return additions;
}
