/**
 * The one editor of YAML texts that people also edit by hand (site.config.yaml, a page's copy, a
 * post's front matter): a value set at a path of map keys and list indexes, a key or an item
 * deleted, an item appended to a list or taken out of it by value. Each edit changes only the
 * bytes of the node it edits; comments, quoting, key order, blank lines and flow or block style
 * elsewhere keep theirs, where `Document.toString()` would reformat the whole file. The `yaml`
 * package finds the nodes (their ranges, and the CST tokens of the `:`, `-` and brackets around
 * them) and writes the new nodes as it writes any value (quoting a text that would read as
 * another type, a block scalar for several lines), in the quoting of the scalar they replace when
 * that can hold the new text. The result is read back: its data must be the original's with
 * exactly these edits, else the edit is refused with a YamlEditError and no text is returned.
 */
import { isDeepStrictEqual } from 'node:util';
import type { CST, Document, Node, Pair, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import { documentClass, isMap, isScalar, isSeq, parseDocument, scalarClass } from './yaml-package.js';

/** Map keys and list indexes, from the document's top (`["plans", 1, "price"]`). */
export type YamlPath = readonly (string | number)[];

/**
 * One edit: `set` replaces the value at the path or adds the key to its map (or the item at a
 * list's end); `delete` takes the key or item out (nothing to do when it is missing); `append`
 * adds an item to the list at the path (the list made when its key is missing); `remove` takes
 * the first item equal to `value` out of the list at the path (nothing to do when none is).
 */
export type YamlEdit =
  | { op: 'set'; path: YamlPath; value: unknown }
  | { op: 'delete'; path: YamlPath }
  | { op: 'append'; path: YamlPath; value: unknown }
  | { op: 'remove'; path: YamlPath; value: unknown };

/** An edit that cannot be made in place, or whose text would not read back as intended; `path` is the one it is about. */
export class YamlEditError extends Error {
  constructor(
    readonly path: YamlPath,
    message: string,
  ) {
    super(message);
    this.name = 'YamlEditError';
  }
}

/**
 * A new node to write: the value of a key (`key: value`), else an item of a list (`- value`); on
 * one line with `inline` (a collection as a flow one, a text of several lines double-quoted), and
 * inside a flow collection with `inFlow` (`key: value` or `value`, quoted where a comma would end
 * it). `like` is the scalar it replaces, whose quoting it keeps when it can hold the value.
 */
export interface NewEntry {
  key?: string | number;
  inline?: boolean;
  inFlow?: boolean;
  value: unknown;
  like?: Scalar;
}

/** Options of `editYaml`. */
export interface YamlEditOptions {
  /** Writes a new node's YAML at column 0 (`writeEntry`); replaced only by tests of the read-back check. */
  writeEntry?: (entry: NewEntry) => string;
}

const stringOptions = { lineWidth: 0, defaultStringType: 'PLAIN', defaultKeyType: 'PLAIN' } as const;

/** Whether a YAML 1.1 reader (other tools than this one) would take a plain text for a boolean, a number or a null (`no`, `on`, `0150`). */
function readsAsOtherIn11(text: string): boolean {
  if (text.includes('\n')) return false;
  const doc = parseDocument(text, { version: '1.1' });
  const value = isScalar(doc.contents) ? doc.contents.value : '';
  return !doc.errors.length && (value === null || typeof value === 'boolean' || typeof value === 'number');
}

/** Quotes the new keys and texts of a node that a YAML 1.1 reader would take for another type, as the files do (`"no":`, `short: "NO"`). */
function quoteYaml11Words(node: unknown): void {
  const { PLAIN, QUOTE_DOUBLE } = scalarClass();
  if (isScalar(node)) {
    if (
      typeof node.value === 'string' &&
      (node.type === undefined || node.type === PLAIN) &&
      readsAsOtherIn11(node.value)
    )
      node.type = QUOTE_DOUBLE;
  } else if (isMap(node)) {
    for (const pair of node.items as Pair[]) {
      quoteYaml11Words(pair.key);
      quoteYaml11Words(pair.value);
    }
  } else if (isSeq(node)) for (const item of node.items) quoteYaml11Words(item);
}

/**
 * A new node's YAML at column 0, as the `yaml` package writes it in a one-key map or a one-item
 * list (a value written alone would have a block's lines at column 0, and would not be quoted for
 * a flow collection), with no line break at its end.
 */
export function writeEntry({ key, inline, inFlow, value, like }: NewEntry): string {
  const doc = new (documentClass())(null) as Document;
  const node = doc.createNode(value) as Node;
  const { PLAIN, QUOTE_DOUBLE, QUOTE_SINGLE, BLOCK_FOLDED, BLOCK_LITERAL } = scalarClass();
  if (isScalar(node) && typeof node.value === 'string') {
    const several = node.value.includes('\n');
    const kept = several ? [BLOCK_FOLDED, BLOCK_LITERAL] : [PLAIN, QUOTE_DOUBLE, QUOTE_SINGLE];
    if (several && (inline || inFlow)) node.type = QUOTE_DOUBLE;
    else if (like?.type && kept.includes(like.type)) node.type = like.type;
  } else if (inline && (isMap(node) || isSeq(node))) node.flow = true;
  const holder = doc.createNode(key === undefined ? [] : {}) as YAMLMap | YAMLSeq;
  if (key === undefined) (holder as YAMLSeq).items.push(node);
  else (holder as YAMLMap).items.push(doc.createPair(key, node));
  holder.flow = inFlow === true;
  quoteYaml11Words(holder);
  doc.contents = holder;
  const text = doc.toString(stringOptions).replace(/\n$/, '');
  // A flow collection's brackets and padding cut off: `[ value ]`, `{ key: value }`.
  return inFlow ? text.slice(2, -2) : text;
}

/** The offset of the start of the line `offset` is on. */
function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** The offset of the line break that ends the line `offset` is on (the text's length on the last line). */
function lineBreak(text: string, offset: number): number {
  const end = text.indexOf('\n', offset);
  if (end === -1) return text.length;
  return text[end - 1] === '\r' ? end - 1 : end;
}

/** The offset just past the line break of the line `offset` is on. */
function nextLine(text: string, offset: number): number {
  const end = text.indexOf('\n', offset);
  return end === -1 ? text.length : end + 1;
}

/**
 * Where a node's own text ends: a scalar's range (a block scalar's up to its last line, since its
 * range runs on through the line breaks after it), a block collection's last line (trailing line
 * breaks out), a flow collection's closing bracket.
 */
function contentEnd(text: string, node: Node): number {
  const [start, end] = node.range!;
  const { BLOCK_FOLDED, BLOCK_LITERAL } = scalarClass();
  const blockScalar = isScalar(node) && (node.type === BLOCK_FOLDED || node.type === BLOCK_LITERAL);
  if (!blockScalar && (isScalar(node) || (node as YAMLMap).flow)) return end;
  let at = end;
  while (at > start && /\s/.test(text[at - 1]!)) at--;
  return lineBreak(text, at);
}

/** The node at `path` with its parent (a map or a list; null for the document itself) and its key or index there. */
interface Place {
  parent: YAMLMap | YAMLSeq | null;
  key: string | number;
  /** The pair of the key in a map, or undefined when the map lacks it. */
  pair?: Pair;
  /** The index of the pair or item in the parent, or the parent's length when it lacks one. */
  index: number;
  node: Node | null | undefined;
}

/** The place of `path` in the document; throws when a parent on the way is missing or is not a collection. */
function locate(doc: Document, path: YamlPath): Place {
  if (!path.length) throw new YamlEditError(path, 'an edit names a key or an item, not the whole document');
  const key = path[path.length - 1]!;
  // An empty document (a new post's front matter) is the empty map its first key goes into.
  if (doc.contents === null && path.length === 1) return { parent: null, key, index: 0, node: undefined };
  let parent: unknown = doc.contents;
  for (const step of path.slice(0, -1)) parent = isMap(parent) || isSeq(parent) ? parent.get(step, true) : undefined;
  const where = path.slice(0, -1).join('.') || 'the document';
  if (isMap(parent)) {
    const pairs = parent.items as Pair[];
    const index = pairs.findIndex((pair) => isScalar(pair.key) && String(pair.key.value) === String(key));
    const pair = pairs[index];
    return {
      parent,
      key,
      pair,
      index: pair ? index : pairs.length,
      node: pair ? (pair.value as Node | null) : undefined,
    };
  }
  if (!isSeq(parent))
    throw new YamlEditError(path, `${where} is not a map or a list in the file: add ${path.join('.')} there by hand`);
  const index = Number(key);
  if (!Number.isInteger(index) || index < 0)
    throw new YamlEditError(path, `${where} is a list: ${String(key)} is not an index of it`);
  return { parent, key, index: Math.min(index, parent.items.length), node: parent.items[index] as Node | undefined };
}

/** The column of a block collection's keys or dashes (from its first key, or the CST token of its first `-`). */
function columnOf(text: string, collection: YAMLMap | YAMLSeq): number {
  const first = isMap(collection)
    ? ((collection.items as Pair[])[0]?.key as Node | undefined)?.range?.[0]
    : dashOf(collection, 0);
  return first === undefined ? 0 : first - lineStart(text, first);
}

/** The offset of the `-` of a block list's item, from the list's CST token. */
function dashOf(list: YAMLSeq, index: number): number | undefined {
  const token = (list as { srcToken?: CST.BlockSequence }).srcToken;
  return token?.items[index]?.start.find((source) => source.type === 'seq-item-ind')?.offset;
}

/** The offset just past the `:` of a key or the `-` of an item of a block collection, from the collection's CST token. */
function indicatorEnd(place: Place): number {
  const token = (place.parent as { srcToken?: CST.BlockMap | CST.BlockSequence }).srcToken;
  const item = token?.items[place.index];
  const indicator = [...(item?.start ?? []), ...((item as CST.BlockMap['items'][number] | undefined)?.sep ?? [])].find(
    (source) => source.type === 'map-value-ind' || source.type === 'seq-item-ind',
  );
  if (indicator === undefined) throw new YamlEditError([], 'a key or item without its indicator in the file');
  return indicator.offset + 1;
}

/** The brackets of a flow collection: the offsets just past its opening one and of its closing one, from its CST token. */
function brackets(collection: YAMLMap | YAMLSeq): [number, number] {
  const token = (collection as { srcToken?: CST.FlowCollection }).srcToken!;
  const close = token.end.find((source) => source.type === 'flow-map-end' || source.type === 'flow-seq-end')!;
  return [token.start.offset + 1, close.offset];
}

/** The start and end of a pair (key through value) or an item of a collection. */
function spanOf(text: string, entry: Pair | Node): [number, number] {
  if (isScalar((entry as Pair).key)) {
    const pair = entry as Pair;
    const key = pair.key as Node;
    const value = pair.value as Node | null;
    return [key.range![0], value?.range && value.range[1] > value.range[0] ? contentEnd(text, value) : key.range![1]];
  }
  return [(entry as Node).range![0], contentEnd(text, entry as Node)];
}

/** `entry` (YAML at column 0) moved to `column`: every line after the first indented by it (blank lines stay empty). */
function shift(entry: string, column: number): string {
  return entry.replace(/\n(?=[^\r\n])/g, `\n${' '.repeat(column)}`);
}

/** Puts whole lines at the start of the line after `after`'s (at the end, on a line of its own). */
function insertLines(text: string, after: number, lines: string, eol: string): string {
  const at = after < 0 ? 0 : nextLine(text, after);
  if (at === text.length && text !== '' && !text.endsWith('\n')) return text + eol + lines;
  return text.slice(0, at) + lines + (at === text.length && text === '' ? '' : eol) + text.slice(at);
}

/** What each kind of edit works on: the text, its document, the edit's place in it. */
interface Site {
  text: string;
  doc: Document;
  place: Place;
  path: YamlPath;
  write: (entry: NewEntry) => string;
  /** The text's line break (a file with CRLF lines gets them in new lines too). */
  eol: string;
}

/** The text with one edit made (the text `doc` was parsed from), or a YamlEditError saying why it cannot be. */
function applyEdit(text: string, doc: Document, edit: YamlEdit, write: (entry: NewEntry) => string): string {
  const place = locate(doc, edit.path);
  const site: Site = { text, doc, place, path: edit.path, write, eol: text.includes('\r\n') ? '\r\n' : '\n' };
  const { node } = place;
  if (edit.op === 'delete') return node === undefined || place.parent === null ? text : deleteEntry(site);
  if (edit.op === 'set') return node === undefined ? addEntry(site, edit.value) : replaceValue(site, edit.value);
  if (node === undefined) return edit.op === 'append' ? addEntry(site, [edit.value]) : text;
  if (!isSeq(node)) throw new YamlEditError(edit.path, `${edit.path.join('.')} is not a list in the file`);
  if (edit.op === 'append')
    return applyEdit(text, doc, { op: 'set', path: [...edit.path, node.items.length], value: edit.value }, write);
  const index = node.items.findIndex((item) => isDeepStrictEqual((item as Node).toJSON(), edit.value));
  return index === -1 ? text : applyEdit(text, doc, { op: 'delete', path: [...edit.path, index] }, write);
}

/** `entry` (YAML at column 0) as whole lines at `column`, in the text's line breaks. */
function linesAt(site: Site, entry: string, column: number): string {
  return ' '.repeat(column) + shift(entry, column).replaceAll('\n', site.eol);
}

/** The text without the key or item at the place: its lines in a block collection, its entry and a comma in a flow one. */
function deleteEntry(site: Site): string {
  const { text, place, path } = site;
  const parent = place.parent!;
  const entries = parent.items as (Pair | Node)[];
  if (parent.flow) {
    const [start, end] = spanOf(text, entries[place.index]!);
    const [open, close] = brackets(parent);
    if (entries.length === 1) return text.slice(0, open) + text.slice(close);
    if (place.index > 0) return text.slice(0, spanOf(text, entries[place.index - 1]!)[1]) + text.slice(end);
    return text.slice(0, start) + text.slice(spanOf(text, entries[1]!)[0]);
  }
  // The last key or item of a nested block collection gone, it stays an empty one ({} or []), not a null.
  if (entries.length === 1 && parent !== site.doc.contents)
    return applyEdit(
      text,
      site.doc,
      { op: 'set', path: path.slice(0, -1), value: isMap(parent) ? {} : [] },
      site.write,
    );
  const first = isMap(parent) ? (place.pair!.key as Node).range![0] : dashOf(parent, place.index)!;
  const start = lineStart(text, first);
  if (text.slice(start, first).trim())
    throw new YamlEditError(path, `${path.join('.')} shares its line with another item: take it out in the file`);
  const end = nextLine(text, spanOf(text, entries[place.index]!)[1]);
  // The text's last line gone, the line break before it goes too: a text without a final one (a front matter) keeps none.
  const from =
    end === text.length && !text.endsWith('\n') && start > 0 ? start - (text[start - 2] === '\r' ? 2 : 1) : start;
  return text.slice(0, from) + text.slice(end);
}

/** The text with a key new to its map, or an item at the end of its list: on lines under the last one, or inside the brackets. */
function addEntry(site: Site, value: unknown): string {
  const { text, place, path, write } = site;
  const { parent } = place;
  if (parent === null)
    return insertLines(text, text.length, linesAt(site, write({ key: place.key, value }), 0), site.eol);
  if (isSeq(parent) && place.index !== Number(place.key))
    throw new YamlEditError(path, `${path.slice(0, -1).join('.')} has no item ${String(place.key)}`);
  const entries = parent.items as (Pair | Node)[];
  const entry = { key: isMap(parent) ? place.key : undefined, value };
  const last = entries[entries.length - 1];
  if (parent.flow) {
    const inline = write({ ...entry, inFlow: true });
    if (last === undefined) {
      const [open] = brackets(parent);
      return text.slice(0, open) + (isMap(parent) ? ` ${inline} ` : inline) + text.slice(open);
    }
    const end = spanOf(text, last)[1];
    return `${text.slice(0, end)}, ${inline}${text.slice(end)}`;
  }
  return insertLines(text, spanOf(text, last!)[1] - 1, linesAt(site, write(entry), columnOf(text, parent)), site.eol);
}

/**
 * The text with a value in place of the one at the place: on its line when it replaces a scalar or
 * a flow collection (a text of several lines as a block scalar, unless a comment shares the line),
 * in block style under its key or dash when it replaces a block collection.
 */
function replaceValue(site: Site, value: unknown): string {
  const { text, place, write } = site;
  const { parent } = place;
  const node = place.node!;
  const empty = node === null || (isScalar(node) && node.range![0] === node.range![1]);
  const end = empty ? undefined : contentEnd(text, node);
  const like = isScalar(node) ? node : undefined;
  if (parent?.flow) return text.slice(0, node!.range![0]) + write({ value, inFlow: true, like }) + text.slice(end);
  const block = node !== null && (isMap(node) || isSeq(node)) && !node.flow;
  const trailing = end !== undefined && text.slice(end, lineBreak(text, end)).trim() !== '';
  const several = typeof value === 'string' && value.includes('\n');
  const item = isSeq(parent);
  const written = write({ key: item ? undefined : 'k', value, inline: trailing || (!block && !several), like });
  const anchor = item ? dashOf(parent, place.index) : (place.pair?.key as Node | undefined)?.range?.[0];
  const column = anchor === undefined ? 0 : anchor - lineStart(text, anchor);
  // The key or dash cut off: what follows it, a space and the value, or the value's lines under it.
  const after = shift(written.slice(item ? 1 : 2), column).replaceAll('\n', site.eol);
  if (!block && !empty && after.startsWith(' '))
    return text.slice(0, node!.range![0]) + after.slice(1) + text.slice(end);
  const from = empty ? (node?.range?.[0] ?? indicatorEnd(place)) : indicatorEnd(place);
  return text.slice(0, from) + after + text.slice(end ?? from);
}

/** Makes an edit in plain data (what the text should read as afterwards); returns the new top. */
function applyToData(data: unknown, edit: YamlEdit): unknown {
  const top = (data ?? {}) as Record<string | number, unknown>;
  let here = top;
  for (const key of edit.path.slice(0, -1)) here = here[key] as Record<string | number, unknown>;
  const key = edit.path[edit.path.length - 1]!;
  const list = here[key] as unknown[] | undefined;
  if (edit.op === 'set') here[key] = structuredClone(edit.value);
  else if (edit.op === 'append') here[key] = [...(list ?? []), structuredClone(edit.value)];
  else if (edit.op === 'remove') {
    const index = list?.findIndex((item) => isDeepStrictEqual(item, edit.value)) ?? -1;
    if (index !== -1) list!.splice(index, 1);
  } else if (Array.isArray(here)) {
    if (Number(key) < here.length) here.splice(Number(key), 1);
  } else delete here[key];
  return top;
}

/** Parses a text that must be YAML (one document, no errors). */
function parseEdited(text: string, what: string): Document {
  const doc = parseDocument(text, { keepSourceTokens: true });
  if (doc.errors.length) throw new YamlEditError([], `${what} is not valid YAML: ${doc.errors[0]!.message}`);
  return doc;
}

/** The path of the first value in which two data differ (deepest where both are maps or lists), or [] for their tops. */
function firstDifference(a: unknown, b: unknown): (string | number)[] {
  if (
    a === null ||
    b === null ||
    typeof a !== 'object' ||
    typeof b !== 'object' ||
    Array.isArray(a) !== Array.isArray(b)
  )
    return [];
  const [left, right] = [a as Record<string, unknown>, b as Record<string, unknown>];
  const key = [...new Set([...Object.keys(left), ...Object.keys(right)])].find(
    (name) => !isDeepStrictEqual(left[name], right[name]),
  );
  return key === undefined ? [] : [Array.isArray(a) ? Number(key) : key, ...firstDifference(left[key], right[key])];
}

/** The data at a path of plain data, or undefined. */
function dataAt(data: unknown, path: YamlPath): unknown {
  return path.reduce<unknown>(
    (here, key) =>
      here !== null && typeof here === 'object' ? (here as Record<string | number, unknown>)[key] : undefined,
    data,
  );
}

/**
 * The text with the edits made in place, in order. Throws a YamlEditError for an edit that cannot
 * be made so, and when the result would not read back as the original's data with these edits
 * (each edited value as given, everything else as it was).
 */
export function editYaml(text: string, edits: readonly YamlEdit[], options: YamlEditOptions = {}): string {
  const write = options.writeEntry ?? writeEntry;
  let doc = parseEdited(text, 'the file');
  let intended = doc.toJS() as unknown;
  let next = text;
  for (const edit of edits) {
    next = applyEdit(next, doc, edit, write);
    intended = applyToData(intended, edit);
    doc = parseDocument(next, { keepSourceTokens: true });
    if (doc.errors.length)
      throw new YamlEditError(
        edit.path,
        `the file would not be valid YAML after the edit of ${edit.path.join('.')}; nothing was changed`,
      );
  }
  // A document whose every key was taken out reads as nothing, which is the empty map intended.
  const read = (doc.toJS() as unknown) ?? (isDeepStrictEqual(intended, {}) ? {} : null);
  if (isDeepStrictEqual(read, intended)) return next;
  const wrong = edits.find((edit) => !isDeepStrictEqual(dataAt(read, edit.path), dataAt(intended, edit.path)));
  if (wrong)
    throw new YamlEditError(
      wrong.path,
      `${wrong.path.join('.')} would not read back as the value given; nothing was changed`,
    );
  const other = firstDifference(intended, read);
  throw new YamlEditError(
    other,
    `${other.join('.') || 'the file'} would not read back as it was, though no edit names it (an alias of an edited value?); nothing was changed`,
  );
}
