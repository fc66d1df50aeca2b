/**
 * The next state of the published-paths lock (config/path-lock.ts) from the pages of a build: a
 * page whose path changed keeps its earlier paths under `before`, which redirect to it. Pure.
 */
import type { PathLock } from '../config/path-lock.js';
import type { Page } from './pages.js';

/** The key of a page in the lock: its locale and its route path in the default words ("no /blog/why-repair"). */
export function pathLockKey(page: Pick<Page, 'locale' | 'cluster'>): string {
  return `${page.locale} ${page.cluster}`;
}

/** The lock after a build with these pages; a page's earlier path that is another page now is dropped (it no longer redirects). */
export function nextPathLock(previous: PathLock | undefined, pages: readonly Page[]): PathLock {
  const published = pages.filter((page) => !page.duplicate && !page.notFound && !page.route.locale);
  const paths = new Set(pages.map((page) => page.path));
  const lock: PathLock = {};
  for (const page of published) {
    const old = previous?.[pathLockKey(page)];
    const earlier = new Set(old?.before ?? []);
    if (old && old.path !== page.path) earlier.add(old.path);
    const before = [...earlier].filter((path) => !paths.has(path)).sort();
    lock[pathLockKey(page)] = before.length ? { path: page.path, before } : { path: page.path };
  }
  return lock;
}

/** Whether a site keeps the lock: it has localized paths or slugs, or already has the file. */
export function keepsPathLock(
  config: { routes: readonly { paths?: object }[]; pathLock?: PathLock },
  pages: readonly Page[],
): boolean {
  return (
    config.pathLock !== undefined ||
    config.routes.some((route) => route.paths !== undefined) ||
    pages.some((page) => page.collection?.kind === 'entry' && !page.path.endsWith(`/${page.collection.slug}`))
  );
}
