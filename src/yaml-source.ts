/**
 * YAML with positions: parse a file keeping a line counter, and turn zod issues into SiteErrors
 * that point at the exact key or value in the file.
 */
import type { Document, LineCounter, Node } from 'yaml';
import { isMap, isPair, isScalar, isSeq, lineCounter as newLineCounter, parseDocument } from './yaml-package.js';
import type { z } from 'zod';
import { SiteError, type ErrorCode } from './errors.js';
import { didYouMean } from './did-you-mean.js';
import { descriptionAt, expectedAt, knownKeysAt, schemasAt, structuredExampleOf } from './schema-shape.js';

/** A parsed YAML file that can locate any path inside it. */
export interface YamlSource {
  file: string;
  doc: Document.Parsed;
  lineCounter: LineCounter;
  /** Lines before the YAML inside its file (front matter starts after the first `---`). */
  lineOffset: number;
  /** The document as plain data; read it with `yamlValue`. */
  value?: unknown;
  /** Where its nodes are (`positionsOf`), when known without the document: `locate` reads them instead. */
  positions?: YamlPositions;
}

/**
 * Where each node of a document starts, by its path (`pathKey`): [kind (0 scalar, 1 map, 2
 * sequence), line and column of the node (of its key when it has no value), line and column of its
 * key (-1 when none)], lines counted in the YAML itself. Enough for `locate` to answer as it would
 * from the document, which a source taken from the build cache then need not parse.
 */
export type YamlPositions = Map<string, number[]>;

const pathKey = (parent: string, part: PropertyKey) => `${parent}\u0000${String(part)}`;

/** The positions of every node of a parsed source (the first of two keys that read the same, as `locate` finds it). */
export function positionsOf(source: YamlSource): YamlPositions {
  const table: YamlPositions = new Map();
  const at = (node: unknown): number[] => {
    const offset = (node as Node | null | undefined)?.range?.[0];
    if (offset === undefined) return [-1, -1];
    const { line, col } = source.lineCounter.linePos(offset);
    return [line, col];
  };
  const visit = (node: unknown, path: string, found: unknown, key: unknown) => {
    if (table.has(path)) return;
    table.set(path, [isMap(node) ? 1 : isSeq(node) ? 2 : 0, ...at(found), ...at(key)]);
    if (isMap(node)) {
      for (const item of node.items)
        if (isPair(item) && isScalar(item.key))
          visit(item.value, pathKey(path, String(item.key.value)), item.value ?? item.key, item.key);
    } else if (isSeq(node)) {
      node.items.forEach((item, index) => visit(item, pathKey(path, index), item, undefined));
    }
  };
  visit(source.doc.contents, '', source.doc.contents, undefined);
  return table;
}

/** `locate` from a source's positions. */
function locateIn(
  positions: YamlPositions,
  lineOffset: number,
  path: readonly PropertyKey[],
  key?: string,
): { line?: number; column?: number } {
  let at = '';
  let node = positions.get(at);
  if (!node) return {};
  for (const part of path) {
    if (node[0] === 0 || (node[0] === 2 && typeof part !== 'number')) break;
    const next = positions.get(pathKey(at, part));
    if (!next) break;
    at = pathKey(at, part);
    node = next;
  }
  let [, line, column] = node as [number, number, number];
  if (key !== undefined && node[0] === 1) {
    const pair = positions.get(pathKey(at, key));
    if (pair && pair[3]! >= 0) [line, column] = [pair[3]!, pair[4]!];
  }
  return line < 0 ? {} : { line: line + lineOffset, column };
}

/** The document as plain data (`doc.toJS()`, worked out once). */
export function yamlValue(source: YamlSource): unknown {
  if (!('value' in source)) source.value = source.doc.toJS();
  return source.value;
}

/**
 * A source whose plain data is already known (from the build cache, for text that parsed without
 * errors before): the document is parsed only if something asks for it. With the positions kept
 * beside the data, a warning at a field (a placeholder in the config) needs no document either.
 */
export function knownYamlSource(
  text: string,
  file: string,
  lineOffset: number,
  value: unknown,
  positions?: YamlPositions,
): YamlSource {
  let parsed: YamlSource | undefined;
  const parse = () => (parsed ??= parseYaml(text, file, lineOffset).source);
  return {
    file,
    lineOffset,
    value,
    ...(positions ? { positions } : {}),
    get doc() {
      return parse().doc;
    },
    get lineCounter() {
      return parse().lineCounter;
    },
  };
}

/**
 * Parses YAML text; a syntax error comes back as a SiteError with its position (the first: see firstSyntaxError). The plain
 * data is worked out here too, so that a document that cannot become data (an alias bomb, nesting
 * too deep for the parser) is reported as a problem of its file, not as a crash later.
 */
export function parseYaml(text: string, file: string, lineOffset = 0): { source: YamlSource; errors: SiteError[] } {
  const lineCounter = newLineCounter();
  let doc: Document.Parsed;
  try {
    doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true, strict: true });
  } catch (error) {
    const empty = parseDocument('{}', { lineCounter: newLineCounter() });
    return {
      source: { file, doc: empty, lineCounter, lineOffset, value: {} },
      errors: [unusableYaml(error, file, lineOffset)],
    };
  }
  const source: YamlSource = { file, doc, lineCounter, lineOffset };
  const errors = firstSyntaxError(doc, lineCounter, file, lineOffset);
  if (errors.length === 0) {
    try {
      source.value = doc.toJS({ maxAliasCount: 100 });
    } catch (error) {
      errors.push(unusableYaml(error, file, lineOffset));
      source.value = {};
    }
  }
  return { source, errors };
}

/**
 * The first syntax error of a document, as the one diagnostic of its mistake. After a mistake the
 * parser reads the rest of the document differently (one line indented a space too few makes
 * every following item of its map "not at the same column", several of them twice): those are
 * counted in the message, not reported; what remains after the fix is reported then.
 */
function firstSyntaxError(
  doc: Document.Parsed,
  lineCounter: LineCounter,
  file: string,
  lineOffset: number,
): SiteError[] {
  const [first, ...rest] = doc.errors;
  if (!first) return [];
  const { line, col } = lineCounter.linePos(first.pos[0]);
  const lines = new Set(rest.map((error) => lineCounter.linePos(error.pos[0]).line).filter((other) => other !== line));
  const message = /call stack/i.test(first.message)
    ? 'the document is nested too deeply to read'
    : first.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
  const after =
    lines.size === 0
      ? ''
      : ` (the parser stumbles on ${lines.size === 1 ? 'one more line' : `${lines.size} more lines`} after it, most likely because of this one)`;
  return [new SiteError({ code: 'YAML_SYNTAX', message: message + after, file, line: line + lineOffset, column: col })];
}

/** Why a YAML document cannot be used at all, as an error of its file. */
function unusableYaml(error: unknown, file: string, lineOffset: number): SiteError {
  const text = error instanceof Error ? error.message : String(error);
  const message =
    error instanceof RangeError
      ? 'the document is nested too deeply to read'
      : /alias/i.test(text)
        ? 'the document expands its aliases (*name) more than 100 times, which looks like a resource-exhaustion attack'
        : text;
  return new SiteError({
    code: 'YAML_SYNTAX',
    message,
    file,
    line: lineOffset + 1,
    column: 1,
    hint: 'Flatten the nesting, or write values out instead of repeating aliases.',
  });
}

/** Formats a zod path as `routes[3].template`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

/** The position of the value at `path` (or of the key `key` inside it) in the source. */
export function locate(
  source: YamlSource,
  path: readonly PropertyKey[],
  key?: string,
): { line?: number; column?: number } {
  if (source.positions) return locateIn(source.positions, source.lineOffset, path, key);
  let node: unknown = source.doc.contents;
  let found: Node | undefined = node as Node | undefined;
  for (const part of path) {
    const next = childOf(node, part);
    if (next === undefined) break;
    node = next.value;
    found = (next.value ?? next.key) as Node | undefined;
  }
  if (key !== undefined) {
    const pair = childOf(node, key);
    if (pair?.key) found = pair.key as Node;
  }
  const offset = found?.range?.[0];
  if (offset === undefined) return {};
  const { line, col } = source.lineCounter.linePos(offset);
  return { line: line + source.lineOffset, column: col };
}

function childOf(node: unknown, part: PropertyKey): { key?: unknown; value: unknown } | undefined {
  if (isMap(node)) {
    const pair = node.items.find(
      (item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(part),
    );
    return pair ? { key: pair.key, value: pair.value } : undefined;
  }
  if (isSeq(node) && typeof part === 'number') {
    const item = node.items[part];
    return item === undefined ? undefined : { value: item };
  }
  return undefined;
}

/** Validates the parsed document with a zod schema; every issue becomes a positioned SiteError. */
export function validateYaml<Schema extends z.ZodType>(
  source: YamlSource,
  schema: Schema,
  code: ErrorCode = 'CONFIG_INVALID',
  extra?: Record<string, unknown>,
): { data?: z.output<Schema>; errors: SiteError[] } {
  const input = { ...((yamlValue(source) as object | null) ?? {}), ...extra };
  const result = schema.safeParse(input);
  if (result.success) return { data: result.data, errors: [] };
  const issues = linkMisspelt(result.error.issues, input);
  return { errors: issues.flatMap((issue) => issueToErrors(source, issue, code, schema)) };
}

/** The code of an unknown key, by the code of the file's other problems: one code per meaning. */
const unknownKeyCodes: Partial<Record<ErrorCode, ErrorCode>> = {
  CONFIG_INVALID: 'CONFIG_UNKNOWN_KEY',
  CONTENT_INVALID: 'CONTENT_UNKNOWN_KEY',
  FRONT_MATTER: 'FRONT_MATTER_UNKNOWN_KEY',
};

/** An unknown key that is a misspelling of a required one that is missing: reported once, as the unknown key. */
type LinkedIssue = z.core.$ZodIssue & { misspelt?: Map<string, string> };

/**
 * The issues with each misspelt key linked to the required key it stands for (`clinet` and a
 * missing `client`): the missing key's issue is left out, the unknown key's says what it meant.
 */
function linkMisspelt(issues: readonly z.core.$ZodIssue[], input: unknown): LinkedIssue[] {
  const missing = new Map<string, string[]>();
  const at = (path: readonly PropertyKey[]) => JSON.stringify(path.map(String));
  const absent = (path: readonly PropertyKey[]) => valueAt(input, path) === undefined;
  for (const issue of issues) {
    if (issue.code !== 'invalid_type' || issue.path.length === 0 || !absent(issue.path)) continue;
    const parent = issue.path.slice(0, -1);
    missing.set(at(parent), [...(missing.get(at(parent)) ?? []), String(issue.path.at(-1))]);
  }
  const linked = new Set<string>();
  const out: LinkedIssue[] = issues.map((issue) => {
    if (issue.code !== 'unrecognized_keys') return issue;
    const candidates = missing.get(at(issue.path)) ?? [];
    const misspelt = new Map<string, string>();
    for (const key of issue.keys) {
      const meant = didYouMean(key, candidates);
      if (meant === undefined || linked.has(at([...issue.path, meant]))) continue;
      misspelt.set(key, meant);
      linked.add(at([...issue.path, meant]));
    }
    return misspelt.size ? { ...issue, misspelt } : issue;
  });
  return out.filter(
    (issue) => issue.code === 'unrecognized_keys' || !linked.has(at(issue.path)) || !absent(issue.path),
  );
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const part of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[part];
  }
  return current;
}

/**
 * Turns one zod issue into errors, one per unknown key. Given the schema, an unknown key names the
 * known key nearest to it, and a wrong type the shape the field takes.
 */
export function issueToErrors(
  source: YamlSource,
  issue: z.core.$ZodIssue,
  code: ErrorCode,
  schema?: z.ZodType,
): SiteError[] {
  const docsHint = code === 'CONFIG_INVALID' ? configDocsOf(issue.path) : undefined;
  if (issue.code === 'unrecognized_keys') {
    const known = schema ? knownKeysAt(schema, issue.path) : [];
    const misspelt = (issue as LinkedIssue).misspelt;
    return issue.keys.map((key) => {
      const required = misspelt?.get(key);
      const meant = required ?? didYouMean(key, known);
      const message =
        required !== undefined
          ? `unknown key "${key}": did you mean "${required}"? ("${required}" is required and missing)`
          : meant !== undefined
            ? `unknown key "${key}": did you mean "${meant}"?`
            : `unknown key "${key}"`;
      const knownText = known.length ? ` Known keys here: ${known.join(', ')}.` : '';
      return new SiteError({
        code: unknownKeyCodes[code] ?? code,
        message,
        file: source.file,
        field: formatPath([...issue.path, key]),
        hint:
          meant !== undefined
            ? `Rename it to ${meant}; unknown keys are not ignored.${docsHint ? ` ${docsHint}` : ''}`
            : `Remove it or fix its spelling; unknown keys are not ignored.${knownText}${docsHint ? ` ${docsHint}` : ''}`,
        ...locate(source, issue.path, key),
      });
    });
  }
  const value = source.doc.getIn(issue.path as (string | number)[]);
  return [
    new SiteError({
      code,
      message: describeIssue(issue, value, schema),
      file: source.file,
      field: formatPath(issue.path),
      ...hintOf(issue, schema, docsHint),
      ...locate(source, issue.path),
    }),
  ];
}

/** Where the manual describes a key of the config: its top-level key's section of docs/config.md. */
export function configDocsOf(path: readonly PropertyKey[]): string {
  const [top] = path;
  return typeof top === 'string' ? `See docs/config.md#${top.toLowerCase()}.` : 'See docs/config.md.';
}

/** The hint of a wrong value, when the schema shows what it takes: an example and the field's description. */
function hintOf(
  issue: z.core.$ZodIssue,
  schema: z.ZodType | undefined,
  docsHint: string | undefined,
): { hint?: string } {
  const [field] = schema ? schemasAt(schema, issue.path) : [];
  const name = issue.path.at(-1);
  const shaped =
    field && (issue.code === 'invalid_type' || issue.code === 'invalid_value' || issue.code === 'invalid_union');
  const example = shaped ? structuredExampleOf(field) : undefined;
  const parts = [
    example !== undefined && typeof name === 'string' ? `Write it as ${name}: ${example}.` : undefined,
    schema && shaped ? sentence(descriptionAt(schema, issue.path)) : undefined,
    docsHint,
  ].filter((part): part is string => part !== undefined);
  return parts.length ? { hint: parts.join(' ') } : {};
}

const sentence = (text: string | undefined) => (text ? `${text.replace(/[.\s]+$/, '')}.` : undefined);

function describeIssue(issue: z.core.$ZodIssue, value: unknown, schema: z.ZodType | undefined): string {
  const expected = schema ? expectedAt(schema, issue.path) : undefined;
  if (issue.code === 'invalid_type') {
    const wanted = expected ?? issue.expected;
    if (value === undefined) return `required field is missing (expected ${wanted})`;
    return `expected ${wanted}, got ${value === null ? 'nothing' : Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'a map' : `${typeof value} ${JSON.stringify(value)}`}`;
  }
  if (issue.code === 'invalid_value')
    return `must be one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
  if (issue.code === 'invalid_union' && expected) return `expected ${expected}`;
  return issue.message.replace(/^Invalid input: /, '');
}
