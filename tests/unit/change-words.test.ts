/** Changes in words (src/admin/change-words.ts): the values that differ, named and said as a screen words them. */
import { describe, expect, it } from 'vitest';
import { changedValues, changesInWords, lowerFirst, plainValue } from '../../src/admin/change-words';

const words = { yes: 'Yes', no: 'No', none: '(empty)' };

describe('changes in words', () => {
  it('finds the values that differ, walking a list of maps item by item and keeping a list of texts whole', () => {
    const before = { plans: [{ id: 'a', price: { amount: 1 } }, { id: 'b' }], tags: ['x'], same: 1 };
    const after = { plans: [{ id: 'a', price: { amount: 2 } }, { id: 'b' }], tags: ['x', 'y'], same: 1 };
    expect(changedValues(before, after, (path) => path.at(-1) === 'price')).toEqual([
      { path: ['plans', '0', 'price'], before: { amount: 1 }, after: { amount: 2 } },
      { path: ['tags'], before: ['x'], after: ['x', 'y'] },
    ]);
    expect(changedValues({ a: { b: 1 } }, {})).toEqual([{ path: ['a', 'b'], before: 1, after: undefined }]);
  });

  it('says plain values in the language: numbers, yes and no (an unwritten yes-or-no is no), empty, lists', () => {
    expect(plainValue(1200.5, words, 'nb')).toBe('1\u00a0200,5');
    expect(plainValue(['a', 'b'], words, 'en')).toBe('a, b');
    expect(plainValue('', words, 'en')).toBe('(empty)');
    expect(
      changesInWords({}, { highlighted: true, n: 3 }, { words, intl: 'en-GB', label: (path) => path.join(' ') }),
    ).toEqual([
      { label: 'highlighted', before: 'No', after: 'Yes' },
      { label: 'n', before: '(empty)', after: '3' },
    ]);
  });

  it('lowers the first word of a label part, unless it is a name', () => {
    expect(lowerFirst('Price')).toBe('price');
    expect(lowerFirst('E-mail address')).toBe('e-mail address');
    expect(lowerFirst('LinkedIn page')).toBe('LinkedIn page');
  });
});
