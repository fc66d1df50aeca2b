/**
 * Edits the front matter of a Markdown file so that every line the edit does not touch keeps its
 * bytes: comments, quoting, key order and blank lines. A changed value is replaced at its node's
 * range in the source text (in the quoting style it had, when that can hold the new value); a
 * removed key loses its line(s); a new key is appended. The document is never re-serialised whole.
 */
import type { Pair, Scalar } from 'yaml';
import { isMap, isScalar, parseDocument, scalarClass, stringify } from '../yaml-package.js';

/** A front-matter value the editor writes: what the collections' fields hold. */
export type FrontMatterValue = string | number | boolean;

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

/** A scalar as YAML text, in the style `like` had when it can hold the value. */
export function formatScalar(value: FrontMatterValue, like?: Scalar): string {
  if (typeof value !== 'string') return String(value);
  const type = like?.type;
  const { QUOTE_DOUBLE, QUOTE_SINGLE, PLAIN } = scalarClass();
  const keep = (type === QUOTE_DOUBLE || type === QUOTE_SINGLE || type === PLAIN) && !value.includes('\n');
  // stringify quotes a plain string that would read back as another type ("123", "true", "a: b").
  return stringify(value, { defaultStringType: keep ? type : PLAIN, lineWidth: 0 }).replace(/\n$/, '');
}

/** New front matter YAML for data (a new post): one `key: value` line per field, in the given order. */
export function formatFrontMatter(data: Record<string, FrontMatterValue | undefined>): string {
  return Object.entries(data)
    .filter((entry): entry is [string, FrontMatterValue] => entry[1] !== undefined)
    .map(([key, value]) => `${key}: ${formatScalar(value)}`)
    .join('\n');
}

/**
 * The YAML text with `data` as its new top-level values: unchanged values keep their bytes,
 * keys missing from `data` are removed, new keys are appended. Throws when the YAML is not a map
 * of scalars where a change is asked (the caller then refuses the edit).
 */
export function editFrontMatterYaml(yaml: string, data: Record<string, FrontMatterValue | undefined>): string {
  const doc = parseDocument(yaml);
  if (doc.errors.length) throw new Error(`the front matter is not valid YAML: ${doc.errors[0]!.message}`);
  const map = doc.contents;
  if (map !== null && !isMap(map)) throw new Error('the front matter is not a map of fields');
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
    if (!keyRange) throw new Error(`cannot edit "${key}"`);
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
      edits.push({ start: keyRange[2], end: keyRange[2], text: ` ${formatScalar(next)}` });
      continue;
    }
    if (!isScalar(value) || !value.range) throw new Error(`"${key}" holds a list or a map: edit it in the file`);
    edits.push({ start: value.range[0], end: value.range[1], text: formatScalar(next, value) });
  }
  let text = yaml;
  for (const edit of edits.sort((a, b) => b.start - a.start)) text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
  const added = Object.entries(data).filter(([key, value]) => value !== undefined && !seen.has(key)) as [string, FrontMatterValue][];
  if (added.length) {
    const lines = added.map(([key, value]) => `${/^[A-Za-z_][\w-]*$/.test(key) ? key : JSON.stringify(key)}: ${formatScalar(value)}`).join('\n');
    text = text === '' || text.endsWith('\n') ? `${text}${lines}` : `${text}\n${lines}`;
  }
  return text;
}

/** The text of a post with new front matter and body; the front matter is edited in place (see editFrontMatterYaml). */
export function editPost(text: string, data: Record<string, FrontMatterValue | undefined>, body: string): string {
  const parts = splitPost(text);
  if (parts.yaml === undefined) return `---\n${formatFrontMatter(data)}\n---\n${body}`;
  const yaml = editFrontMatterYaml(parts.yaml, data);
  const head = text.slice(0, parts.yamlStart) + yaml + text.slice(parts.yamlStart + parts.yaml.length, parts.bodyStart);
  return head + body;
}

/** The text of a new post. */
export function createPostText(data: Record<string, FrontMatterValue | undefined>, body: string): string {
  return `---\n${formatFrontMatter(data)}\n---\n${body}`;
}
