/** Rules about file-system paths (not URLs: those live in url-paths.ts). */
import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isAbsolute, join, relative, resolve } from 'node:path';

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

/**
 * The file a config names as the stylesheet's `url()` would: a path starting with "." or "/" from
 * `root`, anything else as a file of an installed package (`@fontsource/inter/files/…`), found in
 * the node_modules of `root` or a folder above it. Undefined when there is no such file.
 */
export function resolveSiteFile(root: string, path: string): string | undefined {
  try {
    return path.startsWith('.') || isAbsolute(path)
      ? realpathSync(resolve(root, path))
      : createRequire(join(root, 'package.json')).resolve(path);
  } catch {
    return undefined;
  }
}
