/**
 * Renaming a post's slug: its folder moves (one `rename`, so every language moves at once), and
 * the addresses it had stay answered. Every page that showed the post (each locale, fallback
 * pages, audience sections and aliases included) gets a redirect from its old path to its new one
 * in `redirects:` of site.config.yaml, written in place (config-edit.ts); a redirect that led to an
 * old path now leads to the new one (no chains), and one from a new path (a rename back) goes.
 */
import { mkdir, rename } from 'node:fs/promises';
import type { ResolvedConfig } from '../config/load.js';
import type { Page } from '../routes/pages.js';
import { isExternalTarget, redirectFromPath, redirectTargetPath } from '../routes/redirects.js';
import type { ConfigChange } from './config-edit.js';

/** A redirect a rename adds: an old page path and the new one. */
export interface RenameRedirect {
  from: string;
  to: string;
}

/** The page path with the entry's slug segment (the last one that is the slug) replaced: "/no/blogg/gammel" → "/no/blogg/ny". */
function renamedPath(path: string, from: string, to: string): string {
  const segments = path.split('/');
  const index = segments.lastIndexOf(from);
  return index === -1 ? path : [...segments.slice(0, index), to, ...segments.slice(index + 1)].join('/');
}

/**
 * The redirects a rename of entry `from` to `to` of `collection` adds (by old path), and the
 * changes to the config that write them: retargeted redirects first, then the new ones at the
 * end, then the ones taken out (highest index first, so the others keep theirs; the list is never
 * left empty on the way).
 */
export function renameRedirects(
  config: ResolvedConfig,
  pages: readonly Page[],
  collection: string,
  from: string,
  to: string,
): { redirects: RenameRedirect[]; changes: ConfigChange[] } {
  const moved = new Map<string, string>();
  for (const page of pages) {
    const shown = page.collection;
    if (shown?.kind === 'entry' && shown.collection === collection && shown.slug === from)
      moved.set(page.path, renamedPath(page.path, from, to));
  }
  const redirects = [...moved]
    .map(([old, now]) => ({ from: old, to: now }))
    .sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
  const newPaths = new Set(moved.values());
  const changes: ConfigChange[] = [];
  const removed: number[] = [];
  config.redirects.forEach((redirect, index) => {
    if (newPaths.has(redirectFromPath(redirect.from))) removed.push(index);
    else if (!isExternalTarget(redirect.to)) {
      const now = moved.get(redirectTargetPath(redirect.to));
      const hash = redirect.to.indexOf('#');
      if (now)
        changes.push({ path: ['redirects', index, 'to'], value: now + (hash === -1 ? '' : redirect.to.slice(hash)) });
    }
  });
  for (const redirect of redirects) changes.push({ path: ['redirects'], appendEntry: redirect });
  for (const index of removed.reverse()) changes.push({ path: ['redirects'], removeEntry: index });
  return { redirects, changes };
}

/** Moves a post's folder to its new name in one step; refuses when the new folder exists (no merge of two posts). */
export async function moveFolder(from: string, to: string): Promise<void> {
  // rename() would replace an empty folder silently: mkdir fails with EEXIST for any that exists.
  await mkdir(to);
  await rename(from, to);
}
