import { describe, expect, it } from 'vitest';
import { formatCodeFrame } from '../../src/code-frame';

describe('code frame', () => {
  it('shows the lines around the error with a caret under the column', () => {
    const text = 'a: 1\nb: 2\nc: [3\nd: 4\ne: 5\n';
    expect(formatCodeFrame(text, 3, 4)).toBe(
      ['  1 | a: 1', '  2 | b: 2', '> 3 | c: [3', '    |    ^', '  4 | d: 4'].join('\n'),
    );
  });
});

describe('code frame of a long line (issue 53)', () => {
  const long = `${'x'.repeat(400)}ERROR${'y'.repeat(400)}`;
  const text = ['title: short', `body: ${'z'.repeat(300)}`, long, 'end: 1'].join('\n');
  const frame = formatCodeFrame(text, 3, 401);
  const lines = frame.split('\n');

  it('cuts the line around the column, so nothing scrolls sideways, with the caret under the column', () => {
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(130);
    const at = lines.findIndex((line) => line.startsWith('> 3 | '));
    expect(lines[at]).toContain('ERROR');
    expect(lines[at]!.startsWith('> 3 | …')).toBe(true);
    expect(lines[at]!.endsWith('…')).toBe(true);
    expect(lines[at + 1]!.indexOf('^')).toBe(lines[at]!.indexOf('ERROR'));
  });

  it('shows its context lines, a short one whole and a long one as far as it fits, never blank', () => {
    expect(lines[0]).toBe('  1 | title: short');
    expect(lines[1]).toMatch(/^ {2}2 \| …z{50,}$/);
    expect(lines.at(-1)).toBe('  4 | end: 1');
  });
});
