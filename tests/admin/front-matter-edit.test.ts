/** Front-matter edits keep every byte the edit does not touch. */
import { describe, expect, it } from 'vitest';
import {
  checkReadBack,
  createPostText,
  editPost,
  FrontMatterEditError,
  readFrontMatter,
} from '../../src/admin/front-matter-edit';

const original = [
  '---',
  '# Reviewed by legal on 2026-03-01: keep the wording.',
  "title: 'Why repair beats recycling'",
  'description: "How repair keeps garments in use"   # shown in lists',
  'date: 2026-03-18',
  '',
  'category: circularity',
  'author: Kari Nordmann',
  'draft: false',
  '---',
  '',
  'The body.',
  '',
].join('\n');

describe('editPost', () => {
  it('changes one value in its quoting style and keeps every other byte', () => {
    const data = { ...readFrontMatter(original), title: 'Why repair beats recycling, every time' } as Record<
      string,
      string
    >;
    const edited = editPost(original, data, '\nThe body.\n');
    expect(edited).toBe(
      original.replace("title: 'Why repair beats recycling'", "title: 'Why repair beats recycling, every time'"),
    );
  });

  it('keeps a trailing comment after a changed value, and the blank line', () => {
    const data = { ...readFrontMatter(original), description: 'A new "quoted" description' } as Record<string, string>;
    const edited = editPost(original, data, '\nThe body.\n');
    expect(edited).toBe(
      original.replace(
        'description: "How repair keeps garments in use"   # shown in lists',
        'description: "A new \\"quoted\\" description"   # shown in lists',
      ),
    );
    expect(readFrontMatter(edited).description).toBe('A new "quoted" description');
  });

  it("removes a key's line, appends a new key, replaces the body, and reads back as the data given", () => {
    const { draft: _draft, ...rest } = readFrontMatter(original);
    const data = { ...rest, updated: '2026-04-01', author: 'Ola: Nordmann' } as Record<string, string>;
    const edited = editPost(original, data, '\nA new body.\n');
    expect(edited).toBe(
      [
        '---',
        '# Reviewed by legal on 2026-03-01: keep the wording.',
        "title: 'Why repair beats recycling'",
        'description: "How repair keeps garments in use"   # shown in lists',
        'date: 2026-03-18',
        '',
        'category: circularity',
        'author: "Ola: Nordmann"',
        'updated: 2026-04-01',
        '---',
        '',
        'A new body.',
        '',
      ].join('\n'),
    );
    expect(readFrontMatter(edited)).toEqual(data);
  });

  it('keeps CRLF line endings of untouched lines', () => {
    const crlf = original.replaceAll('\n', '\r\n');
    const data = { ...readFrontMatter(crlf), category: 'saas' } as Record<string, string>;
    const edited = editPost(crlf, data, '\r\nThe body.\r\n');
    expect(edited).toBe(crlf.replace('category: circularity', 'category: saas'));
  });

  it('writes booleans and numbers as YAML scalars, and new posts field by field', () => {
    const data = { ...readFrontMatter(original), draft: true } as Record<string, string | boolean>;
    expect(editPost(original, data, '\nThe body.\n')).toBe(original.replace('draft: false', 'draft: true'));
    const text = createPostText({ title: 'Yes', description: '123', date: '2026-01-02', draft: false }, 'Body\n');
    expect(readFrontMatter(text)).toEqual({ title: 'Yes', description: '123', date: '2026-01-02', draft: false });
  });

  // Issue 46: a block scalar's range ends after its line break, so a value written over it took
  // the next field onto its own line (`author: "---authorRole: Writer"`, authorRole gone).
  it('replaces a block scalar up to its last line, keeping the next field, whatever the new value', () => {
    const blocks = [
      'author: |\n  Anna\n  Berg',
      'author: >-\n  Anna\n\n',
      'author: |\n  Anna\n  # part of the text\n# a comment',
    ];
    for (const block of blocks) {
      const text = `---\ntitle: T\n${block}\nauthorRole: Writer\n---\nBody\n`;
      for (const author of ['---', 'Bob', 'two\nlines', 'x: y']) {
        const edited = editPost(text, { ...readFrontMatter(text), author } as Record<string, string>, 'Body\n');
        expect(readFrontMatter(edited), `${JSON.stringify(block)} <- ${JSON.stringify(author)}`).toEqual({
          title: 'T',
          author,
          authorRole: 'Writer',
        });
      }
    }
    const text = `---\ntitle: T\n${blocks[2]}\nauthorRole: Writer\n---\nBody\n`;
    expect(editPost(text, { title: 'T', author: 'Bob', authorRole: 'Writer' }, 'Body\n')).toBe(
      '---\ntitle: T\nauthor: Bob\n# a comment\nauthorRole: Writer\n---\nBody\n',
    );
  });

  it('writes a value of several lines as a block indented under its key, in place and as a new field', () => {
    const edited = editPost(
      original,
      { ...readFrontMatter(original), description: 'Line one\n---\nLine three', summary: 'a\nb' } as Record<
        string,
        string
      >,
      '\nThe body.\n',
    );
    expect(readFrontMatter(edited)).toMatchObject({
      description: 'Line one\n---\nLine three',
      summary: 'a\nb',
      category: 'circularity',
    });
    // An indented front matter keeps its indentation under the key.
    const indented = '---\n  title: T\n  author: Anna\n---\nBody\n';
    expect(readFrontMatter(editPost(indented, { title: 'T', author: 'two\nlines' }, 'Body\n'))).toEqual({
      title: 'T',
      author: 'two\nlines',
    });
    expect(readFrontMatter(createPostText({ title: 'T', description: 'a\n---\nb' }, 'Body\n'))).toEqual({
      title: 'T',
      description: 'a\n---\nb',
    });
  });

  it('reads the written text back and refuses one that would not hold the data given, naming the field', () => {
    const glued = '---\ntitle: T\nauthor: |-\n  ---authorRole: Writer\n---\nBody\n';
    const error = (() => {
      try {
        checkReadBack(glued, { title: 'T', author: '---', authorRole: 'Writer' }, 'Body\n');
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(FrontMatterEditError);
    expect((error as FrontMatterEditError).field).toBe('author');
    expect((error as Error).message).toMatch(/would not read back/);
    expect(() => checkReadBack('---\ntitle: T\n---\nOther\n', { title: 'T' }, 'Body\n')).toThrow(/body/);
    expect(() =>
      checkReadBack(
        '---\ntitle: T\nauthor: Bob\n---\nBody\n',
        { title: 'T', author: 'Bob', draft: undefined },
        'Body\n',
      ),
    ).not.toThrow();
  });
});
