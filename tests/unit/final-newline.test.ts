/**
 * Issue 53: what the admin writes ends with a newline (every admin commit showed "No newline at end
 * of file"), and the text still reads back as the body given, the newline added.
 */
import { describe, expect, it } from 'vitest';
import { createPostText, editPost, splitPost } from '../../src/admin/front-matter-edit';
import { withFinalNewline } from '../../src/admin/final-newline';

describe('the final newline of what the admin writes', () => {
  it('adds one line break to a text without one, and leaves an empty text or one that has it as it is', () => {
    expect(withFinalNewline('a: 1')).toBe('a: 1\n');
    expect(withFinalNewline('a: 1\n')).toBe('a: 1\n');
    expect(withFinalNewline('')).toBe('');
  });

  it('ends a new post and an edited post with a newline, whatever the body given ends with', () => {
    const data = { title: 'Hello', date: '2026-01-02' };
    expect(createPostText(data, 'Body text.')).toBe('---\ntitle: Hello\ndate: 2026-01-02\n---\nBody text.\n');
    const before = '---\ntitle: Hello\ndate: 2026-01-02\n---\nOld body.';
    const edited = editPost(before, { ...data, title: 'Hi' }, 'New body.');
    expect(edited).toBe('---\ntitle: Hi\ndate: 2026-01-02\n---\nNew body.\n');
    expect(splitPost(edited).body).toBe('New body.\n');
    expect(editPost(edited, { ...data, title: 'Hi' }, 'New body.\n')).toBe(edited);
  });
});
