/** Rules about file-system paths (not URLs: those live in routes/paths.ts). */
import { realpathSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';

/** Whether the absolute path `inner` is `outer` or lies inside it. */
export function isWithin(inner: string, outer: string): boolean {
  const rel = relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** The path with symbolic links resolved when it exists, else the path itself. */
export function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * Whether a relative path ("a/.git/config") names a dot-file or passes through a dot-folder: never
 * published by the build nor served by `site serve`, except `.well-known/`.
 */
export function isHiddenPath(path: string): boolean {
  return path.split('/').some((segment) => segment.startsWith('.') && segment !== '.well-known');
}
