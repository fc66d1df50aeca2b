/**
 * The memory of published paths (issue 31): `site.paths.lock.yaml` beside the config, written by
 * each successful build of a site with localized paths or slugs (`site build`, and the rebuilds of
 * `site dev` and of the admin in `site serve --admin`) and meant to be committed. It maps
 * each page (its locale and its route path in the default words: "no /blog/why-repair") to the path
 * it is published at and the paths it had before, so a changed localized path or slug keeps the
 * old URL working: each earlier path redirects (301) to the current one, on every host target and
 * in `site serve` / `site dev`. Sorted and plain, so two builds write the same bytes.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../atomic-write.js';
import { parse, stringify } from '../yaml-package.js';

/** The file name, beside the config. */
export const pathLockName = 'site.paths.lock.yaml';

/** Page key ("no /blog/why-repair") → its published path and the paths it had before, sorted. */
export type PathLock = Record<string, { path: string; before?: string[] }>;

/** A redirect the lock keeps: an earlier path to the page's current one. */
export interface LockRedirect {
  from: string;
  to: string;
  status: 301;
  by: string;
}

/** The lock beside a config, or undefined when there is none (or it is not a lock: the build then starts a new one). */
export async function readPathLock(root: string): Promise<PathLock | undefined> {
  let text: string;
  try {
    text = await readFile(join(root, pathLockName), 'utf8');
  } catch {
    return undefined;
  }
  const data = parse(text) as unknown;
  if (typeof data !== 'object' || data === null) return undefined;
  const lock: PathLock = {};
  for (const [key, value] of Object.entries(data as Record<string, { path?: unknown; before?: unknown }>)) {
    if (typeof value?.path !== 'string') continue;
    const before = Array.isArray(value.before)
      ? value.before.filter((path): path is string => typeof path === 'string')
      : [];
    lock[key] = before.length ? { path: value.path, before } : { path: value.path };
  }
  return lock;
}

/** The lock as the file holds it: keys sorted, so the same pages give the same bytes. */
export function formatPathLock(lock: PathLock): string {
  const sorted = Object.fromEntries(
    Object.keys(lock)
      .sort()
      .map((key) => [key, lock[key]]),
  );
  return `# Written by each good build (\`site build\`, \`site dev\`, the admin's saves): where each page is published and where it was before (those paths redirect). Commit it.\n${stringify(sorted)}`;
}

/**
 * Writes a config's lock beside it when the text differs from the file's, whole or not at all
 * (atomic-write.ts: `site dev` and `site build` may write the same lock at once). A config without
 * a lock writes nothing: a site keeps the file only once it uses localized paths or slugs
 * (routes/path-lock.ts).
 */
export async function writePathLock(config: { root: string; pathLock?: PathLock }): Promise<void> {
  if (!config.pathLock) return;
  const file = join(config.root, pathLockName);
  const text = formatPathLock(config.pathLock);
  if ((await readFile(file, 'utf8').catch(() => undefined)) === text) return;
  await writeFileAtomic(file, text);
}

/** The redirects of a lock: every earlier path of a page to its current path. */
export function lockRedirects(lock: PathLock | undefined): LockRedirect[] {
  const out: LockRedirect[] = [];
  for (const key of Object.keys(lock ?? {}).sort()) {
    const { path, before = [] } = lock![key]!;
    for (const from of before) out.push({ from, to: path, status: 301, by: `${pathLockName} (${key})` });
  }
  return out;
}
