/**
 * Edit markers (pure), for the admin's visual mode (admin/visual-api.ts): each text of a page's
 * copy and of an entry's front matter is handed to the templates with an invisible marker in front
 * of it, a few private-use characters that name where the text comes from. `editAttributes` then
 * reads the rendered page once: a marker in the text of an element becomes that element's
 * `data-edit="<content id>#<key>"` (`hub#hero.heading`, `blog/<slug>#title`), with
 * `data-edit-locale` (the language of the file the text is in) and `data-edit-kind` (`copy` or `entry`); a marker anywhere else (an attribute, the head, a script, a style) is only
 * taken out. A published render marks nothing, so its bytes do not depend on this module.
 *
 * A text that reads as a name rather than copy (`sms-updates`, `/hub/pricing`, `https://…`, a
 * date) is left unmarked: templates compare and look such values up, which a marker would break.
 */
import type { Entry, EntryTranslation } from '../content/collections.js';
import { escapeHtml } from './html.js';

/** Opens a marker; the digits (`digitBase` + 0…9) of its number in the table follow, then `markerEnd`. */
const markerStart = '\uE000';
const markerEnd = '\uE001';
const digitBase = 0xe010;
const markerPattern = /\uE000([\uE010-\uE019]+)\uE001/g;
/** Every character a marker is made of: what is left of a marker a template cut in two is taken out too. */
const markerCharacters = /[\uE000\uE001\uE010-\uE019]/g;

/** Where a marked text comes from: `<content id>#<key>`, the language of its file, and whether it is a page's copy or an entry's. */
export interface EditSource {
  edit: string;
  locale: string;
  kind: 'copy' | 'entry';
}

/** The markers of one render: the sources they name, by number, and the entries already marked. */
export interface EditMarks {
  readonly sources: EditSource[];
  readonly entries: WeakMap<Entry, Entry>;
}

/** An empty table of markers. */
export function createEditMarks(): EditMarks {
  return { sources: [], entries: new WeakMap() };
}

/** Whether a text is copy a marketer wrote, not a name, address or date a template reads as a value. */
export function isCopyText(value: string): boolean {
  if (value.trim() === '') return false;
  return !/^[a-z0-9][a-z0-9._/-]*$/.test(value) && !/^(?:\/|#|\.\.?\/|[a-z][a-z0-9+.-]*:)\S*$/i.test(value);
}

/** `text` with the marker of `source` in front. */
function marked(marks: EditMarks, source: EditSource, text: string): string {
  const number = marks.sources.push(source) - 1;
  const digits = [...String(number)].map((digit) => String.fromCharCode(digitBase + Number(digit))).join('');
  return markerStart + digits + markerEnd + text;
}

/**
 * A copy of a page's copy (`id`, in `locale`) with each text marked by its dotted key
 * (`hero.heading`, `items.1.title`, the keys of the admin's page editor).
 */
export function markCopy<T>(marks: EditMarks, data: T, id: string, locale: string): T {
  const mark = (value: unknown, key: string): unknown => {
    if (typeof value === 'string')
      return key && isCopyText(value) ? marked(marks, { edit: `${id}#${key}`, locale, kind: 'copy' }, value) : value;
    const at = (part: string | number) => (key ? `${key}.${part}` : String(part));
    if (Array.isArray(value)) return value.map((item, index) => mark(item, at(index)));
    if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype)
      return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, mark(item, at(name))]));
    return value;
  };
  return mark(data, '') as T;
}

/**
 * The entry with each translation's title, description, body (`body`, the rendered Markdown) and
 * text fields marked as `<collection>/<slug>#<field>` in the translation's own language.
 */
export function markEntry(marks: EditMarks, entry: Entry): Entry {
  const known = marks.entries.get(entry);
  if (known) return known;
  const id = `${entry.collection}/${entry.slug}`;
  const translations: Record<string, EntryTranslation> = {};
  for (const [locale, translation] of Object.entries(entry.translations)) {
    const source = (key: string): EditSource => ({ edit: `${id}#${key}`, locale: translation.locale, kind: 'entry' });
    const text = (value: string, key: string) => (value.trim() ? marked(marks, source(key), value) : value);
    const fields = Object.fromEntries(
      Object.entries(translation.fields).map(([name, value]) => [
        name,
        typeof value === 'string' && isCopyText(value) ? marked(marks, source(name), value) : value,
      ]),
    ) as EntryTranslation['fields'];
    translations[locale] = {
      ...translation,
      title: text(translation.title, 'title'),
      description: text(translation.description, 'description'),
      html: text(translation.html, 'body'),
      fields,
    };
  }
  const result = { ...entry, translations };
  marks.entries.set(entry, result);
  return result;
}

/** `value` with every marker taken out of its texts, deeply (plain objects and lists). */
export function withoutMarkers<T>(value: T): T {
  if (typeof value === 'string') return value.replace(markerCharacters, '') as T;
  if (Array.isArray(value)) return value.map(withoutMarkers) as T;
  if (typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withoutMarkers(item)])) as T;
  return value;
}

/** Elements whose content is text to the HTML parser: markers in them are taken out, never attributed. */
const rawTextElements = new Set(['script', 'style', 'title', 'textarea']);
/** Elements without content or end tag. */
const voidElements = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);
/** Elements that are never the one holding a text: the document's frame. */
const frameElements = new Set(['html', 'head', 'body']);

interface OpenElement {
  name: string;
  /** Index of its start tag among the pieces of the answer, and where its name ends in it. */
  piece: number;
  nameEnd: number;
  edited: boolean;
}

/**
 * The rendered page with every marker of `marks` turned into `data-edit` and `data-edit-locale` on
 * the nearest element around its text (the first text of an element names it), and every marker
 * character taken out. Reads the HTML as the renderer writes it: quoted attributes, every element
 * closed but the void ones.
 */
export function editAttributes(html: string, marks: EditMarks): string {
  const strip = (text: string) => text.replace(markerCharacters, '');
  const pieces: string[] = [];
  const open: OpenElement[] = [];
  const lower = html.toLowerCase();
  const inHead = () => open.some((element) => element.name === 'head');
  const text = (chunk: string) => {
    const target = open.at(-1);
    const attributable = target && !target.edited && !frameElements.has(target.name) && !inHead();
    if (attributable) {
      const first = new RegExp(markerPattern.source).exec(chunk);
      const source = first && marks.sources[Number([...first[1]!].map((c) => c.charCodeAt(0) - digitBase).join(''))];
      if (source) {
        const tag = pieces[target.piece]!;
        const attributes = ` data-edit="${escapeHtml(source.edit)}" data-edit-locale="${escapeHtml(source.locale)}" data-edit-kind="${source.kind}"`;
        pieces[target.piece] = tag.slice(0, target.nameEnd) + attributes + tag.slice(target.nameEnd);
        target.edited = true;
      }
    }
    pieces.push(strip(chunk));
  };
  let at = 0;
  while (at < html.length) {
    const lt = html.indexOf('<', at);
    if (lt === -1) {
      text(html.slice(at));
      break;
    }
    if (lt > at) text(html.slice(at, lt));
    if (html.startsWith('<!--', lt)) {
      const close = html.indexOf('-->', lt + 4);
      const end = close === -1 ? html.length : close + 3;
      pieces.push(strip(html.slice(lt, end)));
      at = end;
      continue;
    }
    // The end of the tag: the first `>` outside a quoted attribute value.
    let end = lt + 1;
    let quote = '';
    for (; end < html.length; end++) {
      const character = html[end]!;
      if (quote) {
        if (character === quote) quote = '';
      } else if (character === '"' || character === "'") quote = character;
      else if (character === '>') break;
    }
    const tag = html.slice(lt, end + 1);
    at = end + 1;
    const name = /^<(\/?)([A-Za-z][\w:-]*)/.exec(tag);
    if (!name) {
      pieces.push(strip(tag));
      continue;
    }
    const element = name[2]!.toLowerCase();
    if (name[1]) {
      const index = open.map((each) => each.name).lastIndexOf(element);
      if (index !== -1) open.length = index;
      pieces.push(tag);
      continue;
    }
    pieces.push(strip(tag));
    if (rawTextElements.has(element)) {
      const close = lower.indexOf(`</${element}`, at);
      const contentEnd = close === -1 ? html.length : close;
      pieces.push(strip(html.slice(at, contentEnd)));
      at = contentEnd;
      continue;
    }
    if (!voidElements.has(element) && !tag.endsWith('/>'))
      open.push({ name: element, piece: pieces.length - 1, nameEnd: name[0].length, edited: false });
  }
  return pieces.join('');
}
