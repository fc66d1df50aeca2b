/**
 * entry-html.ts: a translation whose HTML is in the spill or in its snapshot's bytes reads it back
 * when asked, looks like the translation it was (its keys in order, its JSON, a spread of it), takes
 * a new value, and stays an object of a shape V8 shares between translations: `html` redefined on
 * the translation itself made each a dictionary, about 0.9 KB more for every translation of a build.
 */
import { setFlagsFromString } from 'node:v8';
import { afterEach, describe, expect, it } from 'vitest';
import type { EntryTranslation, LoadedEntry } from '../../src/content/collections';
import { highlightedMark } from '../../src/content/highlight';
import { loadedEntryOf, spillEntryHtml, storedEntry, translationHasCode } from '../../src/pipeline/entry-html';
import { openSpill, type Spill } from '../../src/spill';

// V8's own answers, from functions compiled once the flag is set.
setFlagsFromString('--allow-natives-syntax');
const hasFastProperties = new Function('object', 'return %HasFastProperties(object)') as (object: object) => boolean;
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;

function translation(locale: string, html: string): EntryTranslation {
  return {
    title: `A post in ${locale}`,
    description: 'What it is about.',
    date: '2026-01-01',
    draft: false,
    locale,
    file: `content/blog/a-post/${locale}.md`,
    fields: {},
    html,
    words: 120,
    readingMinutes: 1,
  } as unknown as EntryTranslation;
}

function loaded(slug: string, html: Record<string, string>): LoadedEntry {
  return {
    entry: {
      collection: 'blog',
      slug,
      translations: Object.fromEntries(
        Object.entries(html).map(([locale, text]) => [locale, translation(locale, text)]),
      ),
    },
    scheduled: [],
  };
}

const longHtml = (words: string) => `<p>${words.repeat(200)}</p>`;
const codeHtml = `${highlightedMark} tabindex="0"><code><span class="line">const a = 1;</span></code></pre>`;

describe('a translation whose HTML is read when asked', () => {
  let spill: Spill | undefined;
  afterEach(() => spill?.close());

  it('reads the HTML back from the spill and looks like the translation it was', () => {
    spill = openSpill();
    const original = loaded('a-post', { en: longHtml('Repair beats recycling. '), no: longHtml('Reparasjon. ') });
    const expected = JSON.parse(JSON.stringify(original)) as LoadedEntry;
    const spilled = spillEntryHtml(original, spill);
    const en = spilled.entry!.translations.en!;
    expect(en.html).toBe(longHtml('Repair beats recycling. '));
    expect(spilled.entry!.translations.no!.html).toBe(longHtml('Reparasjon. '));
    expect(Object.keys(en)).toEqual(Object.keys(expected.entry!.translations.en!));
    expect(JSON.parse(JSON.stringify(spilled))).toEqual(expected);
    expect({ ...en }).toEqual(expected.entry!.translations.en);
  });

  it('takes a new HTML, and says whether that has highlighted code', () => {
    spill = openSpill();
    const en = spillEntryHtml(loaded('a-post', { en: longHtml('Plain. ') }), spill).entry!.translations.en!;
    expect(translationHasCode(en)).toBe(false);
    en.html = codeHtml;
    expect(en.html).toBe(codeHtml);
    expect(translationHasCode(en)).toBe(true);
  });

  it('reads the HTML of a kept entry from its snapshot bytes, with whether it has code', () => {
    const kept = loadedEntryOf(storedEntry(loaded('a-post', { en: codeHtml, no: longHtml('Tekst. ') })));
    expect(kept.entry!.translations.en!.html).toBe(codeHtml);
    expect(translationHasCode(kept.entry!.translations.en!)).toBe(true);
    expect(kept.entry!.translations.no!.html).toBe(longHtml('Tekst. '));
    expect(translationHasCode(kept.entry!.translations.no!)).toBe(false);
  });

  it('keeps every translation an object of a shape V8 shares, whichever way it was made', () => {
    spill = openSpill();
    const made = [
      ...Array.from({ length: 50 }, (_, index) =>
        spillEntryHtml(loaded(`post-${index}`, { en: longHtml(`Post ${index}. `) }), spill!),
      ),
      ...Array.from({ length: 50 }, (_, index) =>
        loadedEntryOf(storedEntry(loaded(`kept-${index}`, { en: longHtml(`Kept ${index}. `) }))),
      ),
    ].map((entry) => entry.entry!.translations.en!);
    expect(made.every((one) => hasFastProperties(one))).toBe(true);
    expect(made.every((one) => haveSameMap(one, made[0]!))).toBe(true);
  });
});
