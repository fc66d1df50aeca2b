/**
 * What the pages of an output folder were rendered from, kept in the build cache (never in the
 * output folder) so that the next `site build` into that folder renders only the pages whose
 * inputs changed: for each page file, the inputs its render read; for each input, a fingerprint
 * of its value then; one fingerprint of what every page depends on; and the size and modification
 * time of every file of the folder after the write, which prove that a file on disk is the one
 * that was written.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deserialize, serialize } from 'node:v8';
import { writeFileAtomic, writeFileAtomicSync } from '../atomic-write.js';
import { cacheRoot, cacheScope, hashParts, installedVersion } from './disk-cache.js';
import { packReads, unpackReads, type PackedReads, type PageReads } from './page-reads.js';

/** Raise when the meaning of anything stored changes. */
const format = 5;

/** A file as the write left it. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
}

/** What the pages of an output folder were rendered from. */
export interface RenderState {
  /** The fingerprint of what every page depends on (see `generatorFingerprint`). */
  global: string;
  /** The fingerprint of what the pages are expanded from besides the config: equal, every page record is the same. */
  routes: string;
  /**
   * A fingerprint of every input a render may read (the entries' proof, the messages, the page
   * copy), when the entries had one: equal, every fingerprint of `prints` is the same.
   */
  inputs?: string;
  /**
   * Set when the links of the pages passed the check with those inputs and these output files
   * (a fingerprint of `global`, `inputs` and the other files' names): the same again need no check.
   */
  links?: string;
  /**
   * The proof of each entry the inputs were loaded with ("blog/a-slug" → proof, see
   * `Inputs.entryProofs`; those that had one): a field of an entry with the same proof now
   * has the fingerprint it had, without being read.
   */
  entryProofs?: ReadonlyMap<string, string>;
  /** Every input a render read ("entry:blog/a-slug:no", "page:/blog/ [...]"), and the fingerprint of its value (same order). */
  keys: string[];
  prints: string[];
  /** Page file → indexes into `keys` of what its render read (stored packed: page-reads.ts). */
  pages: PageReads;
  /** Output file → its size and modification time after the write. */
  stamps: Map<string, FileStamp>;
  /**
   * Output folder ("" for the folder itself, "blog/a-post") → its modification time after the
   * write: a folder that still has it gained and lost no entry since, so the next write need not
   * list it (emit/write.ts). Missing in a state of an older version.
   */
  folders?: Map<string, number>;
}

/** The files and folders of an output folder as its last write left them (a state's `stamps` and `folders`). */
export interface OutputRecord {
  stamps: ReadonlyMap<string, FileStamp>;
  folders: ReadonlyMap<string, number>;
}

/** What a state recorded of its folder's files and folders; undefined for a state without its folders. */
export function outputRecordOf(state: RenderState | undefined): OutputRecord | undefined {
  return state?.folders && { stamps: state.stamps, folders: state.folders };
}

function stateFile(outDir: string): string {
  return join(cacheRoot(), 'render-state', `${hashParts(cacheScope(outDir)).slice(0, 24)}.bin`);
}

/**
 * A state as stored. Its lists are packed so that reading it back is a few large copies rather
 * than hundreds of thousands of small objects (the real site with 1000 posts: 156,000 inputs,
 * 41,000 files): the inputs and their fingerprints as one text each, split when first asked for
 * (a build with nothing changed asks for neither); the stamps as the files' names in one text
 * and their sizes and times in two Float64Arrays; the pages' reads as in page-reads.ts.
 */
interface StoredState extends Omit<RenderState, 'keys' | 'prints' | 'pages' | 'stamps' | 'entryProofs'> {
  entryProofs?: { keys: string; proofs: string };
  keys: string;
  prints: string;
  pages: PackedReads;
  stamps: { paths: string; sizes: Float64Array; mtimes: Float64Array };
}

/** Neither an input nor a file name holds it. */
const separator = '\u0000';
const joined = (list: readonly string[]) => list.join(separator);
const split = (text: string): string[] => (text === '' ? [] : text.split(separator));

function storedOf(state: RenderState): StoredState {
  const { keys, prints, pages, stamps, entryProofs, ...rest } = state;
  const stamped = [...stamps];
  return {
    ...rest,
    ...(entryProofs
      ? { entryProofs: { keys: joined([...entryProofs.keys()]), proofs: joined([...entryProofs.values()]) } }
      : {}),
    keys: joined(keys),
    prints: joined(prints),
    // A state read back, or patched (page-reads.ts `patchReads`), is stored as it is packed.
    pages: pages.packed ?? packReads(pages),
    stamps: {
      paths: joined(stamped.map(([path]) => path)),
      sizes: Float64Array.from(stamped, ([, stamp]) => stamp.size),
      mtimes: Float64Array.from(stamped, ([, stamp]) => stamp.mtimeMs),
    },
  };
}

function stateOf(stored: StoredState): RenderState {
  const { keys, prints, pages, stamps, entryProofs, ...rest } = stored;
  const paths = split(stamps.paths);
  const proofs = entryProofs && split(entryProofs.proofs);
  let keyList: string[] | undefined;
  let printList: string[] | undefined;
  return {
    ...rest,
    ...(entryProofs && proofs
      ? { entryProofs: new Map(split(entryProofs.keys).map((key, index) => [key, proofs[index]!])) }
      : {}),
    get keys() {
      return (keyList ??= split(keys));
    },
    get prints() {
      return (printList ??= split(prints));
    },
    pages: unpackReads(pages),
    stamps: new Map(paths.map((path, index) => [path, { size: stamps.sizes[index]!, mtimeMs: stamps.mtimes[index]! }])),
  };
}

/** The state of an output folder (absolute, resolved), or undefined when there is none or it cannot be read. */
export function readRenderState(outDir: string): RenderState | undefined {
  try {
    const stored = deserialize(readFileSync(stateFile(outDir))) as {
      format: number;
      scope: string;
      state: StoredState;
    };
    return stored.format === format && stored.scope === cacheScope(outDir) ? stateOf(stored.state) : undefined;
  } catch {
    return undefined;
  }
}

/** Stores the state of an output folder; failures are swallowed (the next build then renders every page). */
export async function writeRenderState(outDir: string, state: RenderState): Promise<void> {
  try {
    await writeFileAtomic(stateFile(outDir), serialize({ format, scope: cacheScope(outDir), state: storedOf(state) }), {
      durable: false,
    });
  } catch {
    // Not kept: the next build renders every page.
  }
}

/** Forgets the state of an output folder: what is in it is no longer known. */
export async function removeRenderState(outDir: string): Promise<void> {
  await rm(stateFile(outDir), { force: true }).catch(() => undefined);
}

let code: string | undefined;

/**
 * The fingerprint of the generator's own code and the packages pages are rendered with: a page
 * rendered by other code may differ, so it is part of every page's inputs. The CLI runs from its
 * bundle (lib/), the tests from the TypeScript sources (src/).
 */
export function generatorFingerprint(): string {
  code ??= hashParts(
    ...['react', 'react-dom', 'preact', 'esbuild'].map((name) => `${name} ${installedVersion(name)}`),
    `node ${process.version} icu ${process.versions.icu ?? ''} ${process.env.NODE_ENV ?? ''}`,
    codeHash(),
  );
  return code;
}

/**
 * The hash of the generator's code files, kept in the cache under their stamps (size, times to
 * the nanosecond, inode): the same files stat the same, and are not read and hashed again (2.8 MB,
 * 6 ms of each build). Files changed in the last two seconds are hashed, and their hash not kept
 * (the rule of entry-snapshots.ts).
 */
function codeHash(): string {
  const files = codeFiles();
  const settled = BigInt(Date.now() - 2000) * 1_000_000n;
  let recent = false;
  const stamps = files.map((file) => {
    const stats = statSync(file, { bigint: true });
    if (stats.mtimeNs > settled || stats.ctimeNs > settled) recent = true;
    return `${file} ${stats.size} ${stats.mtimeNs} ${stats.ctimeNs} ${stats.ino}`;
  });
  const stampsHash = hashParts(...stamps);
  const kept = join(cacheRoot(), 'generator-code.json');
  try {
    const stored = JSON.parse(readFileSync(kept, 'utf8')) as { stamps?: string; hash?: string };
    if (!recent && stored.stamps === stampsHash && typeof stored.hash === 'string') return stored.hash;
  } catch {
    // None kept yet, or unreadable: hashed below.
  }
  const hash = hashParts(...files.map((file) => readFileSync(file)));
  if (!recent) {
    try {
      writeFileAtomicSync(kept, JSON.stringify({ stamps: stampsHash, hash }), { durable: false });
    } catch {
      // Not kept: the next build hashes the files again.
    }
  }
  return hash;
}

/** The generator's code files: those of the bundle's folder (lib/), or of src/ when it runs from its sources. */
function codeFiles(): string[] {
  const here = fileURLToPath(import.meta.url);
  const dir = here.endsWith('.ts') ? dirname(dirname(here)) : dirname(here);
  const entries = readdirSync(dir, { withFileTypes: true, recursive: true });
  return (
    entries
      // Type declarations (lib/types/) do not run.
      .filter(
        (entry) =>
          entry.isFile() && ['.js', '.ts', '.tsx'].includes(extname(entry.name)) && !entry.name.endsWith('.d.ts'),
      )
      .map((entry) => join(entry.parentPath, entry.name))
      .sort()
  );
}
