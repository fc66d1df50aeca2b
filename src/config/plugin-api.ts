/**
 * The plugin API of the generator (the package entry `typed-site/plugin`): `definePlugin` and the
 * types of its hooks. A plugin is a module whose default export is `definePlugin(...)`, named in
 * `plugins:` of site.config.yaml. It can add tags to every page's head (the Content-Security-Policy
 * follows them), routes and collections from code (checked like the config's own), and run after a
 * successful build. Every hook's error is reported naming the plugin and the hook.
 */
import type { CollectionConfigInput, RouteConfigInput, SiteConfig } from './schema.js';

export type { CollectionConfigInput, RouteConfigInput };

/**
 * A tag for the head of every page. `script` with `attrs.src` on another origin adds that origin
 * to the CSP's script-src; a `script` or `style` with `content` adds the content's SHA-256 hash to
 * script-src or style-src; a `link` with rel="stylesheet" on another origin adds it to style-src.
 * An attribute set to `true` is written bare (`defer`), one set to `false` is left out.
 */
export interface HeadTag {
  tag: 'meta' | 'link' | 'script' | 'style';
  attrs?: Record<string, string | number | boolean>;
  /** The text inside a script or style tag (inline code), written as it is. */
  content?: string;
}

/** The page a head tag is asked for. */
export interface PluginPage {
  /** Its URL path without the site's base, such as "/no/hub/". */
  url: string;
  /** The route path of the config it comes from, such as "/hub". */
  route: string;
  /** The name of its page template, such as "Product". */
  template: string;
  /** The audience of its route, such as "hub"; absent for a page of no audience. */
  audience?: string;
  /** True for the 404 pages. */
  notFound: boolean;
}

/** What `headTags` is given. */
export interface HeadTagsContext {
  /** The page the tags are for (its locale is `ctx.locale`, not a field of the page). */
  page: PluginPage;
  /** The page's locale id, such as "en". */
  locale: string;
  /** The `site:` block of the config (name, origin, base, default locale). */
  site: SiteConfig['site'];
  /** The options given with the plugin in the config (`{}` without). */
  options: Record<string, unknown>;
}

/** What `routes` and `collections` are given. */
export interface ConfigContext {
  /** The config as validated from site.config.yaml (defaults filled in), before any plugin's routes and collections, and the site's folder. */
  config: SiteConfig & { root: string };
  /** The options given with the plugin in the config (`{}` without). */
  options: Record<string, unknown>;
}

/** A page written by the build, as `buildEnd` is told of it. */
export interface BuiltPage {
  /** URL path without the site's base, such as "/no/hub/". */
  path: string;
  /** Its locale id, such as "en". */
  locale: string;
  /** Its file, relative to `outDir`, such as "no/hub/index.html" (on vercel, "static/no/hub/index.html"). */
  file: string;
}

/** What `buildEnd` is given. */
export interface BuildEndContext {
  /** The folder holding the whole output, as the target lays it out (for vercel, the Build Output folder with config.json and static/). */
  outDir: string;
  /** The web root inside `outDir`: a file written here is served at its path under the site (for vercel, `outDir`/static; for the other targets, `outDir` itself). */
  publicDir: string;
  /** Every page the build wrote, in every locale. */
  pages: BuiltPage[];
  /** The config as the build used it (defaults filled in, the plugins' routes and collections added), and the site's folder. */
  config: SiteConfig & { root: string };
  /** Writes to the build's log (stderr), so a plugin never writes to the console itself. */
  logger: { info(message: string): void; warn(message: string): void };
  /** The options given with the plugin in the config (`{}` without). */
  options: Record<string, unknown>;
}

/** A site plugin: a name and the hooks it uses, all optional. */
export interface SitePlugin {
  /** Names the plugin in errors and logs. */
  name: string;
  /** Tags added to the head of each page, after the generator's own. Runs for every page of every build. */
  headTags?(context: HeadTagsContext): HeadTag[];
  /** Routes added to the config's `routes:`, checked with the same schema and cross-checks. */
  routes?(context: ConfigContext): RouteConfigInput[] | Promise<RouteConfigInput[]>;
  /** Collections added to the config's `collections:` (a name may not be one the config declares). */
  collections?(
    context: ConfigContext,
  ): Record<string, CollectionConfigInput> | Promise<Record<string, CollectionConfigInput>>;
  /** Runs after a successful build, before the output folder is switched: a throw leaves the previous output as it was. */
  buildEnd?(context: BuildEndContext): void | Promise<void>;
}

/**
 * Declares a plugin. Returns its argument unchanged: the point is the types (and the editor's
 * completion) for the module's default export. Every hook is given the options of the config
 * entry (`[./plugins/x.js, { ... }]`) as `context.options`.
 */
export function definePlugin(plugin: SitePlugin): SitePlugin {
  return plugin;
}
