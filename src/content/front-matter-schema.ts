/**
 * The schema of a collection's front matter: the fields every entry has, the taxonomy term and
 * the fields the collection declares. Only zod: the admin's form reads its fields off the same
 * schema the build validates with (through `typed-site/template`).
 */
import { z } from 'zod';
import type { CollectionConfig, EntryField } from '../config/schema.js';

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'use an ISO date such as 2026-03-18')
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value), 'not a real calendar date');

const imageFileName = z
  .string()
  .regex(/^[\w-]+(?:\.[\w-]+)*\.(?:png|jpe?g|webp|avif)$/i, 'name a PNG, JPEG, WebP or AVIF file in the entry\'s folder, such as cover.jpg');

const entrySlug = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'give a URL-safe slug: lowercase letters a-z, digits and single hyphens, such as hvorfor-reparere');

/** The value schema of one declared field (the config's cross-field checks made sure each type has the keys it needs). */
export function fieldValueSchema(field: EntryField): z.ZodType {
  switch (field.type) {
    case 'number':
      return z.number();
    case 'boolean':
      return z.boolean();
    case 'date':
      return isoDate;
    case 'select':
      return z.enum((field.options ?? []) as [string, ...string[]]);
    case 'list':
      return z.array(field.of === 'number' ? z.number() : field.of === 'string' || field.of === undefined ? z.string().min(1) : fieldsSchema(field.of));
    case 'object':
      return fieldsSchema(field.fields ?? {});
    case 'image':
      // The alt text is required: an image a field shows always says what it shows.
      return z.strictObject({ src: imageFileName, alt: z.string().min(1, 'give the image a text alternative (alt)') });
    case 'reference':
      return entrySlug.describe(`The slug of an entry of ${field.collection}`);
    default:
      return z.string().min(1);
  }
}

function fieldsSchema(fields: Record<string, EntryField>): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, field] of Object.entries(fields)) shape[name] = field.required ? fieldValueSchema(field) : fieldValueSchema(field).optional();
  return z.strictObject(shape);
}

/** The front matter of a collection's entries: the fields every entry has, the taxonomy term, and the declared fields. */
export function createFrontMatterSchema(collection: Pick<CollectionConfig, 'fields' | 'taxonomy'> & { data?: boolean }) {
  const declared: Record<string, z.ZodType> = { ...fieldsSchema(collection.fields).shape };
  if (collection.taxonomy) declared[collection.taxonomy.field] = z.enum(collection.taxonomy.terms as [string, ...string[]]);
  // A data collection's entries (team members) are not dated posts: no date or description needed.
  const dataEntry = collection.data === true;
  return z.strictObject({
    title: z.string().min(1),
    description: dataEntry ? z.string().min(1).optional() : z.string().min(1),
    date: dataEntry ? isoDate.optional() : isoDate,
    updated: isoDate.optional(),
    image: imageFileName.optional(),
    imageAlt: z.string().min(1).optional(),
    draft: z.boolean().default(false),
    slug: entrySlug
      .optional()
      .describe('The last segment of this translation\'s URL, when it differs from the folder name (a localized slug)'),
    ...declared,
  });
}

/** One front-matter field as a form shows it, read off the build's schema. */
export interface FrontMatterField {
  name: string;
  type: 'string' | 'number' | 'boolean' | 'date' | 'choice' | Exclude<EntryField['type'], 'select'>;
  required: boolean;
  /** The allowed values of a choice (the taxonomy terms, a select's options). */
  options?: string[];
  /** A declared field of a richer type (list, object, image, reference, markdown): its declaration. */
  field?: EntryField;
}

/**
 * The fields of a collection's front matter, in the schema's order, from the same zod schema the
 * build validates with; all but `slug`, a localized slug, which the admin's form shows apart (with
 * the URL it makes, beside the folder's slug).
 */
export function frontMatterFields(collection: Pick<CollectionConfig, 'fields' | 'taxonomy'> & { data?: boolean }): FrontMatterField[] {
  const shape = createFrontMatterSchema(collection).shape as Record<string, z.ZodType>;
  return Object.entries(shape).filter(([name]) => name !== 'slug').map(([name, field]) => {
    let inner = field;
    let required = true;
    for (;;) {
      const def = (inner as unknown as { def: { type: string; innerType?: z.ZodType } }).def;
      if ((def.type === 'optional' || def.type === 'default') && def.innerType) {
        required = false;
        inner = def.innerType;
      } else break;
    }
    const declared = Object.hasOwn(collection.fields, name) ? collection.fields[name] : undefined;
    if (declared && declared.type !== 'select' && !fieldTypes.includes(declared.type)) return { name, type: declared.type, required, field: declared };
    const def = (inner as unknown as { def: { type: string; entries?: Record<string, string> } }).def;
    if (inner === (isoDate as z.ZodType)) return { name, type: 'date', required };
    if (def.type === 'enum') return { name, type: 'choice', required, options: Object.values(def.entries ?? {}) };
    if (def.type === 'boolean' || def.type === 'number') return { name, type: def.type, required };
    return { name, type: 'string', required };
  });
}

/** The declared types a form shows as it shows the fields every entry has. */
const fieldTypes: readonly EntryField['type'][] = ['string', 'number', 'boolean', 'date'];
