import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cachedYamlParser } from '../../src/cache/yaml-cache';
import type { DiskCache } from '../../src/cache/disk-cache';
import { locate, parseYaml, positionsOf, yamlValue, type YamlSource } from '../../src/yaml-source';

const repoRoot = join(import.meta.dirname, '..', '..');

/** Every path of a value, with a few that lead nowhere beside each. */
function pathsOf(value: unknown, path: PropertyKey[] = []): PropertyKey[][] {
  const paths: PropertyKey[][] = [path, [...path, 'missing'], [...path, 99]];
  if (Array.isArray(value)) {
    value.forEach((item, index) => paths.push(...pathsOf(item, [...path, index])));
    paths.push([...path, '0']);
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) paths.push(...pathsOf(item, [...path, key]));
  }
  return paths;
}

/** A cache in memory, for the parser under test. */
function memoryCache(): DiskCache {
  const entries = new Map<string, Buffer>();
  return {
    dir: '',
    readSync: (key) => entries.get(key),
    write: async (key, data) => {
      entries.set(
        key,
        Buffer.from(typeof data === 'string' ? data : data instanceof Uint8Array ? data : Buffer.concat(data)),
      );
    },
    settled: async () => undefined,
  };
}

describe('positions of a YAML source, kept beside its data', () => {
  const samples: [string, string, number][] = [
    ['site.config.yaml', readFileSync(join(repoRoot, 'site.config.yaml'), 'utf8'), 0],
    [
      'front matter',
      'title: "A post"\ntags: [a, b]\nempty:\nlist:\n  - one\n  -\n  - { x: 1 }\n1: number key\n"1": string key\n',
      1,
    ],
  ];

  it.each(samples)('locates every field of %s as the parsed document does', (_name, text, lineOffset) => {
    const { source } = parseYaml(text, 'file.yaml', lineOffset);
    const withPositions: YamlSource = { ...source, positions: positionsOf(source) };
    for (const path of pathsOf(yamlValue(source))) {
      expect(locate(withPositions, path), JSON.stringify(path)).toEqual(locate(source, path));
      for (const key of ['title', 'missing', 'site', 'x', '1'])
        expect(locate(withPositions, path, key)).toEqual(locate(source, path, key));
    }
  });

  it('answers from the cache with the positions it kept', () => {
    const parse = cachedYamlParser(memoryCache());
    const [, text] = samples[0]!;
    const first = parse(text, 'site.config.yaml');
    const again = parse(text, 'site.config.yaml');
    expect(again.source.positions).toBeDefined();
    const origin = locate(again.source, ['site', 'origin']);
    expect(origin).toEqual(locate(first.source, ['site', 'origin']));
    expect(origin.line).toBe(text.split('\n').findIndex((line) => /^\s+origin:/.test(line)) + 1);
  });
});
