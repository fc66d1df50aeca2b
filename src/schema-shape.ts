/**
 * What a zod schema takes at a path, in words: the keys an object knows (for "did you mean"), its
 * fields, an enum's values, and the description the schema gives. Errors say the shape expected
 * from the same schema that refused the value, so the message and the check never disagree. Pure.
 */
import type { z } from 'zod';

/** The parts of a zod v4 definition this module reads (`schema._zod.def`). */
interface Definition {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  options?: readonly z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
  entries?: Record<string, string | number>;
  values?: readonly unknown[];
  getter?: () => z.ZodType;
}

const definitionOf = (schema: z.ZodType): Definition => (schema as unknown as { _zod: { def: Definition } })._zod.def;

/** Wrappers that change whether a value is needed, not what it is. */
const wrappers = new Set(['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly', 'nonoptional']);

/** The schema under its wrappers (optional, default, a pipe's input…), with the first description found on the way. */
function unwrap(schema: z.ZodType): { schema: z.ZodType; description?: string } {
  let description = schema.description;
  let current = schema;
  for (;;) {
    const definition = definitionOf(current);
    const inner = wrappers.has(definition.type)
      ? definition.innerType
      : definition.type === 'pipe'
        ? definition.in
        : definition.type === 'lazy'
          ? definition.getter?.()
          : undefined;
    if (!inner) return { schema: current, ...(description ? { description } : {}) };
    current = inner;
    description ??= current.description;
  }
}

/** The alternatives a schema is (the options of a union, each unwrapped), or itself. */
function alternativesOf(schema: z.ZodType): z.ZodType[] {
  const { schema: inner } = unwrap(schema);
  const definition = definitionOf(inner);
  if (definition.type === 'union') return (definition.options ?? []).flatMap(alternativesOf);
  if (definition.type === 'intersection' && definition.left && definition.right)
    return [...alternativesOf(definition.left), ...alternativesOf(definition.right)];
  return [inner];
}

/** The schemas a path leads to inside `schema` (several when a union has several that fit). */
export function schemasAt(schema: z.ZodType, path: readonly PropertyKey[]): z.ZodType[] {
  let current: z.ZodType[] = [schema];
  for (const part of path) {
    const next: z.ZodType[] = [];
    for (const candidate of current.flatMap(alternativesOf)) {
      const definition = definitionOf(candidate);
      if (definition.type === 'object' && typeof part === 'string' && definition.shape?.[part])
        next.push(definition.shape[part]);
      else if (definition.type === 'array' && typeof part === 'number' && definition.element)
        next.push(definition.element);
      else if (definition.type === 'record' && definition.valueType) next.push(definition.valueType);
    }
    if (next.length === 0) return [];
    current = next;
  }
  return current;
}

/** The keys the object at `path` knows, in the schema's order (several objects of a union together). */
export function knownKeysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  const keys = new Set<string>();
  for (const candidate of schemasAt(schema, path).flatMap(alternativesOf)) {
    const definition = definitionOf(candidate);
    if (definition.type === 'object') for (const key of Object.keys(definition.shape ?? {})) keys.add(key);
  }
  return [...keys];
}

/** The keys the object at `path` cannot do without (those that are neither optional nor defaulted). */
export function requiredKeysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  const [candidate] = schemasAt(schema, path).flatMap(alternativesOf);
  const definition = candidate && definitionOf(candidate);
  if (definition?.type !== 'object') return [];
  return Object.entries(definition.shape ?? {})
    .filter(([, field]) => !isOptional(field))
    .map(([key]) => key);
}

function isOptional(schema: z.ZodType): boolean {
  return (schema as unknown as { _zod: { optin?: string } })._zod.optin === 'optional';
}

/** The description the schema gives the field at `path`, if any. */
export function descriptionAt(schema: z.ZodType, path: readonly PropertyKey[]): string | undefined {
  const [found] = schemasAt(schema, path);
  return found && unwrap(found).description;
}

/** A value written as YAML shows it, for an example: `{ street: …, city: … }`, `[…]`, `"a" | "b"`. */
export function exampleOf(schema: z.ZodType, depth = 0): string {
  const alternatives = alternativesOf(schema);
  const [first] = alternatives;
  if (!first) return '…';
  const definition = definitionOf(first);
  switch (definition.type) {
    case 'object': {
      const entries = Object.entries(definition.shape ?? {});
      if (entries.length === 0 || depth > 1) return '{ … }';
      const shown = entries
        .filter(([, field]) => !isOptional(field))
        .map(([key, field]) => `${key}: ${exampleOf(field, depth + 1)}`);
      return `{ ${(shown.length ? shown : entries.map(([key]) => `${key}: …`)).join(', ')} }`;
    }
    case 'array':
      return depth > 1 || !definition.element ? '[…]' : `[${exampleOf(definition.element, depth + 1)}]`;
    case 'record':
      return '{ <name>: … }';
    case 'enum':
      return String(Object.values(definition.entries ?? {})[0] ?? '…');
    case 'literal':
      return String(definition.values?.[0] ?? '…');
    case 'boolean':
      return 'true';
    case 'number':
    case 'int':
      return '1';
    default:
      return '…';
  }
}

/** An example of a value with a structure (an object, a list, named values, one of a set), or undefined for a plain text, number or flag. */
export function structuredExampleOf(schema: z.ZodType): string | undefined {
  const [first] = alternativesOf(schema);
  const type = first && definitionOf(first).type;
  return type === 'object' || type === 'array' || type === 'record' || type === 'enum' ? exampleOf(schema) : undefined;
}

/**
 * What the field at `path` takes, in a phrase: "an object with street, postalCode, city and country",
 * "one of "node", "netlify"", "a list", and so on; undefined when the schema says nothing useful.
 */
export function expectedAt(schema: z.ZodType, path: readonly PropertyKey[]): string | undefined {
  const [found] = schemasAt(schema, path);
  if (!found) return undefined;
  const phrases = alternativesOf(found).map(phraseOf);
  if (phrases.some((phrase) => phrase === undefined)) return undefined;
  return [...new Set(phrases)].join(' or ');
}

function phraseOf(schema: z.ZodType): string | undefined {
  const definition = definitionOf(schema);
  switch (definition.type) {
    case 'object': {
      const keys = Object.keys(definition.shape ?? {});
      return keys.length ? `an object with ${listOf(keys)}` : 'an object';
    }
    case 'array':
      return 'a list';
    case 'record':
      return 'an object of named values';
    case 'tuple':
      return 'a list';
    case 'enum':
      return `one of ${Object.values(definition.entries ?? {})
        .map((value) => JSON.stringify(value))
        .join(', ')}`;
    case 'literal':
      return (definition.values ?? []).map((value) => JSON.stringify(value)).join(' or ');
    case 'string':
      return 'a text';
    case 'number':
    case 'int':
      return 'a number';
    case 'boolean':
      return 'true or false';
    default:
      return undefined;
  }
}

/** "a, b and c". */
function listOf(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
