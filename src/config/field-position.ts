/**
 * Where a field is in the config file, for a problem found after loading (a redirect to a page the
 * routes do not make): the file is read and parsed again, which only happens on that error path.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { locate, parseYaml } from '../yaml-source.js';
import type { ResolvedConfig } from './load.js';

/** The line and column of the value at `path` in the config file; none when the file cannot be read. */
export function locateConfigField(config: Pick<ResolvedConfig, 'file'>, path: readonly PropertyKey[]): { line?: number; column?: number } {
  let text: string;
  try {
    text = readFileSync(resolve(config.file), 'utf8');
  } catch {
    return {};
  }
  return locate(parseYaml(text, config.file).source, path);
}
