/**
 * An entry folder as its snapshot keeps it (entry-snapshots.ts): each translation's HTML apart, as
 * UTF-8 bytes, turned back into text when something reads it. A build with nothing changed reads
 * the HTML of a few entries (the feeds' newest posts) and of no page: of the 1000-post bench corpus,
 * its 1000 snapshots were 15.6 MB (V8 writes a string built from two-byte pieces at two bytes a
 * character, though the HTML is ASCII) and their HTML four fifths of the time taken to read them back.
 */
import { hasHighlightedCode } from '../content/highlight.js';
import type { EntryTranslation, LoadedEntry } from '../content/collections.js';
import type { Spill } from '../spill.js';

/** A loaded entry folder without its HTML, and the HTML of its translations (in their order), with whether each has highlighted code. */
export interface StoredEntry {
  loaded: LoadedEntry;
  html: Uint8Array[];
  code: boolean[];
}

/** Whether a translation's HTML is known to have highlighted code, for those whose HTML is read on first use. */
const codeOf = new WeakMap<EntryTranslation, boolean>();

/** What a snapshot keeps of `loaded`. */
export function storedEntry(loaded: LoadedEntry): StoredEntry {
  const { entry } = loaded;
  if (!entry) return { loaded, html: [], code: [] };
  const translations = Object.entries(entry.translations);
  return {
    loaded: {
      ...loaded,
      entry: {
        ...entry,
        translations: Object.fromEntries(
          translations.map(([locale, translation]) => [locale, { ...translation, html: '' }]),
        ),
      },
    },
    html: translations.map(([, translation]) => Buffer.from(translation.html)),
    code: translations.map(([, translation]) => hasHighlightedCode(translation.html)),
  };
}

/** The entry folder `stored` keeps; each translation's HTML is read from its bytes on first use. */
export function loadedEntryOf({ loaded, html, code }: StoredEntry): LoadedEntry {
  const translations = loaded.entry?.translations ?? {};
  Object.entries(translations).forEach(([locale, translation], index) => {
    const bytes = html[index]!;
    let text: string | undefined;
    translations[locale] = withHtmlWhenAsked(
      translation,
      () => (text ??= Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')),
      code[index]!,
    );
  });
  return loaded;
}

/** Where a translation made by `withHtmlWhenAsked` keeps how to read its HTML, and the HTML once set. */
const htmlSource = Symbol('htmlSource');

interface HtmlSource {
  read: () => string;
  value?: string;
}

type TranslationWithSource = EntryTranslation & { [htmlSource]: HtmlSource };

/** The `html` of every translation made by `withHtmlWhenAsked`: one getter and setter for all. */
const htmlWhenAsked: PropertyDescriptor = {
  enumerable: true,
  configurable: true,
  get(this: TranslationWithSource) {
    const source = this[htmlSource];
    return source.value ?? source.read();
  },
  set(this: TranslationWithSource, value: string) {
    this[htmlSource].value = value;
    codeOf.delete(this);
  },
};

/**
 * A copy of `translation` whose `html` is a property that `read` answers (until a value is set),
 * with its keys in the same order, recording whether that HTML has highlighted code, so
 * `translationHasCode` need not read it. A copy made whole, with one getter for all, stays an
 * object with a shape V8 shares: `html` redefined on the translation itself, with a getter of its
 * own, turned each into a dictionary (about 0.9 KB more per translation: 8 MB of the live heap at
 * 10,000 posts).
 */
function withHtmlWhenAsked(translation: EntryTranslation, read: () => string, code: boolean): EntryTranslation {
  const copy = {} as Record<string, unknown>;
  for (const key of Object.keys(translation)) {
    if (key === 'html') Object.defineProperty(copy, 'html', htmlWhenAsked);
    else copy[key] = translation[key as keyof EntryTranslation];
  }
  if (!('html' in copy)) Object.defineProperty(copy, 'html', htmlWhenAsked);
  Object.defineProperty(copy, htmlSource, { value: { read } satisfies HtmlSource });
  const made = copy as unknown as EntryTranslation;
  codeOf.set(made, code);
  return made;
}

/**
 * `loaded` with each translation's HTML in `spill` (a cold `site build`): read back whenever it is
 * asked for (by the entry's own pages and the feeds' newest posts), so the build does not hold the
 * HTML of every entry from the inputs stage to the end (71 MB of 10,000 posts).
 */
export function spillEntryHtml(loaded: LoadedEntry, spill: Spill): LoadedEntry {
  const translations = loaded.entry?.translations ?? {};
  for (const [locale, translation] of Object.entries(translations)) {
    const { html } = translation;
    const ref = spill.put(html);
    translations[locale] = withHtmlWhenAsked(translation, () => spill.read(ref) as string, hasHighlightedCode(html));
  }
  return loaded;
}

/** Whether a translation's HTML has highlighted code, without reading it when its snapshot says. */
export function translationHasCode(translation: EntryTranslation): boolean {
  return codeOf.get(translation) ?? hasHighlightedCode(translation.html);
}
