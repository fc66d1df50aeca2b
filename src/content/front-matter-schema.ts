/**
 * The schema of a collection's front matter: the fields every entry has, the taxonomy term and
 * the fields the collection declares. Only zod: the admin's form reads its fields off the same
 * schema the build validates with (through `typed-site/template`).
 */
import { z } from 'zod';
import type { CollectionConfig } from '../config/schema.js';

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'use an ISO date such as 2026-03-18')
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value), 'not a real calendar date');

const fieldTypes = { string: z.string().min(1), number: z.number(), boolean: z.boolean(), date: isoDate };

/** The front matter of a collection's entries: the fields every entry has, the taxonomy term, and the declared fields. */
export function createFrontMatterSchema(collection: Pick<CollectionConfig, 'fields' | 'taxonomy'>) {
  const declared: Record<string, z.ZodType> = {};
  for (const [name, field] of Object.entries(collection.fields)) declared[name] = field.required ? fieldTypes[field.type] : fieldTypes[field.type].optional();
  if (collection.taxonomy) declared[collection.taxonomy.field] = z.enum(collection.taxonomy.terms as [string, ...string[]]);
  return z.strictObject({
    title: z.string().min(1),
    description: z.string().min(1),
    date: isoDate,
    updated: isoDate.optional(),
    image: z
      .string()
      .regex(/^[\w-]+(?:\.[\w-]+)*\.(?:png|jpe?g|webp|avif)$/i, 'name a PNG, JPEG, WebP or AVIF file in the entry\'s folder, such as cover.jpg')
      .optional(),
    imageAlt: z.string().min(1).optional(),
    draft: z.boolean().default(false),
    slug: z
      .string()
      .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'give a URL-safe slug: lowercase letters a-z, digits and single hyphens, such as hvorfor-reparere')
      .optional()
      .describe('The last segment of this translation\'s URL, when it differs from the folder name (a localized slug)'),
    ...declared,
  });
}

/** One front-matter field as a form shows it, read off the build's schema. */
export interface FrontMatterField {
  name: string;
  type: 'string' | 'number' | 'boolean' | 'date' | 'choice';
  required: boolean;
  /** The allowed values of a choice (the taxonomy terms). */
  options?: string[];
}

/**
 * The fields of a collection's front matter, in the schema's order, from the same zod schema the
 * build validates with; all but `slug`, a localized slug, which the admin's form shows apart (with
 * the URL it makes, beside the folder's slug).
 */
export function frontMatterFields(collection: Pick<CollectionConfig, 'fields' | 'taxonomy'>): FrontMatterField[] {
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
    const def = (inner as unknown as { def: { type: string; entries?: Record<string, string> } }).def;
    if (inner === (isoDate as z.ZodType)) return { name, type: 'date', required };
    if (def.type === 'enum') return { name, type: 'choice', required, options: Object.values(def.entries ?? {}) };
    if (def.type === 'boolean' || def.type === 'number') return { name, type: def.type, required };
    return { name, type: 'string', required };
  });
}

