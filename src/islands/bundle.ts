/**
 * Islands: each component in templates/islands/ gets a small client entry that hydrates every
 * element marked with its name. esbuild bundles the entries (ESM, code splitting, minified,
 * content-hashed names). The client runtime is preact/compat by default (the templates stay
 * React); `runtime: 'react'` bundles React's own client for comparison.
 */
import { readdir } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import type { Message, Plugin } from 'esbuild';
import { entryConditions, generatorRoot, modulesRoot } from '../cache/disk-cache.js';
import { SiteError, SiteErrors } from '../errors.js';
import { templateSources } from '../config/sources.js';
import { esbuildErrors, type EsbuildStepOptions, type RunEsbuild } from '../esbuild-step.js';
import type { OutputFiles } from '../output-files.js';
import { assetsFolder } from '../url-paths.js';

/** Which client runtime hydrates the islands. */
export type IslandRuntime = 'preact' | 'react';

/** The built islands: their files, and for each island the URL of its entry. */
export interface IslandBundle {
  files: OutputFiles;
  entries: Record<string, string>;
  /** For each island, every JavaScript file its entry loads (entry and chunks), for budgets. */
  graph: Record<string, string[]>;
}

/** The engine's search island (`search.enabled`): its name, and its file (src/islands/SiteSearch.tsx of the generator package). */
export function searchIsland(): [name: string, file: string] {
  return ['SiteSearch', join(generatorRoot(), 'src', 'islands', 'SiteSearch.tsx')];
}

/** The island names of a site: PascalCase .tsx files in templates/islands/. */
export async function listIslands(templatesDir: string): Promise<string[]> {
  try {
    return (await readdir(templateSources(templatesDir).islandsFolder))
      .filter((file) => /^[A-Z]\w*\.tsx$/.test(file))
      .map((file) => file.slice(0, -4))
      .sort();
  } catch {
    return [];
  }
}

const preactAliases = {
  react: 'preact/compat',
  'react-dom': 'preact/compat',
  'react-dom/client': 'preact/compat/client',
  'react/jsx-runtime': 'preact/jsx-runtime',
};

/**
 * Bundles the client entries of the islands: the site's (`names`, in templates/islands/) and the
 * engine's (`engine`: name → file, the admin's screens, the search, the forms), hydrated by name
 * alike. A site island with the name of an engine island is refused: one name would hydrate two
 * components (a form of typed-site/islands is left out of `engine` where the site has an island of
 * its name: form-islands.ts). The engine islands named in `apart` (the admin's) are bundled in a
 * run of their own.
 */
export async function bundleIslands(
  templatesDir: string,
  names: readonly string[],
  runtime: IslandRuntime = 'preact',
  options: EsbuildStepOptions = {},
  engine: Readonly<Record<string, string>> = {},
  apart: readonly string[] = [],
): Promise<IslandBundle> {
  const clash = names.find((name) => name in engine);
  if (clash !== undefined) {
    throw new SiteError({
      code: 'TEMPLATE_INVALID',
      message: `island "${clash}" is also an island of the engine (the admin's screens or the search): one name would hydrate two components`,
      file: relative(process.cwd(), join(templateSources(templatesDir).islandsFolder, `${clash}.tsx`)),
      hint: "Rename the site's island (its file and the `name` its pages give it), or set admin: { enabled: false } in the config.",
    });
  }
  // Two esbuild runs, so that the chunks one group shares are its own: a change to an admin screen
  // leaves the scripts of the public pages (and their names, which caches key on) as they were.
  const publicNames = [...names, ...Object.keys(engine).filter((name) => !apart.includes(name))].sort();
  const apartNames = Object.keys(engine)
    .filter((name) => apart.includes(name))
    .sort();
  const bundle: IslandBundle = { files: new Map(), entries: {}, graph: {} };
  for (const group of [publicNames, apartNames]) {
    if (group.length === 0) continue;
    const part = await bundleGroup(templatesDir, group, runtime, options, engine);
    for (const [file, contents] of part.files) bundle.files.set(file, contents);
    Object.assign(bundle.entries, part.entries);
    Object.assign(bundle.graph, part.graph);
  }
  return bundle;
}

/** One esbuild run over the islands `all`: their entries and the chunks they share. */
async function bundleGroup(
  templatesDir: string,
  all: readonly string[],
  runtime: IslandRuntime,
  options: EsbuildStepOptions,
  engine: Readonly<Record<string, string>>,
): Promise<IslandBundle> {
  const build = options.run ?? ((await import('esbuild')).build as RunEsbuild);
  const islandsDir = join(templatesDir, 'islands');
  const virtualEntries: Plugin = {
    // The engine's islands of the run by name: the build cache keys a run by its options, and a site
    // island that replaces an engine form of the same name must not be answered with the engine's.
    name: ['island-entries', ...all.filter((name) => engine[name])].join(' '),
    setup(context) {
      context.onResolve({ filter: /^island:/ }, (args) => ({
        path: args.path.slice('island:'.length),
        namespace: 'island',
      }));
      // An engine island resolves from its own folder: a site may have no islands folder at all.
      context.onLoad({ filter: /.*/, namespace: 'island' }, (args) => ({
        resolveDir: engine[args.path] ? dirname(engine[args.path]!) : islandsDir,
        loader: 'ts',
        contents: [
          "import { createElement } from 'react';",
          "import { hydrateRoot } from 'react-dom/client';",
          `import Island from './${engine[args.path] ? basename(engine[args.path]!) : `${args.path}.tsx`}';`,
          `for (const root of document.querySelectorAll('[data-island="${args.path}"]')) {`,
          '  const props = JSON.parse(root.nextElementSibling?.textContent ?? "{}");',
          '  hydrateRoot(root, createElement(Island, props));',
          '}',
        ].join('\n'),
      }));
    },
  };
  let result;
  try {
    result = await build({
      entryPoints: Object.fromEntries(all.map((name) => [name, `island:${name}`])),
      bundle: true,
      splitting: true,
      format: 'esm',
      minify: true,
      write: false,
      metafile: true,
      outdir: join(templatesDir, '.islands-out', assetsFolder),
      entryNames: '[name].[hash]',
      chunkNames: 'chunk.[hash]',
      jsx: 'automatic',
      target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
      define: { 'process.env.NODE_ENV': '"production"' },
      alias: runtime === 'preact' ? preactAliases : {},
      conditions: entryConditions(),
      // preact and zod from the generator's packages when the site's own node_modules lacks them.
      nodePaths: [modulesRoot()],
      legalComments: 'none',
      plugins: [virtualEntries],
      logLevel: 'silent',
      absWorkingDir: templatesDir,
    });
  } catch (error) {
    const messages = (error as { errors?: Message[] }).errors;
    if (messages?.length) throw new SiteErrors(esbuildErrors(messages, 'TEMPLATE_BUILD'));
    throw error;
  }
  const outRoot = join(templatesDir, '.islands-out');
  const files: OutputFiles = new Map();
  for (const file of result.outputFiles) files.set(relative(outRoot, file.path), file.contents);
  const entries: Record<string, string> = {};
  const graph: Record<string, string[]> = {};
  const outputs = result.metafile.outputs;
  const closure = (output: string, seen = new Set<string>()): Set<string> => {
    if (seen.has(output)) return seen;
    seen.add(output);
    for (const imported of outputs[output]?.imports ?? [])
      if (imported.kind === 'import-statement') closure(imported.path, seen);
    return seen;
  };
  for (const [output, info] of Object.entries(outputs)) {
    if (!info.entryPoint?.startsWith('island:')) continue;
    const name = info.entryPoint.slice('island:'.length);
    const toUrl = (path: string) => `/${relative('.islands-out', path).split('\\').join('/')}`;
    entries[name] = toUrl(output);
    graph[name] = [...closure(output)].map(toUrl).sort();
  }
  return { files, entries, graph };
}

/**
 * Adds the module script of each island a rendered page contains before `</body>` (under the site's
 * base path), and lists every JavaScript file the page then loads (entries and chunks, sorted).
 */
export function addIslandScripts(
  html: string,
  islands: Pick<IslandBundle, 'entries' | 'graph'>,
  base = '',
): { html: string; scripts: string[] } {
  const used = islandsInHtml(html);
  if (used.length === 0) return { html, scripts: [] };
  const tags = used.map((name) => `<script type="module" src="${base}${islands.entries[name]}"></script>`).join('');
  return {
    html: html.replace('</body>', `${tags}</body>`),
    scripts: [...new Set(used.flatMap((name) => islands.graph[name] ?? []))].sort(),
  };
}

/** The islands a rendered page contains, in the order of their first appearance. */
export function islandsInHtml(html: string): string[] {
  // Most pages have no island: a plain substring search settles them far faster than the regex.
  if (!html.includes('data-island="')) return [];
  const found = new Set<string>();
  for (const match of html.matchAll(/data-island="([A-Za-z0-9]+)"/g)) found.add(match[1]!);
  return [...found];
}
