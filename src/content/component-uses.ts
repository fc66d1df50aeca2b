/**
 * The components a document uses (directives.ts) checked against the site's: each name must be a
 * component of `templates/content/` or one the engine ships (content/components/), and each
 * attribute must pass the component's `props` schema. Problems are CONTENT_COMPONENT at the
 * directive's or the attribute's line and column. Also what the admin's editor shows of a
 * component: its attributes as form fields, from the same schema.
 */
import { z } from 'zod';
import { nearest } from '../did-you-mean.js';
import { SiteError } from '../errors.js';
import type { ComponentUse } from './directives.js';

/**
 * What the check reads of a module of `templates/content/`: its attributes' schema and its
 * description (render/types.ts has the whole contract, which takes its shape from this; declared
 * here so content/ does not import from render/).
 */
interface ContentComponentModule {
  props?: z.ZodType<any>;
  description?: string;
}

/** The props a component gets besides its attributes: no attribute may have these names. */
export const reservedProps = ['children', 'images', 'site'] as const;

/** The file name (without `.tsx`) a directive names: `callout` → Callout, `video-player` and `videoPlayer` → VideoPlayer. */
export function componentFileName(name: string): string {
  return name
    .split(/[-_]/)
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/** The name Markdown gives a component file: VideoPlayer → video-player. */
export function componentDirectiveName(file: string): string {
  return file.replace(/[A-Z]/g, (letter, at: number) => (at ? '-' : '') + letter.toLowerCase());
}

/** A document's uses placed in its file: their lines moved by the line its body starts on. */
export function placeUses(uses: readonly ComponentUse[], bodyLine: number): ComponentUse[] {
  const shift = bodyLine - 1;
  if (!shift) return [...uses];
  return uses.map((use) => ({
    ...use,
    line: use.line + shift,
    at: Object.fromEntries(Object.entries(use.at).map(([key, [line, column]]) => [key, [line + shift, column]])),
  }));
}

/** One attribute of a component as a form field (the admin's editor) and as a hint says what it accepts. */
export interface ComponentField {
  name: string;
  type: 'text' | 'number' | 'boolean' | 'choice' | 'url' | 'image';
  required: boolean;
  /** The values of a choice. */
  options?: string[];
  default?: string;
  description?: string;
}

/** A component as the admin's editor lists it. */
export interface ComponentInfo {
  /** The name Markdown uses (`callout`). */
  name: string;
  kind: 'engine' | 'site';
  description?: string;
  fields: ComponentField[];
}

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  pattern?: string;
  default?: unknown;
  description?: string;
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
};

/** The attributes a component's schema accepts, as fields ([] without a schema, or for one that is not an object). */
export function componentFields(schema: z.ZodType | undefined): ComponentField[] {
  if (!schema) return [];
  let json: JsonSchema;
  try {
    json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  } catch {
    return [];
  }
  const required = new Set(json.required ?? []);
  return Object.entries(json.properties ?? {}).map(([name, property]): ComponentField => {
    const plain = property.anyOf?.find((option) => option.type !== 'null') ?? property;
    const options = plain.enum?.filter((value): value is string => typeof value === 'string');
    const type: ComponentField['type'] = options?.length
      ? 'choice'
      : plain.type === 'number' || plain.type === 'integer'
        ? 'number'
        : plain.type === 'boolean'
          ? 'boolean'
          : plain.format === 'uri'
            ? 'url'
            : plain.pattern && /png|webp/.test(plain.pattern)
              ? 'image'
              : 'text';
    return {
      name,
      type,
      required: required.has(name) && property.default === undefined,
      ...(options?.length ? { options } : {}),
      ...(property.default !== undefined ? { default: String(property.default) } : {}),
      ...((property.description ?? plain.description) ? { description: property.description ?? plain.description } : {}),
    };
  });
}

/** What a field accepts, in words: `one of "note", "tip", "warning"`. */
export function acceptsText(field: ComponentField | undefined): string {
  if (!field) return 'any text';
  const accepts =
    field.type === 'choice'
      ? `one of ${field.options!.map((option) => `"${option}"`).join(', ')}`
      : field.type === 'number'
        ? 'a number'
        : field.type === 'boolean'
          ? 'true or false'
          : field.type === 'url'
            ? 'a web address (https://…)'
            : field.type === 'image'
              ? 'an image file beside the Markdown file (photo.jpg)'
              : 'text';
  return `${accepts}${field.default !== undefined ? ` (default "${field.default}")` : ''}${field.description ? `: ${field.description}` : ''}`;
}

/** The components by the name Markdown uses, from the modules by file name. */
export function componentsByName(modules: Readonly<Record<string, ContentComponentModule>>): Map<string, ContentComponentModule> {
  return new Map(Object.entries(modules).map(([file, module]) => [componentDirectiveName(file), module]));
}

/** The module a directive's name names, however it is written (kebab or camel case). */
export function componentOf<Module>(modules: Readonly<Record<string, Module>>, name: string): Module | undefined {
  const file = componentFileName(name);
  return Object.hasOwn(modules, file) ? modules[file] : undefined;
}

/** Where an attribute of `use` is written (the directive's start when it is not written at all). */
function placeOfAttribute(use: ComponentUse, name: string | undefined): { line: number; column: number } {
  const at = name === undefined ? undefined : use.at[name];
  return at ? { line: at[0], column: at[1] } : { line: use.line, column: use.column };
}

function directiveText(use: ComponentUse): string {
  return `${use.kind === 'container' ? ':::' : use.kind === 'leaf' ? '::' : ':'}${use.name}`;
}

/**
 * Checks a document's components (`uses`, placed in `file`) against the site's modules (by file
 * name): an unknown name, a reserved or undeclared attribute, a value the schema refuses. Every
 * problem is reported, in document order.
 */
export function checkComponentUses(uses: readonly ComponentUse[], file: string, modules: Readonly<Record<string, ContentComponentModule>>): SiteError[] {
  const errors: SiteError[] = [];
  const names = [...componentsByName(modules).keys()].sort();
  const sorted = [...uses].sort((a, b) => a.line - b.line || a.column - b.column);
  for (const use of sorted) {
    const module = componentOf(modules, use.name);
    const field = 'body';
    if (!module) {
      const near = nearest(use.name.toLowerCase(), names);
      errors.push(
        new SiteError({
          code: 'CONTENT_COMPONENT',
          message: `unknown component "${use.name}" (${directiveText(use)}): there is no templates/content/${componentFileName(use.name) || use.name}.tsx`,
          hint: `Known components: ${names.join(', ')}.${near ? ` Did you mean "${near}"?` : ''}`,
          file,
          line: use.line,
          column: use.column,
          field,
        }),
      );
      continue;
    }
    const fields = componentFields(module.props);
    const byName = new Map(fields.map((each) => [each.name, each]));
    const accepted = fields.map((each) => each.name);
    const attributeList = accepted.length ? `Its attributes: ${accepted.join(', ')}.` : `It takes no attributes.`;
    const checked: Record<string, string> = {};
    for (const name of Object.keys(use.attributes)) {
      const reserved = (reservedProps as readonly string[]).includes(name);
      const undeclared = module.props && isObjectSchema(module.props) && !byName.has(name);
      if (!reserved && !undeclared) {
        checked[name] = use.attributes[name]!;
        continue;
      }
      const near = nearest(name, accepted);
      errors.push(
        new SiteError({
          code: 'CONTENT_COMPONENT',
          message: reserved
            ? `${use.name}: "${name}" cannot be an attribute (the component gets its ${name} from the engine)`
            : name === 'title' && use.kind === 'container' && use.at.title?.[0] === use.line && use.at.title[1] === use.column
              ? `${use.name} has no attribute "title", which its label [${use.attributes.title}] gives`
              : `${use.name} has no attribute "${name}"`,
          hint: `${attributeList}${near && !reserved ? ` Did you mean "${near}"?` : ''}`,
          file,
          ...placeOfAttribute(use, name),
          field,
        }),
      );
    }
    if (!module.props) continue;
    // The attributes it declares are checked too: every problem of the directive at once.
    const parsed = module.props.safeParse(checked);
    if (parsed.success) continue;
    for (const issue of parsed.error.issues) {
      const name = typeof issue.path[0] === 'string' ? issue.path[0] : undefined;
      const written = name !== undefined && Object.hasOwn(use.attributes, name);
      const prop = name === undefined ? undefined : byName.get(name);
      errors.push(
        new SiteError({
          code: 'CONTENT_COMPONENT',
          message:
            name === undefined
              ? `${use.name}: ${issue.message}`
              : written
                ? `${use.name}: the attribute ${name}="${use.attributes[name]}" is not accepted (${issue.message})`
                : `${use.name} needs the attribute ${name}`,
          hint: name === undefined ? attributeList : `${name} accepts ${acceptsText(prop)}.`,
          file,
          ...placeOfAttribute(use, written ? name : undefined),
          field,
        }),
      );
    }
  }
  return errors.sort((a, b) => a.line! - b.line! || a.column! - b.column!);
}

function isObjectSchema(schema: z.ZodType): boolean {
  return typeof (schema as { shape?: unknown }).shape === 'object';
}
