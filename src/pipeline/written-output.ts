/**
 * Rendering into an output folder an earlier `site build` wrote. With what that build persisted
 * beside the build cache (cache/render-state.ts: each page's read-set, the fingerprint of each
 * input then, the stamp of each file after the write), only the pages that read an input whose
 * fingerprint changed are rendered, and the new ones; the others are kept as they are on disk,
 * which their recorded size and modification time prove. Any change of what every page depends
 * on (config, templates, islands, stylesheet, the generator, the write settings) renders all.
 */
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { hashParts, portableText } from '../cache/disk-cache.js';
import { pageReadsOf, patchReads } from '../cache/page-reads.js';
import { generatorFingerprint, readRenderState, type FileStamp, type RenderState } from '../cache/render-state.js';
import { precompressedCodings } from '../emit/compress.js';
import { isMarked } from '../emit/output-folder.js';
import { realPath } from '../file-paths.js';
import { templatesIdOf } from '../render/templates.js';
import { fingerprintInputs, fingerprintRoutes } from './fingerprints.js';
import { planAll, type RenderPlan, type RenderStageInput } from './render-plan.js';

/** Where a build will be written, and the write settings that shape its files (as text). */
export interface OutputTarget {
  folder: string;
  settings: string;
}

/** An output folder an earlier build wrote, and what that build persisted of it. */
export interface WrittenOutput {
  /** The folder, absolute, links resolved (as the writer names it). */
  outDir: string;
  settings: string;
  state: RenderState | undefined;
  /** The recorded files found on disk as recorded, when another thread checked them (stamp-check.ts); else each is checked as it is asked for. */
  onDisk?: ReadonlySet<string>;
}

/** The pages to render, and the files kept as they are. */
export interface WrittenPlan extends RenderPlan {
  /** Output files kept as written (pages and their siblings), with their stamps. */
  kept: Map<string, FileStamp>;
  /** The fingerprint in this build of each input the persisted read-sets name (in the order of `RenderState.keys`). */
  prints: string[];
  /** The fingerprint of what the pages are expanded from besides the config. */
  routes: string;
  /** The fingerprint of every input a render may read, when it could be taken without them (see `RenderState.inputs`). */
  inputs?: string;
}

/**
 * The output an earlier build wrote at `target`; for a folder the build will make (none there, or
 * an empty one) the same with nothing known of it, so the build records what it writes there
 * (render-stage.ts) and the next one keeps its pages. Undefined for a folder of other files (the
 * write refuses it).
 */
export function readWrittenOutput(target: OutputTarget): WrittenOutput | undefined {
  const outDir = realPath(resolve(target.folder));
  if (isMarked(outDir)) return { outDir, settings: target.settings, state: readRenderState(outDir) };
  return isEmptyFolder(outDir) ? { outDir, settings: target.settings, state: undefined } : undefined;
}

/** Whether `folder` is missing or holds nothing. */
function isEmptyFolder(folder: string): boolean {
  try {
    return readdirSync(folder).length === 0;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/** A page an earlier build wrote there and this one keeps, as text: the ids a link's fragment may name. */
export function readWrittenPage(written: WrittenOutput, file: string): string | undefined {
  try {
    return readFileSync(join(written.outDir, file), 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * The fingerprint of what every page depends on; without the site's root folder (nor the config's
 * name as the working folder sees it), so a copy of the project with its cache keeps its pages.
 */
export function globalFingerprint(input: RenderStageInput, written: WrittenOutput): string {
  const { root } = input.config;
  const config = portableText(JSON.stringify({ ...input.config, file: undefined }), root);
  return hashParts(
    generatorFingerprint(),
    config,
    templatesIdOf(input.templates) ?? '',
    input.islandsKey,
    input.stylesheet,
    written.settings,
    input.socialKey ?? '',
  );
}

/**
 * The stamps of a file of `written` (and of its precompressed siblings) when the folder holds it
 * as the build that persisted its state wrote it; undefined otherwise.
 */
export function keptAsWritten(written: WrittenOutput, file: string): [string, FileStamp][] | undefined {
  return written.state && stampsOnDisk(written, file);
}

/**
 * Whether this build is made from what the build that persisted the folder's state was made
 * from: the same global fingerprint and the same inputs (so the same pages, rendered the same).
 */
export function sameAsWritten(input: RenderStageInput, written: WrittenOutput, global: string): boolean {
  const { state } = written;
  if (!state || state.global !== global) return false;
  const inputs = inputsFingerprint(input);
  return inputs !== undefined && state.inputs === inputs;
}

/** The stamps of every file `written` holds as written under `folder` ("_social/"), when it still holds all of them so; undefined otherwise. */
export function keptFolderAsWritten(written: WrittenOutput, folder: string): Map<string, FileStamp> | undefined {
  const kept = new Map<string, FileStamp>();
  for (const path of written.state?.stamps.keys() ?? []) {
    if (!path.startsWith(folder)) continue;
    const found = stampsOnDisk(written, path);
    if (!found) return undefined;
    for (const [file, stamp] of found) kept.set(file, stamp);
  }
  return kept;
}

/**
 * A fingerprint of every input a render may read, taken without reading them when every entry
 * has a snapshot (the entries' proof; the messages and the page copy are small): undefined otherwise.
 */
function inputsFingerprint(input: RenderStageInput): string | undefined {
  return input.entriesProof === undefined
    ? undefined
    : hashParts(input.entriesProof, JSON.stringify(input.messages), JSON.stringify([...input.contents]));
}

/** The pages that read an input whose fingerprint changed, the new ones, and the ones not on disk as written. */
export function planFromWritten(input: RenderStageInput, written: WrittenOutput, global: string): WrittenPlan {
  const { state } = written;
  const inputs = inputsFingerprint(input);
  // The same inputs as the build that wrote the folder: every fingerprint, the routes' included, is the recorded one.
  const same = state !== undefined && state.global === global && inputs !== undefined && state.inputs === inputs;
  const routes = same ? state.routes : fingerprintRoutes(input);
  // A state that knows of pages only that they read every input (`firstRenderState`) keeps them only for the same inputs.
  if (!state || state.global !== global || (!same && state.keys[0] === everyInput))
    return { ...planAll(input), kept: new Map(), prints: [], routes, inputs };
  const current = same
    ? state.prints
    : fingerprintInputs(input, state.keys, {
        prints: state.prints,
        pagesUnchanged: state.routes === routes,
        entryProofs: state.entryProofs,
      });
  const stale = new Set<number>();
  const changed = new Set<string>();
  current.forEach((print, index) => {
    if (print === state.prints[index]) return;
    stale.add(index);
    changed.add(state.keys[index]!);
  });
  const indexes: number[] = [];
  const kept = new Map<string, FileStamp>();
  const staleReaders = state.pages.reading(stale);
  input.pageSet.pages.forEach((page, index) => {
    const onDisk = state.pages.has(page.file) && !staleReaders.has(page.file) && stampsOnDisk(written, page.file);
    if (onDisk) for (const [path, stamp] of onDisk) kept.set(path, stamp);
    else indexes.push(index);
  });
  return {
    indexes,
    all: indexes.length === input.pageSet.pages.length,
    changed,
    kept,
    prints: current,
    routes,
    inputs,
  };
}

/** The recorded stamps of a page file and its siblings, when the disk still holds them so. */
function stampsOnDisk({ outDir, state, onDisk }: WrittenOutput, file: string): [string, FileStamp][] | undefined {
  const stamps = state?.stamps;
  if (!stamps?.has(file)) return undefined;
  const found: [string, FileStamp][] = [];
  for (const path of [file, ...precompressedCodings.map((coding) => file + coding.extension)]) {
    const stamp = stamps.get(path);
    if (!stamp) continue;
    if (onDisk) {
      if (!onDisk.has(path)) return undefined;
      found.push([path, stamp]);
      continue;
    }
    try {
      const { size, mtimeMs } = lstatSync(join(outDir, path));
      if (size !== stamp.size || mtimeMs !== stamp.mtimeMs) return undefined;
    } catch {
      return undefined;
    }
    found.push([path, stamp]);
  }
  return found;
}

/** The read-sets of the pages of a build, as indexes into one list of inputs. */
export interface ReadSets {
  keys: string[];
  pages: Map<string, number[]>;
  /** How many of `keys` are the seed's (see `createReadSets`), at the same indexes. */
  seeded: number;
  /** Adds the read-set of a page. */
  add(file: string, reads: Iterable<string>): void;
}

/**
 * Read-sets with no page yet. With `seed` (the inputs of the state the build read, whose
 * fingerprints it has), those keep their indexes: a kept page's reads are taken as they are,
 * where mapping each back to its input and on to a new index took 1.7 s of a one-post edit of the
 * real site with 1000 posts (18 million reads).
 */
export function createReadSets(seed: readonly string[] = []): ReadSets {
  const keys = [...seed];
  const table = new Map(keys.map((key, index) => [key, index]));
  const indexOf = (key: string) => {
    let index = table.get(key);
    if (index === undefined) {
      index = keys.length;
      keys.push(key);
      table.set(key, index);
    }
    return index;
  };
  const pages = new Map<string, number[]>();
  return { keys, pages, seeded: seed.length, add: (file, reads) => pages.set(file, Array.from(reads, indexOf)) };
}

/**
 * What to persist once the build is written: the read-set of every page (rendered now, in
 * `rendered`, or kept with its earlier one), with the fingerprint of each input in this build;
 * undefined when that is what is persisted already (nothing rendered, nothing changed, no page gone).
 * `rendered` is seeded with the earlier state's inputs when the plan has their fingerprints.
 */
export function nextRenderState(
  input: RenderStageInput,
  written: WrittenOutput,
  plan: WrittenPlan,
  rendered: ReadSets,
  global: string,
): Omit<RenderState, 'stamps'> | undefined {
  const earlier = written.state;
  if (
    earlier &&
    rendered.pages.size === 0 &&
    plan.changed.size === 0 &&
    earlier.routes === plan.routes &&
    earlier.inputs === plan.inputs &&
    earlier.pages.size === input.pageSet.pages.length
  )
    return undefined;
  // Nothing rendered: the earlier inputs are the seed all the same.
  const reads =
    earlier && rendered.pages.size === 0 && !rendered.seeded && plan.prints.length
      ? createReadSets(earlier.keys)
      : rendered;
  // With the earlier inputs as the seed, the pages rendered now patch the earlier reads, where
  // packing every page's again took 2.1 s of a one-post edit of the real site with 1000 posts.
  const patched =
    earlier && reads.seeded
      ? patchReads(
          earlier.pages,
          reads.pages,
          [...earlier.pages.files()].filter((file) => !input.pageSet.byFile.has(file)),
        )
      : undefined;
  // Else the kept pages in the order they were stored, which keeps neighbours together (page-reads.ts).
  if (earlier && !patched) {
    for (const [file, read] of earlier.pages.entries()) {
      if (!plan.kept.has(file)) continue;
      if (reads.seeded) reads.pages.set(file, read as number[]);
      else
        reads.add(
          file,
          read.map((at) => earlier.keys[at]!),
        );
    }
  }
  let { keys } = reads;
  let pageReads = reads.pages;
  // The seed's inputs have their fingerprints in the plan; the others are taken now.
  const earlierIndex =
    !reads.seeded && earlier && plan.prints.length
      ? new Map(earlier.keys.map((key, index) => [key, index]))
      : undefined;
  const known = (key: string, index: number) => {
    if (index < reads.seeded) return plan.prints[index];
    const at = earlierIndex?.get(key);
    return at === undefined ? undefined : plan.prints[at];
  };
  const missing = keys.filter((key, index) => known(key, index) === undefined);
  const computed = new Map(
    missing.length ? fingerprintInputs(input, missing).map((print, index) => [missing[index]!, print]) : [],
  );
  let prints = keys.map((key, index) => known(key, index) ?? computed.get(key)!);
  // Inputs of the seed that no page reads any more are dropped once they are a quarter of them all
  // (checked when every page is packed again).
  if (reads.seeded && !patched) {
    const used = new Uint8Array(keys.length);
    for (const list of pageReads.values()) for (const at of list) used[at] = 1;
    const count = used.reduce((sum, flag) => sum + flag, 0);
    if (keys.length - count > keys.length / 4) {
      const moved = new Int32Array(keys.length).fill(-1);
      let next = 0;
      used.forEach((flag, index) => {
        if (flag) moved[index] = next++;
      });
      keys = keys.filter((_, index) => used[index]);
      prints = prints.filter((_, index) => used[index]);
      pageReads = new Map([...pageReads].map(([file, list]) => [file, list.map((at) => moved[at]!)]));
    }
  }
  return {
    global,
    routes: plan.routes,
    ...(plan.inputs === undefined ? {} : { inputs: plan.inputs }),
    ...(input.entryProofs ? { entryProofs: input.entryProofs } : {}),
    keys,
    prints,
    pages: patched ?? pageReadsOf(pageReads),
  };
}

/** The input a page recorded by `firstRenderState` reads: every one (the key is no input's, see `RenderDependency`). */
export const everyInput = '*';

/**
 * What to persist of a build that rendered every page untracked (the first into its folder):
 * each page read every input, so a build from the same inputs keeps them all and any change
 * renders them all, tracked. Needs the inputs' fingerprint (every entry has a snapshot).
 */
export function firstRenderState(
  input: RenderStageInput,
  routes: string,
  inputs: string,
  global: string,
): Omit<RenderState, 'stamps'> {
  const pages = new Map(input.pageSet.pages.map((page) => [page.file, [0]]));
  return {
    global,
    routes,
    inputs,
    ...(input.entryProofs ? { entryProofs: input.entryProofs } : {}),
    keys: [everyInput],
    prints: [inputs],
    pages: pageReadsOf(pages),
  };
}

/** What to persist of the pages, with the fingerprint of the links found whole (see `RenderState.links`). */
export function withLinksChecked(state: Omit<RenderState, 'stamps'>, links: string): Omit<RenderState, 'stamps'> {
  return { ...state, links };
}
