/**
 * Where a plugin named in the config lives and what it is: a path relative to the config file, or
 * a package resolved from the site's folder (never the generator's), and its identity for the
 * caches: the SHA-256 of a file's bytes, or a package's name and installed version, with the JSON
 * of its options. A changed plugin file or option gives a new identity, so everything it shaped is
 * made again.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PluginEntry } from './schema.js';

/** A plugin of the config, found: plain data, so it crosses to the worker threads. */
export interface PluginRef {
  /** The name or path as the config gives it. */
  specifier: string;
  /** The config field naming it, such as `markdown.remarkPlugins[0]`. */
  field: string;
  /** The module's absolute file. */
  file: string;
  /** What `import()` loads: the file's URL, with the content hash for a local file (so an edit loads anew). */
  url: string;
  /** The file's content hash, or `name@version` of a package. */
  version: string;
  options: Record<string, unknown>;
}

/** Why a plugin could not be found. */
export interface PluginNotFound {
  specifier: string;
  message: string;
}

/** The specifier and options of a config entry. */
export function pluginEntryParts(entry: PluginEntry): { specifier: string; options: Record<string, unknown> } {
  return typeof entry === 'string' ? { specifier: entry, options: {} } : { specifier: entry[0], options: entry[1] };
}

/** Whether a specifier is a path relative to the config file rather than a package name. */
export function isRelativeSpecifier(specifier: string): boolean {
  return specifier.startsWith('./') || specifier.startsWith('../');
}

/** Finds the plugin of `entry` from the site's folder `root`; `field` is where the config names it. */
export function resolvePlugin(entry: PluginEntry, root: string, field: string): PluginRef | PluginNotFound {
  const { specifier, options } = pluginEntryParts(entry);
  if (isRelativeSpecifier(specifier)) {
    const file = resolve(root, specifier);
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch {
      return { specifier, message: `plugin "${specifier}" cannot be found: there is no file ${file}` };
    }
    const version = createHash('sha256').update(bytes).digest('hex');
    return { specifier, field, file, url: `${pathToFileURL(file).href}?v=${version.slice(0, 16)}`, version, options };
  }
  const name = packageNameOf(specifier);
  const folder = findPackageFolder(name, root);
  if (!folder)
    return {
      specifier,
      message: `plugin "${specifier}" cannot be found: no package "${name}" is installed in the site's folder or above it`,
    };
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as PackageManifest;
  const file = entryFileOf(specifier, name, folder, manifest, root);
  if (!file)
    return { specifier, message: `plugin "${specifier}" cannot be found: package "${name}" has no entry for it` };
  return {
    specifier,
    field,
    file,
    url: pathToFileURL(file).href,
    version: `${name}@${manifest.version ?? '0.0.0'}`,
    options,
  };
}

/** The identity of a list of plugins, for cache keys: each one's version and options, in order. */
export function pluginsIdentity(refs: readonly PluginRef[]): string {
  return JSON.stringify(refs.map((ref) => [ref.version, ref.options]));
}

interface PackageManifest {
  version?: string;
  main?: string;
  exports?: unknown;
}

/** "@scope/name/sub" → "@scope/name"; "name/sub" → "name". */
function packageNameOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** The package's folder in the nearest node_modules from `root` upwards, as Node looks for it. */
function findPackageFolder(name: string, root: string): string | undefined {
  for (let dir = root; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * The module file of a package specifier. Node's resolution (from the site's folder) first; an
 * ESM-only package whose `exports` has no condition `require` understands is read by hand (the
 * `import`, then `default` condition of its "." or subpath export).
 */
function entryFileOf(
  specifier: string,
  name: string,
  folder: string,
  manifest: PackageManifest,
  root: string,
): string | undefined {
  try {
    return createRequire(join(root, 'package.json')).resolve(specifier);
  } catch {
    const subpath = `.${specifier.slice(name.length)}`;
    const exported = manifest.exports;
    const target =
      typeof exported === 'string' || Array.isArray(exported)
        ? subpath === '.'
          ? exported
          : undefined
        : exported && typeof exported === 'object'
          ? ((exported as Record<string, unknown>)[subpath] ??
            (subpath === '.' && !Object.keys(exported).some((key) => key.startsWith('.')) ? exported : undefined))
          : undefined;
    const path = conditionTarget(target) ?? (subpath === '.' ? (manifest.main ?? 'index.js') : subpath);
    const file = resolve(folder, path);
    return existsSync(file) ? file : undefined;
  }
}

function conditionTarget(target: unknown): string | undefined {
  if (typeof target === 'string') return target;
  if (Array.isArray(target)) return target.map(conditionTarget).find(Boolean);
  if (target && typeof target === 'object') {
    const conditions = target as Record<string, unknown>;
    for (const key of ['import', 'node', 'default']) {
      const found = conditionTarget(conditions[key]);
      if (found) return found;
    }
  }
  return undefined;
}
