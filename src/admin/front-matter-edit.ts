/**
 * Edits the front matter of a Markdown file so that every line the edit does not touch keeps its
 * bytes: comments, quoting, key order and blank lines. A changed value is replaced at its node's
 * range in the source text (in the quoting style it had, when that can hold the new value; a value
 * of several lines as a block scalar indented under its key); a removed key loses its line(s); a
 * new key is appended. The document is never re-serialised whole, so the result is read back and
 * must hold exactly the data given (`checkReadBack`), as the settings' edits must (config-edit.ts).
 */
import { isDeepStrictEqual } from 'node:util';
import type { Pair, Scalar } from 'yaml';
import { isMap, isScalar, parseDocument, scalarClass, stringify } from '../yaml-package.js';

/** A front-matter value the editor writes: what the collections' fields hold. */
export type FrontMatterValue = string | number | boolean;

/** An edit that cannot be made in place, or whose text would not read back as the data given; `field` is the one it is about, when known. */
export class FrontMatterEditError extends Error {
  constructor(readonly field: string | null, message: string) {
    super(message);
    this.name = 'FrontMatterEditError';
  }
}

/** The front matter and body of a Markdown file, and where the YAML sits in the text. */
export interface PostParts {
  /** The YAML between the fences, or undefined when the file has no front matter. */
  yaml?: string;
  /** Offset of the YAML in the text. */
  yamlStart: number;
  /** Offset where the body starts (after the closing fence's line). */
  bodyStart: number;
  body: string;
}

const fence = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** Splits a post's text (the same fences as the build's front-matter.ts). */
export function splitPost(text: string): PostParts {
  const match = fence.exec(text);
  if (!match) return { yamlStart: 0, bodyStart: 0, body: text };
  const yamlStart = match[0].indexOf('\n') + 1;
  return { yaml: match[1]!, yamlStart, bodyStart: match[0].length, body: text.slice(match[0].length) };
}

/** The front matter of a post's text as plain data ({} without front matter or when it is not a map). */
export function readFrontMatter(text: string): Record<string, unknown> {
  const { yaml } = splitPost(text);
  if (yaml === undefined) return {};
  const value = parseDocument(yaml).toJS() as unknown;
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * A scalar as the YAML text after `key: `, in the style `like` had when it can hold the value; a
 * string of several lines is a block scalar whose lines are indented under a key at column `indent`.
 */
export function formatScalar(value: FrontMatterValue, like?: Scalar, indent = 0): string {
  if (typeof value !== 'string') return String(value);
  const type = like?.type;
  const { QUOTE_DOUBLE, QUOTE_SINGLE, PLAIN } = scalarClass();
  const keep = (type === QUOTE_DOUBLE || type === QUOTE_SINGLE || type === PLAIN) && !value.includes('\n');
  // Written as the value of a key and cut out of it: a scalar stringified alone would have its
  // block lines at column 0, where they end the map (or, as `---`, the front matter). stringify
  // quotes a plain string that would read back as another type ("123", "true", "a: b").
  const written = stringify({ k: value }, { defaultStringType: keep ? type : PLAIN, defaultKeyType: PLAIN, lineWidth: 0 }).slice('k: '.length).replace(/\n$/, '');
  return indent ? written.replace(/\n(?=[^\n])/g, `\n${' '.repeat(indent)}`) : written;
}

/**
 * Where a scalar's own text ends in `text`. A block scalar's range runs on through the line breaks
 * (and blank lines) after its last line; those stay, or the next key would be written onto the
 * value's line (`author: "---authorRole: Writer"`).
 */
function scalarEnd(text: string, range: readonly [number, number, ...number[]]): number {
  const [start, end] = range;
  let at = end;
  while (at > start && /\s/.test(text[at - 1]!)) at--;
  const lineBreak = text.slice(at, end).search(/\r?\n/);
  return lineBreak === -1 ? end : at + lineBreak;
}

/**
 * The edit that puts `value` in place of the scalar `node` of `text`: its range (a block scalar's
 * up to its last line) and the new text, a block under the line's indentation for a text of
 * several lines, or one double-quoted line when something follows the old value on its line (a
 * comment), which a block cannot share its last line with.
 */
export function replaceScalar(text: string, node: Scalar & { range: [number, number, number] }, value: FrontMatterValue): { start: number; end: number; text: string } {
  const start = node.range[0];
  const end = scalarEnd(text, node.range);
  const lineEnd = text.slice(end).search(/\r?\n|$/);
  let written = formatScalar(value, node, indentOf(text, start));
  // A JSON string is a YAML double-quoted scalar.
  if (written.includes('\n') && text.slice(end, end + lineEnd).trim()) written = JSON.stringify(value);
  return { start, end, text: written };
}

/** The indentation (leading spaces) of the line `offset` is on: a block value's lines go deeper than its key or dash. */
function indentOf(text: string, offset: number): number {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^ */.exec(text.slice(start, offset))![0].length;
}

/** New front matter YAML for data (a new post): one `key: value` line per field (a block for a text of several lines), in the given order. */
export function formatFrontMatter(data: Record<string, FrontMatterValue | undefined>): string {
  return Object.entries(data)
    .filter((entry): entry is [string, FrontMatterValue] => entry[1] !== undefined)
    .map(([key, value]) => `${key}: ${formatScalar(value)}`)
    .join('\n');
}

/**
 * Throws a FrontMatterEditError unless `text` reads back as exactly the defined values of `data`
 * and `body`: a save refuses an edit it got wrong rather than write a file that means something
 * else. `changed` (the fields the edit changes) names the field when the YAML does not parse.
 */
export function checkReadBack(text: string, data: Record<string, FrontMatterValue | undefined>, body: string, changed: readonly string[] = []): void {
  const parts = splitPost(text);
  const doc = parts.yaml === undefined ? undefined : parseDocument(parts.yaml);
  // No fields at all (an empty front matter) reads as an empty map, as the build reads it.
  const read = doc === undefined ? {} : doc.errors.length ? undefined : ((doc.toJS() as unknown) ?? {});
  const how = 'nothing was written: make this change in the file itself';
  if (typeof read !== 'object' || read === null || Array.isArray(read)) throw new FrontMatterEditError(changed[0] ?? null, `the front matter would not read back as YAML after this edit; ${how}`);
  const intended = Object.fromEntries(Object.entries(data).filter((entry) => entry[1] !== undefined));
  const fields = [...new Set([...Object.keys(intended), ...Object.keys(read)])];
  const wrong = fields.find((field) => !isDeepStrictEqual((read as Record<string, unknown>)[field], intended[field]));
  if (wrong !== undefined) throw new FrontMatterEditError(wrong, `the front matter would not read back with the value given for ${wrong}; ${how}`);
  if (parts.body !== body) throw new FrontMatterEditError('body', `the post would not read back with the body given; ${how}`);
}

/**
 * The YAML text with `data` as its new top-level values: unchanged values keep their bytes,
 * keys missing from `data` are removed, new keys are appended. Throws when the YAML is not a map
 * of scalars where a change is asked (the caller then refuses the edit).
 */
export function editFrontMatterYaml(yaml: string, data: Record<string, FrontMatterValue | undefined>): string {
  const doc = parseDocument(yaml);
  if (doc.errors.length) throw new FrontMatterEditError(null, `the front matter is not valid YAML: ${doc.errors[0]!.message}`);
  const map = doc.contents;
  if (map !== null && !isMap(map)) throw new FrontMatterEditError(null, 'the front matter is not a map of fields');
  const pairs = (map?.items ?? []) as Pair[];
  const edits: { start: number; end: number; text: string }[] = [];
  const seen = new Set<string>();
  for (const pair of pairs) {
    const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
    if (key === undefined) continue;
    seen.add(key);
    const value = pair.value;
    const next = data[key];
    const current = isScalar(value) ? value.value : value === null ? null : undefined;
    if (next !== undefined && current === next) continue;
    const keyRange = isScalar(pair.key) ? pair.key.range : undefined;
    if (!keyRange) throw new FrontMatterEditError(key, `cannot edit "${key}"`);
    if (next === undefined) {
      // Remove the pair's whole lines: from the start of the key's line to the end of its value's last line.
      const start = yaml.lastIndexOf('\n', keyRange[0] - 1) + 1;
      const valueRange = (value as { range?: [number, number, number] } | null)?.range;
      const valueEnd = valueRange ? valueRange[1] : keyRange[1];
      const lineEnd = yaml.indexOf('\n', Math.max(valueEnd - 1, keyRange[1]));
      edits.push({ start, end: lineEnd === -1 ? yaml.length : lineEnd + 1, text: '' });
      continue;
    }
    if (value === null || (isScalar(value) && value.range && value.source === undefined && value.range[0] === value.range[1])) {
      // `key:` with nothing after it.
      edits.push({ start: keyRange[2], end: keyRange[2], text: ` ${formatScalar(next, undefined, indentOf(yaml, keyRange[0]))}` });
      continue;
    }
    if (!isScalar(value) || !value.range) throw new FrontMatterEditError(key, `"${key}" holds a list or a map: edit it in the file`);
    edits.push(replaceScalar(yaml, value as Scalar & { range: [number, number, number] }, next));
  }
  let text = yaml;
  for (const edit of edits.sort((a, b) => b.start - a.start)) text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
  const added = Object.entries(data).filter(([key, value]) => value !== undefined && !seen.has(key)) as [string, FrontMatterValue][];
  if (added.length) {
    // At the column of the map's keys (a front matter may be indented as a whole).
    const first = (pairs[0]?.key as Scalar | undefined)?.range?.[0];
    const indent = first === undefined ? 0 : indentOf(yaml, first);
    const lines = added.map(([key, value]) => `${' '.repeat(indent)}${/^[A-Za-z_][\w-]*$/.test(key) ? key : JSON.stringify(key)}: ${formatScalar(value, undefined, indent)}`).join('\n');
    text = text === '' || text.endsWith('\n') ? `${text}${lines}` : `${text}\n${lines}`;
  }
  return text;
}

/**
 * The text of a post with new front matter and body; the front matter is edited in place (see
 * editFrontMatterYaml). Throws a FrontMatterEditError when that cannot be done, or when the text
 * would not read back as `data` and `body`.
 */
export function editPost(text: string, data: Record<string, FrontMatterValue | undefined>, body: string): string {
  const parts = splitPost(text);
  if (parts.yaml === undefined) return createPostText(data, body);
  const yaml = editFrontMatterYaml(parts.yaml, data);
  const edited = text.slice(0, parts.yamlStart) + yaml + text.slice(parts.yamlStart + parts.yaml.length, parts.bodyStart) + body;
  const before = readFrontMatter(text);
  const changed = [...new Set([...Object.keys(data), ...Object.keys(before)])].filter((field) => !isDeepStrictEqual(before[field], data[field]));
  checkReadBack(edited, data, body, changed);
  return edited;
}

/** The text of a new post; throws a FrontMatterEditError when it would not read back as `data` and `body`. */
export function createPostText(data: Record<string, FrontMatterValue | undefined>, body: string): string {
  const text = `---\n${formatFrontMatter(data)}\n---\n${body}`;
  checkReadBack(text, data, body, Object.keys(data));
  return text;
}
