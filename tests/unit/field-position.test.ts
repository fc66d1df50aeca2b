import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { locateContentField, parseFieldPath } from '../../src/content/field-position';

const dir = mkdtempSync(join(tmpdir(), 'field-position-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the position of a field in a content file', () => {
  it('parses dotted paths with list indexes', () => {
    expect(parseFieldPath('hero.items[2].title')).toEqual(['hero', 'items', 2, 'title']);
    expect(parseFieldPath('title')).toEqual(['title']);
  });

  it('finds the value of a field of YAML copy, or the nearest enclosing field that exists', () => {
    const file = join(dir, 'en.yaml');
    writeFileSync(file, 'title: A\nhero:\n  items:\n    - title: one\n    - title: two\n');
    expect(locateContentField(file, 'hero.items[1].title')).toEqual({ file, line: 5, column: 14 });
    expect(locateContentField(file, 'hero.image')).toEqual({ file, line: 3, column: 3 });
  });

  it('reads the front matter of the Markdown file when the .yaml one does not exist, with the lines of the whole file', () => {
    const markdown = join(dir, 'no.md');
    writeFileSync(markdown, '---\ntitle: B\nimage: x.png\n---\n\nBody\n');
    expect(locateContentField(join(dir, 'no.yaml'), 'image')).toEqual({ file: markdown, line: 3, column: 8 });
  });

  it('gives no line for a file that cannot be read', () => {
    expect(locateContentField(join(dir, 'missing.yaml'), 'title')).toEqual({ file: join(dir, 'missing.yaml') });
  });
});
