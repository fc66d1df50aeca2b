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
  Object.values(loaded.entry?.translations ?? {}).forEach((translation, index) => {
    const bytes = html[index]!;
    let text: string | undefined;
    htmlReadWhenAsked(
      translation,
      () => (text ??= Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')),
      code[index]!,
    );
  });
  return loaded;
}

/**
 * Makes a translation's `html` a property that `read` answers (until a value is set), and records
 * whether that HTML has highlighted code, so `translationHasCode` need not read it.
 */
function htmlReadWhenAsked(translation: EntryTranslation, read: () => string, code: boolean): void {
  let set: string | undefined;
  Object.defineProperty(translation, 'html', {
    enumerable: true,
    configurable: true,
    get: () => set ?? read(),
    set: (value: string) => {
      set = value;
      codeOf.delete(translation);
    },
  });
  codeOf.set(translation, code);
}

/**
 * `loaded` with each translation's HTML in `spill` (a cold `site build`): read back whenever it is
 * asked for (by the entry's own pages and the feeds' newest posts), so the build does not hold the
 * HTML of every entry from the inputs stage to the end (71 MB of 10,000 posts).
 */
export function spillEntryHtml(loaded: LoadedEntry, spill: Spill): LoadedEntry {
  for (const translation of Object.values(loaded.entry?.translations ?? {})) {
    const { html } = translation;
    const ref = spill.put(html);
    htmlReadWhenAsked(translation, () => spill.read(ref) as string, hasHighlightedCode(html));
  }
  return loaded;
}

/** Whether a translation's HTML has highlighted code, without reading it when its snapshot says. */
export function translationHasCode(translation: EntryTranslation): boolean {
  return codeOf.get(translation) ?? hasHighlightedCode(translation.html);
}
