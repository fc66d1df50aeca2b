/**
 * The sanitiser's schema: GitHub's (hast-util-sanitize's default), with heading ids kept as
 * rehype-slug makes them and `tel:` links allowed, extended by the site's `markdown.sanitize`
 * (config/sanitize.ts refuses what would let a document run script). Pure: the Markdown pipeline
 * makes it once per processor, in whichever thread renders.
 */
import type { Options as SanitizeSchema } from 'rehype-sanitize';
import type { SanitizeExtension } from '../config/sanitize.js';

type AttributeDefinition = string | [string, ...(string | number | boolean | RegExp)[]];

/**
 * hast's names of the ARIA attributes whose words are not split by hyphens in HTML
 * (`aria-labelledby` is `ariaLabelledBy`), by their HTML name without `aria-`.
 */
const ariaWords = ['ActiveDescendant', 'AutoComplete', 'ColCount', 'ColIndex', 'ColSpan', 'DescribedBy', 'DropEffect', 'ErrorMessage', 'FlowTo', 'HasPopup', 'KeyShortcuts', 'LabelledBy', 'MultiLine', 'MultiSelectable', 'PosInSet', 'ReadOnly', 'RoleDescription', 'RowCount', 'RowIndex', 'RowSpan', 'SetSize', 'ValueMax', 'ValueMin', 'ValueNow', 'ValueText'];
const ariaNames = new Map(ariaWords.map((word) => [word.toLowerCase(), `aria${word}`]));

/** HTML's spellings of common attributes whose hast names differ by more than case of the first letter. */
const htmlNames = new Map(
  ['className', 'htmlFor', 'tabIndex', 'colSpan', 'rowSpan', 'srcSet', 'hrefLang', 'dateTime', 'itemProp', 'itemScope', 'itemType', 'accessKey', 'crossOrigin', 'referrerPolicy', 'readOnly', 'maxLength', 'contentEditable', 'spellCheck']
    .map((name) => [name === 'className' ? 'class' : name === 'htmlFor' ? 'for' : name.toLowerCase(), name]),
);

/**
 * The hast property name of an attribute as a config may write it: `className` stays, `class` is
 * `className`, `aria-hidden` is `ariaHidden`, `aria-labelledby` is `ariaLabelledBy`,
 * `data-callout-type` is `dataCalloutType`, `tabindex` is `tabIndex`.
 */
export function hastAttributeName(name: string): string {
  const known = htmlNames.get(name) ?? htmlNames.get(name.toLowerCase());
  if (known && (name === name.toLowerCase() || known === name)) return known;
  const aria = /^aria-(.+)$/i.exec(name);
  if (aria) {
    const rest = aria[1]!.toLowerCase();
    return ariaNames.get(rest.replace(/-/g, '')) ?? `aria${camelWords(rest)}`;
  }
  const data = /^data-(.+)$/i.exec(name);
  if (data) return `data${camelWords(data[1]!.toLowerCase())}`;
  return name;
}

/** "callout-type" → "CalloutType". */
function camelWords(text: string): string {
  return text.split('-').map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');
}

/**
 * Merges two definitions of one attribute: any value allowed (a bare name) wins; else the
 * allowed values of both, in order. hast-util-sanitize reads only the first definition with a
 * name, so GitHub's `['className', 'data-footnote-backref']` on `a` would hide a site's
 * `['className', 'anchor']` if both were listed.
 */
function mergeDefinition(base: AttributeDefinition, added: AttributeDefinition): AttributeDefinition {
  if (typeof base === 'string') return base;
  if (typeof added === 'string') return added;
  const values = [...base.slice(1)];
  for (const value of added.slice(1)) if (!values.includes(value)) values.push(value);
  return [base[0], ...values];
}

/** The attribute definitions of one tag with `added` merged in, by hast name. */
function mergeAttributes(base: readonly AttributeDefinition[], added: readonly (string | [string, ...(string | number | boolean)[]])[]): AttributeDefinition[] {
  const merged = [...base];
  for (const entry of added) {
    const definition: AttributeDefinition = typeof entry === 'string' ? hastAttributeName(entry) : [hastAttributeName(entry[0]), ...entry.slice(1)];
    const name = typeof definition === 'string' ? definition : definition[0];
    const at = merged.findIndex((existing) => (typeof existing === 'string' ? existing : existing[0]) === name);
    if (at === -1) merged.push(definition);
    else merged[at] = mergeDefinition(merged[at]!, definition);
  }
  return merged;
}

/**
 * The schema every Markdown document is sanitised with: `defaults` (hast-util-sanitize's
 * `defaultSchema`, passed in since the stack is loaded lazily) with heading ids as rehype-slug
 * makes them (no `user-content-` prefix: links to them keep working), `tel:` links, and the
 * site's extension.
 */
export function createSanitizeSchema(defaults: SanitizeSchema, extension?: SanitizeExtension): SanitizeSchema {
  const protocols: Record<string, string[]> = { ...(defaults.protocols as Record<string, string[]>), href: [...(defaults.protocols?.href ?? []), 'tel'] };
  const schema: SanitizeSchema = { ...defaults, clobberPrefix: '', protocols };
  if (!extension) return schema;
  const tagNames = [...(defaults.tagNames ?? [])];
  for (const tag of extension.tagNames) if (!tagNames.includes(tag)) tagNames.push(tag);
  const attributes = { ...(defaults.attributes as Record<string, AttributeDefinition[]>) };
  for (const [tag, added] of Object.entries(extension.attributes)) attributes[tag] = mergeAttributes(attributes[tag] ?? [], added);
  // hast-util-sanitize reads a tag's own definition of an attribute before `*`'s, and an empty
  // list from it (GitHub's `a` allows the footnotes' class only) hides `*`'s: what `*` adds goes
  // into those too.
  const everywhere = extension.attributes['*'] ?? [];
  for (const [tag, definitions] of Object.entries(attributes)) {
    if (tag === '*') continue;
    const names = new Set(definitions.map((definition) => (typeof definition === 'string' ? definition : definition[0])));
    const shared = everywhere.filter((entry) => names.has(hastAttributeName(typeof entry === 'string' ? entry : entry[0])));
    if (shared.length) attributes[tag] = mergeAttributes(definitions, shared);
  }
  for (const [attribute, added] of Object.entries(extension.protocols)) {
    const name = hastAttributeName(attribute);
    protocols[name] = [...new Set([...(protocols[name] ?? []), ...added])];
  }
  // An attribute that holds a URL and has no protocols listed would take any (`javascript:` too):
  // one the extension allows gets those of href or src.
  for (const added of Object.values(extension.attributes)) {
    for (const entry of added) {
      const name = hastAttributeName(typeof entry === 'string' ? entry : entry[0]);
      if (protocols[name]) continue;
      if (/href$/i.test(name)) protocols[name] = protocols.href!;
      else if (urlAttributes.has(name.toLowerCase())) protocols[name] = protocols.src ?? ['http', 'https'];
    }
  }
  return { ...schema, tagNames, attributes, protocols };
}

/** Attributes besides the `…href` ones that hold a URL a browser loads or follows. */
const urlAttributes = new Set(['src', 'poster', 'background', 'action', 'cite', 'longdesc', 'data', 'ping', 'manifest', 'codebase', 'icon']);
