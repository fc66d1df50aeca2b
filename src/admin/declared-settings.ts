/**
 * The settings a site declares in `admin.settings` (src/config/settings-schema.ts), for the
 * settings API: the values they have now, one per path the config holds (a `*` stands for each key
 * or list entry there is), and a change at one of those paths, checked by the declared type. The
 * engine names none of them: a plan's limits and the site's `data:` are the site's to describe.
 */
import type { ResolvedConfig } from '../config/load.js';
import type { DeclaredField } from '../config/settings-schema.js';
import type { ConfigChange } from './config-edit.js';
import { matchesPattern } from './ui/islands/setting-paths.js';

/** A declared setting's value now: its dotted path, the value (null when the config has none) and, under a `*`, the row it is in. */
export interface DeclaredValue {
  path: string;
  value: unknown;
  /** What `*` stands for: the key, or the entry's id (its index without one). */
  row?: string;
}

/** The map or list at a dotted path of the config, or undefined. */
function containerAt(config: ResolvedConfig, parts: readonly string[]): object | undefined {
  let here: unknown = config;
  for (const part of parts)
    here = here !== null && typeof here === 'object' ? (here as Record<string, unknown>)[part] : undefined;
  return here !== null && typeof here === 'object' ? here : undefined;
}

/** The paths a field stands for in this config: a `*` for each key or entry there is, the last part's parent a map. */
function expand(config: ResolvedConfig, pattern: string): { path: string; row?: string }[] {
  const parts = pattern.split('.');
  const star = parts.indexOf('*');
  const parentOf = (path: string[]) => {
    const parent = containerAt(config, path.slice(0, -1));
    return parent !== undefined && !Array.isArray(parent);
  };
  if (star === -1) return parentOf(parts) ? [{ path: pattern }] : [];
  const list = containerAt(config, parts.slice(0, star));
  if (list === undefined) return [];
  return Object.entries(list).flatMap(([key, entry]) => {
    const path = [...parts.slice(0, star), key, ...parts.slice(star + 1)];
    const id =
      Array.isArray(list) && entry !== null && typeof entry === 'object' ? (entry as { id?: unknown }).id : undefined;
    return parentOf(path) ? [{ path: path.join('.'), row: typeof id === 'string' ? id : key }] : [];
  });
}

/** The value at a dotted path of the config, or null. */
function valueAt(config: ResolvedConfig, path: string): unknown {
  const parts = path.split('.');
  const value = (containerAt(config, parts.slice(0, -1)) as Record<string, unknown> | undefined)?.[
    parts[parts.length - 1]!
  ];
  return value === undefined ? null : value;
}

/** The declared fields, in the order of the declaration. */
function declaredFields(config: ResolvedConfig): DeclaredField[] {
  return config.admin.settings.flatMap((group) => group.fields);
}

/** Every declared setting's value in this config, in the order of the declaration. */
export function declaredValues(config: ResolvedConfig): DeclaredValue[] {
  return declaredFields(config).flatMap((field) =>
    expand(config, field.path).map(({ path, row }) => ({
      path,
      value: valueAt(config, path),
      ...(row === undefined ? {} : { row }),
    })),
  );
}

/** A change at a declared path, or the problem with its value; undefined when no declared setting has the path. */
export function declaredChange(
  config: ResolvedConfig,
  path: string,
  value: unknown,
): { change: ConfigChange } | { problem: string } | undefined {
  for (const field of declaredFields(config)) {
    const localized = field.type === 'localized-text';
    // A text per language is written one language at a time: its path and the language's id.
    const at = localized ? path.slice(0, path.lastIndexOf('.')) : path;
    if (!matchesPattern(field.path, at) || !expand(config, field.path).some((found) => found.path === at)) continue;
    if (localized && !config.localeIds.includes(path.slice(at.length + 1)))
      return { problem: `${path} names no language of the site` };
    const checked = checkValue(field, value);
    if ('problem' in checked) return checked;
    return {
      change: { path: path.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part)), value: checked.value },
    };
  }
  return undefined;
}

/** A value as the declared type takes it (null removes an optional one), or what is wrong with it. */
export function checkValue(
  field: DeclaredField,
  value: unknown,
): { value: string | number | boolean | null } | { problem: string } {
  const empty = value === null || (typeof value === 'string' && value.trim() === '');
  if (empty) return field.optional ? { value: null } : { problem: 'give a value; it cannot be empty' };
  switch (field.type) {
    case 'number': {
      if (field.unlimited && typeof value === 'string' && value.trim().toLowerCase() === 'unlimited')
        return { value: 'unlimited' };
      const fits =
        typeof value === 'number' &&
        Number.isFinite(value) &&
        (!field.integer || Number.isInteger(value)) &&
        (field.min === undefined || value >= field.min) &&
        (field.max === undefined || value <= field.max);
      return fits ? { value } : { problem: numberProblem(field) };
    }
    case 'boolean':
      return typeof value === 'boolean' ? { value } : { problem: 'give true or false' };
    case 'url':
      return typeof value === 'string' &&
        /^https?:\/\/[^\s/?#]+[^\s]*$/.test(value.trim()) &&
        URL.canParse(value.trim())
        ? { value: value.trim() }
        : { problem: 'give a whole address starting with https:// (or http://)' };
    default:
      if (typeof value !== 'string') return { problem: 'give a text' };
      return /[\r\n]/.test(value) ? { problem: 'write it as one line, without line breaks' } : { value: value.trim() };
  }
}

/** What a number field takes, in words ("a whole number from 1, or the word unlimited"); a share's range as a percentage. */
function numberProblem(field: DeclaredField): string {
  const scale = (bound: number) => (field.percent ? `${Number((bound * 100).toFixed(6))} %` : String(bound));
  const range =
    field.min !== undefined && field.max !== undefined
      ? ` from ${scale(field.min)} to ${scale(field.max)}`
      : field.min !== undefined
        ? ` of ${scale(field.min)} or more`
        : field.max !== undefined
          ? ` of ${scale(field.max)} or less`
          : '';
  return `give ${field.integer ? 'a whole number' : 'a number'}${range}${field.unlimited ? ', or the word unlimited' : ''}`;
}
