/**
 * A collection of a config by its name, looked up among the config's own keys: a name from a URL
 * or a request may be "constructor" or "__proto__", which every object answers. Pure, and apart
 * from config/load.ts so that the loader and sources.ts both use it without importing each other.
 */
export function collectionNamed<Collection>(
  config: { collections: Record<string, Collection> },
  name: string,
): Collection | undefined {
  return Object.hasOwn(config.collections, name) ? config.collections[name] : undefined;
}
