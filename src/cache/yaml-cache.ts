/**
 * YAML through the build cache: text that parsed without errors before comes back as its data
 * (v8-serialised, keyed by the SHA-256 of the text and the parser's version) without being parsed;
 * its positions are parsed only if a value in it turns out to be invalid.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { knownYamlSource, parseYaml } from '../yaml-source.js';
import { generatorRoot, hashParts, type DiskCache } from './disk-cache.js';

/** The signature of `parseYaml`, which loaders take to parse through a cache. */
export type ParseYaml = typeof parseYaml;

let version: string | undefined;
function yamlVersion(): string {
  try {
    version ??= (JSON.parse(readFileSync(join(generatorRoot(), 'node_modules', 'yaml', 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    version = 'unknown';
  }
  return version;
}

/** A `parseYaml` that answers from `cache` when it can and fills it when it cannot. */
export function cachedYamlParser(cache: DiskCache): ParseYaml {
  return (text, file, lineOffset = 0) => {
    const key = hashParts('yaml', yamlVersion(), text);
    const entry = cache.readSync(key);
    if (entry) {
      try {
        return { source: knownYamlSource(text, file, lineOffset, deserialize(entry)), errors: [] };
      } catch {
        // An unreadable entry is a miss.
      }
    }
    const parsed = parseYaml(text, file, lineOffset);
    if (parsed.errors.length === 0) {
      const value = parsed.source.doc.toJS();
      parsed.source.value = value;
      void cache.write(key, serialize(value));
    }
    return parsed;
  };
}
