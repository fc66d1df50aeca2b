/**
 * Loads the React templates: esbuild bundles templates/pages/*.tsx and the layout into one ESM
 * module (react, react-dom and zod stay external, so templates share the generator's copies),
 * which is written under node_modules/.cache/site/ by content hash and imported.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Message, Plugin } from 'esbuild';
import { writeFileAtomic } from '../atomic-write.js';
import { dependencyFolder, entryConditions, generatorRoot, modulesRoot } from '../cache/disk-cache.js';
import { SiteError, SiteErrors } from '../errors.js';
import { templateSources } from '../config/sources.js';
import { esbuildErrors, type EsbuildStepOptions, type RunEsbuild } from '../esbuild-step.js';
import type { TemplateSet } from './types.js';

/** How the bundle names a package it shares with the generator until it is loaded (`bindShared`). */
const sharedPrefix = 'typed-site-shared:';

/**
 * The packages templates share with the generator (one React renders them all; zod for their
 * content schemas): left out of the bundle, each import checked here (a missing package is an
 * error at the template's line) and written as `typed-site-shared:<specifier>`. The bundle the
 * cache keeps thus names no folder: the import is bound to the generator's own copy when the
 * bundle is loaded (`bindShared`), so a copied or moved project, whose first checkout may be gone,
 * imports its own React, never the first one's (two Reacts render nothing: hooks fail).
 */
const sharedWithGenerator: Plugin = {
  name: 'shared-with-generator',
  setup(build) {
    build.onResolve({ filter: /^(?:react|react-dom|zod)(?:\/.*)?$/ }, async (args) => {
      if (args.pluginData === sharedWithGenerator) return undefined;
      // esbuild's own resolver, from the generator's folder, with the conditions of an import.
      const found = await build.resolve(args.path, {
        kind: args.kind,
        resolveDir: generatorRoot(),
        pluginData: sharedWithGenerator,
      });
      if (found.errors.length) return { errors: found.errors };
      return { path: `${sharedPrefix}${args.path}`, external: true };
    });
  },
};

/**
 * The bundle's shared imports bound to the files this process resolves them to: Node's resolution
 * from the generator's own module (`import.meta.resolve`), with the conditions of an import, the
 * copies the generator renders with.
 */
function bindShared(code: string): string {
  return code.replace(/(["'])typed-site-shared:([^"']+)\1/g, (_match, _quote, specifier: string) =>
    JSON.stringify(sharedModuleUrl(specifier)),
  );
}

/** The file URL of a package the generator imports, as Node resolves it for the generator. */
function sharedModuleUrl(specifier: string): string {
  try {
    return import.meta.resolve(specifier);
  } catch {
    // A module runner without import.meta.resolve (vitest's global set-up runs the pipeline in
    // one): the package's `exports` read as Node reads them for an import.
    return pathToFileURL(resolveImport(specifier)).href;
  }
}

/** `specifier` ("react/jsx-runtime") resolved by its package's `exports` with the conditions node, import, default. */
function resolveImport(specifier: string): string {
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
  const folder = dependencyFolder(name);
  if (!folder) throw new Error(`cannot find the package ${name} from ${generatorRoot()}`);
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
    exports?: unknown;
    main?: string;
  };
  const subpath = `.${specifier.slice(name.length)}`;
  const pick = (target: unknown): string | undefined => {
    if (typeof target === 'string') return target;
    if (target && typeof target === 'object') {
      for (const [condition, value] of Object.entries(target))
        if (['node', 'import', 'default'].includes(condition)) return pick(value);
    }
    return undefined;
  };
  const exportsMap = manifest.exports as Record<string, unknown> | string | undefined;
  const target =
    typeof exportsMap === 'object' && exportsMap !== null && Object.keys(exportsMap).some((key) => key.startsWith('.'))
      ? pick(exportsMap[subpath])
      : subpath === '.'
        ? pick(exportsMap)
        : undefined;
  return join(folder, target ?? (subpath === '.' ? (manifest.main ?? 'index.js') : `${subpath}.js`));
}

/** The bundled module each template set was imported from, and what names its code anywhere. */
const templateFiles = new WeakMap<TemplateSet, { file: string; id: string }>();

/** The bundled module a template set was imported from (the workers of the pool import it too). */
export function templatesFileOf(templates: TemplateSet): string | undefined {
  return templateFiles.get(templates)?.file;
}

/**
 * What a template set's code is named by in cache keys: the hash of its bundle before its shared
 * imports are bound, the same in every checkout of the project (the module's file name is not:
 * it holds this checkout's paths).
 */
export function templatesIdOf(templates: TemplateSet): string | undefined {
  return templateFiles.get(templates)?.id;
}

/** The page template names of a site: the files in templates/pages/ without extension, sorted. */
export async function listPageTemplates(templatesDir: string): Promise<string[]> {
  try {
    const files = await readdir(templateSources(templatesDir).pageTemplatesFolder);
    return files
      .filter((file) => /^[A-Z]\w*\.tsx$/.test(file))
      .map((file) => file.slice(0, -4))
      .sort();
  } catch {
    return [];
  }
}

/** The content components the engine ships (src/content/components/), by file name. */
export const engineComponentNames: readonly string[] = ['Callout', 'Figure', 'Video'];

/** The file of an engine content component. */
export function engineComponentFile(name: string): string {
  return join(generatorRoot(), 'src', 'content', 'components', `${name}.tsx`);
}

/** The content components of a site: the files in templates/content/ without extension, sorted. */
export async function listContentComponents(templatesDir: string): Promise<string[]> {
  try {
    const files = await readdir(templateSources(templatesDir).contentComponentsFolder);
    return files
      .filter((file) => /^[A-Z][A-Za-z0-9]*\.tsx$/.test(file))
      .map((file) => file.slice(0, -4))
      .sort();
  } catch {
    return [];
  }
}

/** Bundles and imports the templates of a site, with its content components and the engine's it does not replace. */
export async function loadTemplates(
  templatesDir: string,
  names: readonly string[],
  options: EsbuildStepOptions = {},
): Promise<TemplateSet> {
  const build = options.run ?? ((await import('esbuild')).build as RunEsbuild);
  const sources = templateSources(templatesDir);
  const layout = sources.layout;
  const siteComponents = await listContentComponents(templatesDir);
  const engineComponents = engineComponentNames.filter((name) => !siteComponents.includes(name));
  const components = [
    ...siteComponents.map((name) => [name, join(sources.contentComponentsFolder, `${name}.tsx`)] as const),
    ...engineComponents.map((name) => [name, engineComponentFile(name)] as const),
  ].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const entry = [
    ...names.map((name, index) => `import * as t${index} from ${JSON.stringify(sources.pageTemplate(name))};`),
    ...components.map(([, file], index) => `import * as c${index} from ${JSON.stringify(file)};`),
    `export const components = { ${components.map(([name], index) => `${JSON.stringify(name)}: c${index}`).join(', ')} };`,
    `export const engineComponents = ${JSON.stringify(engineComponents)};`,
    `export { default as Layout } from ${JSON.stringify(layout)};`,
    // The layout may export the schema of the config's `data:` block; a missing export reads as undefined.
    `import * as layoutModule from ${JSON.stringify(layout)};`,
    'export const data = layoutModule.data;',
    `export const pages = { ${names.map((name, index) => `${JSON.stringify(name)}: t${index}`).join(', ')} };`,
  ].join('\n');
  let code: string;
  try {
    const result = await build({
      stdin: { contents: entry, resolveDir: templatesDir, loader: 'ts', sourcefile: 'templates-entry.ts' },
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      jsx: 'automatic',
      // Inline, without the sources: read only when a template throws, to name its .tsx line
      // (template-positions.ts); relative to the working folder, so the bundle stays portable.
      sourcemap: 'inline',
      sourcesContent: false,
      // Shared with the generator, bound to its copies when loaded: the bundle lives in a cache
      // folder from which a bare `react` would resolve only where the package manager hoists it.
      plugins: [sharedWithGenerator],
      logLevel: 'silent',
      absWorkingDir: process.cwd(),
      conditions: entryConditions(),
    });
    code = result.outputFiles[0]!.text;
  } catch (error) {
    const messages = (error as { errors?: Message[] }).errors;
    if (messages?.length) throw new SiteErrors(esbuildErrors(messages, 'TEMPLATE_BUILD'));
    throw error;
  }
  const id = createHash('sha256').update(code).digest('hex').slice(0, 16);
  code = bindShared(code);
  // In node_modules/.cache (not under SITE_CACHE_DIR): a module the generator imports, not data.
  // Named by its bound code: a copy of the project has its own file, importing its own React.
  const cacheDir = join(modulesRoot(), '.cache', 'site');
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 16);
  const file = join(cacheDir, `templates-${hash}.mjs`);
  // Whole or not at all, so a build running at the same moment never imports half a file.
  if (!existsSync(file)) await writeFileAtomic(file, code, { durable: false });
  const module = (await import(pathToFileURL(file).href)) as TemplateSet;
  templateFiles.set(module, { file, id });
  for (const [name, component] of Object.entries(module.components)) {
    if (typeof component.default !== 'function') {
      const file = engineComponents.includes(name)
        ? engineComponentFile(name)
        : join(sources.contentComponentsFolder, `${name}.tsx`);
      throw new SiteError({
        code: 'TEMPLATE_INVALID',
        message: `${relative(sources.templatesFolder, file)} has no default export component`,
        file: relative(process.cwd(), file),
      });
    }
  }
  for (const [name, template] of Object.entries(module.pages)) {
    if (typeof template.default !== 'function') {
      throw new SiteError({
        code: 'TEMPLATE_INVALID',
        message: `${relative(sources.templatesFolder, sources.pageTemplate(name))} has no default export component`,
        file: relative(process.cwd(), sources.pageTemplate(name)),
      });
    }
  }
  return module;
}
