/**
 * Rendering into an output folder an earlier `site build` wrote. With what that build persisted
 * beside the build cache (cache/render-state.ts: each page's read-set, the fingerprint of each
 * input then, the stamp of each file after the write), only the pages that read an input whose
 * fingerprint changed are rendered, and the new ones; the others are kept as they are on disk,
 * which their recorded size and modification time prove. Any change of what every page depends
 * on (config, templates, islands, stylesheet, the generator, the write settings) renders all.
 */
import { lstatSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { hashParts } from '../cache/disk-cache.js';
import { generatorFingerprint, readRenderState, type FileStamp, type RenderState } from '../cache/render-state.js';
import { precompressedCodings } from '../emit/compress.js';
import { isMarked } from '../emit/output-folder.js';
import { realPath } from '../file-paths.js';
import { templatesFileOf } from '../render/templates.js';
import { fingerprintInputs } from './fingerprints.js';
import { planAll, type PageRender, type RenderPlan, type RenderStageInput } from './render-stage.js';

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
}

/** The pages to render, and the files kept as they are. */
export interface WrittenPlan extends RenderPlan {
  /** Output files kept as written (pages and their siblings), with their stamps. */
  kept: Map<string, FileStamp>;
  /** Every input the persisted read-sets name, and its fingerprint in this build. */
  prints: Map<string, string>;
}

/** The output an earlier build wrote at `target`, or undefined when there is none: a first build renders every page untracked. */
export function readWrittenOutput(target: OutputTarget): WrittenOutput | undefined {
  const outDir = realPath(resolve(target.folder));
  if (!isMarked(outDir)) return undefined;
  return { outDir, settings: target.settings, state: readRenderState(outDir) };
}

/** The fingerprint of what every page depends on. */
export function globalFingerprint(input: RenderStageInput, written: WrittenOutput): string {
  return hashParts(generatorFingerprint(), JSON.stringify(input.config), templatesFileOf(input.templates) ?? '', input.islandsKey, input.stylesheet, written.settings);
}

/** The pages that read an input whose fingerprint changed, the new ones, and the ones not on disk as written. */
export function planFromWritten(input: RenderStageInput, written: WrittenOutput, global: string): WrittenPlan {
  const { state } = written;
  if (!state || state.global !== global) return { ...planAll(input), kept: new Map(), prints: new Map() };
  const earlier = new Map(state.keys.map((key, index) => [key, state.prints[index]!]));
  const current = fingerprintInputs(input, state.keys, earlier);
  const stale = new Set<number>();
  const changed = new Set<string>();
  current.forEach((print, index) => {
    if (print === state.prints[index]) return;
    stale.add(index);
    changed.add(state.keys[index]!);
  });
  const indexes: number[] = [];
  const kept = new Map<string, FileStamp>();
  input.pageSet.pages.forEach((page, index) => {
    const reads = state.pages.get(page.file);
    const onDisk = reads && !reads.some((read) => stale.has(read)) && stampsOnDisk(written.outDir, page.file, state.stamps);
    if (onDisk) for (const [path, stamp] of onDisk) kept.set(path, stamp);
    else indexes.push(index);
  });
  const prints = new Map(state.keys.map((key, index) => [key, current[index]!]));
  return { indexes, all: indexes.length === input.pageSet.pages.length, changed, kept, prints };
}

/** The recorded stamps of a page file and its siblings, when the disk still holds them so. */
function stampsOnDisk(outDir: string, file: string, stamps: ReadonlyMap<string, FileStamp>): [string, FileStamp][] | undefined {
  if (!stamps.has(file)) return undefined;
  const found: [string, FileStamp][] = [];
  for (const path of [file, ...precompressedCodings.map((coding) => file + coding.extension)]) {
    const stamp = stamps.get(path);
    if (!stamp) continue;
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

/**
 * What to persist once the build is written: the read-set of every page (rendered now, or kept
 * with its earlier one), with the fingerprint of each input in this build.
 */
export function nextRenderState(input: RenderStageInput, written: WrittenOutput, plan: WrittenPlan, rendered: ReadonlyMap<string, PageRender>, global: string): Omit<RenderState, 'stamps'> {
  const keys: string[] = [];
  const table = new Map<string, number>();
  const indexOf = (key: string) => {
    let index = table.get(key);
    if (index === undefined) {
      index = keys.length;
      keys.push(key);
      table.set(key, index);
    }
    return index;
  };
  const earlier = written.state;
  const pages = new Map<string, number[]>();
  for (const page of input.pageSet.pages) {
    const reads = rendered.get(page.file)?.reads;
    if (reads) pages.set(page.file, [...reads].map(indexOf));
    else if (earlier && plan.kept.has(page.file)) pages.set(page.file, earlier.pages.get(page.file)!.map((read) => indexOf(earlier.keys[read]!)));
  }
  const missing = keys.filter((key) => !plan.prints.has(key));
  const computed = new Map(missing.length ? fingerprintInputs(input, missing, plan.prints).map((print, index) => [missing[index]!, print]) : []);
  const prints = keys.map((key) => plan.prints.get(key) ?? computed.get(key)!);
  return { global, keys, prints, pages };
}
