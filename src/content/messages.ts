/**
 * UI messages: one YAML file per locale under content/messages/, a tree of strings.
 * Both files must have the same keys.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { ResolvedConfig } from '../config/load.js';
import { sourcesOf } from '../config/sources.js';
import type { Diagnostics } from '../diagnostics.js';
import type { ParseYaml } from '../cache/yaml-cache.js';
import { parseYaml, validateYaml, type YamlSource } from '../yaml-source.js';
import { checkParity } from './parity.js';

/** A tree of UI strings. */
export interface MessageTree {
  [key: string]: string | MessageTree;
}

const messageTree: z.ZodType<MessageTree> = z.lazy(() => z.record(z.string(), z.union([z.string(), messageTree])));

/** Loads and checks the messages of every locale; problems go to `diagnostics`, not thrown. */
export async function loadMessages(config: ResolvedConfig, diagnostics: Diagnostics, options: { parseYaml?: ParseYaml } = {}): Promise<Record<string, MessageTree>> {
  const parse = options.parseYaml ?? parseYaml;
  const sources: YamlSource[] = [];
  const messages: Record<string, MessageTree> = {};
  for (const locale of config.localeIds) {
    const path = sourcesOf(config).messages(locale);
    const file = sourcesOf(config).display(path);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch {
      diagnostics.error({ code: 'CONTENT_MISSING', message: `no messages for locale "${locale}"`, file });
      continue;
    }
    const { source, errors: syntax } = parse(text, file);
    if (syntax.length) {
      diagnostics.add(...syntax);
      continue;
    }
    const { data, errors: invalid } = validateYaml(source, messageTree, 'CONTENT_INVALID');
    diagnostics.add(...invalid);
    if (data) messages[locale] = data;
    sources.push(source);
  }
  for (const source of sources.slice(1)) checkParity(sources[0]!, source, diagnostics);
  return messages;
}

/** Looks up `a.b.c` in a message tree and fills `{name}` placeholders; undefined when missing. */
export function lookupMessage(tree: MessageTree, key: string, values?: Record<string, string | number>): string | undefined {
  let node: string | MessageTree | undefined = tree;
  for (const part of key.split('.')) {
    if (typeof node !== 'object') return undefined;
    node = node[part];
  }
  if (typeof node !== 'string') return undefined;
  return values ? fillPlaceholders(node, values) : node;
}

/** Fills the `{name}` placeholders of a message; unknown names stay as they are. */
export function fillPlaceholders(message: string, values: Record<string, string | number>): string {
  return message.replace(/\{(\w+)\}/g, (match, name: string) => (name in values ? String(values[name]) : match));
}

/**
 * The values any text of the site (a message, page copy, a post) may name as a `{name}`
 * placeholder: `{minutes}`, the length of a booked meeting (booking.minutes, on a site with `booking:`). Where a caller
 * passes a value of the same name, the caller's wins. (A post's reading time is `{readingMinutes}`, so
 * the two never meet.)
 */
export function copyValuesOf(config: Pick<ResolvedConfig, 'booking'>): Record<string, string | number> {
  return config.booking ? { minutes: config.booking.minutes } : {};
}
