/** Splits a Markdown file into its YAML front matter (with positions) and its body. */
import { SiteError } from '../errors.js';
import type { ParseYaml } from '../cache/yaml-cache.js';
import { parseYaml, type YamlSource } from '../yaml-source.js';

/** The parts of a Markdown file. */
export interface MarkdownFile {
  source: YamlSource;
  body: string;
  errors: SiteError[];
}

const fence = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** The YAML between two `---` lines at the top and the body after them, without parsing either. */
export function findFrontMatter(text: string): { yaml: string; body: string } | undefined {
  const match = fence.exec(text);
  return match ? { yaml: match[1]!, body: text.slice(match[0].length) } : undefined;
}

/** Reads front matter between two `---` lines at the top (with `parse`, the build's cached parser); positions stay those of the whole file. */
export function splitFrontMatter(text: string, file: string, parse: ParseYaml = parseYaml): MarkdownFile {
  const match = fence.exec(text);
  if (!match) {
    const { source } = parseYaml('{}', file);
    return {
      source,
      body: text,
      errors: [new SiteError({ code: 'FRONT_MATTER', message: 'the file has no front matter', file, line: 1, column: 1 })],
    };
  }
  const { source, errors } = parse(match[1]!, file, 1);
  return { source, body: text.slice(match[0].length), errors };
}

/** The line (1-based) of `text` on which `body`, its tail, starts. */
export function bodyStartLine(text: string, body: string): number {
  let line = 1;
  const end = text.length - body.length;
  for (let index = text.indexOf('\n'); index !== -1 && index < end; index = text.indexOf('\n', index + 1)) line++;
  return line;
}
