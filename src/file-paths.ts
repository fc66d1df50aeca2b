/** Rules about file-system paths (not URLs: those live in routes/paths.ts). Pure. */
import { isAbsolute, relative } from 'node:path';

/** Whether the absolute path `inner` is `outer` or lies inside it. */
export function isWithin(inner: string, outer: string): boolean {
  const rel = relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
