/**
 * Changes in words: what a save, a restore or a translation's source changed, as a marketer reads
 * it beside the file diff: `{ label, before, after }` per value that differs ("Basic: price",
 * "On request" → "€49 per month"). Pure: each API gives the labels (from its screen's copy) and the
 * way its values read (`show`); this module finds the values that differ and words the plain ones.
 */

/** One change in words: what changed (the screen's name of it) and its value before and after, as the site shows them. */
export interface ChangeInWords {
  label: string;
  before: string;
  after: string;
}

/** The screen's words for values that have none of their own (its copy's `history:` block: yes, no, none). */
export interface ValueWords {
  yes: string;
  no: string;
  /** An empty or missing value. */
  none: string;
}

/** A value that differs, at its path in the document. */
export interface ChangedValue {
  path: string[];
  before: unknown;
  after: unknown;
}

const isMap = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The values that differ between two parsed documents (YAML copy, front matter, a config), in
 * the documents' order; a list of texts is one value, and so is a map `isValue` names (a plan's price).
 */
export function changedValues(
  before: unknown,
  after: unknown,
  isValue: (path: readonly string[]) => boolean = () => false,
  path: string[] = [],
): ChangedValue[] {
  // A list of maps of the same length (the config's plans) is walked item by item; any other list is one value.
  if (
    Array.isArray(before) &&
    Array.isArray(after) &&
    before.length === after.length &&
    [...before, ...after].some(isMap) &&
    !isValue(path)
  )
    return before.flatMap((item, index) => changedValues(item, after[index], isValue, [...path, String(index)]));
  if (isMap(before) && isMap(after) && !(path.length && isValue(path))) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    return keys.flatMap((key) => changedValues(before[key], after[key], isValue, [...path, key]));
  }
  if (isMap(before) && after === undefined && !isValue(path)) return changedValues(before, {}, isValue, path);
  if (isMap(after) && before === undefined && !isValue(path)) return changedValues({}, after, isValue, path);
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [{ path, before, after }];
}

/** A plain value in words: a text as it is, a number in the language's way (`intl`), yes or no, a list's items. */
export function plainValue(value: unknown, words: ValueWords, intl: string): string {
  if (value === undefined || value === null || value === '') return words.none;
  if (typeof value === 'boolean') return value ? words.yes : words.no;
  if (typeof value === 'number') return new Intl.NumberFormat(intl).format(value);
  if (typeof value === 'string') return value;
  if (Array.isArray(value))
    return value.length ? value.map((item) => plainValue(item, words, intl)).join(', ') : words.none;
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return Object.entries(value as Record<string, unknown>)
    .map(([key, item]) => `${key}: ${plainValue(item, words, intl)}`)
    .join(', ');
}

/** How one API words its changes. */
export interface ChangeWording {
  words: ValueWords;
  /** The language of numbers (its `intl`). */
  intl: string;
  /** The name of the value at a path, from the screen's copy. */
  label(path: readonly string[]): string;
  /** A map that is one value (a plan's price): not taken apart. */
  isValue?(path: readonly string[]): boolean;
  /** A value as the site shows it, or undefined for the plain words. */
  show?(path: readonly string[], value: unknown): string | undefined;
}

/** The changes between two parsed documents, in words. */
export function changesInWords(before: unknown, after: unknown, wording: ChangeWording): ChangeInWords[] {
  // A yes-or-no that was not written is the default, no.
  const say = (path: readonly string[], value: unknown, other: unknown) =>
    wording.show?.(path, value) ??
    plainValue(value === undefined && typeof other === 'boolean' ? false : value, wording.words, wording.intl);
  return changedValues(before, after, wording.isValue).map((change) => ({
    label: wording.label(change.path),
    before: say(change.path, change.before, change.after),
    after: say(change.path, change.after, change.before),
  }));
}

/** "Price" → "price" for the second part of a label ("Basic: price"); a name such as "LinkedIn page" keeps its capitals. */
export function lowerFirst(text: string): string {
  const [first = '', ...rest] = text.split(' ');
  return /^\p{Lu}[\p{Ll}\d-]*$/u.test(first) ? [first.toLowerCase(), ...rest].join(' ') : text;
}

/** A text of the copy with its `{placeholders}` filled. */
export function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** A dotted key or a page id in words for a marketer: `hero.ctaLabel` → "Hero › Cta label", `hub/pricing` → "Hub › Pricing". */
export function labelOf(key: string): string {
  return key
    .split(/[./]/)
    .map((part) => {
      const words = part
        .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
        .replace(/[-_]+/g, ' ')
        .trim()
        .toLowerCase();
      return /^\d+$/.test(words) ? `#${Number(words) + 1}` : words.charAt(0).toUpperCase() + words.slice(1);
    })
    .join(' › ');
}
