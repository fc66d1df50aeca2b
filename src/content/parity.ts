/**
 * Locale parity: two translations of the same file must have the same keys and the same number
 * of list items, so no language silently misses a sentence.
 */
import { SiteError } from '../errors.js';
import { formatPath, locate, yamlValue, type YamlSource } from '../yaml-source.js';

/** Compares a translation with the reference translation; returns one error per difference. */
export function checkParity(reference: YamlSource, other: YamlSource): SiteError[] {
  const errors: SiteError[] = [];
  const walk = (a: unknown, b: unknown, path: PropertyKey[]) => {
    if (isRecord(a) && isRecord(b)) {
      for (const key of Object.keys(a)) {
        if (!(key in b)) {
          errors.push(parityError(other, path, `missing key "${formatPath([...path, key])}" (present in ${reference.file})`));
        } else walk(a[key], b[key], [...path, key]);
      }
      for (const key of Object.keys(b)) {
        if (!(key in a)) errors.push(parityError(other, [...path, key], `key "${formatPath([...path, key])}" is not in ${reference.file}`));
      }
    } else if (Array.isArray(a) && Array.isArray(b)) {
      if (a.length !== b.length) {
        errors.push(parityError(other, path, `${b.length} items where ${reference.file} has ${a.length}`));
      }
      for (let i = 0; i < Math.min(a.length, b.length); i++) walk(a[i], b[i], [...path, i]);
    }
  };
  walk(yamlValue(reference), yamlValue(other), []);
  return errors;
}

function parityError(source: YamlSource, path: PropertyKey[], message: string): SiteError {
  return new SiteError({ code: 'CONTENT_PARITY', message, file: source.file, field: formatPath(path) || undefined, ...locate(source, path) });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
