/**
 * Stage 8: the output. A good build's files become the site's final files, and go where the run
 * publishes them. `site build`, `site dev` and the admin's live site (`site serve --admin`) run the
 * same stages, so the files each writes or serves are the same:
 *
 *   place (the host's folder for the site: Vercel's static/) → search index (Pagefind,
 *   `search.enabled`) → the site plugins' `buildEnd` → write → path lock
 *
 * Where the files go is the one difference (`Publish`):
 * - 'folder' (`site build`): the output folder, switched whole (emit/write.ts: only the files whose
 *   bytes changed are written; the pages the build kept as written stay). The folder is checked
 *   before any work, and the pages are precompressed as soon as they are rendered.
 * - 'served' (the admin's live site): the files that differ from what the last run published are
 *   swapped into the served folder one by one (emit/publish-changes.ts). A publish that fails (a
 *   `site build` holds the folder) fails the run, and the next run publishes what it left.
 * - 'memory' (`site dev`): nothing is written. The final files are made when first asked for
 *   (`finalFiles`): a run of dev may defer pages, and the index needs them all. The plugins'
 *   `buildEnd`, which may deploy or upload, is for builds that publish, not for every edit.
 *
 * The lock of published paths moves on after every good run (config/path-lock.ts): a slug changed
 * keeps its old URL.
 */
import { dirname, relative, resolve } from 'node:path';
import type { ResolvedConfig } from '../config/load.js';
import { writePathLock } from '../config/path-lock.js';
import { sitePluginsOf } from '../config/plugins.js';
import { compressAhead, type CompressAhead } from '../emit/compress.js';
import { checkOutputFolder, type OutputGuard } from '../emit/output-folder.js';
import { runBuildEnd } from '../emit/plugin-build-end.js';
import { differingFiles, publishChanges, type FolderChanges } from '../emit/publish-changes.js';
import { addSearchIndex, type IndexedOutput } from '../emit/search-index.js';
import { hasCompressCache, writeSite, type WriteReport } from '../emit/write.js';
import type { SiteError } from '../errors.js';
import { copyFiles, type OutputFiles } from '../output-files.js';
import { adminStateFolder } from '../state-paths.js';
import { placeOutput, precompressOf, staticFolderOf } from '../targets/index.js';
import { sameBytes, type Build } from './result-stage.js';
import type { StageRun } from './stage.js';
import type { Progress } from '../progress.js';
import { openSpill, type Spill, type SpillRef } from '../spill.js';
import type { OutputTarget } from './written-output.js';

/** Where the plugins' `buildEnd` hooks log. */
export interface PluginLog {
  info(message: string): void;
  warn(message: string): void;
}

/** Where a run's final files go. */
export type Publish =
  /** `site build`: the whole output folder. */
  | {
      to: 'folder';
      /** Relative to the working folder (default: the config's output.dir). */
      folder?: string;
      /** false: no .br and .gz siblings, whatever the config says. */
      precompress?: boolean;
      /** Tests of interrupted builds: called after each step of the switch (see `WriteOptions.afterStep`). */
      afterStep?(step: number): void;
      log?: PluginLog;
    }
  /** The admin's live site: the changed files swapped into the served folder, each atomically. */
  | { to: 'served'; folder: string; log?: PluginLog }
  /** `site dev`: served from memory. */
  | { to: 'memory' };

/** What the output stages of a run did. */
export interface OutputReport {
  /** The folder written, as given or as the config names it relative to the working folder. */
  folder?: string;
  /** The final files: placed for the host, the search index and the files of `buildEnd` included (for 'folder', those left as written aside). */
  files: OutputFiles;
  /** 'folder': what the write did. */
  written?: WriteReport;
  /** 'served': the files written into the folder, and those removed from it. */
  published?: FolderChanges;
  /** `search.enabled`: the pages the index holds, and how many of them Pagefind indexed in this run. */
  search?: { pages: number; indexed: number };
}

/** The output stages of one pipeline. */
export interface OutputStage {
  /** Checks the config's output folder before any other work ('folder'): the problem, or undefined. */
  check(config: ResolvedConfig): SiteError | undefined;
  /** The folder an earlier build wrote and the write settings, to plan the render from ('folder'; see written-output.ts). */
  target(config: ResolvedConfig): OutputTarget | undefined;
  /**
   * A place for the pages of a run as they are rendered ('folder': `site build`, whose pages are
   * read back by the later stages and the write, see spill.ts); undefined to hold them in memory.
   */
  spill(config: ResolvedConfig): Spill | undefined;
  /** Told the files a run made as soon as the pages are rendered (a spilled page by its reference): 'folder' precompresses them meanwhile. */
  rendered(config: ResolvedConfig, files: Iterable<readonly [string, string | Uint8Array | SpillRef]>): void;
  /** Runs the stages on a good build (every page rendered, but for 'memory'); throws SiteErrors. */
  finish(run: StageRun, build: Build): Promise<OutputReport | undefined>;
  /** The final files of `build` (every page rendered): made once per build for 'memory', else the last run's. */
  finalFiles(build: Build): Promise<OutputFiles>;
  /** Ends the work of a run that is over (what is still compressed ahead). */
  settle(): void;
}

/** Options of `createOutputStage`, the pipeline's own. */
export interface OutputStageOptions {
  /** Read and write the build cache (the precompressed siblings, the search index, the render state). */
  cache: boolean;
  /** Worker threads that share the precompression of a large output. */
  workers?: number;
  /** Where the pages indexed and the files compressed and written are counted (default: nowhere). */
  progress?: Progress;
}

/** Creates the output stages of a pipeline that publishes as `publish` says. */
export function createOutputStage(publish: Publish, options: OutputStageOptions): OutputStage {
  let ahead: CompressAhead | undefined;
  // The run's spill ('folder'), where the siblings made ahead go too.
  let spill: Spill | undefined;
  // 'served': the final files as the folder holds them since the last publish (undefined: as on disk).
  let published: OutputFiles | undefined;
  let last: { build: Build; files: Promise<OutputFiles> } | undefined;
  // The hash of each page the search index took, by the bytes it took it of: a page a later run did not make again is not hashed again.
  const searchMemo = new Map<string, { data: string | Uint8Array; hash: string }>();
  const folderOf = (config: ResolvedConfig): string => {
    if (publish.to === 'memory') return config.dirs.output;
    return publish.folder ?? (relative(process.cwd(), config.dirs.output) || config.dirs.output);
  };
  const precompress = (config: ResolvedConfig) =>
    precompressOf(config) && !(publish.to === 'folder' && publish.precompress === false);

  /** Place, search index and (but for 'memory') buildEnd: the files of `build` as the output holds them. */
  async function finalOf(
    run: StageRun | undefined,
    build: Build,
  ): Promise<{
    files: OutputFiles;
    kept: Build['kept'];
    written?: IndexedOutput['written'];
    search?: OutputReport['search'];
  }> {
    const time = <T>(stage: string, work: () => Promise<T>) => (run ? run.time(stage, work) : work());
    const { config } = build;
    const folder = staticFolderOf(config);
    const outputFolder = folderOf(config);
    // A fresh map: a later run patches the build's own in place.
    const placed = copyFiles(placeOutput(config, build.files));
    const search = config.search.enabled
      ? await time('search index', () =>
          addSearchIndex({
            config,
            pages: build.pageSet.pages,
            files: placed,
            kept: build.kept,
            outputFolder,
            folder,
            cache: options.cache,
            memo: publish.to === 'folder' ? undefined : searchMemo,
            progress: options.progress,
          }),
        )
      : undefined;
    const indexed = search?.files ?? placed;
    const searchReport = search && { pages: search.pages, indexed: search.indexed };
    if (publish.to === 'memory' || !sitePluginsOf(config).some((entry) => entry.plugin.buildEnd))
      return { files: indexed, kept: build.kept, written: search?.written, search: searchReport };
    // Before the write: a hook that throws leaves the output as it was.
    const ended = await time('build end', () =>
      runBuildEnd({
        config,
        outputFolder,
        staticFolder: folder,
        files: indexed,
        kept: build.kept,
        pages: build.pageSet.pages.map((page) => ({ path: page.url, locale: page.locale, file: folder + page.file })),
        logger: publish.log ?? { info() {}, warn() {} },
      }),
    );
    return { files: ended.files, kept: new Map(ended.kept), written: search?.written, search: searchReport };
  }

  return {
    check(config) {
      return publish.to === 'folder' ? checkOutputFolder(folderOf(config), outputGuard(config)) : undefined;
    },
    target(config) {
      // A target that moves the pages into a folder of the output (Vercel's static/) renders them all.
      if (publish.to !== 'folder' || !options.cache || staticFolderOf(config)) return undefined;
      return { folder: folderOf(config), settings: JSON.stringify({ precompress: precompress(config) }) };
    },
    spill(config) {
      if (publish.to !== 'folder') return undefined;
      // Beside the output folder, where the write's staging folder goes (else the system's temporary folder).
      spill = openSpill(dirname(resolve(folderOf(config))));
      return spill;
    },
    rendered(config, files) {
      // Without siblings in the cache, the pages are compressed while the social images are drawn.
      if (publish.to !== 'folder' || !precompress(config) || (options.cache && hasCompressCache(folderOf(config))))
        return;
      ahead ??= compressAhead({ spill });
      ahead.add(files);
    },
    async finish(run, build) {
      const { config } = build;
      if (publish.to === 'memory') {
        last = undefined;
        await run.time('path lock', () => writePathLock(config));
        return undefined;
      }
      const folder = folderOf(config);
      const final = await finalOf(run, build);
      let report: OutputReport;
      if (publish.to === 'folder') {
        const written = await run.time('write', async () => {
          const done = await writeSite(folder, final.files, {
            cache: options.cache,
            compress: precompress(config) ? { workers: options.workers, ahead } : false,
            afterStep: publish.afterStep,
            progress: options.progress,
            kept: final.kept,
            renderState: build.renderState,
            recorded: build.recorded,
          });
          if (done.stamps) await final.written?.(done.stamps);
          return done;
        });
        report = { folder, files: final.files, written, search: final.search };
      } else {
        const changes = published
          ? changesOf(final.files, published)
          : { changed: await differingFiles(folder, final.files), removed: [] };
        if (changes.changed.length || changes.removed.length)
          await run.time('write', () =>
            publishChanges(folder, final.files, changes, { precompress: precompress(config) }),
          );
        published = final.files;
        report = { folder, files: final.files, published: changes, search: final.search };
      }
      last = { build, files: Promise.resolve(final.files) };
      // Once the pages are out: a changed slug's old path is kept (and redirects).
      await run.time('path lock', () => writePathLock(config));
      return report;
    },
    finalFiles(build) {
      if (last?.build !== build) last = { build, files: finalOf(undefined, build).then((final) => final.files) };
      const made = last;
      made.files.catch(() => {
        if (last === made) last = undefined;
      });
      return made.files;
    },
    settle() {
      ahead?.take();
      ahead = undefined;
      // Not closed: the build's files read from it after the run (`site build` reports them); it is closed once they are let go.
      spill = undefined;
    },
  };
}

/** The files of `files` added or changed since `before`, and those it no longer has. */
function changesOf(files: OutputFiles, before: OutputFiles): FolderChanges {
  const changed = [...files]
    .filter(([path, data]) => {
      const earlier = before.get(path);
      return earlier === undefined || !sameBytes(earlier, data);
    })
    .map(([path]) => path);
  const removed = [...before.keys()].filter((path) => !files.has(path));
  return { changed: changed.sort(), removed: removed.sort() };
}

/** What an output folder must stay clear of: the project, the working directory, the folders the site reads and its stored data. */
function outputGuard(config: ResolvedConfig): OutputGuard {
  return {
    projectRoot: config.root,
    cwd: process.cwd(),
    sources: [
      { path: config.dirs.content, what: 'the content folder' },
      { path: config.dirs.templates, what: 'the templates folder' },
      { path: config.dirs.public, what: 'the public folder' },
      {
        path: config.dirs.data,
        what: 'the data folder (contact.dataDir: the database of messages, bookings and accounts)',
      },
      { path: adminStateFolder(config.root), what: "the admin's accounts and audit log" },
    ],
  };
}
