/**
 * Writes the site so that a failed or killed build never leaves a half-written, mixed or emptied
 * `dist/`, and a rebuild touches only the files whose bytes changed. The text files get
 * precompressed `.br` and `.gz` siblings on the way (see compress.ts).
 *
 * - The output folder must be missing, empty, or marked as made by an earlier build
 *   (output-folder.ts): a folder of anything else is never cleared.
 * - No output folder yet: everything goes to a fresh folder beside it, which is then renamed into
 *   place (a single atomic step).
 * - An output folder from an earlier build: each file whose bytes differ is first written under a
 *   temporary name beside its target; only when all of them are written are they renamed over
 *   their targets, and then the files the build no longer makes are removed. Unchanged files keep
 *   their bytes and their modification time, so a deploy that syncs by mtime uploads only what
 *   changed. On this project's CI disk creating a file costs about 0.5 ms of kernel time, so a
 *   rebuild of 1,000 posts that changes one page writes 6 files instead of 3,000.
 * - Every switch is journaled beside the folder (`.<name>.site-journal`): before the temporary
 *   files are written (so a kill then is rolled back) and again before the first rename (so a
 *   kill during the renames is rolled forward: every new file is already whole on disk). The next
 *   write, or `site serve`, finishes the journal first, so the folder is always the old or the new
 *   site, never a mix. A lock file beside the folder keeps two builds from writing it at once.
 * - A write that fails (disk full, no permission) removes the temporary files and leaves the
 *   folder as it was, and is reported with the path and what to do.
 * - A build that did not make some pages again (their inputs are unchanged since the write that
 *   recorded their size and modification time, and it found them on disk so, see
 *   cache/render-state.ts) hands them over as `kept`: they are left as they are. The record is
 *   stored again, with the new stamps, once the write is done; a stale record is harmless, since
 *   a file whose stamp differs is never kept.
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmdirSync,
  rmSync,
  unlinkSync,
  writeFileSync,
  writeSync,
  type Dirent,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { writeFileAtomicSync } from '../atomic-write.js';
import { cacheScope } from '../cache/disk-cache.js';
import { openPackCache, packExists } from '../cache/pack-cache.js';
import {
  removeRenderState,
  writeRenderState,
  type FileStamp,
  type OutputRecord,
  type RenderState,
} from '../cache/render-state.js';
import { SiteError } from '../errors.js';
import { realPath } from '../file-paths.js';
import { mergeFiles, storedOf, type OutputFiles } from '../output-files.js';
import { SpilledFiles } from '../spill.js';
import { compressFilesShared, type CompressOptions } from './compress.js';
import { checkOwnership, outputMarker, outputMarkerText } from './output-folder.js';
import { noProgress, type Progress } from '../progress.js';

/** Options of `writeSite`. */
export interface WriteOptions {
  /**
   * Precompressed siblings: settings, and the worker threads that share a large output's
   * compression (default: one fewer than the cores), or false for none (default: see compress.ts).
   */
  compress?: (CompressOptions & { workers?: number }) | false;
  /** Take the siblings of unchanged files from the build cache, one pack per output folder (default true). */
  cache?: boolean;
  /**
   * Called after each step that changes the output folder once the switch has begun (the journal
   * written, each rename, each removal), numbered from 1. Tests use it to kill the process at
   * every step and check that the folder can always be recovered.
   */
  afterStep?(step: number): void;
  /**
   * Files of the output folder the build did not make again, which it found on disk with the size
   * and modification time the last write recorded: each is left as it is (its siblings too). When
   * one is gone meanwhile, nothing is written.
   */
  kept?: ReadonlyMap<string, FileStamp>;
  /** What the pages were rendered from: stored with the stamp of every file and folder once the write is done. */
  renderState?: Omit<RenderState, 'stamps' | 'folders'>;
  /**
   * What the folder's last write recorded (the stamps and folders of the render state the build
   * read): each folder that still has its recorded modification time holds the recorded files, so
   * only the others are listed, instead of the whole folder.
   */
  recorded?: OutputRecord;
  /** Where the files compressed and written are counted (default: nowhere). */
  progress?: Progress;
}

/** What `writeSite` did. */
export interface WriteReport {
  /** Files in the output, siblings and the marker included. */
  files: number;
  /** Files written (all of them when the folder was new). */
  written: number;
  /** Files of an earlier build removed because this one does not make them. */
  removed: number;
  /** Worker threads that shared the precompression with the main thread (0: it had none). */
  compressWorkers: number;
  /** Set when an interrupted earlier write was finished ("forward") or undone ("back") first. */
  recovered?: 'forward' | 'back';
  /** The stamp of every file of the output, when the render state was written with them. */
  stamps?: ReadonlyMap<string, FileStamp>;
}

/** What writing the files did. */
type FilesReport = Omit<WriteReport, 'compressWorkers' | 'recovered' | 'stamps'> & {
  /** Updated in place: the folders whose entries it added, renamed or removed ("" for the output itself). */
  touched?: ReadonlySet<string>;
};

/** A journaled in-place update: the files it writes under `path + suffix`, then renames. */
interface UpdateJournal {
  kind: 'update';
  phase: 'write' | 'switch';
  suffix: string;
  changed: string[];
  /** Folders it creates (outermost first). */
  created: string[];
  /** Files of the earlier build to remove, and folders then left empty (deepest first). */
  removals: string[];
  emptied: string[];
}

/** A journaled swap of a fresh folder (beside the output, by name) for the output folder. */
interface SwapJournal {
  kind: 'swap';
  phase: 'write' | 'switch';
  staging: string;
  retired: string;
}

type Journal = (UpdateJournal | SwapJournal) & { version: 1 };

/** Where the journal and the lock of an output folder live: beside it, named after it. */
function besidePaths(outDir: string) {
  const parent = dirname(outDir);
  const name = basename(outDir);
  return {
    parent,
    journal: join(parent, `.${name}.site-journal`),
    lock: join(parent, `.${name}.site-lock`),
    staging: `.${name}.staging-`,
    retired: `.${name}.old-`,
  };
}

/** The absolute output folder, symlinks resolved, without a trailing separator. */
function resolveOutput(outputFolder: string): string {
  return realPath(resolve(outputFolder));
}

/**
 * Whether the build cache holds siblings compressed for this output folder (what `writeSite`
 * takes from it): when it does not, a build is worth compressing ahead (compress.ts `compressAhead`).
 */
export function hasCompressCache(outputFolder: string): boolean {
  return packExists('compress', cacheScope(resolveOutput(outputFolder)));
}

/**
 * Adds the precompressed siblings and the marker, and writes the output folder. Writes are
 * synchronous on purpose: measured on 4,000 pages with their siblings (12,000 files), 85 ms
 * against 390-590 ms for 32 asynchronous writes at a time on tmpfs, and no faster on a disk, where
 * the kernel's work per file is the cost either way.
 */
export async function writeSite(
  outputFolder: string,
  siteFiles: OutputFiles,
  options: WriteOptions = {},
): Promise<WriteReport> {
  const outDir = resolveOutput(outputFolder);
  const release = acquireLock(outDir, outputFolder);
  try {
    const recovered = recoverLocked(outDir);
    const problem = checkOwnership(outDir, outputFolder);
    if (problem) throw problem;
    // The siblings of the files left as they are were not asked for: their entries stay.
    const cache =
      options.cache === false || options.compress === false
        ? undefined
        : openPackCache('compress', cacheScope(outDir), undefined, { keepUnused: Boolean(options.kept?.size) });
    const kept = options.kept ?? new Map<string, FileStamp>();
    const compressed =
      options.compress === false
        ? undefined
        : await compressFilesShared(siteFiles, { cache, ...options.compress, progress: options.progress });
    const withSiblings: OutputFiles = compressed ? mergeFiles(siteFiles, compressed.siblings) : siteFiles;
    withSiblings.set(outputMarker, outputMarkerText);
    // The paths, not the contents: a spilled file (spill.ts) is read when it is written.
    const entries = [...withSiblings.keys()].sort();
    const output = { paths: entries, files: withSiblings };
    const existing = listOutput(outDir, kept, options.recorded);
    const inPlace = existing && !conflicts(existing, entries);
    if (kept.size && !(inPlace && keptIntact(existing, kept))) {
      // Forgotten, so the next build makes every file and need not keep any.
      await removeRenderState(outDir);
      throw new SiteError({
        code: 'EMIT_FAILED',
        message: `${outputFolder} cannot be updated in place: files the build left as they were are gone, or the new files need their places`,
        hint: 'Build again: every page will be rendered.',
      });
    }
    const step = stepCounter(options.afterStep);
    const progress = options.progress ?? noProgress;
    let report: FilesReport;
    try {
      report = inPlace
        ? updateInPlace(outDir, output, existing, step, kept, progress)
        : replaceFolder(outDir, output, step, progress);
    } catch (error) {
      throw asWriteError(error, outputFolder);
    }
    let stamps: Map<string, FileStamp> | undefined;
    if (options.renderState && options.cache !== false) {
      stamps = stampOutput(outDir, entries, kept);
      // Updated in place: the folders it did not touch have the times they were listed with.
      const { touched } = report;
      const unchanged =
        inPlace && touched ? new Map([...existing.times].filter(([folder]) => !touched.has(folder))) : undefined;
      await writeRenderState(outDir, {
        ...options.renderState,
        stamps,
        folders: stampFolders(outDir, stamps, unchanged),
      });
    }
    const { touched: _touched, ...counts } = report;
    await cache?.settled();
    const done = { ...counts, compressWorkers: compressed?.workers ?? 0, ...(stamps ? { stamps } : {}) };
    return recovered ? { ...done, recovered } : done;
  } finally {
    release();
  }
}

/**
 * Finishes (or undoes) a write of `outputFolder` that was interrupted, and removes what it left
 * beside the folder. Safe to call at any time; `site serve` calls it before serving a folder.
 * Returns what it did, or undefined when there was nothing to recover.
 */
export function recoverOutput(outputFolder: string): 'forward' | 'back' | undefined {
  const outDir = resolveOutput(outputFolder);
  if (!existsSync(besidePaths(outDir).journal) && !hasLeftovers(outDir)) return undefined;
  const release = acquireLock(outDir, outputFolder);
  try {
    return recoverLocked(outDir);
  } finally {
    release();
  }
}

/** The journal of an output folder: it exists while a switch is under way, or after one was killed. */
export function journalOf(outputFolder: string): string {
  return besidePaths(resolveOutput(outputFolder)).journal;
}

function stepCounter(afterStep: WriteOptions['afterStep']): () => void {
  let steps = 0;
  return () => afterStep?.(++steps);
}

/**
 * Takes the lock of an output folder for a writer other than `writeSite` (`site serve --admin`
 * publishing a save), so it never writes while a build does; returns its release. Throws
 * OUTPUT_BUSY while a running build holds it.
 */
export function lockOutputFolder(outputFolder: string): () => void {
  return acquireLock(resolveOutput(outputFolder), outputFolder);
}

/** Takes the lock beside the output folder; a lock whose process has ended is taken over. */
function acquireLock(outDir: string, shown: string): () => void {
  const { parent, lock } = besidePaths(outDir);
  try {
    mkdirSync(parent, { recursive: true });
  } catch (error) {
    throw asWriteError(error, shown);
  }
  for (let attempt = 0; ; attempt++) {
    let descriptor: number;
    try {
      descriptor = openSync(lock, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw asWriteError(error, shown);
      const holder = Number.parseInt(readText(lock) ?? '', 10);
      if (Number.isInteger(holder) && holder > 0 && isRunning(holder)) {
        throw new SiteError({
          code: 'OUTPUT_BUSY',
          message: `another site build (process ${holder}) is writing ${shown}`,
          hint: `Wait for it to finish. If no build is running, delete ${lock}.`,
        });
      }
      rmSync(lock, { force: true });
      continue;
    }
    try {
      writeSync(descriptor, `${process.pid}\n`);
    } finally {
      closeSync(descriptor);
    }
    return () => rmSync(lock, { force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Whether an interrupted write left a staging or retired folder beside the output. */
function hasLeftovers(outDir: string): boolean {
  const { parent, staging, retired } = besidePaths(outDir);
  try {
    return readdirSync(parent).some((name) => name.startsWith(staging) || name.startsWith(retired));
  } catch {
    return false;
  }
}

/**
 * Writes the journal whole or not at all, so it is never torn. Not flushed to the disk, as the
 * site's files are not: it guards against a killed build, not a power cut.
 */
function writeJournal(outDir: string, journal: UpdateJournal | SwapJournal): void {
  writeFileAtomicSync(besidePaths(outDir).journal, JSON.stringify({ version: 1, ...journal } satisfies Journal), {
    durable: false,
  });
}

function removeJournal(outDir: string): void {
  rmSync(besidePaths(outDir).journal, { force: true });
}

/** Recovery with the lock held: the journal first, then leftover folders beside the output. */
function recoverLocked(outDir: string): 'forward' | 'back' | undefined {
  const paths = besidePaths(outDir);
  let outcome: 'forward' | 'back' | undefined;
  const text = readText(paths.journal);
  if (text !== undefined) {
    let journal: Journal | undefined;
    try {
      journal = JSON.parse(text) as Journal;
    } catch {
      journal = undefined;
    }
    if (journal?.version === 1 && journal.kind === 'update') outcome = recoverUpdate(outDir, journal);
    else if (journal?.version === 1 && journal.kind === 'swap') outcome = recoverSwap(outDir, paths.parent, journal);
    removeJournal(outDir);
  }
  // Staging and retired folders of this output that no journal names: a build killed before its
  // journal, or an older version's leftovers. The lock is held, so none of them is in use.
  for (const name of safeReaddir(paths.parent)) {
    if (name.startsWith(paths.staging) || name.startsWith(paths.retired))
      rmSync(join(paths.parent, name), { recursive: true, force: true });
  }
  return outcome;
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function recoverUpdate(outDir: string, journal: UpdateJournal): 'forward' | 'back' {
  if (journal.phase === 'write') {
    for (const path of journal.changed) rmSync(join(outDir, path + journal.suffix), { force: true });
    for (const folder of [...journal.created].reverse()) removeEmptyFolder(join(outDir, folder));
    return 'back';
  }
  for (const path of journal.changed) {
    const temporary = join(outDir, path + journal.suffix);
    if (existsSync(temporary)) renameSync(temporary, join(outDir, path));
  }
  for (const path of journal.removals) rmSync(join(outDir, path), { force: true });
  for (const folder of journal.emptied) removeEmptyFolder(join(outDir, folder));
  return 'forward';
}

function recoverSwap(outDir: string, parent: string, journal: SwapJournal): 'forward' | 'back' {
  const staging = join(parent, journal.staging);
  const retired = join(parent, journal.retired);
  if (journal.phase === 'write') {
    rmSync(staging, { recursive: true, force: true });
    return 'back';
  }
  if (existsSync(staging)) {
    if (existsSync(outDir) && !existsSync(retired)) renameSync(outDir, retired);
    if (!existsSync(outDir)) renameSync(staging, outDir);
  }
  rmSync(retired, { recursive: true, force: true });
  return 'forward';
}

function removeEmptyFolder(path: string): void {
  try {
    rmdirSync(path);
  } catch {
    // Missing, or not empty: something else lives there now.
  }
}

/** The files of an earlier output (relative paths) with their stamps (size -1: not a regular file), and its folders. */
interface ExistingOutput {
  files: Map<string, FileStamp>;
  folders: Set<string>;
  /** The modification time of each folder stated as it was listed ("" for the output itself): those the write does not touch keep it. */
  times: Map<string, number>;
}

/**
 * The earlier output, or undefined when there is no folder to update; `kept` files, checked by the
 * build, keep their stamps. With the last write's record, the folders that stat as recorded are
 * taken from it and only the others listed (on the real site with 1000 posts, 12,000 folders
 * listed took 100-300 ms; stated, 40 ms).
 */
function listOutput(
  outDir: string,
  kept: ReadonlyMap<string, FileStamp>,
  recorded?: OutputRecord,
): ExistingOutput | undefined {
  try {
    if (!lstatSync(outDir).isDirectory()) return undefined;
  } catch {
    return undefined;
  }
  const files = new Map<string, FileStamp>();
  const folders = new Set<string>();
  const times = new Map<string, number>();
  const add = (path: string, dirent: Dirent) => {
    if (dirent.isDirectory()) folders.add(path);
    else if (!dirent.isFile()) files.set(path, { size: -1, mtimeMs: 0 });
    else files.set(path, kept.get(path) ?? stampOf(join(outDir, path)));
  };
  /** Lists `folder` ("" for the output) and every folder in it. */
  const listAll = (folder: string) => {
    const dir = join(outDir, folder);
    for (const dirent of readdirSync(dir, { withFileTypes: true, recursive: true }))
      add(relativeTo(outDir, join(dirent.parentPath, dirent.name)), dirent);
  };
  try {
    if (!recorded || !listRecorded(outDir, recorded, kept, { files, folders, times, add, listAll })) {
      files.clear();
      folders.clear();
      times.clear();
      listAll('');
    }
  } catch {
    return undefined;
  }
  return { files, folders, times };
}

/** A path under `outDir`, relative, with forward slashes. */
function relativeTo(outDir: string, path: string): string {
  return path
    .slice(outDir.length + 1)
    .split('\\')
    .join('/');
}

/**
 * Fills `files` and `folders` from the record, listing only the folders whose modification time
 * moved (an entry added, renamed or removed there); false when a recorded folder or file is gone
 * or is no longer one (then the caller lists the whole output).
 */
function listRecorded(
  outDir: string,
  recorded: OutputRecord,
  kept: ReadonlyMap<string, FileStamp>,
  into: {
    files: Map<string, FileStamp>;
    folders: Set<string>;
    times: Map<string, number>;
    add(path: string, dirent: Dirent): void;
    listAll(folder: string): void;
  },
): boolean {
  const moved = new Set<string>();
  for (const [folder, mtimeMs] of recorded.folders) {
    const stats = lstatSync(join(outDir, folder), { throwIfNoEntry: false });
    if (!stats?.isDirectory()) return false;
    if (folder) into.folders.add(folder);
    into.times.set(folder, stats.mtimeMs);
    if (stats.mtimeMs !== mtimeMs) moved.add(folder);
  }
  for (const path of recorded.stamps.keys()) {
    const slash = path.lastIndexOf('/');
    if (moved.has(slash < 0 ? '' : path.slice(0, slash))) continue;
    const stamp = kept.get(path) ?? statOf(join(outDir, path));
    if (!stamp) return false;
    into.files.set(path, stamp);
  }
  for (const folder of moved) {
    for (const dirent of readdirSync(join(outDir, folder), { withFileTypes: true })) {
      const path = folder ? `${folder}/${dirent.name}` : dirent.name;
      // A folder not in the record is new: listed whole.
      if (dirent.isDirectory() && !recorded.folders.has(path)) {
        into.folders.add(path);
        into.listAll(path);
      } else into.add(path, dirent);
    }
  }
  return true;
}

/** The stamp of a regular file, undefined when it is gone or is no regular file. */
function statOf(file: string): FileStamp | undefined {
  const stats = lstatSync(file, { throwIfNoEntry: false });
  return stats?.isFile() ? { size: stats.size, mtimeMs: stats.mtimeMs } : undefined;
}

/**
 * The modification time of the output folder and of every folder that holds a file of `stamps`,
 * after the write: stated again, but for the folders the write did not touch (`unchanged`, as
 * they were stated before it: on the real site with 1,000 posts, 12,000 of 12,000 after an edit).
 */
function stampFolders(
  outDir: string,
  stamps: ReadonlyMap<string, FileStamp>,
  unchanged: ReadonlyMap<string, number> = new Map(),
): Map<string, number> {
  const names = new Set<string>(['']);
  for (const path of stamps.keys()) {
    for (let slash = path.lastIndexOf('/'); slash > 0; slash = path.lastIndexOf('/', slash - 1)) {
      const folder = path.slice(0, slash);
      if (names.has(folder)) break;
      names.add(folder);
    }
  }
  const folders = new Map<string, number>();
  for (const folder of [...names].sort()) {
    const before = unchanged.get(folder);
    if (before !== undefined) {
      folders.set(folder, before);
      continue;
    }
    const stats = lstatSync(join(outDir, folder), { throwIfNoEntry: false });
    if (stats?.isDirectory()) folders.set(folder, stats.mtimeMs);
  }
  return folders;
}

function stampOf(file: string): FileStamp {
  const { size, mtimeMs } = lstatSync(file);
  return { size, mtimeMs };
}

/** Whether every kept file is still in the output. */
function keptIntact(existing: ExistingOutput, kept: ReadonlyMap<string, FileStamp>): boolean {
  for (const [path, stamp] of kept) if (existing.files.get(path) !== stamp) return false;
  return true;
}

/** The stamp of every file of the output after a write: the written ones read again, the kept ones as they were. */
function stampOutput(
  outDir: string,
  paths: readonly string[],
  kept: ReadonlyMap<string, FileStamp>,
): Map<string, FileStamp> {
  const stamps = new Map(kept);
  for (const path of paths) stamps.set(path, stampOf(join(outDir, path)));
  return stamps;
}

/** Whether an output path is taken by a folder, or a folder the output needs by a file: then the folder is replaced whole. */
function conflicts(existing: ExistingOutput, paths: readonly string[]): boolean {
  for (const path of paths) {
    if (existing.folders.has(path)) return true;
    for (let folder = dirname(path); folder !== '.'; folder = dirname(folder))
      if (existing.files.has(folder)) return true;
  }
  return false;
}

function updateInPlace(
  outDir: string,
  { paths, files }: OutputToWrite,
  existing: ExistingOutput,
  step: () => void,
  kept: ReadonlyMap<string, FileStamp>,
  progress: Progress,
): FilesReport {
  const changed = paths.filter(
    (path) =>
      existing.files.get(path)?.size !== sizeOf(files, path) || !sameBytes(join(outDir, path), contentsOf(files, path)),
  );
  const wanted = new Set([...paths, ...kept.keys()]);
  const removals = [...existing.files.keys()].filter((path) => !wanted.has(path)).sort();
  if (changed.length === 0 && removals.length === 0)
    return { files: wanted.size, written: 0, removed: 0, touched: new Set() };

  const created: string[] = [];
  const folders = new Set(existing.folders);
  for (const path of changed) {
    const missing: string[] = [];
    for (let folder = dirname(path); folder !== '.' && !folders.has(folder); folder = dirname(folder))
      missing.unshift(folder);
    for (const folder of missing) {
      folders.add(folder);
      created.push(folder);
    }
  }
  const needed = new Set<string>();
  for (const path of wanted)
    for (let folder = dirname(path); folder !== '.'; folder = dirname(folder)) needed.add(folder);
  const emptied = [...existing.folders]
    .filter((folder) => !needed.has(folder))
    .sort()
    .reverse();
  const suffix = `.site-${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  const journal: UpdateJournal = {
    kind: 'update',
    phase: 'write',
    suffix,
    changed,
    created,
    removals,
    emptied,
  };

  writeJournal(outDir, journal);
  const written = progress.begin('write', changed.length, 'files');
  try {
    for (const folder of created) mkdirSync(join(outDir, folder));
    for (const path of changed) {
      writeFileSync(join(outDir, path + suffix), contentsOf(files, path));
      written.tick();
    }
  } catch (error) {
    recoverUpdate(outDir, journal);
    removeJournal(outDir);
    throw error;
  } finally {
    written.end();
  }
  writeJournal(outDir, { ...journal, phase: 'switch' });
  step();
  for (const path of changed) {
    renameSync(join(outDir, path + suffix), join(outDir, path));
    step();
  }
  for (const path of removals) {
    unlinkSync(join(outDir, path));
    step();
  }
  for (const folder of emptied) removeEmptyFolder(join(outDir, folder));
  removeJournal(outDir);
  const touched = new Set<string>();
  const parent = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
  for (const path of [...journal.changed, ...removals, ...created, ...emptied]) touched.add(parent(path));
  for (const folder of created) touched.add(folder);
  return { files: wanted.size, written: changed.length, removed: removals.length, touched };
}

/** The files to write, in path order, and their contents by path. */
interface OutputToWrite {
  paths: readonly string[];
  files: OutputFiles;
}

/** A file's contents to use at once (write or compare): a spilled file's are in a buffer its next read reuses. */
function contentsOf(files: OutputFiles, path: string): string | Uint8Array {
  return files instanceof SpilledFiles ? files.bytesOf(path)! : files.get(path)!;
}

/** A file's size in bytes, without reading a spilled one. */
function sizeOf(files: OutputFiles, path: string): number {
  const stored = storedOf(files, path)!;
  return typeof stored === 'string' ? Buffer.byteLength(stored) : stored.length;
}

/** Whether a file holds exactly `data` (its size is known to match). */
function sameBytes(file: string, contents: string | Uint8Array): boolean {
  const data = typeof contents === 'string' ? Buffer.from(contents) : contents;
  let descriptor: number | undefined;
  try {
    descriptor = openSync(file, 'r');
    const buffer = Buffer.allocUnsafe(data.byteLength);
    let offset = 0;
    while (offset < buffer.length) {
      const read = readSync(descriptor, buffer, offset, buffer.length - offset, offset);
      if (read === 0) return false;
      offset += read;
    }
    return buffer.equals(data);
  } catch {
    return false;
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

/** Writes everything to a fresh folder beside `outDir`, then swaps it into place. */
function replaceFolder(
  outDir: string,
  { paths, files }: OutputToWrite,
  step: () => void,
  progress: Progress,
): FilesReport {
  const { parent, staging: stagingPrefix, retired: retiredPrefix } = besidePaths(outDir);
  const id = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const journal: SwapJournal = {
    kind: 'swap',
    phase: 'write',
    staging: `${stagingPrefix}${id}`,
    retired: `${retiredPrefix}${id}`,
  };
  const staging = join(parent, journal.staging);
  const retired = join(parent, journal.retired);
  const hadPrevious = existsSync(outDir);
  // A new folder needs a single rename, which cannot be half done: no journal.
  if (hadPrevious) writeJournal(outDir, journal);
  const written = progress.begin('write', paths.length, 'files');
  try {
    mkdirSync(staging);
    const folders = new Set(paths.map((path) => dirname(join(staging, path))));
    for (const folder of [...folders].sort()) mkdirSync(folder, { recursive: true });
    for (const path of paths) {
      writeFileSync(join(staging, path), contentsOf(files, path));
      written.tick();
    }
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    if (hadPrevious) removeJournal(outDir);
    throw error;
  } finally {
    written.end();
  }
  if (hadPrevious) {
    writeJournal(outDir, { ...journal, phase: 'switch' });
    step();
    renameSync(outDir, retired);
    step();
  }
  renameSync(staging, outDir);
  step();
  if (hadPrevious) {
    rmSync(retired, { recursive: true, force: true });
    removeJournal(outDir);
  }
  return { files: paths.length, written: paths.length, removed: 0 };
}

/** What a file-system error code means for someone writing a site. */
const fsReasons: Record<string, { reason: string; hint: string }> = {
  ENOSPC: {
    reason: 'the disk is full',
    hint: 'Free some space (or build to another disk with --out) and build again; the previous output is unchanged.',
  },
  EDQUOT: {
    reason: 'the disk quota is used up',
    hint: 'Free some space and build again; the previous output is unchanged.',
  },
  EROFS: { reason: 'the file system is read-only', hint: 'Build into a writable folder with --out.' },
  EACCES: {
    reason: 'permission denied',
    hint: 'Check the permissions of the output folder and the folder it is in, or build elsewhere with --out.',
  },
  EPERM: {
    reason: 'operation not permitted',
    hint: 'Check the permissions of the output folder and the folder it is in, or build elsewhere with --out.',
  },
  EISDIR: {
    reason: 'a folder is where a file should go',
    hint: 'Remove the folder, or build into another folder with --out.',
  },
  ENOTDIR: {
    reason: 'a file is where a folder should go',
    hint: 'Remove the file, or build into another folder with --out.',
  },
  // What `mkdir -p` reports when a file stands where one of the folders should be.
  EEXIST: {
    reason: 'a file is where a folder should go',
    hint: 'Remove the file, or build into another folder with --out.',
  },
  ENAMETOOLONG: {
    reason: 'a file name is too long for this file system',
    hint: 'Shorten the route path or post slug that makes this file.',
  },
  EMFILE: { reason: 'too many files are open', hint: 'Raise the open-file limit (ulimit -n) and build again.' },
  ENOENT: {
    reason: 'a folder on the way does not exist or was removed meanwhile',
    hint: 'Check that the folder exists and nothing else removes it during the build.',
  },
};

/** A file-system error of the write as a SiteError naming the path; SiteErrors pass through. */
function asWriteError(error: unknown, outputFolder: string): unknown {
  if (error instanceof SiteError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const known = code ? fsReasons[code] : undefined;
  if (!known) return error;
  const path = (error as NodeJS.ErrnoException).path ?? outputFolder;
  return new SiteError({
    code: 'EMIT_FAILED',
    message: `cannot write ${path}: ${known.reason} (${code}); ${outputFolder} is left as it was`,
    hint: known.hint,
    cause: error,
  });
}
