/**
 * Loads `site.config.yaml`: YAML with positions, then the zod schema, then the cross-field checks.
 * Every problem in the file is reported at once.
 */
import { readFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { createDiagnostics, type Diagnostics } from '../diagnostics.js';
import { SiteErrors, type SiteError } from '../errors.js';
import { isWithin, resolveSiteFile } from '../file-paths.js';
import type { ParseYaml } from '../cache/yaml-cache.js';
import { formatPath, locate, parseYaml, validateYaml, yamlValue, type YamlSource } from '../yaml-source.js';
import { adminApiPaths, adminDisallow, adminRoutes } from '../admin-pages.js';
import { builtInBookingOf } from './booking.js';
import { localizePath } from '../url-paths.js';
import { checkPlaceholders } from './placeholders.js';
import type { DeploySettings } from './deploy.js';
import { readPathLock, type PathLock } from './path-lock.js';
import { collectionNamed } from './collection-named.js';
import { didYouMeanText } from '../did-you-mean.js';
import { collectAdditions, loadPlugins, sitePluginsOf, type PluginAdditions, type PluginRefs } from './plugins.js';
import { normalizeRoutePath, writtenRouteField, type RoutePathProblem } from './localized-paths.js';
import {
  builtInEntryFields,
  collectionEntrySchema,
  configSchema,
  isKnownCurrency,
  navigationRoutePath,
  routeEntrySchema,
  type EntryField,
  type SiteConfig,
  type ValidatedConfig,
} from './schema.js';

/** The validated config plus where it came from. */
export interface ResolvedConfig extends SiteConfig {
  /** Absolute folder of the config file; content/ and templates/ are resolved from here. */
  root: string;
  /** The config file, relative to the working directory (for messages). */
  file: string;
  /** Locale ids, the default locale first, then the others in plain string order. */
  localeIds: string[];
  /** Absolute folders of content/, templates/ and public/, the default output and the stored submissions. */
  dirs: { content: string; templates: string; public: string; output: string; data: string };
  /** A build for a preview deploy: every page `noindex`, robots.txt disallows all (see deploy.ts). */
  preview?: boolean;
  /**
   * The plugins of `markdown.remarkPlugins`, `markdown.rehypePlugins` and `plugins`, found, with
   * their identity (file hash or package version, and options): being part of the config's JSON,
   * a changed plugin invalidates what the config keys. Empty lists when the config names none.
   */
  extensions: PluginRefs;
  /**
   * The published paths of `site.paths.lock.yaml` (path-lock.ts), when the site has the file;
   * route expansion replaces it with the paths of this build (their redirects follow).
   */
  pathLock?: PathLock;
}

/** Options of `loadConfig`. */
export interface LoadConfigOptions {
  /** Names of the page templates that exist (from templates/pages/); checked when given. */
  templates?: readonly string[];
  /** Lists the page templates of the templates folder, once the config has named it. */
  listTemplates?: (templatesDir: string) => Promise<string[]>;
  /** Parses the YAML (default: `parseYaml`; the build passes one that goes through its cache). */
  parseYaml?: ParseYaml;
  /**
   * Where the problems go: the errors are also thrown (a config with errors cannot be used), the
   * warnings (placeholder company facts, say) only recorded. Default: a collector of its own.
   */
  diagnostics?: Diagnostics;
  /** Where the build is published when not at `site.origin` (see deploy.ts). */
  deploy?: DeploySettings;
}

/** Reads, parses and validates the config file, or throws SiteErrors naming every problem; warnings go to `options.diagnostics`. */
export async function loadConfig(configPath: string, options: LoadConfigOptions = {}): Promise<ResolvedConfig> {
  const absolute = resolve(configPath);
  const file = relative(process.cwd(), absolute) || absolute;
  const diagnostics: Diagnostics = options.diagnostics ?? createDiagnostics();
  let text: string;
  try {
    text = await readFile(absolute, 'utf8');
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    const why =
      code === 'EISDIR'
        ? ': it is a folder, not a file'
        : code === 'ENOENT'
          ? ': there is no such file'
          : code === 'EACCES'
            ? ': permission denied'
            : '';
    diagnostics.fail({ code: 'CONFIG_NOT_FOUND', message: `cannot read ${file}${why}`, file, cause });
  }
  const root = dirname(absolute);
  // Parsed once: the templates folder it names is read from the same document.
  const parsed = (options.parseYaml ?? parseYaml)(text, file);
  const plugins = await loadConfigPlugins(parsed, root, diagnostics);
  if (options.listTemplates && !options.templates) {
    const paths = (yamlValue(parsed.source) as { paths?: { templates?: unknown } } | null)?.paths;
    const templatesDir = resolve(root, typeof paths?.templates === 'string' ? paths.templates : 'templates');
    return withPathLock(
      resolveConfig(
        parsed,
        root,
        { ...options, diagnostics, templates: await options.listTemplates(templatesDir) },
        plugins,
      ),
    );
  }
  return withPathLock(resolveConfig(parsed, root, { ...options, diagnostics }, plugins));
}

/** The config with the published paths of its lock file (path-lock.ts), when it has one. */
async function withPathLock(config: ResolvedConfig): Promise<ResolvedConfig> {
  const pathLock = await readPathLock(config.root);
  return pathLock ? { ...config, pathLock } : config;
}

/** The plugins of a config and what its site plugins add; undefined when the config itself is invalid (resolveConfig reports that). */
async function loadConfigPlugins(
  { source, errors }: ReturnType<typeof parseYaml>,
  root: string,
  diagnostics: Diagnostics,
): Promise<ConfigPlugins | undefined> {
  if (errors.length) return undefined;
  const validation = validateYaml(source, configSchema);
  const { data: validated } = validation;
  if (!validated) return undefined;
  const { data, problems } = withRoutePaths(validated);
  if (problems.length) return undefined;
  const refs = await loadPlugins(data, root, source, diagnostics);
  diagnostics.throwIfErrors();
  if (!refs) return undefined;
  const sitePlugins = sitePluginsOf({ extensions: refs });
  const additions = await collectAdditions(
    sitePlugins,
    { ...data, root },
    diagnostics,
    source.file,
    data.build.pluginTimeout,
  );
  diagnostics.throwIfErrors();
  // The config's data, validated once (the real site's config took 30 ms), unless a site plugin was handed it (and may have changed it).
  return { refs, additions, ...(sitePlugins.length ? {} : { validation }) };
}

/** The plugins of a config and what its site plugins add, with the config's validation when no plugin saw it. */
interface ConfigPlugins {
  refs: PluginRefs;
  additions: PluginAdditions;
  validation?: ReturnType<typeof validateYaml<typeof configSchema>>;
}

/**
 * The config's routes and collections with those the site plugins add, validated by the same
 * schemas; each problem names the plugin. Also says which plugin added which route and collection,
 * for the cross-checks' messages.
 */
function withAdditions(
  data: SiteConfig,
  additions: PluginAdditions,
  diagnostics: Diagnostics,
): { data: SiteConfig; origins: PluginOrigins } {
  const origins: PluginOrigins = { routes: new Map(), collections: new Map() };
  const routes = [...data.routes];
  const collections = { ...data.collections };
  const fail = (origin: PluginOrigin, what: string, field: string, message: string) =>
    diagnostics.error({
      code: 'CONFIG_INVALID',
      message: `${what} from plugin "${origin.name}": ${message}`,
      file: origin.file,
      field,
    });
  additions.routes.forEach(({ plugin, route }, index) => {
    const origin = originOf(plugin);
    const parsed = routeEntrySchema.safeParse(route);
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        fail(
          origin,
          'route',
          `routes()[${index}]${issue.path.length ? `.${issue.path.join('.')}` : ''}`,
          issue.message,
        );
      return;
    }
    const normalized = normalizeRoutePath(parsed.data, siteLocalesOf(data));
    for (const problem of normalized.problems)
      fail(
        origin,
        'route',
        `routes()[${index}].${[...problem.in, problem.key].join('.')}`,
        `${problem.message}. ${problem.hint}`,
      );
    if (normalized.problems.length) return;
    origins.routes.set(routes.length, origin);
    routes.push(normalized.route);
  });
  for (const { plugin, name, collection } of additions.collections) {
    const origin = originOf(plugin);
    if (name in collections) {
      fail(origin, 'collection', `collections().${name}`, `"${name}" is already a collection of the config`);
      continue;
    }
    const parsed = collectionEntrySchema.safeParse(collection);
    if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(name))
      fail(origin, 'collection', `collections().${name}`, 'use lowercase letters, digits and hyphens in its name');
    else if (!parsed.success)
      for (const issue of parsed.error.issues)
        fail(
          origin,
          'collection',
          `collections().${name}${issue.path.length ? `.${issue.path.join('.')}` : ''}`,
          issue.message,
        );
    else {
      origins.collections.set(name, origin);
      collections[name] = parsed.data;
    }
  }
  return { data: { ...data, routes, collections }, origins };
}

/** The default locale and the locale ids of a config, which a route's path map is read against. */
function siteLocalesOf(data: Pick<ValidatedConfig, 'site' | 'locales'>): { defaultLocale: string; locales: string[] } {
  return { defaultLocale: data.site.defaultLocale, locales: Object.keys(data.locales) };
}

/** The config with each route's path map made `path` and `paths` (localized-paths.ts), and the problems found, by route. */
function withRoutePaths(data: ValidatedConfig): {
  data: SiteConfig;
  problems: { index: number; problem: RoutePathProblem }[];
} {
  const problems: { index: number; problem: RoutePathProblem }[] = [];
  const routes = data.routes.map((route, index) => {
    const normalized = normalizeRoutePath(route, siteLocalesOf(data));
    problems.push(...normalized.problems.map((problem) => ({ index, problem })));
    return normalized.route;
  });
  return { data: { ...data, routes }, problems };
}

/** The plugin a route or collection comes from, for messages. */
interface PluginOrigin {
  name: string;
  file: string;
}

/** Which routes (by index) and collections (by name) site plugins added. */
interface PluginOrigins {
  routes: Map<number, PluginOrigin>;
  collections: Map<string, PluginOrigin>;
}

function originOf(plugin: { plugin: { name: string }; ref: { file: string } }): PluginOrigin {
  return { name: plugin.plugin.name, file: relative(process.cwd(), plugin.ref.file) || plugin.ref.file };
}

/** Parses and validates config text (pure apart from the given names). */
export function parseConfig(text: string, file: string, root: string, options: LoadConfigOptions = {}): ResolvedConfig {
  return resolveConfig(parseYaml(text, file), root, options);
}

function resolveConfig(
  { source, errors: syntaxErrors }: ReturnType<typeof parseYaml>,
  root: string,
  options: LoadConfigOptions,
  plugins?: ConfigPlugins,
): ResolvedConfig {
  const diagnostics = options.diagnostics ?? createDiagnostics();
  diagnostics.add(...syntaxErrors);
  diagnostics.throwIfErrors();
  const { data: validated, errors } = plugins?.validation ?? validateYaml(source, configSchema);
  if (!validated) throw new SiteErrors(errors);
  const { data: own, problems } = withRoutePaths(validated);
  for (const { index, problem } of problems) {
    const at = ['routes', index, ...problem.in];
    diagnostics.error({
      code: problem.code,
      message: problem.message,
      file: source.file,
      field: formatPath([...at, problem.key]),
      hint: problem.hint,
      ...locate(source, at, problem.key),
    });
  }
  const { data, origins } = plugins
    ? withAdditions(own, plugins.additions, diagnostics)
    : { data: own, origins: undefined };
  diagnostics.throwIfErrors();
  checkConfig(data, source, diagnostics, { ...options, origins });
  diagnostics.throwIfErrors();
  const localeIds = Object.keys(data.locales).sort((a, b) =>
    a === data.site.defaultLocale ? -1 : b === data.site.defaultLocale ? 1 : a < b ? -1 : a > b ? 1 : 0,
  );
  const dirs = {
    content: resolve(root, data.paths.content),
    templates: resolve(root, data.paths.templates),
    public: resolve(root, data.paths.public),
    output: resolve(root, data.output.dir),
    data: resolve(root, data.contact.dataDir),
  };
  checkFolders(dirs, source, diagnostics);
  checkPreloadFonts(root, data.output.preloadFonts, source, diagnostics);
  diagnostics.throwIfErrors();
  checkPlaceholders(data, source, diagnostics);
  const deploy = options.deploy;
  const site = {
    ...data.site,
    ...(deploy?.origin ? { origin: deploy.origin } : {}),
    ...(deploy?.base !== undefined ? { base: deploy.base } : {}),
  };
  const extensions = plugins?.refs ?? { remark: [], rehype: [], site: [] };
  return {
    ...withAdmin(data),
    site,
    root,
    file: source.file,
    localeIds,
    dirs,
    extensions,
    ...(deploy?.preview ? { preview: true } : {}),
  };
}

/**
 * The config with the engine's admin pages added (unless `admin.enabled` is false): their routes
 * after the site's own, noindex, in the default locale (/auth in every locale), and /admin and
 * /auth disallowed in robots.txt (/auth under every locale's prefix too). The site's routes come first, so every position a message gives into `routes:`
 * still points at the line it names.
 */
function withAdmin(data: SiteConfig): SiteConfig {
  if (!data.admin.enabled) return data;
  const routes = adminRoutes.map(({ everyLocale, ...route }) => ({
    ...route,
    ...(everyLocale ? {} : { locale: data.site.defaultLocale }),
    noindex: true,
  }));
  const prefixes = Object.values(data.locales)
    .map((locale) => locale.prefix)
    .filter(Boolean);
  const localized = adminRoutes
    .filter((route) => route.everyLocale)
    .flatMap((route) => prefixes.map((prefix) => prefix + route.path));
  const disallow = [...new Set([...data.robots.disallow, ...adminDisallow, ...localized])];
  return { ...data, routes: [...data.routes, ...routes], robots: { ...data.robots, disallow } };
}

/**
 * Stored submissions must stay out of the output (they would be published, and the next build
 * would delete them) and out of the folders the site is built from.
 */
function checkFolders(dirs: ResolvedConfig['dirs'], source: YamlSource, diagnostics: Diagnostics): void {
  const places = [
    { dir: dirs.output, what: 'the output folder (output.dir)' },
    { dir: dirs.content, what: 'the content folder' },
    { dir: dirs.templates, what: 'the templates folder' },
    { dir: dirs.public, what: 'the public folder' },
  ];
  const place = places.find((candidate) => isWithin(dirs.data, candidate.dir) || isWithin(candidate.dir, dirs.data));
  if (!place) return;
  diagnostics.error({
    code: 'CONFIG_INVALID',
    message: `contact.dataDir overlaps ${place.what}: submissions would be published or deleted by the next build`,
    file: source.file,
    field: 'contact.dataDir',
    hint: 'Keep submissions in a folder of their own, such as data (listed in .gitignore).',
    ...locate(source, ['contact', 'dataDir']),
  });
}

/** A font to preload must be a file: a preload of nothing would cost every page a failed request. */
function checkPreloadFonts(root: string, fonts: readonly string[], source: YamlSource, diagnostics: Diagnostics): void {
  fonts.forEach((font, index) => {
    if (resolveSiteFile(root, font)) return;
    diagnostics.error({
      code: 'CONFIG_INVALID',
      message: `output.preloadFonts names "${font}", which is no file`,
      file: source.file,
      field: formatPath(['output', 'preloadFonts', index]),
      hint: "Name the font file as the stylesheet's @font-face does: a package path such as @fontsource/inter/files/inter-latin-400-normal.woff2, or a path starting with ./ relative to the config file.",
      ...locate(source, ['output', 'preloadFonts', index]),
    });
  });
}

/**
 * Refuses a route with a page at a path one of the server's endpoints answers: the contact form's
 * (`contact.endpoint`), the built-in booking's and everything under it (`booking.endpoint`, its
 * slots and calendar files), and the admin's API. Such a page would be built and listed in the
 * sitemap, but `site serve` and the host functions answer its path themselves, so no visitor
 * would ever see it.
 */
function checkEndpointRoutes(
  config: SiteConfig,
  source: YamlSource,
  fail: (code: SiteError['code'], message: string, path: PropertyKey[], hint?: string) => void,
): void {
  const endpoints: { path: string; under: boolean; what: string; hint: string }[] = [];
  const moveHint = (field: string) =>
    `Give the route another path, or move the endpoint (${field} in site.config.yaml).`;
  if (config.contact.endpoint.startsWith('/'))
    endpoints.push({
      path: config.contact.endpoint,
      under: false,
      what: "the contact form's endpoint (contact.endpoint)",
      hint: moveHint('contact.endpoint'),
    });
  const booking = builtInBookingOf(config);
  if (booking)
    endpoints.push({
      path: booking.booking.endpoint,
      under: true,
      what: "the built-in booking's API (booking.endpoint)",
      hint: moveHint('booking.endpoint'),
    });
  if (config.admin.enabled) {
    for (const path of adminApiPaths)
      endpoints.push({
        path,
        under: true,
        what: "the admin's API",
        hint: "Give the route another path: the admin's API keeps its place (or set admin: { enabled: false } for a site without the admin).",
      });
  }
  const rules = {
    defaultLocale: config.site.defaultLocale,
    prefixes: Object.fromEntries(Object.entries(config.locales).map(([id, locale]) => [id, locale.prefix])),
  };
  config.routes.forEach((route, index) => {
    // A single-locale route is at its exact path; any other at its path, or its localized one, under each locale's prefix.
    const placed =
      route.locale !== undefined
        ? [{ field: ['routes', index, 'path'] as PropertyKey[], page: route.path }]
        : Object.keys(config.locales).map((locale) => {
            const localized = route.paths?.[locale];
            const field =
              localized === undefined
                ? ['routes', index, 'path']
                : writtenRouteField(source, ['routes', index, 'paths', locale]);
            return { field, page: localizePath(localized ?? route.path, locale, rules) };
          });
    const reported = new Set<string>();
    for (const { field, page } of placed) {
      // An entry's page is somewhere under the path before its {slug}: only an endpoint with paths under it takes all of them.
      const path = page.replace('{slug}', '\0');
      const endpoint = endpoints.find(
        (candidate) => path === candidate.path || (candidate.under && path.startsWith(`${candidate.path}/`)),
      );
      const key = formatPath(field);
      if (!endpoint || reported.has(key)) continue;
      reported.add(key);
      fail(
        'DUPLICATE_ROUTE',
        `route "${route.path}" puts a page at ${page}, where ${endpoint.what} answers (${endpoint.path}): the page would be built and listed in the sitemap, but never reached`,
        field,
        endpoint.hint,
      );
    }
  });
}

/** The checks that span several fields; each error, recorded in `diagnostics`, points at the line that is wrong. */
export function checkConfig(
  config: SiteConfig,
  source: YamlSource,
  diagnostics: Diagnostics,
  options: LoadConfigOptions & { origins?: PluginOrigins } = {},
): void {
  const here = diagnostics.child({ file: source.file });
  const fail = (code: SiteError['code'], message: string, path: PropertyKey[], hint?: string) => {
    // A route or collection a plugin added is not in the YAML: the error names the plugin instead.
    const origin =
      path[0] === 'routes'
        ? options.origins?.routes.get(path[1] as number)
        : path[0] === 'collections'
          ? options.origins?.collections.get(path[1] as string)
          : undefined;
    if (origin) {
      const what =
        path[0] === 'routes' ? `route "${config.routes[path[1] as number]!.path}"` : `collection "${String(path[1])}"`;
      return here.error({
        code,
        message: `${what} from plugin "${origin.name}": ${message}`,
        file: origin.file,
        field: formatPath(path.slice(2)) || undefined,
        hint,
      });
    }
    return here.error({ code, message, field: formatPath(path), hint, ...locate(source, path) });
  };

  const locales = Object.keys(config.locales);
  const defaultLocale = config.site.defaultLocale;
  const routePaths = config.routes.map((route) => route.path);
  const unknownLocale = (id: string) => `unknown locale "${id}"${didYouMeanText(id, locales)}`;
  const unknownRoute = (path: string) => `unknown route "${path}"${didYouMeanText(path, routePaths)}`;
  if (!config.locales[defaultLocale]) {
    fail(
      'UNKNOWN_LOCALE',
      `default locale "${defaultLocale}" is not defined under locales${didYouMeanText(defaultLocale, locales)}`,
      ['site', 'defaultLocale'],
    );
  }
  const prefixes = new Map<string, string>();
  for (const [id, locale] of Object.entries(config.locales)) {
    if (id === defaultLocale && locale.prefix !== '')
      fail(
        'CONFIG_INVALID',
        'the default locale has no URL prefix',
        ['locales', id, 'prefix'],
        'Set prefix: "" for the default locale.',
      );
    if (id !== defaultLocale && locale.prefix === '')
      fail('CONFIG_INVALID', `locale "${id}" needs a URL prefix such as "/${id}"`, ['locales', id, 'prefix']);
    const owner = prefixes.get(locale.prefix);
    if (owner !== undefined)
      fail('CONFIG_INVALID', `prefix "${locale.prefix}" is already used by locale "${owner}"`, [
        'locales',
        id,
        'prefix',
      ]);
    prefixes.set(locale.prefix, id);
  }
  const checkPerLocale = (value: Record<string, string>, path: PropertyKey[]) => {
    for (const id of locales)
      if (!(id in value)) fail('CONFIG_LOCALE_MISSING', `missing text for locale "${id}"`, path);
    for (const id of Object.keys(value))
      if (!config.locales[id]) fail('UNKNOWN_LOCALE', unknownLocale(id), [...path, id]);
  };
  for (const [id, audience] of Object.entries(config.audiences))
    checkPerLocale(audience.label, ['audiences', id, 'label']);
  config.plans.forEach((plan, index) => checkPerLocale(plan.name, ['plans', index, 'name']));
  // The page copy the settings offer, or the developer locks, must be a page's copy.
  const copyFolders = new Set(config.routes.flatMap((route) => (route.content ? [route.content] : [])));
  for (const list of ['copy', 'locked'] as const) {
    config.admin[list].forEach((entry, index) => {
      if (!copyFolders.has(entry.content))
        fail(
          'UNKNOWN_ROUTE',
          `admin.${list} names "${entry.content}", which is no route's content${didYouMeanText(entry.content, [...copyFolders])}`,
          ['admin', list, index, 'content'],
          'Name the content folder of a route, such as hub/pricing.',
        );
    });
  }
  // Checked here rather than in the schema: inside the price's union a failed check would only say "invalid input".
  config.plans.forEach((plan, index) => {
    if (plan.price !== 'on-request' && !isKnownCurrency(plan.price.currency)) {
      fail(
        'CONFIG_INVALID',
        `"${plan.price.currency}" is not an ISO 4217 currency code`,
        ['plans', index, 'price', 'currency'],
        'Give the three capital letters of the currency, such as currency: EUR (or USD, NOK, SEK).',
      );
    }
  });
  const featureOwner = new Map<string, string>();
  config.plans.forEach((plan, index) =>
    plan.features.forEach((feature, at) => {
      const owner = featureOwner.get(feature);
      if (owner !== undefined) {
        fail(
          'CONFIG_INVALID',
          `feature "${feature}" is already in plan "${owner}"`,
          ['plans', index, 'features', at],
          'Plans are cumulative: list a feature once, in the first plan that has it.',
        );
      } else featureOwner.set(feature, plan.id);
    }),
  );

  const routeIndex = new Map<string, number>();
  // The admin's pages are the engine's: a route of the site at one of their paths is refused
  // rather than silently winning, so no one loses the sign-in page without saying so.
  const adminPaths = new Set(config.admin.enabled ? adminRoutes.map((route) => route.path) : []);
  config.routes.forEach((route, index) => {
    const at = (field: string): PropertyKey[] => ['routes', index, field];
    const first = routeIndex.get(route.path);
    if (first !== undefined) {
      const firstLine = locate(source, ['routes', first, 'path']).line;
      fail(
        'DUPLICATE_ROUTE',
        `route "${route.path}" is already defined${firstLine ? ` on line ${firstLine}` : ''}`,
        at('path'),
      );
    } else routeIndex.set(route.path, index);
    if (adminPaths.has(route.path)) {
      fail(
        'DUPLICATE_ROUTE',
        `route "${route.path}" is a page of the admin, which the engine adds itself`,
        at('path'),
        "Remove the route (the admin's screens and their copy come with the engine; put your own copy in content/pages/), or set admin: { enabled: false } to build no admin pages.",
      );
    }
    if (options.templates && !options.templates.includes(route.template)) {
      fail(
        'UNKNOWN_TEMPLATE',
        `unknown template "${route.template}"${didYouMeanText(route.template, options.templates)}`,
        at('template'),
        `Available templates: ${options.templates.join(', ')}.`,
      );
    }
    if (route.audience !== undefined && !config.audiences[route.audience]) {
      fail(
        'UNKNOWN_AUDIENCE',
        `unknown audience "${route.audience}"${didYouMeanText(route.audience, Object.keys(config.audiences))}`,
        at('audience'),
        `Known audiences: ${Object.keys(config.audiences).join(', ')}.`,
      );
    }
    if (route.locale !== undefined && !config.locales[route.locale])
      fail('UNKNOWN_LOCALE', unknownLocale(route.locale), at('locale'));
    const dynamic = route.path.includes('{slug}');
    if (dynamic !== (route.entry !== undefined)) {
      fail(
        'CONFIG_INVALID',
        dynamic ? 'a path with {slug} needs `entry:` naming a collection' : 'an entry route needs {slug} in its path',
        at('path'),
        dynamic ? undefined : 'Write the path as, for example, /blog/{slug}.',
      );
    }
    for (const [locale, path] of Object.entries(route.paths ?? {})) {
      const field = writtenRouteField(source, ['routes', index, 'paths', locale]);
      if (!config.locales[locale]) fail('UNKNOWN_LOCALE', unknownLocale(locale), field);
      else if (route.locale !== undefined)
        fail('CONFIG_INVALID', 'a route of one locale has one path: give it in path:, not paths:', field);
      else if (path.includes('{slug}') !== dynamic || (dynamic && !path.endsWith('/{slug}')))
        fail(
          'CONFIG_INVALID',
          dynamic
            ? 'the path of an entry route ends in /{slug} in every locale'
            : 'only an entry route has {slug} in its paths',
          field,
          'Write the localized path as, for example, /blogg/{slug}.',
        );
    }
    if (route.list !== undefined && route.entry !== undefined)
      fail('CONFIG_INVALID', 'a route either lists a collection or shows its entries, not both', at('entry'));
    for (const key of ['list', 'entry'] as const) {
      const name = route[key];
      if (name !== undefined && !collectionNamed(config, name)) {
        const known = Object.keys(config.collections);
        fail(
          'UNKNOWN_COLLECTION',
          `unknown collection "${name}"${didYouMeanText(name, known)}`,
          at(key),
          known.length ? `Known collections: ${known.join(', ')}.` : 'Declare it under collections: in the config.',
        );
      }
    }
  });
  checkEndpointRoutes(config, source, fail);
  config.routes.forEach((route, index) => {
    if (route.alternate === undefined) return;
    const other = routeIndex.get(route.alternate);
    const target = other === undefined ? undefined : config.routes[other];
    if (!target) fail('UNKNOWN_ROUTE', unknownRoute(route.alternate), ['routes', index, 'alternate']);
    else if (route.locale === undefined || target.locale === undefined || target.locale === route.locale) {
      fail(
        'CONFIG_INVALID',
        'alternate links two single-locale routes of different locales',
        ['routes', index, 'alternate'],
        'Give both routes a different `locale:`.',
      );
    }
  });

  config.navigation.forEach((item, index) => {
    for (const [id, audience] of Object.entries(config.audiences)) {
      const path = navigationRoutePath(item.path, audience.path);
      if (!routeIndex.has(path))
        fail('UNKNOWN_ROUTE', `"${path}" (for audience ${id}) is not a route${didYouMeanText(path, routePaths)}`, [
          'navigation',
          index,
          'path',
        ]);
    }
    if (item.fallback !== undefined && !routeIndex.has(item.fallback))
      fail('UNKNOWN_ROUTE', unknownRoute(item.fallback), ['navigation', index, 'fallback']);
  });

  if (config.search.enabled && !routeIndex.has(config.search.path))
    fail(
      'UNKNOWN_ROUTE',
      `search.path "${config.search.path}" is not a route${didYouMeanText(config.search.path, routePaths)}`,
      ['search', 'path'],
      'Add a route at that path whose template renders the SiteSearch island (see docs/content.md, "Search"), or set search.path to it.',
    );

  config.aliases.forEach((alias, index) => {
    if (!config.locales[alias.locale])
      fail('UNKNOWN_LOCALE', unknownLocale(alias.locale), ['aliases', index, 'locale']);
    if (!routeIndex.has(alias.from)) fail('UNKNOWN_ROUTE', unknownRoute(alias.from), ['aliases', index, 'from']);
  });

  for (const [name, collection] of Object.entries(config.collections)) {
    const at = (...path: PropertyKey[]) => ['collections', name, ...path];
    for (const [locale, chain] of Object.entries(collection.fallback)) {
      if (!config.locales[locale]) fail('UNKNOWN_LOCALE', unknownLocale(locale), at('fallback', locale));
      chain.forEach((id, index) => {
        if (!config.locales[id]) fail('UNKNOWN_LOCALE', unknownLocale(id), at('fallback', locale, index));
      });
    }
    const field = collection.taxonomy?.field;
    if (field !== undefined && (builtInEntryFields.includes(field) || field in collection.fields)) {
      fail(
        'CONFIG_INVALID',
        `"${field}" is already a front-matter field of every entry or of fields:`,
        at('taxonomy', 'field'),
        'Name the taxonomy field after what it holds, such as category.',
      );
    }
    for (const key of Object.keys(collection.fields)) {
      if (builtInEntryFields.includes(key))
        fail('CONFIG_INVALID', `"${key}" is a front-matter field every entry already has`, at('fields', key));
    }
    checkFieldTypes(collection.fields, at('fields'), Object.keys(config.collections), fail);
    const termPath = collection.taxonomy?.path;
    if (typeof termPath === 'object') {
      for (const locale of Object.keys(termPath)) {
        if (!config.locales[locale])
          fail(
            'UNKNOWN_LOCALE',
            `unknown locale "${locale}"`,
            at('taxonomy', 'path', locale),
            `Known locales: ${Object.keys(config.locales).join(', ')}.`,
          );
      }
      if (termPath[config.site.defaultLocale] === undefined)
        fail(
          'CONFIG_INVALID',
          `the term pages' segment has no ${config.site.defaultLocale} (the default locale)`,
          at('taxonomy', 'path'),
          `Add ${config.site.defaultLocale}: to the map; a locale it leaves out takes the default locale's.`,
        );
    }
    if (collection.data) {
      config.routes.forEach((route, index) => {
        for (const key of ['list', 'entry'] as const) {
          if (route[key] === name)
            fail(
              'CONFIG_INVALID',
              `collection "${name}" is a data collection (data: true): no route gives it pages`,
              ['routes', index, key],
              'Remove data: true to give its entries pages, or read them in a template through site.entries.',
            );
        }
      });
      if (collection.feed !== false)
        fail('CONFIG_INVALID', `data collection "${name}" has no pages for a feed`, at('feed'), 'Remove feed:.');
    }
    if (collection.feed === true && !config.routes.some((route) => route.list === name)) {
      fail(
        'CONFIG_INVALID',
        `collection "${name}" has a feed but no route lists it`,
        at('feed'),
        'Give the feed a path such as /rss.xml, or add a route with list: ' + name + '.',
      );
    }
  }

  // An audience preselects one of the enquiry types the contact form offers.
  const contactTypes = config.contact.types;
  for (const [id, audience] of Object.entries(config.audiences)) {
    if (audience.contactType !== undefined && !contactTypes.includes(audience.contactType)) {
      fail(
        'CONFIG_INVALID',
        `contactType "${audience.contactType}" is not one of contact.types`,
        ['audiences', id, 'contactType'],
        contactTypes.length
          ? `Known types: ${contactTypes.join(', ')}; or add it to contact.types.`
          : `List the enquiry types under contact.types, such as types: [${audience.contactType}, other].`,
      );
    }
  }

  // The built-in booking (booking: without url:) offers slots in the company's opening hours.
  if (config.booking && config.booking.url === undefined && !config.company?.openingHours) {
    fail(
      'CONFIG_INVALID',
      'the built-in booking needs company.openingHours: its slots are offered in those hours',
      ['booking'],
      "Add company.openingHours (days, opens, closes, timeZone), give booking.url (a booking provider's page), or remove booking:.",
    );
  }
}

/** The keys each type of a declared field takes besides type, required and label. */
const fieldTypeKeys: Record<EntryField['type'], readonly string[]> = {
  string: [],
  number: [],
  boolean: [],
  date: [],
  markdown: [],
  select: ['options', 'labels'],
  list: ['of'],
  object: ['fields'],
  image: [],
  reference: ['collection'],
};

/** The declared fields each have the keys their type needs, and none it does not take; a reference names a collection. */
function checkFieldTypes(
  fields: Readonly<Record<string, EntryField>>,
  at: readonly PropertyKey[],
  collections: readonly string[],
  fail: (code: SiteError['code'], message: string, path: PropertyKey[], hint?: string) => void,
): void {
  for (const [name, field] of Object.entries(fields)) {
    const path = [...at, name];
    const takes = fieldTypeKeys[field.type];
    for (const key of ['options', 'labels', 'of', 'fields', 'collection'] as const) {
      if (field[key] !== undefined && !takes.includes(key))
        fail(
          'CONFIG_INVALID',
          `a ${field.type} field takes no ${key}:`,
          [...path, key],
          `${key}: belongs to a ${Object.entries(fieldTypeKeys)
            .filter(([, keys]) => keys.includes(key))
            .map(([type]) => type)
            .join(' or ')} field.`,
        );
    }
    const needed = takes.find((key) => key !== 'labels' && field[key as keyof EntryField] === undefined);
    if (needed) {
      const example = {
        options: 'options: [retail, repair]',
        of: 'of: string',
        fields: 'fields: { name: { type: string } }',
        collection: 'collection: team',
      }[needed];
      fail('CONFIG_INVALID', `a ${field.type} field needs ${needed}:`, [...path, 'type'], `Add ${example}.`);
    }
    if (field.type === 'reference' && field.collection !== undefined && !collections.includes(field.collection))
      fail(
        'UNKNOWN_COLLECTION',
        `unknown collection "${field.collection}"`,
        [...path, 'collection'],
        `Known collections: ${[...collections].sort().join(', ')}.`,
      );
    if (field.type === 'object' && field.fields) checkFieldTypes(field.fields, [...path, 'fields'], collections, fail);
    if (field.type === 'list' && typeof field.of === 'object')
      checkFieldTypes(field.of, [...path, 'of'], collections, fail);
  }
}
