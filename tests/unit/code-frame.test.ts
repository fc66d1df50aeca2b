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
