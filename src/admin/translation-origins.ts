/**
 * Where a translation came from when the admin never saved it (translations.ts keeps a record of
 * each save in the admin; the pages and posts of a site mostly have none): the default language's
 * text it was made from, and when.
 *
 * - In git: the source file as it was in the translation's last commit. The translation is
 *   outdated when the source changed in a commit after that one (its text now is not the text then),
 *   with the diff since. One `git log --raw` of the project answers every file (the blob of each
 *   file in each commit), kept while HEAD stays; a text is fetched only for a diff.
 * - Outside git (or for a translation never committed): the baseline, the texts of every page's and entry's default-language file the
 *   first time the admin was asked (`.site/translation-baseline.json`, where the admin keeps its
 *   state: state-paths.ts); a source that changed since is outdated, with the diff since then.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, realpath } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { writeFileAtomic } from '../atomic-write.js';
import type { ResolvedConfig } from '../config/load.js';
import { sourcesOf } from '../config/sources.js';
import { adminStateFolder } from '../state-paths.js';

/** The source text a translation was made from, and when it was made. */
export interface TranslationOrigin {
  source: string;
  since: string;
}

/** The origins of the translations of one project. */
export interface TranslationOrigins {
  /** Whether a translation without a record is older than its source's text now (cheap: for the lists). */
  isOutdated(config: ResolvedConfig, translationFile: string, sourceFile: string, sourceText: string): Promise<boolean>;
  /**
   * `isOutdated` for one list, by the source's blob id: git's HEAD is asked once for all its
   * translations (a process for each, with thousands, takes seconds), the log as it was then.
   */
  forList(
    config: ResolvedConfig,
  ): (translationFile: string, sourceFile: string, sourceBlob: string) => Promise<boolean>;
  /** What a translation without a record was made from, or undefined when neither git nor the baseline knows. */
  originOf(config: ResolvedConfig, translationFile: string, sourceFile: string): Promise<TranslationOrigin | undefined>;
}

/** Runs git in `cwd`; undefined when it fails (no git, not a repository, no commit yet). */
function git(cwd: string, args: readonly string[]): Promise<string | undefined> {
  return new Promise((done) => {
    execFile(
      'git',
      args,
      { cwd, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' }, timeout: 60_000, maxBuffer: 512 * 1024 * 1024 },
      (error, stdout) => done(error ? undefined : stdout),
    );
  });
}

/** The blob id git gives a text (to compare a file now with its committed versions without asking git). */
export function blobOf(text: string | Buffer): string {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/** A file's commits, newest first: the commit's place in the log (0: newest), its time and the file's blob after it. */
type FileCommits = { index: number; at: string; blob: string }[];

/** What one `git log --raw` says of a project: each file's commits, by its path from the repository's top. */
interface GitLog {
  top: string;
  files: Map<string, FileCommits>;
}

/** Parses `git log --raw --no-abbrev --format=%x00%H%x09%cI`. */
export function parseGitLog(output: string): Map<string, FileCommits> {
  const files = new Map<string, FileCommits>();
  output
    .split('\0')
    .filter((chunk) => chunk.trim())
    .forEach((chunk, index) => {
      const [head = '', ...lines] = chunk.split('\n');
      const at = head.split('\t')[1] ?? '';
      for (const line of lines) {
        const match = /^:\d+ \d+ [0-9a-f]+ ([0-9a-f]+) \w+\t(.+)$/.exec(line);
        if (!match) continue;
        const list = files.get(match[2]!) ?? [];
        list.push({ index, at, blob: match[1]! });
        files.set(match[2]!, list);
      }
    });
  return files;
}

/**
 * The origin of a translation from a log: the source's blob in the translation's last commit (the
 * source's newest commit at or before it) and that commit's time; undefined when either has none.
 */
export function originInLog(
  files: Map<string, FileCommits>,
  translation: string,
  source: string,
): { blob: string; at: string } | undefined {
  const made = files.get(translation)?.[0];
  const then = made && files.get(source)?.find((commit) => commit.index >= made.index);
  return made && then && !/^0+$/.test(then.blob) ? { blob: then.blob, at: made.at } : undefined;
}

/** The baseline outside git: when it was taken, and each source's text by its path in the project. */
interface Baseline {
  at: string;
  sources: Record<string, string>;
}

/** The file of the baseline. */
export function baselineFile(root: string): string {
  return join(adminStateFolder(root), 'translation-baseline.json');
}

/** The default language's files of every page's copy and every entry: what the baseline keeps. */
async function sourceFiles(config: ResolvedConfig): Promise<string[]> {
  const locale = config.site.defaultLocale;
  const found: string[] = [];
  const walk = async (folder: string, name: string): Promise<void> => {
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    for (const entry of entries)
      if (entry.isDirectory()) await walk(join(folder, entry.name), name);
      else if (entry.name === name) found.push(join(folder, entry.name));
  };
  await walk(sourcesOf(config).copyFolder, `${locale}.yaml`);
  for (const collection of Object.keys(config.collections))
    await walk(sourcesOf(config).collection(collection), `${locale}.md`);
  return found.sort();
}

/** The translation origins of the projects this process serves (one log per repository and HEAD, one baseline per project). */
export function createTranslationOrigins(now: () => number = Date.now): TranslationOrigins {
  let cached: { key: string; log: Promise<GitLog | undefined> } | undefined;
  const baselines = new Map<string, Promise<Baseline>>();
  const projectPath = (root: string, file: string) => relative(root, file).split(sep).join('/');

  /**
   * Where HEAD is, asked of git once for all the callers that ask while it answers: a list of
   * thousands of translations asks it a few times, not once each (a process each, seconds in all).
   */
  const heads = new Map<string, Promise<string | undefined>>();
  const headOf = (root: string): Promise<string | undefined> => {
    let head = heads.get(root);
    if (!head) {
      head = git(root, ['rev-parse', '--show-toplevel', 'HEAD']).finally(() => heads.delete(root));
      heads.set(root, head);
    }
    return head;
  };

  /** The project's git log, read again when HEAD moved; undefined outside git. */
  const logOf = async (root: string): Promise<GitLog | undefined> => {
    const head = await headOf(root);
    if (!head) return undefined;
    const [top = '', commit = ''] = head.trim().split('\n');
    const key = `${root}\n${commit}`;
    if (cached?.key !== key)
      cached = {
        key,
        log: git(root, ['log', '--raw', '--no-abbrev', '--no-renames', '--format=%x00%H%x09%cI', '--', '.']).then(
          (output) => (output === undefined ? undefined : { top, files: parseGitLog(output) }),
        ),
      };
    return cached.log;
  };

  /** A file's path from the repository's top (git names files so). */
  const inRepository = async (log: GitLog, file: string) =>
    relative(log.top, await realpath(file).catch(() => file))
      .split(sep)
      .join('/');

  /** The project's baseline, taken now when it has none. */
  const baselineOf = (config: ResolvedConfig): Promise<Baseline> => {
    let baseline = baselines.get(config.root);
    if (!baseline) {
      baseline = (async () => {
        const file = baselineFile(config.root);
        const kept = await readFile(file, 'utf8').catch(() => undefined);
        if (kept !== undefined) {
          try {
            return JSON.parse(kept) as Baseline;
          } catch {
            // A file that does not read is taken again.
          }
        }
        const sources: Record<string, string> = {};
        const paths = await sourceFiles(config);
        // Many files at once (tens of thousands in a large collection): the disk answers them in parallel.
        for (let start = 0; start < paths.length; start += 64) {
          const batch = paths.slice(start, start + 64);
          const texts = await Promise.all(batch.map((path) => readFile(path, 'utf8')));
          batch.forEach((path, index) => (sources[projectPath(config.root, path)] = texts[index]!));
        }
        const taken: Baseline = { at: new Date(now()).toISOString(), sources };
        await mkdir(adminStateFolder(config.root), { recursive: true });
        await writeFileAtomic(file, `${JSON.stringify(taken)}\n`);
        return taken;
      })();
      baselines.set(config.root, baseline);
    }
    return baseline;
  };

  /** The origin's source (a blob in git, a text in the baseline) and time. */
  const find = async (
    config: ResolvedConfig,
    translationFile: string,
    sourceFile: string,
    given?: Promise<GitLog | undefined>,
  ): Promise<{ blob: string; at: string; text?: string } | undefined> => {
    const log = await (given ?? logOf(config.root));
    if (log) {
      const [translation, source] = await Promise.all([
        inRepository(log, translationFile),
        inRepository(log, sourceFile),
      ]);
      const origin = originInLog(log.files, translation, source);
      if (origin) return origin;
      // A translation git does not know (never committed): the baseline, as outside git.
      if (log.files.has(translation)) return undefined;
    }
    const baseline = await baselineOf(config);
    const text = baseline.sources[projectPath(config.root, sourceFile)];
    return text === undefined ? undefined : { blob: blobOf(text), at: baseline.at, text };
  };

  return {
    async isOutdated(config, translationFile, sourceFile, sourceText) {
      const origin = await find(config, translationFile, sourceFile);
      return origin !== undefined && origin.blob !== blobOf(sourceText);
    },
    forList(config) {
      let log: Promise<GitLog | undefined> | undefined;
      return async (translationFile, sourceFile, sourceBlob) => {
        const origin = await find(config, translationFile, sourceFile, (log ??= logOf(config.root)));
        return origin !== undefined && origin.blob !== sourceBlob;
      };
    },
    async originOf(config, translationFile, sourceFile) {
      const origin = await find(config, translationFile, sourceFile);
      if (!origin) return undefined;
      const source = origin.text ?? (await git(config.root, ['cat-file', 'blob', origin.blob]));
      return source === undefined ? undefined : { source, since: origin.at };
    },
  };
}
