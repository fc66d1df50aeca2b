/**
 * Which folders `site build` may write into. The writer replaces everything in its output folder,
 * so a folder is only ever cleared when an earlier build marked it as its own (the marker file
 * below), and never when it holds the project, the home folder or the file-system root.
 */
import { lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, resolve } from 'node:path';
import { SiteError } from '../errors.js';
import { isWithin, realPath } from '../file-paths.js';

/** The file every output folder gets; its presence says "this folder was made by site build". */
export const outputMarker = '.site-output';

/** What the marker says. Constant, so two builds stay byte-identical. */
export const outputMarkerText =
  'This folder is written by `site build`, which replaces everything in it. Do not keep other files here.\n';

/** The places an output folder must never be, contain or sit inside. */
export interface OutputGuard {
  /** The folder of site.config.yaml. */
  projectRoot: string;
  /** The working directory the command runs in. */
  cwd?: string;
  /** Folders the build reads (content/, templates/, public/) or keeps data in (contact.dataDir). */
  sources?: readonly { path: string; what: string }[];
}

const unsafe = (outDir: string, message: string, hint: string) =>
  new SiteError({ code: 'OUTPUT_UNSAFE', message: `refusing to write the site into ${outDir}: ${message}`, hint });

/**
 * Checks an output folder before a build writes it; returns the problem, or undefined when it is
 * safe. Safe means: not the file-system root, the home folder, the project or the working
 * directory (nor a folder above them), not a folder the site reads from, and either missing,
 * empty, or marked by an earlier build.
 */
export function checkOutputFolder(outputFolder: string, guard: OutputGuard): SiteError | undefined {
  const outDir = realPath(resolve(outputFolder));
  const shown = outputFolder;
  const hint = 'Pass --out with a new or empty folder, or the folder an earlier `site build` wrote (such as dist).';
  if (dirname(outDir) === outDir) return unsafe(shown, 'it is the root of the file system', hint);
  if (outDir === realPath(homedir())) return unsafe(shown, 'it is your home folder', hint);
  const protectedFolders = [
    { path: guard.projectRoot, what: 'the project (the folder of the config file)' },
    ...(guard.cwd ? [{ path: guard.cwd, what: 'the working directory' }] : []),
  ];
  for (const folder of protectedFolders) {
    if (isWithin(realPath(folder.path), outDir))
      return unsafe(shown, `it ${realPath(folder.path) === outDir ? 'is' : 'holds'} ${folder.what}`, hint);
  }
  for (const source of guard.sources ?? []) {
    const path = realPath(source.path);
    if (isWithin(path, outDir))
      return unsafe(shown, `it ${path === outDir ? 'is' : 'holds'} ${source.what} (${source.path})`, hint);
    if (isWithin(outDir, path)) return unsafe(shown, `it is inside ${source.what} (${source.path})`, hint);
  }
  return checkOwnership(outDir, shown);
}

/**
 * The part of the check the writer repeats just before it writes: the folder is missing, empty,
 * or carries the marker of an earlier build.
 */
export function checkOwnership(outDir: string, shown: string = outDir): SiteError | undefined {
  let info;
  try {
    info = lstatSync(outDir);
  } catch {
    return undefined;
  }
  if (info.isSymbolicLink()) {
    try {
      info = lstatSync(realpathSync(outDir));
    } catch {
      return unsafe(shown, 'it is a symbolic link that leads nowhere', 'Remove the link or point --out at a folder.');
    }
  }
  if (!info.isDirectory())
    return unsafe(shown, 'it is a file, not a folder', 'Pass --out with a folder name; the file is left as it is.');
  let entries: string[];
  try {
    entries = readdirSync(outDir);
  } catch (cause) {
    return new SiteError({
      code: 'EMIT_FAILED',
      message: `cannot read the output folder ${shown}: ${(cause as Error).message}`,
      cause,
    });
  }
  if (entries.length === 0 || isMarked(outDir)) return undefined;
  return unsafe(
    shown,
    `it holds ${entries.length} ${entries.length === 1 ? 'entry' : 'entries'} that site build did not write (no ${outputMarker} file in it)`,
    `If it only holds an older build, delete it yourself (rm -r ${shown}) and build again; otherwise choose another folder with --out.`,
  );
}

/** Whether a folder carries the output marker. */
export function isMarked(outDir: string): boolean {
  try {
    return readFileSync(resolve(outDir, outputMarker), 'utf8').startsWith('This folder is written by `site build`');
  } catch {
    return false;
  }
}
