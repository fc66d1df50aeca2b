/**
 * The yaml package, loaded on its first use (lazy-package.ts) rather than with lib/index.js: a
 * build whose YAML all comes from the build cache (data and positions, cache/yaml-cache.ts) never
 * loads it. Its 74 modules took about 15 ms of every start. These are the package's own functions
 * under their own names; its types are imported from 'yaml' as types.
 */
import type * as Yaml from 'yaml';
import { lazyPackage } from './lazy-package.js';

const yaml = lazyPackage<typeof Yaml>('yaml');

export const parse = ((...args: Parameters<typeof Yaml.parse>) => yaml().parse(...args)) as typeof Yaml.parse;
export const stringify = ((...args: Parameters<typeof Yaml.stringify>) =>
  yaml().stringify(...args)) as typeof Yaml.stringify;
export const parseDocument = ((...args: Parameters<typeof Yaml.parseDocument>) =>
  yaml().parseDocument(...args)) as typeof Yaml.parseDocument;
export const isMap = ((node: unknown) => yaml().isMap(node)) as typeof Yaml.isMap;
export const isSeq = ((node: unknown) => yaml().isSeq(node)) as typeof Yaml.isSeq;
export const isScalar = ((node: unknown) => yaml().isScalar(node)) as typeof Yaml.isScalar;
export const isPair = ((node: unknown) => yaml().isPair(node)) as typeof Yaml.isPair;
/** A new line counter (yaml's `LineCounter`), for `parseDocument`'s positions. */
export const lineCounter = (): Yaml.LineCounter => new (yaml().LineCounter)();
/** yaml's `Scalar` class, for its string types (`Scalar.QUOTE_DOUBLE`). */
export const scalarClass = (): typeof Yaml.Scalar => yaml().Scalar;
/** yaml's `Document` class, for a value stringified as the package writes it (yaml-edit.ts). */
export const documentClass = (): typeof Yaml.Document => yaml().Document;
