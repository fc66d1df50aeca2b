/**
 * Edits values of `site.config.yaml` so that the file keeps its shape: each changed value is
 * replaced at its node's range in the text (in the quoting style it had, when that can hold the
 * new value), a new key is added on a line of its own in a block map (or before the `}` of a flow
 * map), a removed key loses its line, an entry (a map: a redirect) is added to or taken out of a
 * list of them on lines of its own (the list added at the end of its map when missing). Comments, quoting, flow maps, blank lines and key order
 * elsewhere keep their bytes; the `yaml` package's `Document.toString()` would reformat the file.
 * The result is parsed again and must hold exactly the intended data, else the edit is refused.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Document, Node, Pair, Scalar, YAMLMap } from 'yaml';
import { isMap, isScalar, isSeq, parseDocument } from '../yaml-package.js';
import { formatScalar, replaceScalar } from './front-matter-edit.js';

/** A map of scalars: added to a list of them (`redirects:`), or a value of its own (a plan's price). */
export type ConfigEntry = Readonly<Record<string, string | number>>;

/**
 * A value the settings write: a scalar, null to remove the key, or a map of scalars (written as a
 * flow map, `{ amount: 49, currency: EUR, period: month }`, in the place of a scalar or a flow map).
 */
export type ConfigValue = string | number | boolean | null | ConfigEntry;

/**
 * One change: the value at a path of keys and list indexes (`["plans", 1, "ordersPerMonth"]`), a
 * scalar added to (`append`) or taken out of (`remove`) the list at the path, or an entry added to
 * (`appendEntry`) or taken out of (`removeEntry`, by index) a list of maps.
 */
export type ConfigChange =
  | { path: readonly (string | number)[]; value: ConfigValue }
  | { path: readonly (string | number)[]; append: string | number }
  | { path: readonly (string | number)[]; remove: string | number }
  | { path: readonly (string | number)[]; appendEntry: ConfigEntry }
  | { path: readonly (string | number)[]; removeEntry: number };

/** An edit that cannot be made in place (a list or map where a value is asked, a missing parent). */
export class ConfigEditError extends Error {
  constructor(
    readonly path: readonly (string | number)[],
    message: string,
  ) {
    super(message);
  }
}

const plainKey = /^[A-Za-z_][\w-]*$/;

/** The YAML text of a key ("no" and other words YAML 1.1 would read as booleans are quoted, as the file does). */
function keyText(key: string | number): string {
  const text = String(key);
  return plainKey.test(text) && !/^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF|null|Null|NULL)$/.test(text) ? text : JSON.stringify(text);
}

/** The offset just after the end of the line `offset` is on. */
function endOfLine(text: string, offset: number): number {
  const end = text.indexOf('\n', offset);
  return end === -1 ? text.length : end + 1;
}

/** The text with a scalar added to, or taken out of, the list at `path`. */
function applyToList(text: string, doc: Document, path: readonly (string | number)[], item: { append: string | number } | { remove: string | number }): string {
  const where = path.join('.');
  const list = doc.getIn(path, true) as Node | undefined;
  if (!isSeq(list) || !list.range) throw new ConfigEditError(path, `${where} is not a list in the file`);
  const items = list.items as Node[];
  const ranges = items.map((node) => {
    if (!isScalar(node) || !node.range) throw new ConfigEditError(path, `${where} holds more than plain values: edit it in the file`);
    return node.range;
  });
  if ('append' in item) {
    const entry = formatScalar(item.append);
    const last = ranges[ranges.length - 1];
    if (list.flow) {
      if (!last) {
        const open = text.indexOf('[', list.range[0]);
        return text.slice(0, open + 1) + entry + text.slice(open + 1);
      }
      return text.slice(0, last[1]) + `, ${entry}` + text.slice(last[1]);
    }
    if (!last) throw new ConfigEditError(path, `${where} is empty in the file: add the first item there by hand`);
    const firstDash = text.lastIndexOf('-', ranges[0]![0]);
    const indent = firstDash - (text.lastIndexOf('\n', firstDash - 1) + 1);
    const at = endOfLine(text, last[1] - 1);
    const newline = at === text.length && !text.endsWith('\n') ? '\n' : '';
    return text.slice(0, at) + newline + `${' '.repeat(indent)}- ${entry}\n` + text.slice(at);
  }
  const index = items.findIndex((node) => isScalar(node) && node.value === item.remove);
  if (index === -1) return text;
  const [start, end] = ranges[index]!;
  if (list.flow) {
    // The item with the comma before it (or, for the first, the comma and space after it).
    if (index > 0) return text.slice(0, ranges[index - 1]![1]) + text.slice(end);
    const next = ranges[1];
    return text.slice(0, start) + text.slice(next ? next[0] : end);
  }
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  return text.slice(0, lineStart) + text.slice(endOfLine(text, end - 1));
}

/** The YAML text of a value: a scalar (in the quoting of `like`, when it can hold it), or a map of scalars as a flow map. */
function valueText(value: Exclude<ConfigValue, null>, like?: Scalar): string {
  if (typeof value !== 'object') return formatScalar(value, like);
  return `{ ${Object.entries(value).map(([key, inner]) => `${keyText(key)}: ${formatScalar(inner)}`).join(', ')} }`;
}

/** The lines of an entry as an item of a block list at `indent`: "- from: /a\n  to: /b\n". */
function entryLines(entry: ConfigEntry, indent: number): string {
  return Object.entries(entry).map(([key, value], index) => `${' '.repeat(indent)}${index ? '  ' : '- '}${keyText(key)}: ${formatScalar(value)}\n`).join('');
}

/** The text with an entry added to the list of maps at `path` (the list made when missing), or the entry at an index taken out. */
function applyToEntries(text: string, doc: Document, path: readonly (string | number)[], item: { appendEntry: ConfigEntry } | { removeEntry: number }): string {
  const where = path.join('.');
  const list = doc.getIn(path, true) as Node | undefined;
  if (list === undefined && 'appendEntry' in item) {
    const parent = (path.length > 1 ? doc.getIn(path.slice(0, -1), true) : doc.contents) as Node | undefined;
    const pairs = isMap(parent) && !parent.flow ? ((parent as YAMLMap).items as Pair[]) : [];
    const last = pairs[pairs.length - 1];
    if (!last) throw new ConfigEditError(path, `${path.slice(0, -1).join('.') || 'the file'} is not a block map in the file: add ${where} there by hand`);
    const firstKey = (pairs[0]!.key as Node).range![0];
    const indent = firstKey - (text.lastIndexOf('\n', firstKey - 1) + 1);
    const lastEnd = (last.value as Node | null)?.range?.[1] ?? (last.key as Node).range![1];
    const at = endOfLine(text, lastEnd - 1);
    const newline = at === text.length && !text.endsWith('\n') ? '\n' : '';
    return text.slice(0, at) + newline + `${' '.repeat(indent)}${keyText(path[path.length - 1]!)}:\n` + entryLines(item.appendEntry, indent + 2) + text.slice(at);
  }
  if (!isSeq(list) || !list.range) throw new ConfigEditError(path, `${where} is not a list in the file`);
  const ranges = (list.items as Node[]).map((node) => node.range!);
  if ('removeEntry' in item) {
    const range = ranges[item.removeEntry];
    if (!range) throw new ConfigEditError(path, `${where} has no item ${item.removeEntry}`);
    if (list.flow) {
      if (item.removeEntry > 0) return text.slice(0, ranges[item.removeEntry - 1]![1]) + text.slice(range[1]);
      const next = ranges[1];
      return text.slice(0, range[0]) + text.slice(next ? next[0] : range[1]);
    }
    const dash = text.lastIndexOf('-', range[0]);
    const lineStart = text.lastIndexOf('\n', dash - 1) + 1;
    // The last item gone, the key keeps an empty list (`redirects: []`), not a null.
    const empty = ranges.length === 1 && lineStart > 0 ? ' []' : '';
    return text.slice(0, Math.max(lineStart - 1, 0)) + empty + text.slice(Math.max(lineStart - 1, 0), lineStart) + text.slice(endOfLine(text, range[1] - 1));
  }
  const last = ranges[ranges.length - 1];
  if (list.flow) {
    const entry = `{ ${Object.entries(item.appendEntry).map(([key, value]) => `${keyText(key)}: ${JSON.stringify(value)}`).join(', ')} }`;
    if (!last) {
      const open = text.indexOf('[', list.range[0]);
      return text.slice(0, open + 1) + entry + text.slice(open + 1);
    }
    return text.slice(0, last[1]) + `, ${entry}` + text.slice(last[1]);
  }
  const firstDash = text.lastIndexOf('-', ranges[0]![0]);
  const indent = firstDash - (text.lastIndexOf('\n', firstDash - 1) + 1);
  const at = endOfLine(text, last![1] - 1);
  const newline = at === text.length && !text.endsWith('\n') ? '\n' : '';
  return text.slice(0, at) + newline + entryLines(item.appendEntry, indent) + text.slice(at);
}

/** The text of one change applied to `text` (parsed as `doc`). */
function applyOne(text: string, doc: Document, change: ConfigChange): string {
  if ('appendEntry' in change || 'removeEntry' in change) return applyToEntries(text, doc, change.path, change);
  if (!('value' in change)) return applyToList(text, doc, change.path, change);
  const { path, value } = change;
  const where = path.join('.');
  const node = doc.getIn(path, true) as Node | undefined;
  // A map of scalars and a scalar replace each other only where the map is a flow map (a price: on-request ⇄ { amount, … }).
  const replaceable = isMap(node) && node.flow && (node.items as Pair[]).every((pair) => isScalar(pair.value)) && value !== null;
  if (node !== undefined && (isMap(node) || isSeq(node)) && !replaceable) throw new ConfigEditError(path, `${where} holds a list or a map: edit it in the file`);
  const parent = (path.length > 1 ? doc.getIn(path.slice(0, -1), true) : doc.contents) as Node | undefined;
  const key = path[path.length - 1]!;
  if (node !== undefined) {
    if (!(isScalar(node) || replaceable) || !node.range) throw new ConfigEditError(path, `${where} cannot be edited in place`);
    if (value !== null && isScalar(node) && typeof value !== 'object') {
      // A block scalar's range runs on past its last line: replaceScalar keeps the line break after it.
      const edit = replaceScalar(text, node as Scalar & { range: [number, number, number] }, value);
      return text.slice(0, edit.start) + edit.text + text.slice(edit.end);
    }
    if (value !== null) return text.slice(0, node.range[0]) + valueText(value, isScalar(node) ? node : undefined) + text.slice(node.range[1]);
    if (!isMap(parent) || parent.flow) throw new ConfigEditError(path, `${where} can only be removed from a block map: edit it in the file`);
    const pair = (parent.items as Pair[]).find((item) => isScalar(item.key) && String(item.key.value) === String(key))!;
    const keyStart = (pair.key as Node).range![0];
    const start = text.lastIndexOf('\n', keyStart - 1) + 1;
    return text.slice(0, start) + text.slice(endOfLine(text, node.range[1] - 1));
  }
  if (value === null) return text;
  if (!isMap(parent) || !parent.range) throw new ConfigEditError(path, `${path.slice(0, -1).join('.') || 'the file'} is not a map in the file: add ${where} there by hand`);
  const entry = `${keyText(key)}: ${valueText(value)}`;
  const pairs = (parent as YAMLMap).items as Pair[];
  const last = pairs[pairs.length - 1];
  const lastEnd = last ? ((last.value as Node | null)?.range?.[1] ?? (last.key as Node).range![1]) : undefined;
  if (parent.flow) {
    if (lastEnd === undefined) {
      const open = text.indexOf('{', parent.range[0]);
      return text.slice(0, open + 1) + ` ${entry} ` + text.slice(open + 1);
    }
    return text.slice(0, lastEnd) + `, ${entry}` + text.slice(lastEnd);
  }
  if (!last || lastEnd === undefined) throw new ConfigEditError(path, `${path.slice(0, -1).join('.')} is empty in the file: add ${where} there by hand`);
  const firstKey = (pairs[0]!.key as Node).range![0];
  const indent = firstKey - (text.lastIndexOf('\n', firstKey - 1) + 1);
  const at = endOfLine(text, lastEnd - 1);
  const newline = at === text.length && !text.endsWith('\n') ? '\n' : '';
  return text.slice(0, at) + newline + ' '.repeat(indent) + entry + '\n' + text.slice(at);
}

/** Makes a change in plain data (a copy of what the file should hold afterwards). */
function changeIn(data: unknown, change: ConfigChange): void {
  let here = data as Record<string | number, unknown>;
  const { path } = change;
  if ('appendEntry' in change || 'removeEntry' in change) {
    for (const key of path.slice(0, -1)) here = here[key] as Record<string | number, unknown>;
    const key = path[path.length - 1]!;
    const list = (here[key] ??= []) as unknown[];
    if ('appendEntry' in change) list.push({ ...change.appendEntry });
    else list.splice(change.removeEntry, 1);
    return;
  }
  if (!('value' in change)) {
    for (const key of path) here = here[key] as Record<string | number, unknown>;
    const list = here as unknown as unknown[];
    if ('append' in change) list.push(change.append);
    else if (list.includes(change.remove)) list.splice(list.indexOf(change.remove), 1);
    return;
  }
  for (const key of path.slice(0, -1)) here = here[key] as Record<string | number, unknown>;
  const key = path[path.length - 1]!;
  if (change.value === null) delete here[key];
  else here[key] = typeof change.value === 'object' ? { ...change.value } : change.value;
}

/**
 * The config's text with the changes made in place. Throws a ConfigEditError for a change that
 * cannot be made so, and an Error when the result would not read back as the intended data.
 */
export function editConfigText(text: string, changes: readonly ConfigChange[]): string {
  const original = parseDocument(text);
  if (original.errors.length) throw new Error(`the config is not valid YAML: ${original.errors[0]!.message}`);
  const intended = original.toJS() as unknown;
  let next = text;
  for (const change of changes) {
    next = applyOne(next, parseDocument(next), change);
    changeIn(intended, change);
  }
  const reread = parseDocument(next);
  if (reread.errors.length || !isDeepStrictEqual(reread.toJS(), intended)) throw new Error('the edited config would not read back as the values given; nothing was changed');
  return next;
}
