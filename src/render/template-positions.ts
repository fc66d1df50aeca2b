/**
 * Where in a site's templates a problem found while rendering comes from, for errors that name a
 * line rather than only a template: the frame of the bundled templates a template's throw passed
 * through, mapped back to its `.tsx` by the bundle's source map; and the `<Island name="…">` of an
 * island that does not exist. Read only when there is a problem to report.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nearest } from '../did-you-mean.js';
import { SiteError } from '../errors.js';

/** A position in a source file, the file absolute; lines and columns from 1. */
export interface TemplatePosition {
  file: string;
  line: number;
  column: number;
}

/** What marks the bundled templates' module in a stack (render/templates.ts names it so). */
const bundleFrame = /(file:\/\/[^\s()]*\/templates-[0-9a-f]{16}\.mjs):(\d+):(\d+)/g;

const maps = new Map<string, SourceMap | undefined>();

/** The source map inline at the end of the bundle, or undefined. */
function sourceMapOf(url: string): SourceMap | undefined {
  if (maps.has(url)) return maps.get(url);
  let map: SourceMap | undefined;
  try {
    const code = readFileSync(fileURLToPath(url), 'utf8');
    const marker = '//# sourceMappingURL=data:application/json;base64,';
    const at = code.lastIndexOf(marker);
    if (at !== -1)
      map = new SourceMap(JSON.parse(Buffer.from(code.slice(at + marker.length).trim(), 'base64').toString('utf8')));
  } catch {
    map = undefined;
  }
  maps.set(url, map);
  return map;
}

/**
 * The position in a site's own template (a file under `templatesDir`) of the innermost frame of
 * `error`'s stack that ran template code, or undefined (no stack, or only the engine's code).
 * The bundle's map names its sources relative to `workingDir`, the folder it was built from.
 */
export function templatePositionOf(
  error: unknown,
  templatesDir: string,
  workingDir: string = process.cwd(),
): TemplatePosition | undefined {
  const stack = error instanceof Error ? error.stack : undefined;
  if (!stack) return undefined;
  for (const [, url, line, column] of stack.matchAll(bundleFrame)) {
    const entry = sourceMapOf(url!)?.findEntry(Number(line) - 1, Number(column) - 1);
    if (!entry || !('originalSource' in entry) || !entry.originalSource) continue;
    const source = entry.originalSource.startsWith('file://')
      ? fileURLToPath(entry.originalSource)
      : resolve(workingDir, entry.originalSource);
    if (!source.startsWith(templatesDir + '/') && !source.startsWith(`${templatesDir}\\`)) continue;
    return { file: source, line: entry.originalLine + 1, column: entry.originalColumn + 1 };
  }
  return undefined;
}

/**
 * `error`'s stack with each frame of the bundled templates shown at its source (`file:line:col`
 * of the .tsx, or the engine module it came from), for `--verbose`: the bundle is a file of the
 * build cache that no one edits.
 */
export function mapTemplateStack(error: Error, workingDir: string = process.cwd()): void {
  const stack = error.stack;
  if (!stack?.includes('/templates-')) return;
  error.stack = stack.replace(bundleFrame, (frame, url: string, line: string, column: string) => {
    const entry = sourceMapOf(url)?.findEntry(Number(line) - 1, Number(column) - 1);
    if (!entry || !('originalSource' in entry) || !entry.originalSource) return frame;
    const source = entry.originalSource.startsWith('file://')
      ? fileURLToPath(entry.originalSource)
      : resolve(workingDir, entry.originalSource);
    return `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  });
}

/** Every .tsx and .ts file under a folder, sorted, so the first use found is always the same one. */
function sourceFiles(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir, { recursive: true, encoding: 'utf8' });
  } catch {
    return [];
  }
  return names
    .filter((name) => /\.tsx?$/.test(name) && !name.split(/[\\/]/).includes('node_modules'))
    .sort()
    .map((name) => join(dir, name));
}

/** Where a template gives an island the name `name` (`<Island name="Countr"`), or undefined (a name made at run time). */
export function islandUseOf(name: string, templatesDir: string): TemplatePosition | undefined {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const use = new RegExp(`\\bname=\\{?\\s*(["'\`])${escaped}\\1`);
  for (const file of sourceFiles(templatesDir)) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const match = use.exec(text);
    if (!match) continue;
    const before = text.slice(0, match.index).split('\n');
    return { file, line: before.length, column: before.at(-1)!.length + 1 };
  }
  return undefined;
}

/**
 * The error of a page that marks an island no bundle hydrates (`<Island name="Countr">` with no
 * templates/islands/Countr.tsx): at the template line that names it when one does, else at the
 * page's template; with the nearest known name.
 */
export function unknownIslandError(
  name: string,
  known: readonly string[],
  options: { templatesDir: string; islandsDir: string; template: string; url: string; display(path: string): string },
): SiteError {
  const use = islandUseOf(name, options.templatesDir);
  const closest = nearest(name, [...known].sort());
  return new SiteError({
    code: 'UNKNOWN_ISLAND',
    message: `${options.url} marks an island "${name}", and there is no ${options.display(join(options.islandsDir, `${name}.tsx`))}${closest === undefined ? '' : `: did you mean "${closest}"?`}`,
    file: options.display(use?.file ?? options.template),
    line: use?.line,
    column: use?.column,
    hint: known.length
      ? `Name one of the islands there are (${[...known].sort().join(', ')}), or add templates/islands/${name}.tsx with the component as its default export.`
      : `Add templates/islands/${name}.tsx with the component as its default export; the site has no islands yet.`,
  });
}
