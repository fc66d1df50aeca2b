/**
 * The schema of `admin.settings`: the settings a site adds to /admin/settings, declared by the site
 * because the engine knows none of them (a plan's limits, a calculator's figures, a newsletter's
 * frequency). Each group is a part of the screen; each field names a path of the config, its type,
 * its label and its help. The settings API lets an admin change exactly these paths, checked by the
 * declared type before the whole config is checked again (src/admin/declared-settings.ts).
 */
import { z } from 'zod';

const localeId = z.string().regex(/^[a-z]{2,3}$/, 'use a two- or three-letter language code such as "en"');

/** A text of the admin's screen: one for every language, or one per language (`{ en: Orders, no: Ordrer }`). */
const screenText = z.union([z.string().min(1), z.record(localeId, z.string().min(1))]);

/**
 * Where a declared setting lives: under `data.` (the site's own data) or a plan's `limits.`, as
 * dotted keys; `*` stands for any one key of a map or entry of a list that the config has.
 */
export const declaredSettingPath = z
  .string()
  .regex(
    /^(?:data(?:\.(?:[A-Za-z0-9_-]+|\*))+|plans\.\*\.limits\.[A-Za-z][A-Za-z0-9_-]*)$/,
    "give a dotted path under data. (such as data.newsletter.frequency) or a plan's limits (plans.*.limits.users)",
  )
  .refine((path) => path.split('.').filter((part) => part === '*').length <= 1, 'use * at most once in a path');

/** The kinds of value a declared setting takes. */
export const declaredSettingTypes = ['number', 'text', 'boolean', 'url', 'localized-text'] as const;

const declaredFieldSchema = z
  .strictObject({
    path: declaredSettingPath,
    type: z
      .enum(declaredSettingTypes)
      .describe(
        'number, text (one line), boolean (a checkbox), url (an http:// or https:// address) or localized-text (a text per language, the path naming the map of languages)',
      ),
    label: screenText.describe("The field's label on the screen (in a table, its column's name)"),
    help: screenText.optional().describe('A line of help under the field'),
    problem: screenText
      .optional()
      .describe("What to do when the value is refused, shown instead of the check's own message"),
    min: z.number().optional().describe("number: the lowest value, in the config's units"),
    max: z.number().optional().describe("number: the highest value, in the config's units"),
    step: z.number().positive().optional().describe("number: the step of the field's arrows"),
    integer: z.boolean().default(false).describe('number: whole numbers only'),
    unlimited: z.boolean().default(false).describe('number: the word unlimited is a value too'),
    percent: z
      .boolean()
      .default(false)
      .describe('number: a share from 0 to 1 in the config, shown and typed as a percentage (0.35 as 35)'),
    optional: z.boolean().default(false).describe('An empty field takes the value out of the config'),
  })
  .refine(
    (field) =>
      field.type === 'number' ||
      (field.min === undefined &&
        field.max === undefined &&
        field.step === undefined &&
        !field.integer &&
        !field.unlimited &&
        !field.percent),
    'min, max, step, integer, unlimited and percent are for type: number',
  )
  .refine(
    (field) => field.min === undefined || field.max === undefined || field.min <= field.max,
    'make min no higher than max',
  );

export const declaredGroupSchema = z.strictObject({
  label: screenText.describe('The heading of the group on the screen'),
  help: screenText.optional().describe('A line of help under the heading'),
  keys: z
    .record(z.string(), screenText)
    .default({})
    .describe(
      'The names of the keys * stands for, shown at the start of each row (a list entry is named by its id without one)',
    ),
  fields: z
    .array(declaredFieldSchema)
    .min(1)
    .describe('Fields without * are shown one by one; fields with * form a table, a row for each key * stands for'),
});

/** The `admin.settings` list. */
export const declaredSettingsSchema = z
  .array(declaredGroupSchema)
  .default([])
  .describe(
    "Settings the site adds to /admin/settings, in groups: each field a path of the config under data. or a plan's limits., its type, label and help; an admin may change exactly these paths (see docs/settings.md)",
  );

/** A declared group, as loaded. */
export type DeclaredGroup = z.output<typeof declaredGroupSchema>;
/** A declared field, as loaded. */
export type DeclaredField = DeclaredGroup['fields'][number];
/** A text of the screen, as declared. */
export type ScreenText = z.output<typeof screenText>;
