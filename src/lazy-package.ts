/**
 * Packages loaded on their first use instead of at start-up. Every static import of a package is
 * loaded with lib/index.js by every command, whether it needs it or not: React and
 * react-dom/server (about 60 ms) serve only a page that is rendered, chokidar only `site dev`, diff
 * only the admin's history. A `site build` with nothing changed renders no page, and loads none
 * of them. They are CommonJS packages, so a synchronous require gives the same instance as an import.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** A getter of the package `name` (resolved from this file's folder), loaded on the first call. */
export function lazyPackage<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(name) as T);
}
