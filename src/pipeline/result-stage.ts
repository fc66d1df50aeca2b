/**
 * Stage 7: the result. The files of the build (what `site build` writes), what changed and what was
 * removed since the last good build, the URLs of the pages among them, and whether a page can swap
 * its stylesheet instead of reloading. A run that rendered every page makes the set anew; any other
 * run patches the last build's set in place, in one synchronous step. A page the run deferred keeps
 * its earlier file until `renderPending` renders it.
 */
import { SiteError } from '../errors.js';
import type { FileStamp, OutputRecord, RenderState } from '../cache/render-state.js';
import { putFiles, sameContents, type OutputFiles } from '../output-files.js';
import { SpilledFiles, spilledHtmlOf } from '../spill.js';
import type { Entry } from './content-api.js';
import type { ScheduledTranslation } from '../content/schedule.js';
import type { SiteFiles } from './files-stage.js';
import type { PageRender, PageRenders, RenderedBefore, RenderPlan } from './render-plan.js';
import type { RenderedPages } from './render-stage.js';

/** A good build: what it was made from and what it made. */
export interface Build extends RenderedBefore {
  /** The entries in the order the site lists them. */
  entryList: Entry[];
  /** The translations left out until their day, in the order they appear. */
  scheduled: ScheduledTranslation[];
  siteFiles: SiteFiles;
  /** Every output file, as `site build` writes it, but those kept as written. */
  files: OutputFiles;
  /** Output files an earlier build wrote that are left as they are, with their stamps (see written-output.ts). */
  kept: Map<string, FileStamp>;
  /** What to persist of the pages once the files are written (see cache/render-state.ts). */
  renderState?: Omit<RenderState, 'stamps'>;
  /** What the output folder's last write recorded of it (for `writeSite`). */
  recorded?: OutputRecord;
  /** The deferred pages: `renderPending` renders them. */
  pending: Set<string>;
  /** Renders a page of this build here, tracked (set when the run deferred pages). */
  renderLater?(index: number): PageRender;
}

/** What a build changed in the output. */
export interface OutputChanges {
  /** Files added or changed, and removed, since the last good build. */
  changed: string[];
  removed: string[];
  /** URLs of the pages among them, sorted. */
  urls: string[];
  /** Set when nothing but the stylesheet changed: a page can swap it without reloading. */
  stylesheet?: { from: string; to: string };
}

/** Makes the build of this run from its parts and the last good build (which it may update in place). */
export function assembleBuild(
  before: Build | undefined,
  now: Omit<Build, 'files' | 'renders' | 'kept' | 'renderState' | 'pending' | 'renderLater'>,
  renders: RenderedPages,
): { build: Build } & OutputChanges {
  const { plan } = renders;
  const changed: string[] = [];
  const removed: string[] = [];
  const pending = new Set(renders.deferred.map((index) => now.pageSet.pages[index]!.file));
  const later = { pending, renderLater: renders.renderLater };
  let build: Build;
  if (!before || plan.all) {
    // Spilled pages stay where they are: the files name them.
    const files: OutputFiles = renders.spill
      ? new SpilledFiles(renders.spill, now.siteFiles.built)
      : new Map(now.siteFiles.built);
    for (const page of now.pageSet.pages) {
      const render = renders.rendered.get(page.file);
      const ref = render && spilledHtmlOf(render);
      if (ref && files instanceof SpilledFiles) {
        files.setRef(page.file, ref);
        continue;
      }
      const data = render?.html ?? (pending.has(page.file) ? before?.files.get(page.file) : undefined);
      if (data !== undefined) files.set(page.file, data);
    }
    for (const group of [now.siteFiles.routes, now.siteFiles.feeds, now.siteFiles.social, now.siteFiles.images])
      putFiles(files, group);
    if (before) {
      for (const [path, data] of files) {
        const old = before.files.get(path);
        if (old === undefined || !sameBytes(old, data)) changed.push(path);
      }
      for (const path of before.files.keys()) if (!files.has(path)) removed.push(path);
    } else {
      for (const path of files.keys()) changed.push(path);
    }
    const readers = new Map<string, Set<string>>();
    for (const [file, render] of renders.rendered) indexReads(readers, file, render.reads);
    build = {
      ...now,
      renders: { byFile: renders.rendered, readers },
      files,
      kept: renders.kept,
      renderState: renders.renderState,
      recorded: renders.recorded,
      ...later,
    };
  } else {
    const {
      files,
      renders: { byFile, readers },
    } = before;
    const put = (path: string, data: string | Uint8Array) => {
      const old = files.get(path);
      if (old !== undefined && sameBytes(old, data)) return;
      files.set(path, data);
      changed.push(path);
    };
    const drop = (path: string) => {
      if (files.delete(path)) removed.push(path);
    };
    const replace = (old: ReadonlyMap<string, string | Uint8Array>, next: ReadonlyMap<string, string | Uint8Array>) => {
      if (old === next) return;
      for (const path of old.keys()) if (!next.has(path)) drop(path);
      for (const [path, data] of next) put(path, data);
    };
    replace(before.siteFiles.built, now.siteFiles.built);
    if (now.pageSet !== before.pageSet) {
      for (const file of before.pageSet.byFile.keys()) {
        if (now.pageSet.byFile.has(file)) continue;
        unindexReads(readers, file, byFile.get(file)?.reads);
        byFile.delete(file);
        drop(file);
      }
    }
    for (const [file, render] of renders.rendered) {
      unindexReads(readers, file, byFile.get(file)?.reads);
      indexReads(readers, file, render.reads);
      byFile.set(file, render);
      put(file, render.html);
    }
    replace(before.siteFiles.routes, now.siteFiles.routes);
    replace(before.siteFiles.feeds, now.siteFiles.feeds);
    replace(before.siteFiles.social, now.siteFiles.social);
    replace(before.siteFiles.images, now.siteFiles.images);
    build = {
      ...now,
      renders: { byFile, readers },
      files,
      kept: renders.kept,
      renderState: renders.renderState,
      ...later,
    };
  }

  const pageOf = (file: string) => now.pageSet.byFile.get(file) ?? before?.pageSet.byFile.get(file);
  const urls = [...new Set([...changed, ...removed].flatMap((file) => pageOf(file)?.url ?? []))].sort();
  return { build, changed, removed, urls, stylesheet: stylesheetSwap(before, build, plan) };
}

/** The stylesheet swap, when the stylesheet's link is all that changed in every page. */
function stylesheetSwap(before: Build | undefined, now: Build, plan: RenderPlan): OutputChanges['stylesheet'] {
  if (!before || !plan.all || before.stylesheet === now.stylesheet || plan.changed.size > 0) return undefined;
  if (before.config !== now.config || before.templates !== now.templates || before.islandsKey !== now.islandsKey)
    return undefined;
  const from = before.stylesheet;
  const to = now.stylesheet;
  const html = (renders: PageRenders, file: string) => renders.byFile.get(file)?.html;
  // A deferred page is not compared: it is rendered anew before it is served.
  const onlyLinks = now.pageSet.pages.every(
    (page) =>
      now.pending.has(page.file) ||
      html(now.renders, page.file) === html(before.renders, page.file)?.split(from).join(to),
  );
  return onlyLinks ? { from, to } : undefined;
}

/**
 * Renders deferred pages of `build` (those of `files` that are deferred, else up to `limit` of
 * them) and puts them in its files and renders, in place. A page that fails stays deferred.
 */
export function renderPending(
  build: Build,
  options: { files?: Iterable<string>; limit?: number },
): { rendered: string[]; errors: SiteError[] } {
  const rendered: string[] = [];
  const errors: SiteError[] = [];
  if (!build.pending.size || !build.renderLater) return { rendered, errors };
  const { byFile, readers } = build.renders;
  const wanted = options.files
    ? [...options.files].filter((file) => build.pending.has(file))
    : [...build.pending].slice(0, options.limit ?? Infinity);
  for (const file of wanted) {
    const index = build.pageSet.indexOf.get(file);
    if (index === undefined) continue;
    let render: PageRender;
    try {
      render = build.renderLater(index);
    } catch (error) {
      if (!(error instanceof SiteError)) throw error;
      errors.push(error);
      continue;
    }
    unindexReads(readers, file, byFile.get(file)?.reads);
    indexReads(readers, file, render.reads);
    byFile.set(file, render);
    build.files.set(file, render.html);
    build.pending.delete(file);
    rendered.push(file);
  }
  return { rendered, errors };
}

function indexReads(readers: Map<string, Set<string>>, file: string, keys: PageRender['reads']): void {
  for (const key of keys ?? []) {
    const files = readers.get(key);
    if (files) files.add(file);
    else readers.set(key, new Set([file]));
  }
}

function unindexReads(readers: Map<string, Set<string>>, file: string, keys: PageRender['reads']): void {
  for (const key of keys ?? []) {
    const files = readers.get(key);
    files?.delete(file);
    if (files?.size === 0) readers.delete(key);
  }
}

/** Whether two versions of a file are the same bytes (a page's text against a page's text, or bytes against bytes). */
export function sameBytes(a: string | Uint8Array, b: string | Uint8Array): boolean {
  return (typeof a === 'string') === (typeof b === 'string') && sameContents(a, b);
}
