/** Templates reach the generator through the package's own name (package.json `exports`), never its folders. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { escapeHtml, faqPage } from 'typed-site/template';
import { faqPage as faqPageSource } from '../../src/render/json-ld';
import { escapeHtml as escapeHtmlSource } from '../../src/render/html';
import { repoRoot } from '../helpers/paths';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : /\.tsx?$/.test(entry.name)
        ? [join(dir, entry.name)]
        : [],
  );
}

describe('the template entry', () => {
  it('is what templates import from the generator: no path into src/', () => {
    const files = ['templates', 'bench/fixture/templates'].flatMap((dir) => sourceFiles(join(repoRoot, dir)));
    expect(files.length).toBeGreaterThan(30);
    const intoSource = files.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/from '([^']*\/src\/[^']*)'/g)].map(
        (match) => `${relative(repoRoot, file)}: ${match[1]}`,
      ),
    );
    expect(intoSource).toEqual([]);
  });

  it('resolves, in the tests as in the build, to the generator’s own modules', () => {
    expect(escapeHtml).toBe(escapeHtmlSource);
    expect(faqPage).toBe(faqPageSource);
  });
});
