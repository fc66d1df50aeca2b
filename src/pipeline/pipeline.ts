/**
 * The pipeline of `site build`, `site check`, `site dev` and the admin's live site: config → inputs
 * → routes → copy → render → site files → links → result → output (place, search index, buildEnd,
 * write, path lock: output-stage.ts, for a pipeline that publishes), one entry function per stage, each timed. Every stage
 * output is kept with the key it was made from. The first run is a cold build; in an incremental pipeline a
 * run with changes forgets the inputs the changed files feed, loads those again, and renders only
 * the pages whose recorded reads differ, with the same files as a cold build by construction. A
 * run that finds problems leaves the last good build in place.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { DeploySettings } from '../config/deploy.js';
import type { ResolvedConfig } from '../config/load.js';
import type { HostTarget } from '../config/schema.js';
import type { OutputFiles } from '../output-files.js';
import { collectSiteErrors, SiteError } from '../errors.js';
import { hashParts, portableText } from '../cache/disk-cache.js';
import { generatorFingerprint, outputRecordOf } from '../cache/render-state.js';
import { pluginHeadOf } from '../render/plugin-head.js';
import { isRelativeSpecifier } from '../config/plugin-resolve.js';
import type { IslandRuntime } from '../islands/bundle.js';
import { classifyChange, staleOutputs, type WatchedPaths } from './changes.js';
import { loadPageCopy } from './copy-stage.js';
import { createSiteFiles, siteFileNames, socialKeyOf, startSocialImages } from './files-stage.js';
import { checkContentComponents, entryKey, positionRenderProblem, socialFolder } from './content-api.js';
import { todayIn } from '../content/schedule.js';
import { sourcesOf } from '../config/sources.js';
import { loadInputs, loadSiteConfig, type InputOptions } from './inputs-stage.js';
import { checkStampsAside } from './stamp-check.js';
import { islandsKeyOf } from './render-plan.js';
import { renderStage } from './render-stage.js';
import { assembleBuild, renderPending, type Build } from './result-stage.js';
import { expandRoutes } from './routes-stage.js';
import { createRuntime, type EsbuildMode, type RuntimeStats } from './runtime.js';
import type { Progress } from '../progress.js';
import { spilledHtmlOf, type SpillRef } from '../spill.js';
import { createStageMemo, type StageRun } from './stage.js';
import { createLinkChecker } from './links-stage.js';
import { createOutputStage, type OutputReport, type Publish } from './output-stage.js';
import {
  globalFingerprint,
  keptAsWritten,
  keptFolderAsWritten,
  readWrittenOutput,
  sameAsWritten,
  readWrittenPage,
  withLinksChecked,
} from './written-output.js';

/** Options of `createPipeline`. */
export interface PipelineOptions {
  /** Path of site.config.yaml. */
  config: string;
  /** Include entries marked as drafts. */
  drafts?: boolean;
  /** Include entries dated after today (scheduled); by default they appear on their day. */
  future?: boolean;
  /** Today as an ISO date in the site's time zone (default: the clock's date there, at each run); tests and the admin's clock set it. */
  today?: (timeZone: string) => string;
  /** The client runtime of the islands (default preact/compat). */
  islandRuntime?: IslandRuntime;
  /**
   * Run again after changes (`site dev`): pages are rendered on the main thread with their reads
   * recorded, so a later run renders only what a change affects, and the workers are kept between
   * runs. Default false: one run (`site build`), whose pool is closed before the main thread renders.
   */
  incremental?: boolean;
  /**
   * Worker threads for Markdown and rendering. By default one per core besides the main thread,
   * used only when the work is large enough to pay for starting them; 0 never uses workers; a
   * positive number always uses that many and leaves all chunks to them.
   */
  workers?: number;
  /** Read and write the build cache (Markdown, front matter, YAML, esbuild outputs); default true. */
  cache?: boolean;
  /** How esbuild steps run (default 'cache'). */
  esbuild?: EsbuildMode;
  /** The host the output is for, instead of the config's `output.target` (`site build --target`). */
  target?: HostTarget;
  /**
   * false: no social images, whatever `output.socialImages` says (`site build --no-social-images`;
   * `site dev` and `site check`, where no page is shared and drawing would only slow them down).
   */
  socialImages?: boolean;
  /** Where the site is published when not at `site.origin`, and whether it is a preview (see config/deploy.ts). */
  deploy?: DeploySettings;
  /**
   * Where the run's final files go, through the output stages (output-stage.ts): written into a
   * folder (`site build`), swapped into a served one (the admin's live site) or served from memory
   * (`site dev`). A `site build` into a folder that holds an earlier build whose read-sets were
   * persisted renders only the pages whose inputs changed since, and keeps the others as they are
   * (`Build.kept`). Without it a run ends with the result (`site check`).
   */
  publish?: Publish;
  /** Where the stages count how far they are, for a long build's progress (default: nowhere). */
  progress?: Progress;
}

/** A changed file or folder, as a watcher reports it. */
export interface FileChange {
  path: string;
  directory?: boolean;
}

/** What a successful run did. */
export interface RunSuccess {
  ok: true;
  /** Counts the successful runs of this pipeline, from 1. */
  build: number;
  /** Inputs loaded again: config, templates, islands, styles (stylesheet and public/), messages, entries, copy. */
  reloaded: string[];
  /** Pages rendered in this run, deferred (see `RunOptions.first`), and the pages of the site. */
  rendered: number;
  deferred: number;
  pages: number;
  /** Output files added or changed, and removed, since the last good build. */
  changed: string[];
  removed: string[];
  /** URLs of the pages among them. */
  urls: string[];
  /** Set when nothing but the stylesheet changed: a page can swap it without reloading. */
  stylesheet?: { from: string; to: string };
  ms: number;
  /** Milliseconds per stage: config, inputs, routes, copy, render, site files, links, result. */
  timings: Record<string, number>;
  /** Problems that do not stop the build (a file that is not UTF-8, an untranslated entry, say). */
  warnings: SiteError[];
  /** Notes printed only with --verbose (a file of public/ left out, a draft left out). */
  infos: SiteError[];
  /** What the output stages wrote or published (a pipeline with `publish` other than 'memory'). */
  output?: OutputReport;
}

/** A run that found problems; the last good build stays in place. */
export interface RunFailure {
  ok: false;
  reloaded: string[];
  /** The problems that stopped it. */
  errors: SiteError[];
  /** The problems found on the way that would not have stopped it. */
  warnings: SiteError[];
  /** An unexpected failure (a bug in the generator or a template, not bad input). */
  crash?: unknown;
  ms: number;
}

/** The outcome of a run. */
export type RunOutcome = RunSuccess | RunFailure;

/** Options of one run. */
export interface RunOptions {
  /**
   * In an incremental pipeline, after its first run: the page files open in a browser. When the
   * run has more than a few dozen pages to render, it renders these and defers the others to
   * `renderPending` (on request, or in the background), so the open pages reload at once.
   */
  first?: ReadonlySet<string>;
}

/** A pipeline and the last good build it made. */
export interface Pipeline {
  /** Runs the stages; with changes, after forgetting what they make stale. Runs one at a time. */
  run(changes?: readonly FileChange[], options?: RunOptions): Promise<RunOutcome>;
  /** The last good build, undefined before the first. */
  readonly lastBuild: Build | undefined;
  /** The files of the last good build, every deferred page rendered: the build's own, before the output stages. */
  readonly files: OutputFiles | undefined;
  /**
   * The final files of the last good build, as the output stages make them (placed for the host,
   * the search index included), every deferred page rendered first; undefined without `publish`
   * or a good build.
   */
  output(): Promise<OutputFiles | undefined>;
  /**
   * Renders deferred pages of the last good build: those of `files`, else up to `limit` of them
   * (all without either). A page whose render fails stays deferred; its error is returned.
   */
  renderPending(options?: { files?: Iterable<string>; limit?: number }): { rendered: string[]; errors: SiteError[] };
  /** How many pages of the last good build are deferred. */
  readonly pending: number;
  /** The config of the last good build. */
  readonly config: ResolvedConfig | undefined;
  /** The config file and the folders to watch (defaults until a config has loaded). */
  watched(): WatchedPaths;
  stats(): RuntimeStats;
  /** Ends the workers and esbuild contexts. */
  dispose(): Promise<void>;
}

/** The places a change of which a run must know about, from the config's Sources. */
function watchedPathsOf(configFile: string, config: ResolvedConfig): WatchedPaths {
  const sources = sourcesOf(config);
  return {
    configFile,
    dirs: config.dirs,
    messages: sources.messagesFolder,
    copy: sources.copyFolder,
    collections: Object.fromEntries(Object.keys(config.collections).map((name) => [name, sources.collection(name)])),
    // Loaded again with the config, which then has their new hashes (config/plugin-resolve.ts).
    pluginFiles: [...config.extensions.remark, ...config.extensions.rehype, ...config.extensions.site]
      .filter((ref) => isRelativeSpecifier(ref.specifier))
      .map((ref) => ref.file),
  };
}

/** The bytes of a file, undefined when it cannot be read (gone since it was loaded). */
function bytesOf(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Creates the pipeline of the site of `options.config`. */
export function createPipeline(options: PipelineOptions): Pipeline {
  const configPath = resolve(options.config);
  const incremental = options.incremental === true;
  const runtime = createRuntime({
    scope: configPath,
    incremental,
    workers: options.workers,
    cache: options.cache,
    esbuild: options.esbuild,
    progress: options.progress,
  });
  const today = options.today ?? ((timeZone: string) => todayIn(timeZone));
  const inputOptions: InputOptions = {
    drafts: Boolean(options.drafts),
    publishedBy: (config) => (options.future ? undefined : today(config.site.timeZone)),
    islandRuntime: options.islandRuntime,
    runtime,
  };
  const memo = createStageMemo();
  const links = createLinkChecker();
  const output =
    options.publish &&
    createOutputStage(options.publish, {
      cache: options.cache !== false,
      workers: options.workers,
      progress: options.progress,
    });
  let lastBuild: Build | undefined;
  let lastWatched: WatchedPaths | undefined;
  let builds = 0;
  let queue: Promise<unknown> = Promise.resolve();

  function watched(): WatchedPaths {
    if (lastWatched) return lastWatched;
    // Before a config has loaded: the default folders.
    const root = dirname(configPath);
    const content = join(root, 'content');
    return {
      configFile: configPath,
      dirs: { content, templates: join(root, 'templates'), public: join(root, 'public') },
      messages: join(content, 'messages'),
      copy: join(content, 'pages'),
      collections: {},
    };
  }

  async function attempt(run: StageRun, runOptions: RunOptions): Promise<RunOutcome> {
    // Every stage records its problems in the run's diagnostics (through `run.load`, which also
    // reports again those of the outputs kept from an earlier run).
    const { diagnostics } = run;
    const failed = (): RunFailure => ({
      ok: false,
      reloaded: [...run.reloaded],
      errors: diagnostics.of('error'),
      warnings: diagnostics.of('warning'),
      ms: run.elapsed(),
    });
    const fatal = () => diagnostics.hasErrors;

    const loadedConfig = await run.time('config', () =>
      loadSiteConfig(run, configPath, {
        runtime,
        previous: lastBuild?.config,
        deploy: options.deploy,
        check: output && checkOutput,
        target: options.target,
        socialImages: options.socialImages,
      }),
    );
    const config = loadedConfig.value;
    if (!config) return failed();
    lastWatched = watchedPathsOf(configPath, config);
    runtime.configRead(config);

    // The folder an earlier build wrote, read now: a large one's files are checked on another
    // thread while this one loads the inputs (stamp-check.ts).
    const outputTarget = incremental ? undefined : output?.target(config);
    const writtenBefore = outputTarget ? readWrittenOutput(outputTarget) : undefined;
    const onDisk = writtenBefore?.state
      ? checkStampsAside(writtenBefore.outDir, writtenBefore.state.stamps)
      : undefined;
    onDisk?.catch(() => undefined);

    // `site build`: the entries' HTML, then the pages, go to a file on disk as they are made (spill.ts).
    const spill = incremental ? undefined : output?.spill(config);
    const inputs = await run.time('inputs', () => loadInputs(run, config, { ...inputOptions, spill }));

    // Taken before expansion, which moves the config's lock of published paths on to the pages.
    const configText = runtime.pageSets ? bytesOf(resolve(config.file)) : undefined;
    const keptPages = configText &&
      runtime.pageSets && {
        cache: runtime.pageSets,
        key: hashParts(generatorFingerprint(), portableText(JSON.stringify(config), config.root), configText),
        counted: runtime.countPageSetKept,
      };
    const routes = await run.time('routes', () => expandRoutes(run, config, inputs.entries, keptPages));
    const pageSet = routes.value;
    if (!pageSet) {
      // The esbuild steps end within this run, so the next one never overlaps them.
      await Promise.allSettled([inputs.templates, inputs.islands, inputs.assets]);
      return failed();
    }

    // The site plugins' head tags, before anything renders: the CSP every page carries allows them all.
    try {
      pluginHeadOf(config, pageSet.pages);
    } catch (error) {
      if (!(error instanceof SiteError)) throw error;
      await Promise.allSettled([inputs.templates, inputs.islands, inputs.assets]);
      diagnostics.add(error);
      return failed();
    }

    const copy = await run.time('copy', async () => {
      const templates = await inputs.templates;
      const contents = templates.value && (await loadPageCopy(run, config, pageSet, templates.value, runtime));
      const [islands, assets] = await Promise.all([inputs.islands, inputs.assets]);
      return { templates: templates.value, islands: islands.value, assets: assets.value, contents };
    });
    const { templates, islands, assets, contents } = copy;
    const messages = inputs.messages.value;
    // The components the Markdown names, and their attributes, before any page renders them.
    if (templates && contents) diagnostics.add(...checkContentComponents(inputs.entries, contents, templates));
    if (fatal() || !templates || !islands || !assets || !contents || !messages) return failed();

    const previous = incremental ? lastBuild : undefined;
    const checked = await onDisk;
    const written = writtenBefore && checked ? { ...writtenBefore, onDisk: checked } : writtenBefore;
    const parts = {
      config,
      templates,
      islands,
      islandsKey: islandsKeyOf(islands),
      stylesheet: assets.stylesheet,
      messages,
      entries: new Map(inputs.entries.map((entry) => [entryKey(entry), entry])),
      entryList: inputs.entries,
      scheduled: inputs.scheduled,
      entriesProof: inputs.entriesProof,
      entryProofs: inputs.entryProofs,
      contents,
      pageSet,
      socialKey: socialKeyOf(config, assets),
    };
    const global = written && globalFingerprint(parts, written);
    // A card's file the folder holds as written, by a build from the same fingerprint (the same mark and drawing), is kept.
    const keepSocial =
      written?.state && written.state.global === global ? (file: string) => keptAsWritten(written, file) : undefined;
    const keepAllSocial =
      written && global && sameAsWritten(parts, written, global)
        ? () => keptFolderAsWritten(written, socialFolder)
        : undefined;
    // Every page's card is known now: its workers draw them while this thread renders the pages.
    const social = startSocialImages(run, {
      config,
      pageSet,
      assets,
      messages,
      entryList: inputs.entries,
      templates,
      contents,
      stylesheet: assets.stylesheet,
      previous: previous?.siteFiles,
      countSocialImages: runtime.countSocialImages,
      pool: runtime.socialPool,
      drawn: runtime.socialImagesDrawn,
      progress: runtime.progress,
      cache: runtime.mediaCache,
      keep: keepSocial,
      keepAll: keepAllSocial,
      spill,
    });
    const rendered = await run.time('render', () =>
      renderStage(parts, {
        runtime,
        previous,
        incremental,
        written,
        global,
        defer: runOptions.first && { first: runOptions.first },
        spill,
      }),
    );
    diagnostics.add(...rendered.errors.map(positionRenderProblem));
    if (fatal()) return failed();
    // The render's working set is garbage now (a cold build's pages are in the spill): a one-shot
    // command collects it here, before the stages that read the pages back.
    if (rendered.spill) runtime.pagesRendered(rendered.rendered.size);
    output?.rendered(config, madeFiles(rendered.rendered, assets.files, islands.files));

    const files = await run.time('site files', () =>
      createSiteFiles(run, {
        config,
        pageSet,
        assets,
        islands,
        messages,
        entryList: inputs.entries,
        contents,
        previous: previous?.siteFiles,
        social,
        countImageVariants: runtime.countImageVariants,
        codeStylesheetCache: runtime.codeStylesheetCache,
        mediaCache: runtime.mediaCache,
        esbuild: runtime.esbuild,
      }),
    );
    if (fatal() || !files) return failed();

    // A page this run did not render is the last build's in memory, or the earlier build's file on disk.
    const htmlOf = (file: string) => {
      const html =
        rendered.rendered.get(file)?.html ??
        previous?.files.get(file) ??
        (written && rendered.kept.has(file) ? readWrittenPage(written, file) : undefined);
      return typeof html === 'string' ? html : undefined;
    };
    // The links of a build made from what the folder's last build was made from (config,
    // templates and generator included), with the same other files, lead where they led then.
    const otherFiles = [...siteFileNames(files)];
    const linksKey =
      (rendered.renderState ?? written?.state) && rendered.fingerprint !== undefined
        ? hashParts(rendered.fingerprint, ...otherFiles)
        : undefined;
    const linksChecked = linksKey !== undefined && written?.state?.links === linksKey;
    diagnostics.add(
      ...(await run.time('links', () =>
        linksChecked
          ? []
          : links.check({ config, pages: pageSet.pages, entryList: inputs.entries, contents, otherFiles, htmlOf }),
      )),
    );
    if (fatal()) return failed();
    const renderState =
      linksKey === undefined || (linksChecked && !rendered.renderState)
        ? rendered.renderState
        : withLinksChecked(rendered.renderState ?? written!.state!, linksKey);

    const result = await run.time('result', async () => {
      await runtime.settled();
      const kept = files.socialKept.size ? new Map([...rendered.kept, ...files.socialKept]) : rendered.kept;
      return assembleBuild(
        previous,
        { ...parts, siteFiles: files },
        { ...rendered, kept, renderState, recorded: outputRecordOf(written?.state) },
      );
    });
    // Kept even when its output fails (a run may have patched the last build in place): the
    // next run starts from it, and publishes what this one could not.
    lastBuild = result.build;
    let published: OutputReport | undefined;
    try {
      published = await output?.finish(run, result.build);
    } catch (error) {
      const errors = collectSiteErrors(error);
      if (!errors) throw error;
      diagnostics.add(...errors);
      return failed();
    }
    builds++;
    return {
      ok: true,
      build: builds,
      reloaded: [...run.reloaded],
      rendered: rendered.rendered.size,
      deferred: rendered.deferred.length,
      pages: pageSet.pages.length,
      changed: result.changed,
      removed: result.removed,
      urls: result.urls,
      stylesheet: result.stylesheet,
      ms: run.elapsed(),
      timings: run.timings,
      warnings: diagnostics.of('warning'),
      infos: diagnostics.of('info'),
      ...(published ? { output: published } : {}),
    };
  }

  /** Refuses an output folder the write must not touch, before any other work. */
  function checkOutput(config: ResolvedConfig): void {
    const unsafe = output!.check(config);
    if (unsafe) throw unsafe;
  }

  return {
    get lastBuild() {
      return lastBuild;
    },
    get files() {
      if (lastBuild) renderPending(lastBuild, {});
      return lastBuild?.files;
    },
    output() {
      // After the run under way, which may patch the build in place.
      const next = queue.then(() => {
        if (!lastBuild || !output) return undefined;
        renderPending(lastBuild, {});
        return output.finalFiles(lastBuild);
      });
      queue = next.catch(() => undefined);
      return next;
    },
    renderPending(pendingOptions = {}) {
      if (!lastBuild) return { rendered: [], errors: [] };
      const { rendered, errors } = renderPending(lastBuild, pendingOptions);
      return { rendered, errors: errors.map(positionRenderProblem) };
    },
    get pending() {
      return lastBuild?.pending.size ?? 0;
    },
    get config() {
      return lastBuild?.config;
    },
    watched,
    stats: () => runtime.stats(),
    run(changes = [], runOptions = {}) {
      const next = queue.then(async (): Promise<RunOutcome> => {
        for (const change of changes)
          memo.forget(staleOutputs(classifyChange(resolve(change.path), watched(), change.directory)));
        const run = memo.begin();
        // The lock of published paths moves on with a good run only (a failed run's paths were
        // never published, so they are no one's old URL): the next run starts from this one again.
        const kept = lastBuild?.config;
        const published = kept?.pathLock;
        const outcome = await attempt(run, runOptions)
          .catch((crash: unknown): RunFailure => ({
            ok: false,
            reloaded: [...run.reloaded],
            errors: [],
            warnings: run.diagnostics.of('warning'),
            crash,
            ms: run.elapsed(),
          }))
          .finally(() => output?.settle());
        // A run whose output failed kept its build: its config, too, goes back to the lock published.
        if (!outcome.ok && kept) for (const config of new Set([kept, lastBuild!.config])) config.pathLock = published;
        return outcome;
      });
      queue = next.catch(() => undefined);
      return next;
    },
    dispose: () => runtime.dispose(),
  };
}

/** The pages rendered (a spilled one by its reference), then the built files: what a run has made of its output when the pages are rendered. */
function* madeFiles(
  pages: ReadonlyMap<string, { html: string }>,
  ...built: OutputFiles[]
): Generator<readonly [string, string | Uint8Array | SpillRef]> {
  for (const [file, page] of pages) yield [file, spilledHtmlOf(page) ?? page.html];
  for (const files of built) yield* files;
}
