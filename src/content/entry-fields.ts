/**
 * The richer fields a collection declares (issue 48): a Markdown field rendered to HTML, an image
 * field read and checked beside the entry, and a reference checked against the entries that
 * exist. Each value is found at its place in the front matter (`team[1].photo`), so a problem
 * names the field and its line.
 */
import type { CollectionConfig, EntryField } from '../config/schema.js';
import { readEntryImage, type EntryImage } from './images.js';
import type { MarkdownPlugins } from './markdown.js';
import type { MarkdownRenderer } from './markdown-cache.js';

/** A declared field's value as templates read it: a Markdown field's HTML, an image field's checked image, a reference's slug. */
export type FieldValue = string | number | boolean | EntryImage | readonly FieldValue[] | { readonly [name: string]: FieldValue };

/** One value of a declared field inside a translation's fields, with its path (`team[1].photo`) and a way to replace it. */
export interface FieldSlot {
  field: EntryField;
  path: string;
  value: unknown;
  set(value: FieldValue): void;
}

/** The values of the declared fields (at any depth: in objects and lists of objects) whose type is one of `types`. */
export function fieldSlots(
  fields: Readonly<Record<string, EntryField>>,
  values: Record<string, unknown>,
  types: readonly EntryField['type'][],
  prefix = '',
): FieldSlot[] {
  const slots: FieldSlot[] = [];
  for (const name of Object.keys(fields).sort()) {
    const field = fields[name]!;
    const value = values[name];
    if (value === undefined) continue;
    const path = prefix ? `${prefix}.${name}` : name;
    if (types.includes(field.type)) slots.push({ field, path, value, set: (next) => (values[name] = next) });
    if (field.type === 'object' && field.fields && isRecord(value)) slots.push(...fieldSlots(field.fields, value, types, path));
    if (field.type === 'list' && typeof field.of === 'object' && Array.isArray(value)) {
      value.forEach((item, index) => {
        if (isRecord(item)) slots.push(...fieldSlots(field.of as Record<string, EntryField>, item, types, `${path}[${index}]`));
      });
    }
  }
  return slots;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A problem of a field's value, at its path in the front matter. */
export interface FieldProblem {
  field: string;
  message: string;
  hint: string;
}

/**
 * Renders the Markdown fields and reads the image fields of one translation's `fields` in place;
 * returns the images (for the build to publish) and the problems.
 */
export async function resolveFieldValues(
  collection: Pick<CollectionConfig, 'fields'>,
  fields: Record<string, unknown>,
  place: { folder: string; locale: string },
  markdown: MarkdownRenderer,
  plugins: MarkdownPlugins,
): Promise<{ images: EntryImage[]; problems: FieldProblem[] }> {
  const problems: FieldProblem[] = [];
  const images: EntryImage[] = [];
  const texts = fieldSlots(collection.fields, fields, ['markdown']);
  if (texts.length) {
    const rendered = await markdown.renderAll(
      texts.map((slot) => String(slot.value)),
      plugins,
    );
    texts.forEach((slot, index) => {
      const outcome = rendered[index]!;
      if ('error' in outcome)
        problems.push({ field: slot.path, message: outcome.error, hint: 'Correct the Markdown of this field.' });
      else slot.set(outcome.html);
    });
  }
  for (const slot of fieldSlots(collection.fields, fields, ['image'])) {
    const { src, alt } = slot.value as { src: string; alt: string };
    const image = await readEntryImage(place.folder, src, alt, place.locale);
    if ('message' in image) {
      problems.push({ field: `${slot.path}.${image.field === 'imageAlt' ? 'alt' : 'src'}`, message: image.message, hint: image.hint });
      continue;
    }
    images.push(image);
    slot.set(image);
  }
  return { images, problems };
}

/** The slugs of the entries of each collection, for checking references. */
export type EntrySlugs = ReadonlyMap<string, ReadonlySet<string>>;

/**
 * The references of one translation's fields that name no entry of their collection: each at its
 * path, with the entries that do exist.
 */
export function referenceProblems(
  collection: Pick<CollectionConfig, 'fields'>,
  fields: Record<string, unknown>,
  slugs: EntrySlugs,
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const slot of fieldSlots(collection.fields, fields, ['reference'])) {
    const target = slot.field.collection!;
    const known = slugs.get(target) ?? new Set<string>();
    if (known.has(String(slot.value))) continue;
    const listed = [...known].sort();
    problems.push({
      field: slot.path,
      message: `"${String(slot.value)}" is no entry of ${target}`,
      hint: listed.length
        ? `Name one of the entries of ${target}: ${listed.slice(0, 20).join(', ')}${listed.length > 20 ? ', …' : ''}.`
        : `${target} has no entries yet: add one under its folder, or remove this field.`,
    });
  }
  return problems;
}
