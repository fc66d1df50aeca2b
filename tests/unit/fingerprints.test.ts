/**
 * The fingerprints of entry fields: a field of an entry loaded from the proof it had in the build
 * before keeps that build's fingerprint without being read; any other is taken from its value.
 */
import { describe, expect, it } from 'vitest';
import type { Entry } from '../../src/pipeline/content-api';
import { fingerprintInputs, type FingerprintInput } from '../../src/pipeline/fingerprints';

const entry = (slug: string, title: string) =>
  ({ collection: 'blog', slug, translations: { en: { locale: 'en', title } } }) as unknown as Entry;

function inputOf(entries: Entry[], entryProofs?: Map<string, string>): FingerprintInput {
  return {
    config: { root: '/project' },
    entries: new Map(entries.map((one) => [`blog/${one.slug}`, one])),
    entryList: entries,
    messages: {},
    contents: new Map(),
    ...(entryProofs ? { entryProofs } : {}),
  } as unknown as FingerprintInput;
}

describe('fingerprintInputs', () => {
  const keys = ['entry:blog/a:en ["title"]', 'entry:blog/b:en ["title"]'];

  it('keeps the earlier fingerprint of a field of an entry with the same proof, and reads the others', () => {
    const input = inputOf(
      [entry('a', 'Alpha'), entry('b', 'Beta, edited')],
      new Map([
        ['blog/a', 'p1'],
        ['blog/b', 'p2-new'],
      ]),
    );
    const earlier = {
      prints: ['kept-print', 'old-print'],
      pagesUnchanged: true,
      entryProofs: new Map([
        ['blog/a', 'p1'],
        ['blog/b', 'p2'],
      ]),
    };
    expect(fingerprintInputs(input, keys, earlier)).toEqual(['kept-print', '"Beta, edited"']);
  });

  it('reads every field when either build has no proofs', () => {
    const withProofs = inputOf(
      [entry('a', 'Alpha'), entry('b', 'Beta')],
      new Map([
        ['blog/a', 'p1'],
        ['blog/b', 'p2'],
      ]),
    );
    const without = inputOf([entry('a', 'Alpha'), entry('b', 'Beta')]);
    const prints = ['x', 'y'];
    expect(fingerprintInputs(withProofs, keys, { prints, pagesUnchanged: true })).toEqual(['"Alpha"', '"Beta"']);
    expect(
      fingerprintInputs(without, keys, { prints, pagesUnchanged: true, entryProofs: new Map([['blog/a', 'p1']]) }),
    ).toEqual(['"Alpha"', '"Beta"']);
  });
});
