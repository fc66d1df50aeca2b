/**
 * esbuild steps (templates, stylesheet, islands) answered from the disk cache. An entry is keyed by
 * the step's options and esbuild's version, and records every file the step read with its
 * SHA-256; when all of them still hash the same, the recorded output is the answer and esbuild is
 * not even loaded. Otherwise esbuild runs and the entry is replaced. The site's root folder is
 * kept as a token in keys, paths and outputs, so another checkout of the site reuses the entries.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import type { BuildOptions, BuildResult, Metafile, OutputFile } from 'esbuild';
import type { RunEsbuild } from '../esbuild-step.js';
import {
  generatorVersion,
  hashParts,
  installedVersion,
  localText,
  openDiskCache,
  portableText,
  type DiskCache,
} from './disk-cache.js';

/** What a cache entry holds. */
interface EsbuildEntry {
  /** Path (the site's root as a token) and SHA-256 of every file the build read. */
  inputs: [string, string][];
  /** Where the inputs lay from the working folder (`layoutOf`). */
  layout: string;
  /** Each output file, as text or as base64. */
  outputs: ({ path: string; text: string } | { path: string; data: string })[];
  metafile?: Metafile;
}

/** Options of `createCachedEsbuild`. */
export interface CachedEsbuildOptions {
  /** Runs a build on a miss (default: esbuild's `build`, loaded then). */
  run?: RunEsbuild;
  /** Where entries live (default: the "esbuild" namespace of the build cache). */
  cache?: DiskCache;
  /** The site's root folder, kept out of keys and entries (default: the working folder). */
  root?: string;
}

/** What the cache did, for `--verbose`. */
export interface EsbuildCacheStats {
  hits: number;
  misses: number;
}

/** A `RunEsbuild` that reuses the last output of a step whose inputs have not changed. */
export function createCachedEsbuild(options: CachedEsbuildOptions = {}): RunEsbuild & { stats: EsbuildCacheStats } {
  const cache = options.cache ?? openDiskCache('esbuild');
  const stats: EsbuildCacheStats = { hits: 0, misses: 0 };
  const run = (async (buildOptions: BuildOptions) => {
    const workingDir = buildOptions.absWorkingDir ?? process.cwd();
    const root = options.root ?? process.cwd();
    const key = hashParts(
      'esbuild',
      generatorVersion(),
      installedVersion('esbuild'),
      portableText(`${describeOptions(buildOptions)} ${workingDir}`, root),
    );
    const entry = parseEntry(cache.readSync(key), root);
    if (entry && entry.layout === layoutOf(workingDir, entry.inputs) && inputsUnchanged(entry.inputs)) {
      stats.hits++;
      return toResult(entry, buildOptions);
    }
    stats.misses++;
    const build = options.run ?? ((await import('esbuild')).build as RunEsbuild);
    const result = await build({ ...buildOptions, metafile: true });
    const inputs = await hashInputs(Object.keys(result.metafile.inputs), workingDir);
    // Outputs as text (JavaScript, CSS) can name the site's files by absolute address; binary ones
    // (a stylesheet's fonts) are kept as base64.
    const outputs = (result.outputFiles ?? []).map((file) =>
      isText(file.path)
        ? { path: file.path, text: file.text }
        : { path: file.path, data: Buffer.from(file.contents).toString('base64') },
    );
    await cache.write(
      key,
      portableText(
        JSON.stringify({
          inputs,
          layout: layoutOf(workingDir, inputs),
          outputs,
          metafile: buildOptions.metafile ? result.metafile : undefined,
        } satisfies EsbuildEntry),
        root,
      ),
    );
    return buildOptions.metafile ? result : { ...result, metafile: undefined };
  }) as RunEsbuild & { stats: EsbuildCacheStats };
  run.stats = stats;
  return run;
}

/**
 * Where the inputs lie from the step's working folder. esbuild takes the content hash in the names
 * of entries and chunks over the inputs' paths relative to that folder as well as their bytes, so
 * an entry made where they lay otherwise (another site at another depth: the admin's islands are
 * the same step for every site) names the same bytes otherwise than esbuild does here, and
 * `site build`, answered from it, and the admin's live site, which runs esbuild, published two sets
 * of island files. A copy or a move of the whole project keeps them where they lie.
 */
function layoutOf(workingDir: string, inputs: readonly [string, string][]): string {
  return hashParts(...inputs.map(([path]) => relative(workingDir, path).split('\\').join('/')));
}

/** The options as text; functions (plugin hooks) by their source, so a changed plugin is a new key. */
function describeOptions(options: BuildOptions): string {
  return JSON.stringify(options, (_key, value: unknown) =>
    typeof value === 'function' ? `function ${value.toString()}` : value,
  );
}

function parseEntry(data: Buffer | undefined, root: string): EsbuildEntry | undefined {
  if (!data) return undefined;
  try {
    const entry = JSON.parse(localText(data.toString('utf8'), root)) as EsbuildEntry;
    return Array.isArray(entry.inputs) && Array.isArray(entry.outputs) ? entry : undefined;
  } catch {
    return undefined;
  }
}

/** Synchronous: a few dozen small files, read faster than through the thread pool. */
function inputsUnchanged(inputs: readonly [string, string][]): boolean {
  return inputs.every(([path, hash]) => {
    try {
      return hashParts(readFileSync(path)) === hash;
    } catch {
      return false;
    }
  });
}

/**
 * Hashes the files a build read. Inputs of plugin namespaces ("island:ContactForm") come from the
 * options, which are part of the key, and are skipped; so is anything that is not a readable file.
 */
async function hashInputs(paths: readonly string[], workingDir: string): Promise<[string, string][]> {
  const files = paths
    .filter((path) => !/^[\w-]{2,}:/.test(path))
    .map((path) => (isAbsolute(path) ? path : resolve(workingDir, path)));
  const hashed = await Promise.all(
    files.map(async (path): Promise<[string, string] | undefined> => {
      try {
        return [path, hashParts(await readFile(path))];
      } catch {
        return undefined;
      }
    }),
  );
  return hashed
    .filter((input): input is [string, string] => input !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

const isText = (path: string) => path === '<stdout>' || /\.(?:m?js|css|json|map)$/.test(path);

function toResult(entry: EsbuildEntry, options: BuildOptions): BuildResult {
  const outputFiles = entry.outputs.map((output): OutputFile => {
    const { path } = output;
    const contents = new Uint8Array('text' in output ? Buffer.from(output.text) : Buffer.from(output.data, 'base64'));
    return {
      path,
      contents,
      hash: hashParts(contents).slice(0, 16),
      get text() {
        return Buffer.from(contents.buffer, contents.byteOffset, contents.byteLength).toString('utf8');
      },
    };
  });
  return {
    errors: [],
    warnings: [],
    outputFiles,
    metafile: options.metafile ? entry.metafile : undefined,
    mangleCache: undefined,
  } as BuildResult;
}
