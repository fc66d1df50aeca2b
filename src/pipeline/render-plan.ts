/**
 * Which pages a run renders (pure): every page when nothing is known of the last build, or when
 * the config, templates, islands or stylesheet changed; otherwise the pages whose recorded reads
 * (their read-sets, see `RenderDependency`) touch an input that differs, and the new ones. The
 * last build is known here in memory (`site dev`); written-output.ts plans from what a `site
 * build` persisted. Pages the last build deferred (see `RenderOptions.defer`) are rendered too.
 */
import type { ResolvedConfig } from '../config/load.js';
import type { IslandBundle } from '../islands/bundle.js';
import type { RenderedPage } from '../render/render-pages.js';
import type { TemplateSet } from '../render/types.js';
import type { Entry } from './content-api.js';
import { diffInputs, type RenderedInputs } from './diff.js';

/** One rendered page: its HTML, the scripts it loads, and what its render read when tracked. */
export type PageRender = RenderedPage;

/** The renders of a build: each page's, and for each read, the page files whose render made it. */
export interface PageRenders {
  byFile: Map<string, PageRender>;
  readers: Map<string, Set<string>>;
}

/** What rendering reads. */
export interface RenderStageInput extends RenderedInputs {
  config: ResolvedConfig;
  templates: TemplateSet;
  islands: IslandBundle;
  /** What of the islands pages depend on (see `islandsKeyOf`). */
  islandsKey: string;
  stylesheet: string;
  /** The entries in the order the site lists them. */
  entryList: readonly Entry[];
  /** A fingerprint of the entries when every one has a snapshot (see `Inputs.entriesProof`). */
  entriesProof?: string;
  /** The proof of each entry that has a snapshot (see `Inputs.entryProofs`). */
  entryProofs?: ReadonlyMap<string, string>;
  /**
   * What the social images' bytes depend on besides their cards (files-stage.ts `socialKeyOf`): a
   * build from the same global fingerprint draws every card as the one before, so a card's file
   * the output folder holds as written is kept like a page.
   */
  socialKey?: string;
}

/** What the render stage needs of the last good build. */
export interface RenderedBefore extends RenderedInputs {
  config: ResolvedConfig;
  templates: TemplateSet;
  islandsKey: string;
  stylesheet: string;
  renders: PageRenders;
  /** Page files the build deferred: their renders (and files) are the ones of an earlier build, or missing. */
  pending: ReadonlySet<string>;
}

/** Which pages a run renders. */
export interface RenderPlan {
  /** Indexes into the pages. */
  indexes: number[];
  /** Whether every page is rendered because nothing is known of the last build, or what every page depends on changed. */
  all: boolean;
  /** The render dependencies that differ from the last build (none when nothing is known of it). */
  changed: Set<string>;
}

/** What of the islands every page depends on: the URLs of their entries and of the files those load. */
export function islandsKeyOf(islands: IslandBundle): string {
  return JSON.stringify([islands.entries, islands.graph]);
}

/** Every page. */
export function planAll(input: RenderStageInput): RenderPlan {
  return { indexes: input.pageSet.pages.map((_, index) => index), all: true, changed: new Set() };
}

/**
 * From the last good build in memory: every page when the config, templates, islands or
 * stylesheet changed; else the pages that read something that differs, and the new ones.
 */
export function planFromBuild(input: RenderStageInput, before: RenderedBefore): RenderPlan {
  const changed = diffInputs(before, input, before.renders.readers.keys());
  if (
    before.config !== input.config ||
    before.templates !== input.templates ||
    before.islandsKey !== input.islandsKey ||
    before.stylesheet !== input.stylesheet
  ) {
    return { ...planAll(input), changed };
  }
  const readers = new Set<string>();
  for (const key of changed) for (const file of before.renders.readers.get(key) ?? []) readers.add(file);
  for (const file of before.pending) readers.add(file);
  const { pageSet } = input;
  const indexes =
    pageSet === before.pageSet
      ? [...readers].flatMap((file) => pageSet.indexOf.get(file) ?? [])
      : pageSet.pages.flatMap((page, index) =>
          readers.has(page.file) || !before.renders.byFile.has(page.file) ? [index] : [],
        );
  return { indexes, all: false, changed };
}
