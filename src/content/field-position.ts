/**
 * Where a field is in a content file, for a diagnostic raised after loading (a template that
 * refuses the copy it renders): the file is read and parsed again, which only happens on that
 * error path. Page copy is YAML, or the front matter of a Markdown file of the same name.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseYaml, locate } from '../yaml-source.js';
import { findFrontMatter } from './front-matter.js';

/** Splits `hero.items[2].title` into `['hero', 'items', 2, 'title']`. */
export function parseFieldPath(field: string): (string | number)[] {
  return [...field.matchAll(/\[(\d+)\]|[^.[\]]+/g)].map((match) => (match[1] === undefined ? match[0] : Number(match[1])));
}

/**
 * The file (`.md` in place of a `.yaml` that does not exist), line and column of `field` in a
 * content file (or in `unsaved`, its text not written yet); the nearest enclosing field that exists
 * when it does not; no line when the file cannot be read.
 */
export function locateContentField(file: string, field: string | undefined, unsaved?: string): { file: string; line?: number; column?: number } {
  const candidates = file.endsWith('.yaml') && unsaved === undefined ? [file, file.replace(/\.yaml$/, '.md')] : [file];
  for (const candidate of candidates) {
    let text: string;
    try {
      text = unsaved ?? readFileSync(resolve(candidate), 'utf8');
    } catch {
      continue;
    }
    if (field === undefined) return { file: candidate, line: 1, column: 1 };
    const front = candidate.endsWith('.md') ? findFrontMatter(text) : undefined;
    const { source } = front ? parseYaml(front.yaml, candidate, 1) : parseYaml(text, candidate);
    return { file: candidate, ...locate(source, parseFieldPath(field)) };
  }
  return { file };
}
