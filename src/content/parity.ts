/**
 * Locale parity: two translations of the same file must have the same keys and the same number
 * of list items, so no language silently misses a sentence.
 */
import type { Diagnostics } from '../diagnostics.js';
import { formatPath, locate, yamlValue, type YamlSource } from '../yaml-source.js';

/**
 * Compares a translation with the reference translation; records one error per difference. A key
 * whose absence a schema already reported (a required field missing in either file) is not
 * reported again: one mistake, one message.
 */
export function checkParity(reference: YamlSource, other: YamlSource, diagnostics: Diagnostics): void {
  const reported = new Set(
    diagnostics
      .of('error')
      .filter((problem) => problem.file === reference.file || problem.file === other.file)
      .map((problem) => problem.field),
  );
  /** `about`: the key the difference is about, when a schema may have reported it already. */
  const parityError = (path: PropertyKey[], message: string, about?: PropertyKey[]) => {
    if (about !== undefined && reported.has(formatPath(about))) return;
    diagnostics.error({ code: 'CONTENT_PARITY', message, file: other.file, field: formatPath(path) || undefined, ...locate(other, path) });
  };
  const walk = (a: unknown, b: unknown, path: PropertyKey[]) => {
    if (isRecord(a) && isRecord(b)) {
      for (const key of Object.keys(a)) {
        if (!(key in b)) {
          parityError(path, `missing key "${formatPath([...path, key])}" (present in ${reference.file})`, [...path, key]);
        } else walk(a[key], b[key], [...path, key]);
      }
      for (const key of Object.keys(b)) {
        if (!(key in a))
          parityError([...path, key], `key "${formatPath([...path, key])}" is not in ${reference.file}`, [...path, key]);
      }
    } else if (Array.isArray(a) && Array.isArray(b)) {
      if (a.length !== b.length) {
        parityError(path, `${b.length} items where ${reference.file} has ${a.length}`);
      }
      for (let i = 0; i < Math.min(a.length, b.length); i++) walk(a[i], b[i], [...path, i]);
    }
  };
  walk(yamlValue(reference), yamlValue(other), []);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
