/**
 * Publishing a save to git (`publish.git` in the config): after a save, the changed content file is
 * committed through the git CLI, with no shell, authored by the admin who saved it, and, with
 * `push`, pushed with the machine's own git credentials (the admin never stores a token). Only the
 * saved file is committed, with the lock of published paths when the rebuild after the save changed
 * it (a changed slug: config/path-lock.ts): other changes in the working tree, staged or not, are
 * left alone. The server never switches branches: with `branch` set, it commits only when that
 * branch is checked out. A failed commit or push is reported back (and logged by the caller); the
 * saved file stays.
 */
import { execFile } from 'node:child_process';
import { join, relative } from 'node:path';
import { pathLockName } from '../config/path-lock.js';
import type { ResolvedConfig } from '../config/load.js';
import { devUser } from './api.js';
import type { AuditLog } from './audit-log.js';

/** The settings of `publish.git`. */
export interface GitPublishSettings {
  commit: boolean;
  push: boolean;
  /** The branch commits go to; undefined: whichever is checked out. */
  branch?: string;
  /** The remote `push` pushes to. */
  remote: string;
}

/** One change to publish. */
export interface GitChange {
  /** The folder of the project (site.config.yaml's); the repository is the one it lies in. */
  root: string;
  /** The content file written or deleted (or several, committed together). */
  file: string | readonly string[];
  /** Who saved it: the commit's author (and committer); undefined: git's own configured identity (site dev). */
  author?: { name: string; email: string };
  message: string;
}

/** What publishing did: the commit made (if any), whether it was pushed, and what failed. */
export interface GitOutcome {
  committed: boolean;
  commit?: string;
  pushed: boolean;
  error?: string;
}

/** Runs git in `cwd` with `args` (no shell); rejects with git's own message. */
function git(cwd: string, args: readonly string[], env: Record<string, string> = {}): Promise<string> {
  return new Promise((done, fail) => {
    execFile(
      'git',
      args,
      { cwd, env: { ...process.env, ...env, GIT_TERMINAL_PROMPT: '0' }, timeout: 60_000, maxBuffer: 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error)
          fail(new Error(`git ${args[0]}: ${(stderr || error.message).trim().split('\n').slice(-3).join(' ')}`));
        else done(stdout.trim());
      },
    );
  });
}

/** The commit message of a change: `content(blog): update <slug> (<locale>)`. */
export function commitMessage(
  collection: string,
  action: 'add' | 'update' | 'delete',
  slug: string,
  locale: string,
): string {
  return `content(${collection}): ${action} ${slug} (${locale})`;
}

/** Commits (and pushes) one change; never throws. */
export async function publishToGit(change: GitChange, settings: GitPublishSettings): Promise<GitOutcome> {
  try {
    const top = await git(change.root, ['rev-parse', '--show-toplevel']);
    const files = typeof change.file === 'string' ? [change.file] : change.file;
    const paths = files.map((file) => relative(top, file));
    const outside = files.find((_file, index) => paths[index]!.startsWith('..'));
    if (outside)
      return { committed: false, pushed: false, error: `${outside} is outside the git repository at ${top}` };
    // The rebuild wrote the lock before this runs (`site serve --admin`); untracked or changed, it goes along.
    const lock = relative(top, join(change.root, pathLockName));
    if (!lock.startsWith('..') && !paths.includes(lock) && (await git(top, ['status', '--porcelain', '--', lock])))
      paths.push(lock);
    const current = await git(top, ['rev-parse', '--abbrev-ref', 'HEAD']);
    if (settings.branch && current !== settings.branch) {
      return {
        committed: false,
        pushed: false,
        error: `the checked-out branch is ${current}, not ${settings.branch} (publish.git.branch): nothing was committed`,
      };
    }
    // `git add -A -- path` stages a deletion too; the commit takes those paths only.
    await git(top, ['add', '-A', '--', ...paths]);
    const author = change.author;
    const identity: Record<string, string> = author
      ? {
          GIT_AUTHOR_NAME: author.name,
          GIT_AUTHOR_EMAIL: author.email,
          GIT_COMMITTER_NAME: author.name,
          GIT_COMMITTER_EMAIL: author.email,
        }
      : {};
    await git(top, ['commit', '--quiet', '-m', change.message, '--', ...paths], identity);
    const commit = await git(top, ['rev-parse', 'HEAD']);
    if (!settings.push) return { committed: true, commit, pushed: false };
    try {
      await git(top, ['push', '--quiet', settings.remote, `HEAD:refs/heads/${settings.branch ?? current}`]);
    } catch (error) {
      return { committed: true, commit, pushed: false, error: `the push failed: ${(error as Error).message}` };
    }
    return { committed: true, commit, pushed: true };
  } catch (error) {
    return { committed: false, pushed: false, error: (error as Error).message };
  }
}

/**
 * Commits (and pushes) the files of an admin's save when `publish.git.commit` says so, authored by
 * the signed-in account (git's own identity for site dev's user), and logs the outcome in the
 * audit log (`git-commit` or `git-failed`, with `about`); undefined when publishing is off.
 */
export async function publishAudited(
  audit: AuditLog,
  email: string,
  config: ResolvedConfig,
  file: string | readonly string[],
  message: string,
  about: Record<string, unknown> = { file: config.file },
): Promise<GitOutcome | undefined> {
  const settings = config.publish.git;
  if (!settings.commit) return undefined;
  const author = email === devUser.email ? undefined : { name: email.slice(0, email.indexOf('@')), email };
  const outcome = await publishToGit({ root: config.root, file, author, message }, settings);
  await audit.append({
    user: email,
    action: outcome.error ? 'git-failed' : 'git-commit',
    ...about,
    commit: outcome.commit ?? null,
    pushed: outcome.pushed,
    ...(outcome.error ? { error: outcome.error } : {}),
  });
  return outcome;
}
