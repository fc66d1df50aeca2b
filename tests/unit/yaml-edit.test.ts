/** The one YAML editor (src/yaml-edit.ts): an edit changes only the bytes of the node it edits, and is read back. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { editYaml, writeEntry, YamlEditError } from '../../src/yaml-edit';
import { editPost, readFrontMatter } from '../../src/admin/front-matter-edit';
import { repoRoot } from '../helpers/paths';

const config = readFileSync(join(repoRoot, 'site.config.yaml'), 'utf8');
const post = readFileSync(join(repoRoot, 'content/blog/why-repair-beats-recycling/en.md'), 'utf8');

/** The one hunk in which two texts differ, by lines: its first line (1-based) and the lines taken out and put in. */
function hunk(before: string, after: string): { line: number; removed: string[]; added: string[] } {
  const [a, b] = [before.split('\n'), after.split('\n')];
  let head = 0;
  while (head < a.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  return { line: head + 1, removed: a.slice(head, a.length - tail), added: b.slice(head, b.length - tail) };
}

/** The 1-based number of the line of `text` that starts with `start`. */
function lineOf(text: string, start: string): number {
  return text.split('\n').findIndex((line) => line.startsWith(start)) + 1;
}

describe("editYaml on the repository's site.config.yaml", () => {
  it("changes one value: one hunk, that value's line, its comment kept", () => {
    const edited = editYaml(config, [{ op: 'set', path: ['site', 'timeZone'], value: 'Europe/Berlin' }]);
    expect(hunk(config, edited)).toEqual({
      line: lineOf(config, '  timeZone: Europe/Oslo  #'),
      removed: ['  timeZone: Europe/Oslo  # a post dated a day goes live at 00:00 Oslo time on that day'],
      added: ['  timeZone: Europe/Berlin  # a post dated a day goes live at 00:00 Oslo time on that day'],
    });
    expect(edited.slice(0, 300)).toBe(config.slice(0, 300));
  });

  it('keeps a quoted scalar quoted, and the rest of a flow list', () => {
    const edited = editYaml(config, [
      { op: 'set', path: ['site', 'themeColor'], value: '#112233' },
      { op: 'set', path: ['locales', 'no', 'short'], value: 'NB' },
    ]);
    expect(edited).toContain('  themeColor: "#112233"\n');
    expect(edited).toContain('    short: "NB"\n');
    expect(edited.split('\n').length).toBe(config.split('\n').length);
    expect(editYaml("a: 'it'\n", [{ op: 'set', path: ['a'], value: "it's" }])).toBe("a: 'it''s'\n");
  });

  it("adds a new key at its map's indentation, under its last key", () => {
    const edited = editYaml(config, [{ op: 'set', path: ['booking', 'url'], value: 'https://cal.example/x' }]);
    expect(hunk(config, edited)).toEqual({
      line: lineOf(config, '  days: 21') + 1,
      removed: [],
      added: ['  url: https://cal.example/x'],
    });
    const item = editYaml('plans:\n  - id: plus # the plan\n    users: 3\n', [
      { op: 'set', path: ['plans', 0, 'seats'], value: 5 },
    ]);
    expect(item).toBe('plans:\n  - id: plus # the plan\n    users: 3\n    seats: 5\n');
    // A key a YAML 1.1 reader would take for a boolean is quoted, as the file quotes "no".
    expect(editYaml('a: 1\n', [{ op: 'set', path: ['no'], value: { on: 'x' } }])).toBe('a: 1\n"no":\n  "on": x\n');
  });

  it('quotes a text that would read as another type (in YAML 1.1 too: NO), and writes several lines as a block under its key', () => {
    for (const value of ['true', '0150', 'NO', 'a: b', '# not a comment', ' lead', '[x]']) {
      const edited = editYaml('x:\n  y: plain\n', [{ op: 'set', path: ['x', 'y'], value }]);
      expect(edited).toMatch(/^x:\n {2}y: ["']/);
      expect(parse(edited)).toEqual({ x: { y: value } });
    }
    expect(editYaml('x:\n  y: plain\nz: 1\n', [{ op: 'set', path: ['x', 'y'], value: 'one\ntwo' }])).toBe(
      'x:\n  y: |-\n    one\n    two\nz: 1\n',
    );
  });

  it('deletes a key with its line, appends to and takes out of lists, and replaces a block list', () => {
    const text = 'a: 1 # one\n\n# about b\nb:\n  - x\n  - y # why\nc: [p, q]\n';
    expect(editYaml(text, [{ op: 'delete', path: ['a'] }])).toBe('\n# about b\nb:\n  - x\n  - y # why\nc: [p, q]\n');
    expect(
      editYaml(text, [
        { op: 'append', path: ['b'], value: 'z' },
        { op: 'append', path: ['c'], value: 'r, s' },
      ]),
    ).toBe('a: 1 # one\n\n# about b\nb:\n  - x\n  - y # why\n  - z\nc: [p, q, "r, s"]\n');
    expect(
      editYaml(text, [
        { op: 'remove', path: ['b'], value: 'x' },
        { op: 'delete', path: ['c', 0] },
      ]),
    ).toBe('a: 1 # one\n\n# about b\nb:\n  - y # why\nc: [q]\n');
    expect(editYaml(text, [{ op: 'set', path: ['b'], value: [{ from: '/a', to: '/b' }] }])).toBe(
      'a: 1 # one\n\n# about b\nb:\n  - from: /a\n    to: /b\nc: [p, q]\n',
    );
    expect(editYaml(text, [{ op: 'set', path: ['c'], value: ['only'] }])).toBe(
      'a: 1 # one\n\n# about b\nb:\n  - x\n  - y # why\nc: [ only ]\n',
    );
  });

  it('refuses an edit whose parent is missing', () => {
    expect(() => editYaml(config, [{ op: 'set', path: ['nowhere', 'deeper'], value: 1 }])).toThrow(YamlEditError);
  });
});

describe("editYaml on a real post's front matter", () => {
  it("changes one field: one hunk, at that field's line", () => {
    const edited = editPost(
      post,
      { ...readFrontMatter(post), author: 'Kari Nordmann' } as Record<string, string>,
      post.slice(post.indexOf('\n---\n') + 5),
    );
    expect(hunk(post, edited)).toEqual({
      line: lineOf(post, 'author:'),
      removed: ['author: Mendwise'],
      added: ['author: Kari Nordmann'],
    });
    const titled = editPost(
      post,
      { ...readFrontMatter(post), title: 'Repair first' } as Record<string, string>,
      post.slice(post.indexOf('\n---\n') + 5),
    );
    expect(hunk(post, titled).added).toEqual(['title: "Repair first"']);
  });
});

describe('the read-back check', () => {
  it('refuses an edit whose text would not read back, naming its path, and the caller writes nothing', () => {
    const folder = mkdtempSync(join(tmpdir(), 'yaml-edit-'));
    const file = join(folder, 'site.config.yaml');
    writeFileSync(file, config);
    // A stringifier that writes another value than the one given, and one whose text is not YAML.
    const wrong = { writeEntry: () => 'k: Europe/Paris' };
    const broken = { writeEntry: () => 'k: [unclosed' };
    for (const options of [wrong, broken]) {
      const save = () =>
        writeFileSync(
          file,
          editYaml(
            readFileSync(file, 'utf8'),
            [{ op: 'set', path: ['site', 'timeZone'], value: 'Europe/Berlin' }],
            options,
          ),
        );
      expect(save).toThrow(YamlEditError);
      expect(readFileSync(file, 'utf8')).toBe(config);
    }
    const error = (() => {
      try {
        editYaml(config, [{ op: 'set', path: ['site', 'timeZone'], value: 'Europe/Berlin' }], wrong);
      } catch (caught) {
        return caught as YamlEditError;
      }
    })();
    expect(error?.path).toEqual(['site', 'timeZone']);
    expect(error?.message).toMatch(/would not read back/);
  });

  it('refuses a value YAML cannot hold as it is (a Date reads back as a text), and an edit that would change another value', () => {
    expect(() => editYaml('a: 1\n', [{ op: 'set', path: ['a'], value: new Date(0) }])).toThrow(/would not read back/);
    // A writer's text that sets `a` right but adds a key no edit names.
    const extra = { writeEntry: (entry: Parameters<typeof writeEntry>[0]) => `${writeEntry(entry)}\nc: 4` };
    expect(() => editYaml('a: 1\nb: 2\n', [{ op: 'set', path: ['a'], value: 3 }], extra)).toThrow(
      /^c would not read back as it was/,
    );
    // An alias of the edited value would change with it: refused, naming the alias's key.
    expect(() =>
      editYaml('author: &a Anna\nauthorRole: *a\n', [{ op: 'set', path: ['author'], value: 'Bob' }]),
    ).toThrow(/^authorRole would not read back/);
  });
});
