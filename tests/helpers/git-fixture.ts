/** A temporary site under git: the English and Norwegian committed, then an English edit committed (translation status from git). */
import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Runs git in a folder as a test author. */
export function git(dir: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], {
    cwd: dir,
    stdio: 'ignore',
  });
}

/** Replaces a text in a file of a site. */
export async function editSiteFile(dir: string, path: string, from: string, to: string): Promise<void> {
  const file = join(dir, path);
  const text = await readFile(file, 'utf8');
  if (!text.includes(from)) throw new Error(`${path} has no "${from}"`);
  await writeFile(file, text.replace(from, to));
}

/**
 * Makes the site folder a repository with its content committed, then commits an English edit of the
 * landing page's heading and of a post's title: the Norwegian of both is then outdated in git's eyes.
 */
export async function commitEnglishEdits(dir: string, slug = 'a-day-in-a-tailor-shop'): Promise<void> {
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', 'content', 'site.config.yaml');
  git(dir, 'commit', '-q', '-m', 'the site');
  await editSiteFile(
    dir,
    'content/pages/landing/en.yaml',
    'Make repair the easy choice',
    'Make repair the obvious choice',
  );
  await editSiteFile(
    dir,
    `content/blog/${slug}/en.md`,
    'title: "A day in a tailor shop"',
    'title: "A day in a busy tailor shop"',
  );
  git(dir, 'commit', '-q', '-am', 'English edits');
}
