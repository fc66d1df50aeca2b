/**
 * YAML through the build cache: text that parsed without errors before comes back as its data
 * (v8-serialised, keyed by the SHA-256 of the text and the parser's version) without being parsed;
 * its positions are parsed only if a value in it turns out to be invalid.
 */
import { deserialize, serialize } from 'node:v8';
import { knownYamlSource, parseYaml } from '../yaml-source.js';
import { hashParts, installedVersion, type DiskCache } from './disk-cache.js';

/** The signature of `parseYaml`, which loaders take to parse through a cache. */
export type ParseYaml = typeof parseYaml;

/** A `parseYaml` that answers from `cache` when it can and fills it when it cannot. */
export function cachedYamlParser(cache: DiskCache): ParseYaml {
  return (text, file, lineOffset = 0) => {
    const key = hashParts('yaml', installedVersion('yaml'), text);
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
