// The one compile step: esbuild bundles the TypeScript sources into lib/, and lib/ is what runs.
//
//   lib/index.js           the package's entry: the commands as functions and the CLI (bin/site.js starts it)
//   lib/worker.js          the worker threads of the build's pool
//   lib/compress-worker.js the threads that share out the precompression of a large output (zlib only)
//   lib/social-worker.js   the threads that draw the social images (satori and sharp only)
//   lib/markdown-stack.js  the unified packages with their dependencies in one file, which loads
//                          several times faster than their 150-odd modules (src/content/markdown-stack.ts)
//   lib/template.js …      the entries a site's templates and islands import (package.json exports):
//                          template.js, islands.js (the engine's forms; their client entries are
//                          bundled from src/islands/forms/, which the package ships), the models
//   lib/functions/*.js     the runtime of the host functions `site build --target` bundles (hosts.js;
//                          d1-store.js and url-store.js, the booking's store on D1 or Postgres)
//   lib/scripts/*.js       the scripts npm runs: audit, bench, bench:dev, stress (scripts/run.js)
//
// `npm install` and `npm ci` run it (the prepare script; by hand: `npm run prepare`); bin/site.js,
// scripts/run.js and the tests' global setup run it again when a source is newer than lib/.
// Dependencies stay external (loaded from node_modules), but for the Markdown stack and zod (see
// `startupPackages`); the Markdown stack is bundled with the patches of patches/ applied. The output
// depends on the sources alone (paths are relative to the repository, whatever the working
// folder), and each file is written to a temporary name and renamed, so a CLI started during a
// build never reads half a file.
import { readdirSync, statSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertPatchesLoaded, patchPlugin, PatchError, preparePatches } from './patches.js';

export { PatchError };

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The folder the step writes. */
export const libDir = join(root, 'lib');

/** The TypeScript scripts of scripts/ that npm scripts run, each built into lib/scripts/<name>.js. */
export const scriptNames = ['audit', 'bench', 'bench-admin-list', 'bench-dev', 'stress'];

/** What the step writes besides source maps, relative to lib/. */
const outputs = [
  'index.js',
  'worker.js',
  'compress-worker.js',
  'social-worker.js',
  'markdown-stack.js',
  'functions/hosts.js',
  'functions/d1-store.js',
  'functions/url-store.js',
  'template.js',
  'islands.js',
  'contact-schema.js',
  'booking-schema.js',
  'inbox-filter.js',
  'plugin.js',
  ...scriptNames.map((name) => `scripts/${name}.js`),
];

/**
 * Keeps the Markdown stack out of the bundles that load it on demand: `import('./markdown-stack.js')`
 * stays a dynamic import of lib/markdown-stack.js. Bundled in, its packages (unified, micromark,
 * remark, rehype: hundreds of small modules) became static imports of lib/index.js, loaded at every
 * start, 100 ms and more, also by builds that parse no Markdown (everything cached).
 */
const stackOnDemand = {
  name: 'markdown-stack-on-demand',
  setup(build) {
    build.onResolve({ filter: /^\.\/markdown-stack\.js$/ }, (args) =>
      args.kind === 'dynamic-import' ? { path: './markdown-stack.js', external: true } : undefined,
    );
  },
};

/**
 * The patches of patches/ (scripts/patches.js): mdast-util-from-markdown@<version>.patch hands the
 * compiler's handlers one context rather than a copy of it per event (the patch says why and what
 * it gained; tests/unit/markdown-stack.test.ts compares lib/markdown-stack.js with the unpatched
 * packages). Checked against the installed packages before anything is bundled.
 */
export const patchesDir = join(root, 'patches');

/**
 * zod, bundled into the CLI's files rather than loaded from node_modules: every command loads it
 * before anything else (the config's schema), and its 106 modules took 44 ms of each start (node 20,
 * imported alone); bundled, a build with nothing changed of the 1000-post bench corpus took 0.393 s
 * instead of 0.402 s (median of 10 alternating pairs, 0.959x) for 4.5 MB more peak memory. Tried
 * and left out: yaml and commander too (CommonJS, wrapped and compiled whole: 0.954x for 20 MB more).
 * Every other package stays external: those with native parts or files of their own (esbuild,
 * sharp, satori), React (a site's islands and templates import the same copy), those loaded on
 * demand. A site's templates get zod from node_modules (typed-site/template re-exports it): the
 * generator only calls its schemas' methods, so the two copies never meet otherwise.
 */
const startupPackages = ['zod'];
const bundleStartupPackages = {
  name: 'bundle-startup-packages',
  setup(build) {
    // zod's messages in 40-odd languages (`z.locales`, 358 KB, a quarter of lib/index.js, compiled
    // at every start) but English, the one it uses unless told otherwise and the one the generator uses.
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]/.test(args.importer)
        ? { path: 'locales', namespace: 'zod-english', pluginData: dirname(args.importer) }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-english' }, (args) => ({
      contents: "export { default as en } from '../locales/en.js';",
      resolveDir: args.pluginData,
    }));
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
      return startupPackages.includes(name) ? undefined : { path: args.path, external: true };
    });
  },
};

/** Builds everything in lib/ from the sources. */
export async function buildLib() {
  const { build } = await import('esbuild');
  const patches = await preparePatches({ patchesDir, nodeModules: join(root, 'node_modules') });
  const patchesLoaded = new Set();
  const common = {
    absWorkingDir: root,
    outdir: libDir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    logLevel: 'error',
  };
  const [stack, entries, template, code] = await Promise.all([
    build({
      ...common,
      entryPoints: { 'markdown-stack': 'src/content/markdown-stack.ts' },
      plugins: [patchPlugin(patches, patchesLoaded)],
    }),
    // What the host functions of `site build --target` are bundled from (src/targets/functions.ts):
    // runtime code for any JavaScript host, its packages (zod) left to that second bundling.
    // The package's entries for a site's own code to import (package.json `exports`), and what the
    // host functions of `site build --target` are bundled from (src/targets/functions.ts): each
    // bundled once more by the site's build, so their packages (zod, React) are left to it.
    build({
      ...common,
      platform: 'neutral',
      packages: 'external',
      entryPoints: {
        'functions/hosts': 'src/targets/runtime/hosts.ts',
        // The booking function's store, one module per kind of database, so a function bundles
        // only its own driver (the worker never sees postgres.js).
        'functions/d1-store': 'src/targets/runtime/d1-store.ts',
        'functions/url-store': 'src/targets/runtime/url-store.ts',
        'contact-schema': 'src/islands/contact-schema.ts',
        'booking-schema': 'src/islands/booking-schema.ts',
        'inbox-filter': 'src/islands/inbox-filter.ts',
        plugin: 'src/plugin.ts',
      },
    }),
    build({
      ...common,
      packages: 'external',
      jsx: 'automatic',
      entryPoints: { template: 'src/template.ts', islands: 'src/island-forms.ts' },
    }),
    build({
      ...common,
      entryPoints: {
        index: 'src/index.ts',
        worker: 'src/worker.ts',
        'compress-worker': 'src/compress-worker.ts',
        'social-worker': 'src/social-worker.ts',
        ...Object.fromEntries(scriptNames.map((name) => [`scripts/${name}`, `scripts/${name}.ts`])),
      },
      plugins: [stackOnDemand, bundleStartupPackages],
      jsx: 'automatic',
      sourcemap: 'linked',
    }),
  ]);
  assertPatchesLoaded(patches, patchesLoaded, root);
  // A build cut short leaves some outputs as they were, older than the sources: still stale.
  await mkdir(join(libDir, 'scripts'), { recursive: true });
  await mkdir(join(libDir, 'functions'), { recursive: true });
  for (const file of [...stack.outputFiles, ...entries.outputFiles, ...template.outputFiles, ...code.outputFiles]) {
    const temporary = `${file.path}.${process.pid}.tmp`;
    await writeFile(temporary, file.contents);
    await rename(temporary, file.path);
  }
}

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const mtime = entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs;
    if (mtime > newest) newest = mtime;
  }
  return newest;
}

/**
 * Whether lib/ lacks a file or is older than its inputs: src/, scripts/ (this file included),
 * patches/ (a patch removed too) and the installed packages (the Markdown stack bundles them).
 */
export function libIsStale() {
  let oldest = Infinity;
  try {
    for (const name of outputs) oldest = Math.min(oldest, statSync(join(libDir, name)).mtimeMs);
  } catch {
    return true;
  }
  let installed = 0;
  try {
    installed = statSync(join(root, 'node_modules', '.package-lock.json')).mtimeMs;
  } catch {
    // No npm lockfile in node_modules (another package manager): the sources decide.
  }
  let patched = 0;
  try {
    patched = Math.max(statSync(patchesDir).mtimeMs, newestMtime(patchesDir));
  } catch {
    // No patches/ folder: nothing is patched.
  }
  return oldest < Math.max(newestMtime(join(root, 'src')), newestMtime(join(root, 'scripts')), installed, patched);
}

/** Runs the step when lib/ is stale (see libIsStale). */
export async function ensureLib() {
  if (libIsStale()) await buildLib();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    await buildLib();
  } catch (error) {
    // A patch that does not fit the install is a problem to fix, not a bug: its message, no stack.
    if (!(error instanceof PatchError)) throw error;
    process.stderr.write(`scripts/build-lib.js: ${error.message}\n`);
    process.exitCode = 1;
  }
}
