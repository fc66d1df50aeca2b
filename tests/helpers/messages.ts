/** The site's messages as the pages show them, for tests of any project (no browser here). */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config/load';
import { copyValuesOf, fillPlaceholders } from '../../src/content/messages';
import { repoRoot } from './paths';

/** A YAML file of the repository, parsed. */
export async function readYaml<T = Record<string, unknown>>(relativePath: string): Promise<T> {
  return parse(await readFile(join(repoRoot, relativePath), 'utf8')) as T;
}

/** Nested messages of one locale (content/messages/<locale>.yaml). */
export type Messages = { [key: string]: string | Messages };

/** The messages of a locale, with a typed lookup by dotted key. */
export async function loadMessages(locale: string): Promise<(key: string) => string> {
  const [tree, config] = await Promise.all([
    readYaml<Messages>(`content/messages/${locale}.yaml`),
    loadConfig(join(repoRoot, 'site.config.yaml')),
  ]);
  // As the pages show it: the site's own placeholders (`{minutes}`) filled from the config.
  const values = copyValuesOf(config);
  return (key) => {
    let node: string | Messages | undefined = tree;
    for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
    if (typeof node !== 'string') throw new Error(`no message "${key}" in content/messages/${locale}.yaml`);
    return fillPlaceholders(node, values);
  };
}
