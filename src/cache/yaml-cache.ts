/**
 * YAML through the build cache: text that parsed without errors before comes back as its data
 * (v8-serialised, keyed by the SHA-256 of the text and the parser's version) without being parsed;
 * with the positions of its nodes, so a message at a field (an invalid value, a placeholder) needs
 * no parse either.
 */
import { deserialize, serialize } from 'node:v8';
import { knownYamlSource, parseYaml, positionsOf, type YamlPositions } from '../yaml-source.js';
import { hashParts, installedVersion, type DiskCache } from './disk-cache.js';

/** The signature of `parseYaml`, which loaders take to parse through a cache. */
export type ParseYaml = typeof parseYaml;

/** A `parseYaml` that answers from `cache` when it can and fills it when it cannot. */
export function cachedYamlParser(cache: DiskCache): ParseYaml {
  return (text, file, lineOffset = 0) => {
    const key = hashParts('yaml with positions', installedVersion('yaml'), text);
    const entry = cache.readSync(key);
    if (entry) {
      try {
        const { value, positions } = deserialize(entry) as { value: unknown; positions: YamlPositions };
        return { source: knownYamlSource(text, file, lineOffset, value, positions), errors: [] };
      } catch {
        // An unreadable entry is a miss.
      }
    }
    const parsed = parseYaml(text, file, lineOffset);
    if (parsed.errors.length === 0) {
      const value = parsed.source.doc.toJS();
      parsed.source.value = value;
      void cache.write(key, serialize({ value, positions: positionsOf(parsed.source) }));
    }
    return parsed;
  };
}
