/** Front-matter edits keep every byte the edit does not touch. */
import { describe, expect, it } from 'vitest';
import { createPostText, editPost, readFrontMatter } from '../../src/admin/front-matter-edit';

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
    const data = { ...readFrontMatter(original), title: "Why repair beats recycling, every time" } as Record<string, string>;
    const edited = editPost(original, data, '\nThe body.\n');
    expect(edited).toBe(original.replace("title: 'Why repair beats recycling'", "title: 'Why repair beats recycling, every time'"));
  });

  it('keeps a trailing comment after a changed value, and the blank line', () => {
    const data = { ...readFrontMatter(original), description: 'A new "quoted" description' } as Record<string, string>;
    const edited = editPost(original, data, '\nThe body.\n');
    expect(edited).toBe(original.replace('description: "How repair keeps garments in use"   # shown in lists', 'description: "A new \\"quoted\\" description"   # shown in lists'));
    expect(readFrontMatter(edited).description).toBe('A new "quoted" description');
  });

  it('removes a key\'s line, appends a new key, replaces the body, and reads back as the data given', () => {
    const { draft: _draft, ...rest } = readFrontMatter(original);
    const data = { ...rest, updated: '2026-04-01', author: 'Ola: Nordmann' } as Record<string, string>;
    const edited = editPost(original, data, '\nA new body.\n');
    expect(edited).toBe([
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
    ].join('\n'));
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
});
