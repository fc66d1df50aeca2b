/**
 * The build cache on disk: content-addressed entries under `node_modules/.cache/site/` of the
 * generator (or `SITE_CACHE_DIR`). Keys are SHA-256 hashes of everything an entry depends on, so
 * an entry is never stale, only unused; a missing, unreadable or half-written entry is a miss.
 * Writes are atomic (atomic-write.ts, without flushing to the disk: a lost entry is only a miss),
 * so a concurrent build never reads a partial entry.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileAtomic } from '../atomic-write.js';

/**
 * The folder of the generator's own package: the nearest folder above this module that holds
 * package.json and bin/site.js. It is found from where the code is (lib/index.js of an installed
 * package, or src/ of a checkout), never from the working folder, so `site` run in any project
 * reads its own version, worker scripts and runtime files.
 */
export function generatorRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) || !existsSync(join(dir, 'bin', 'site.js'))) {
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error(`cannot find the site generator's package above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
  root = dir;
  return dir;
}
let root: string | undefined;

/**
 * Whether the generator runs from a checkout of its repository (src/ beside lib/) rather than
 * from an installed package, which ships lib/ alone.
 */
export function isSourceCheckout(): boolean {
  return existsSync(join(generatorRoot(), 'src', 'cli.ts'));
}

/**
 * The package.json `exports` condition a site's bundles resolve the generator's entries with
 * (typed-site/template and the islands' models): in a checkout their TypeScript sources, so the
 * site builds from the code being edited; in an installed package its built lib/ files.
 */
export function entryConditions(): string[] {
  return isSourceCheckout() ? ['typed-site-source'] : [];
}

/**
 * The node_modules folder the generator's dependencies are installed in: its own in a checkout,
 * else the one that holds the installed package (npm hoists the dependencies there).
 */
export function modulesRoot(): string {
  const own = join(generatorRoot(), 'node_modules');
  if (existsSync(own)) return own;
  let dir = dirname(generatorRoot());
  while (basename(dir) !== 'node_modules') {
    const parent = dirname(dir);
    if (parent === dir) return own;
    dir = parent;
  }
  return dir;
}

/**
 * The folder of an installed package the generator depends on, looked up the way Node does from
 * the generator's own folder (its node_modules, then each one above), or undefined.
 */
export function dependencyFolder(name: string): string | undefined {
  let dir = generatorRoot();
  for (;;) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

const versions = new Map<string, string>();

/**
 * The installed version of a package of the generator, read from its package.json without
 * loading it ("unknown" when it cannot be read): part of the cache keys of what the package makes.
 */
export function installedVersion(name: string): string {
  let version = versions.get(name);
  if (version === undefined) {
    try {
      const folder = dependencyFolder(name);
      if (!folder) throw new Error(`${name} is not installed`);
      version = (JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { version: string }).version;
    } catch {
      version = 'unknown';
    }
    versions.set(name, version);
  }
  return version;
}

/** The root of the build cache: `SITE_CACHE_DIR` when set, else node_modules/.cache/site. */
export function cacheRoot(): string {
  const override = process.env.SITE_CACHE_DIR;
  return override ? resolve(override) : join(modulesRoot(), '.cache', 'site');
}

/** The generator's own version, from its package.json. */
export function generatorVersion(): string {
  ownVersion ??= (JSON.parse(readFileSync(join(generatorRoot(), 'package.json'), 'utf8')) as { version: string })
    .version;
  return ownVersion;
}
let ownVersion: string | undefined;

/**
 * What a per-site file of the cache (a pack, an output folder's render state) is named by: the
 * generator's version, so another version's files are never read, and the path of `path` relative
 * to the cache root, so the cache still answers once the project moves with it (a second
 * checkout, a CI runner restoring node_modules/.cache) while two sites sharing it stay apart.
 */
export function cacheScope(path: string): string {
  return `${generatorVersion()} ${relative(cacheRoot(), path)}`;
}

/**
 * The folders cached text may name, each with the token that stands for it: the site's root, the
 * generator's package and the node_modules folder of its dependencies. The last two sit outside the
 * site's root when a project installs the package one folder up (a workspace, `project/site`
 * beside `project/node_modules`): tokenised too, a copy or a move of the whole project keeps its
 * entries.
 */
function foldersOf(root: string): [folder: string, token: string][] {
  if (knownFolders?.root === root) return knownFolders.folders;
  const folders: [string, string][] = [
    [root, '\u241bsite-root\u241b'],
    [generatorRoot(), '\u241bgenerator\u241b'],
    [modulesRoot(), '\u241bmodules\u241b'],
  ];
  // The longest first, so a folder inside another (the checkout's node_modules inside its root) is
  // replaced by its own token; the same folder twice (a checkout is its own generator) by the first.
  const distinct = folders
    .filter(([folder], index) => folders.findIndex(([other]) => other === folder) === index)
    .sort(([a], [b]) => b.length - a.length);
  knownFolders = { root, folders: distinct };
  return distinct;
}
let knownFolders: { root: string; folders: [string, string][] } | undefined;

let folderPattern: { root: string; pattern: RegExp; tokens: Map<string, string> } | undefined;

/**
 * `text` with the site's root folder, the generator's folder and its node_modules replaced by
 * tokens wherever they name that folder (followed by a separator, a quote or the end; never
 * "/site" within "/site-old"): the same for any checkout of a project, wherever it sits.
 */
export function portableText(text: string, root: string): string {
  const folders = foldersOf(root);
  if (!folders.some(([folder]) => text.includes(folder))) return text;
  if (folderPattern?.root !== root) {
    const alternatives = folders.map(([folder]) => folder.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
    folderPattern = {
      root,
      pattern: new RegExp(`(?:${alternatives})(?=[/\\\\"'\`]|$)`, 'g'),
      tokens: new Map(folders),
    };
  }
  const { pattern, tokens } = folderPattern;
  return text.replace(pattern, (folder) => tokens.get(folder)!);
}

/**
 * Whether bytes V8 serialized name the folder `root` or the generator's (an absolute path in a
 * value): V8 writes a string as Latin-1 or UTF-16 bytes, and a value may hold UTF-8
 * (src/pipeline/entry-html.ts). What names them cannot travel to another checkout.
 */
export function namesFolder(bytes: Uint8Array, root: string): boolean {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return foldersOf(root).some(([folder]) =>
    (['latin1', 'utf16le', 'utf8'] as const).some((encoding) => data.includes(Buffer.from(folder, encoding))),
  );
}

/** Text made by `portableText`, with the tokens back as the folders of this checkout. */
export function localText(text: string, root: string): string {
  if (!text.includes('\u241b')) return text;
  let local = text;
  for (const [folder, token] of foldersOf(root)) local = local.replaceAll(token, folder);
  return local;
}

/** SHA-256 (hex) of the parts, each length-prefixed so no two lists of parts collide. */
export function hashParts(...parts: readonly (string | Uint8Array)[]): string {
  const hash = createHash('sha256');
  for (const part of parts) {
    const bytes = typeof part === 'string' ? Buffer.from(part) : part;
    hash.update(`${bytes.length}:`);
    hash.update(bytes);
  }
  return hash.digest('hex');
}

/** One namespace of the cache (a folder), read and written by key. */
export interface DiskCache {
  /** The folder of the namespace. */
  readonly dir: string;
  /**
   * The entry, or undefined when there is none (or it cannot be read). Synchronous: for many
   * small entries several times faster than `fs.promises.readFile` (1,000 entries: 12-19 ms
   * against 41-45 ms), with no trip through the thread pool per file.
   */
  readSync(key: string): Buffer | undefined;
  /**
   * Stores an entry (given whole or in parts, written in order); failures are swallowed, since a
   * cache that cannot be written is only slower.
   */
  write(key: string, data: string | Uint8Array | readonly Uint8Array[]): Promise<void>;
  /** Resolves once every write started so far has finished. */
  settled(): Promise<void>;
}

/**
 * Entries written at once per namespace. A build queues tens of thousands of writes while its main
 * thread is busy; unbounded, their open files ran past the limit (EMFILE at 48,000 pages).
 */
const writeConcurrency = 16;

/** Opens a namespace such as "markdown" under the cache root. */
export function openDiskCache(namespace: string, root: string = cacheRoot()): DiskCache {
  const dir = join(root, namespace);
  const writes = new Set<Promise<void>>();
  const waiting: (() => void)[] = [];
  let active = 0;
  const store = async (key: string, data: string | Uint8Array | readonly Uint8Array[]) => {
    if (active >= writeConcurrency) await new Promise<void>((resume) => waiting.push(resume));
    active++;
    try {
      await writeFileAtomic(join(dir, key), data, { durable: false });
    } catch {
      // A cache that cannot be written is only slower.
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
  return {
    dir,
    readSync(key) {
      try {
        return readFileSync(join(dir, key));
      } catch {
        return undefined;
      }
    },
    write(key, data) {
      const write = store(key, data).finally(() => writes.delete(write));
      writes.add(write);
      return write;
    },
    async settled() {
      await Promise.all(writes);
    },
  };
}
