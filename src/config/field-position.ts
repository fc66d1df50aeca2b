/**
 * Where a field is in the config file, for a problem found after loading (a redirect to a page the
 * routes do not make): the file is read and parsed again, which only happens on that error path.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { locate, parseYaml } from '../yaml-source.js';
import type { ResolvedConfig } from './load.js';
import { writtenRouteField } from './localized-paths.js';

/**
 * The line and column of the value at `path` in the config file, and that path as the file writes
 * it (a route's localized path may sit in its `path:` map, not under `paths:`); none when the file
 * cannot be read.
 */
export function locateConfigField(
  config: Pick<ResolvedConfig, 'file'>,
  path: readonly (string | number)[],
): { line?: number; column?: number; written?: (string | number)[] } {
  let text: string;
  try {
    text = readFileSync(resolve(config.file), 'utf8');
  } catch {
    return {};
  }
  const { source } = parseYaml(text, config.file);
  const written = writtenRouteField(source, path);
  return { ...locate(source, written), written };
}
