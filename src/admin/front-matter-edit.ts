/**
 * Edits the front matter of a Markdown file so that every line the edit does not touch keeps its
 * bytes: comments, quoting, key order and blank lines. The changed, removed and new fields are
 * edits of the one YAML editor (src/yaml-edit.ts: a value replaced at its node's range in the
 * quoting it had, a removed key's lines taken out, a new key appended under the last one), which
 * reads its YAML back; the whole post is read back too (`checkReadBack`): fences and body.
 */
import { withFinalNewline } from './final-newline.js';
import { isDeepStrictEqual } from 'node:util';
import { isMap, parseDocument } from '../yaml-package.js';
import { editYaml, YamlEditError, type YamlEdit } from '../yaml-edit.js';

/** A front-matter value the editor writes: what the collections' fields hold (a list, an object and an image field's `{ src, alt }` too). */
export type FrontMatterValue =
  string | number | boolean | readonly FrontMatterValue[] | { readonly [key: string]: FrontMatterValue };

/** An edit that cannot be made in place, or whose text would not read back as the data given; `field` is the one it is about, when known. */
export class FrontMatterEditError extends Error {
  constructor(
    readonly field: string | null,
    message: string,
  ) {
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

/** New front matter YAML for data (a new post): one `key: value` line per field (a block for a text of several lines), in the given order. */
function formatFrontMatter(data: Record<string, FrontMatterValue | undefined>): string {
  const edits = Object.entries(data).flatMap(([key, value]): YamlEdit[] =>
    value === undefined ? [] : [{ op: 'set', path: [key], value }],
  );
  return editYaml('', edits);
}

/**
 * Throws a FrontMatterEditError unless `text` reads back as exactly the defined values of `data`
 * and `body`: a save refuses an edit it got wrong rather than write a file that means something
 * else. `changed` (the fields the edit changes) names the field when the YAML does not parse.
 */
export function checkReadBack(
  text: string,
  data: Record<string, FrontMatterValue | undefined>,
  body: string,
  changed: readonly string[] = [],
): void {
  const parts = splitPost(text);
  const doc = parts.yaml === undefined ? undefined : parseDocument(parts.yaml);
  // No fields at all (an empty front matter) reads as an empty map, as the build reads it.
  const read = doc === undefined ? {} : doc.errors.length ? undefined : ((doc.toJS() as unknown) ?? {});
  const how = 'nothing was written: make this change in the file itself';
  if (typeof read !== 'object' || read === null || Array.isArray(read))
    throw new FrontMatterEditError(
      changed[0] ?? null,
      `the front matter would not read back as YAML after this edit; ${how}`,
    );
  const intended = Object.fromEntries(Object.entries(data).filter((entry) => entry[1] !== undefined));
  const fields = [...new Set([...Object.keys(intended), ...Object.keys(read)])];
  const wrong = fields.find((field) => !isDeepStrictEqual((read as Record<string, unknown>)[field], intended[field]));
  if (wrong !== undefined)
    throw new FrontMatterEditError(
      wrong,
      `the front matter would not read back with the value given for ${wrong}; ${how}`,
    );
  if (parts.body !== body)
    throw new FrontMatterEditError('body', `the post would not read back with the body given; ${how}`);
}

/**
 * The YAML text with `data` as its new top-level values: unchanged values keep their bytes,
 * keys missing from `data` are removed, new keys are appended. Throws a FrontMatterEditError
 * naming the field when the YAML editor cannot make a change in place or read it back.
 */
export function editFrontMatterYaml(yaml: string, data: Record<string, FrontMatterValue | undefined>): string {
  const doc = parseDocument(yaml);
  if (doc.errors.length)
    throw new FrontMatterEditError(null, `the front matter is not valid YAML: ${doc.errors[0]!.message}`);
  if (doc.contents !== null && !isMap(doc.contents))
    throw new FrontMatterEditError(null, 'the front matter is not a map of fields');
  const current = (doc.toJS() ?? {}) as Record<string, unknown>;
  const edits: YamlEdit[] = [];
  for (const [key, value] of Object.entries(current)) {
    if (data[key] === undefined) edits.push({ op: 'delete', path: [key] });
    else if (!isDeepStrictEqual(value, data[key])) edits.push({ op: 'set', path: [key], value: data[key] });
  }
  for (const [key, value] of Object.entries(data))
    if (value !== undefined && !(key in current)) edits.push({ op: 'set', path: [key], value });
  try {
    return editYaml(yaml, edits);
  } catch (error) {
    if (!(error instanceof YamlEditError)) throw error;
    throw new FrontMatterEditError(
      error.path.length ? String(error.path[0]) : null,
      `${error.message}: make this change in the file itself`,
    );
  }
}

/**
 * The text of a post with new front matter and body (ending with a newline); the front matter is edited in place (see
 * editFrontMatterYaml). Throws a FrontMatterEditError when that cannot be done, or when the text
 * would not read back as `data` and `body`.
 */
export function editPost(text: string, data: Record<string, FrontMatterValue | undefined>, given: string): string {
  const body = withFinalNewline(given);
  const parts = splitPost(text);
  if (parts.yaml === undefined) return createPostText(data, body);
  const yaml = editFrontMatterYaml(parts.yaml, data);
  const edited =
    text.slice(0, parts.yamlStart) + yaml + text.slice(parts.yamlStart + parts.yaml.length, parts.bodyStart) + body;
  const before = readFrontMatter(text);
  const changed = [...new Set([...Object.keys(data), ...Object.keys(before)])].filter(
    (field) => !isDeepStrictEqual(before[field], data[field]),
  );
  checkReadBack(edited, data, body, changed);
  return edited;
}

/** The text of a new post, ending with a newline; throws a FrontMatterEditError when it would not read back as `data` and `body`. */
export function createPostText(data: Record<string, FrontMatterValue | undefined>, given: string): string {
  const body = withFinalNewline(given);
  const text = `---\n${formatFrontMatter(data)}\n---\n${body}`;
  checkReadBack(text, data, body, Object.keys(data));
  return text;
}
