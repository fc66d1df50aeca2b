/**
 * Components in Markdown: the generic directives of remark-directive (`:::callout{type="warning"}`
 * … `:::`, `::video{src="…"}`, `:badge[New]`) as the Markdown pipeline (markdown.ts) carries
 * them. Pure: the steps run in whichever thread renders, and know nothing of the site's components.
 *
 * `remarkComponents` records each directive as a `ComponentUse` (name, attributes, where they are
 * written) and makes it an element `<site-component data-component="N">` around its content, which
 * the sanitiser keeps (and sanitises inside, like any Markdown); an attribute that names an image
 * file beside the document (`src="jacket.jpg"`) gets a `<site-slot>` holding that image, which the
 * image pipeline publishes like `![alt](jacket.jpg)`. After the sanitiser, `rehypeComponentMarkers`
 * turns both into comments: `<!--component callout {"type":"warning"}-->…<!--/component-->` and
 * `<!--slot src-->…<!--/slot-->`. Comments cannot come from a document or a plugin (the sanitiser
 * drops them), so every marker is this step's. The renderer (render/content-components.ts) puts
 * each component's HTML in place of its markers, with the site's templates; the build checks the
 * names and attributes first (content/component-uses.ts).
 */
import type { Root as HastRoot, Element, RootContent } from 'hast';

/** One directive of a document: what it names and where. Plain data (it crosses threads and is cached). */
export interface ComponentUse {
  /** The name as written (`callout`, `video-player`). */
  name: string;
  kind: 'container' | 'leaf' | 'text';
  /** The attributes as written (a container's `[label]` is its `title`, unless it has one). */
  attributes: Record<string, string>;
  /** Where the directive starts, 1-based, in the lines of the Markdown given to the pipeline. */
  line: number;
  column: number;
  /** Where each attribute's name is written, as [line, column] (the directive's start for a label's `title`). */
  at: Record<string, [number, number]>;
}

/** The tag of a component's content until the markers are written; the sanitiser keeps it (sanitize-schema.ts). */
export const componentTag = 'site-component';
/** The tag of an image attribute's picture until the markers are written. */
export const slotTag = 'site-slot';

/** What in a document's text makes the directive syntax worth parsing: a colon before a letter. */
export const directiveTrigger = /:[A-Za-z]/;

/** An attribute value that names an image file beside the document: published and handed to the component as a picture. */
export function isImageFileValue(value: string): boolean {
  return /^(?:\.\/)?[\w][\w.-]*\.(?:png|jpe?g|webp|avif|gif)$/i.test(value);
}

type MdNode = {
  type: string;
  name?: string;
  value?: string;
  url?: string;
  alt?: string;
  attributes?: Record<string, string | null | undefined> | null;
  children?: MdNode[];
  data?: Record<string, unknown>;
  position?: { start: { line: number; column: number; offset?: number }; end: { line: number; column: number; offset?: number } };
};

const directiveKinds: Record<string, ComponentUse['kind']> = {
  containerDirective: 'container',
  leafDirective: 'leaf',
  textDirective: 'text',
};

/** The [line, column] of `offset` in `text` (1-based). */
function placeOf(text: string, offset: number): [number, number] {
  const before = text.slice(0, offset);
  return [before.split('\n').length, offset - before.lastIndexOf('\n')];
}

/**
 * Where each attribute of a directive is written: its name's place in the `{…}` after the name
 * (the directive's source from `start`). Values are skipped, so a name inside a quoted value is
 * never taken for an attribute.
 */
function attributePlaces(text: string, start: number, name: string): Record<string, [number, number]> {
  const places: Record<string, [number, number]> = {};
  let at = start;
  while (text[at] === ':') at++;
  at += name.length;
  if (text[at] === '[') {
    // The label: balanced brackets, escapes skipped.
    let depth = 0;
    for (; at < text.length; at++) {
      if (text[at] === '\\') at++;
      else if (text[at] === '[') depth++;
      else if (text[at] === ']' && --depth === 0) {
        at++;
        break;
      }
    }
  }
  if (text[at] !== '{') return places;
  for (at++; at < text.length && text[at] !== '}'; ) {
    const char = text[at]!;
    if (/\s/.test(char)) {
      at++;
      continue;
    }
    if (char === '#' || char === '.') {
      const key = char === '#' ? 'id' : 'class';
      places[key] ??= placeOf(text, at);
      at++;
      while (at < text.length && !/[\s}#.]/.test(text[at]!)) at++;
      continue;
    }
    const found = /^[A-Za-z_:][\w.:-]*/.exec(text.slice(at, at + 200));
    if (!found) {
      at++;
      continue;
    }
    places[found[0]] = placeOf(text, at);
    at += found[0].length;
    while (/[ \t]/.test(text[at] ?? '')) at++;
    if (text[at] !== '=') continue;
    at++;
    while (/[ \t]/.test(text[at] ?? '')) at++;
    const quote = text[at];
    if (quote === '"' || quote === "'") {
      const end = text.indexOf(quote, at + 1);
      at = end === -1 ? text.length : end + 1;
    } else {
      while (at < text.length && !/[\s}]/.test(text[at]!)) at++;
    }
  }
  return places;
}

/** The text of an mdast tree (a label), run together. */
function plainText(node: MdNode): string {
  if (typeof node.value === 'string') return node.value;
  if (node.type === 'image') return node.alt ?? '';
  return (node.children ?? []).map(plainText).join('');
}

/**
 * The remark step: each directive becomes a component element (see the module's comment), and
 * the list of them is left in `file.data.components`. A text directive with neither a label nor
 * attributes (`Note:this`, `10:30:am`) is the text it was: prose is full of colons.
 */
export function remarkComponents() {
  return (tree: MdNode, file: { value?: unknown; data: Record<string, unknown> }) => {
    const text = typeof file.value === 'string' ? file.value : '';
    const uses: ComponentUse[] = [];
    const stack: MdNode[] = [tree];
    for (let node = stack.pop(); node; node = stack.pop()) {
      const children = node.children;
      if (!children) continue;
      for (let index = 0; index < children.length; index++) {
        const child = children[index]!;
        const kind = directiveKinds[child.type];
        if (!kind) {
          if (child.children) stack.push(child);
          continue;
        }
        const name = child.name ?? '';
        const start = child.position?.start;
        const offset = start?.offset;
        const after = offset === undefined ? '' : text[offset + 1 + name.length];
        if (kind === 'text' && after !== '[' && after !== '{') {
          children[index] = { type: 'text', value: `:${name}`, ...(child.position ? { position: child.position } : {}) };
          continue;
        }
        const attributes: Record<string, string> = {};
        for (const [key, value] of Object.entries(child.attributes ?? {})) if (typeof value === 'string') attributes[key] = value;
        const at = offset === undefined ? {} : attributePlaces(text, offset, name);
        let content = child.children ?? [];
        const line = start?.line ?? 1;
        const column = start?.column ?? 1;
        if (kind === 'container' && content[0]?.type === 'paragraph' && content[0].data?.directiveLabel) {
          const label = plainText(content[0]).trim();
          if (label && attributes.title === undefined) {
            attributes.title = label;
            at.title = [line, column];
          }
          content = content.slice(1);
        }
        // An image file beside the document, named by an attribute: published as a Markdown image is.
        const slots: MdNode[] = [];
        for (const [key, value] of Object.entries(attributes)) {
          if (!isImageFileValue(value) || !at[key] || offset === undefined) continue;
          const valueAt = text.indexOf(value, offsetOf(text, at[key]!));
          const from = valueAt === -1 ? offset : valueAt;
          const image: MdNode = {
            type: 'image',
            url: value,
            alt: attributes.alt ?? '',
            position: { start: pointAt(text, from), end: pointAt(text, from + value.length) },
          };
          slots.push({ type: 'componentSlot', data: { hName: slotTag, hProperties: { dataSlot: key } }, children: [image] });
        }
        const use: ComponentUse = { name, kind, attributes, line, column, at };
        children[index] = {
          type: kind === 'text' ? 'componentText' : 'componentBlock',
          data: { hName: componentTag, hProperties: { dataComponent: String(uses.length) } },
          children: [...slots, ...content],
          ...(child.position ? { position: child.position } : {}),
        };
        uses.push(use);
        stack.push(children[index]!);
      }
    }
    if (uses.length) file.data.components = uses;
  };
}

function offsetOf(text: string, [line, column]: [number, number]): number {
  let offset = 0;
  for (let current = 1; current < line; current++) offset = text.indexOf('\n', offset) + 1;
  return offset + column - 1;
}

function pointAt(text: string, offset: number): { line: number; column: number; offset: number } {
  const [line, column] = placeOf(text, offset);
  return { line, column, offset };
}

/** JSON that a comment can hold: no `<`, `>` or `-` (so never `-->`), each written as its \u escape. */
export function markerJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>-]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The rehype step after the sanitiser (and after the local images are marked): each component
 * element becomes its markers around its content, each slot likewise; an element of either tag
 * that names no directive of this document (a plugin made it) is left as its content. The uses go
 * to the root's data, beside the local images.
 */
export function rehypeComponentMarkers() {
  return (tree: HastRoot, file: { data: Record<string, unknown> }) => {
    const uses = file.data.components as ComponentUse[] | undefined;
    const stack: (HastRoot | Element)[] = [tree];
    for (let node = stack.pop(); node; node = stack.pop()) {
      const children = node.children as RootContent[];
      for (let index = 0; index < children.length; index++) {
        const child = children[index]!;
        if (child.type !== 'element') continue;
        if (child.tagName === componentTag || child.tagName === slotTag) {
          const open = markerOf(child, uses);
          const inner = child.children as RootContent[];
          const replacement: RootContent[] = open
            ? [{ type: 'comment', value: open }, ...inner, { type: 'comment', value: child.tagName === componentTag ? '/component' : '/slot' }]
            : inner;
          children.splice(index, 1, ...replacement);
          // The content is looked at in its new place: it may hold components of its own.
          index += open ? 0 : -1;
          continue;
        }
        stack.push(child);
      }
    }
    if (uses?.length) tree.data = { ...tree.data, components: uses } as HastRoot['data'];
  };
}

/** The opening marker's text for a component or slot element, or undefined when it names nothing of this document. */
function markerOf(element: Element, uses: readonly ComponentUse[] | undefined): string | undefined {
  if (element.tagName === slotTag) {
    const slot = element.properties.dataSlot;
    return typeof slot === 'string' && /^[\w:.-]+$/.test(slot) ? `slot ${slot}` : undefined;
  }
  const index = Number(element.properties.dataComponent);
  const use = Number.isInteger(index) ? uses?.[index] : undefined;
  if (!use) return undefined;
  return `component ${use.name} ${markerJson(use.attributes)}`;
}

/** HTML without the components' markers, their content kept (a feed has no templates to render them). */
export function withoutComponentMarkers(html: string): string {
  return html.includes('<!--component ') ? html.replace(/<!--(?:component [\w-]+ [^>]*?|\/component|slot [\w:.-]+|\/slot)-->/g, '') : html;
}
