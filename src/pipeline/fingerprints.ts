/**
 * Fingerprints of the values of render inputs (pure): what a key such as "messages:no",
 * "entry:blog/a-slug:no" or "page:/blog/ [\"collection\",\"pageNumber\"]" (see `RenderDependency`) resolves to
 * in this build, as a short hash. Two builds whose fingerprints of every key a page read are equal
 * render that page to the same bytes, given the same config, templates, islands and stylesheet.
 */
import { createHash } from 'node:crypto';
import { portableText } from '../cache/disk-cache.js';
import type { ResolvedConfig } from '../config/load.js';
import { readTracked } from '../render/tracked-view.js';
import { entryIndexKey, entryPrinter, translationAt } from './content-api.js';
import type { RenderedInputs } from './diff.js';
import type { Entry } from './content-api.js';

/** What the fingerprints are taken of. */
export interface FingerprintInput extends RenderedInputs {
  config: ResolvedConfig;
  /** The entries in the order the site lists them. */
  entryList: readonly Entry[];
  /** The proof of each entry that has one (see `Inputs.entryProofs`). */
  entryProofs?: ReadonlyMap<string, string>;
}

const hash = (text: string) => `#${createHash('sha1').update(text).digest('base64')}`;
/** A short value is its own fingerprint (most field reads are a title or a number): hashing is the cost. */
const printOf = (text: string) => (text.length <= 40 && !text.startsWith('#') ? text : hash(text));
/** What is fingerprinted names the site's files without its root folder, so a copy of the project keeps its pages. */
const portableOf = (input: FingerprintInput) => (text: string) => portableText(text, input.config.root);

/** What is known of the fingerprints of the same keys in an earlier build. */
export interface EarlierPrints {
  /** The fingerprint of each key then, in the same order. */
  prints: readonly string[];
  /** Whether the pages are expanded from the same config and entries: then every record is the same. */
  pagesUnchanged: boolean;
  /** The proof each entry had then: an entry with the same proof now has the same values. */
  entryProofs?: ReadonlyMap<string, string>;
}

/**
 * The fingerprint of each of `keys`. What is known of an earlier build saves work: with the same
 * pages, every "page:" and "exists:" key keeps its earlier fingerprint; otherwise a field read of
 * a record whose whole record has the same fingerprint does, and so does a field of an entry
 * loaded from the same proof (on the real site with 1,000 posts, 24,700 of 24,700 field reads but
 * the edited post's).
 */
export function fingerprintInputs(input: FingerprintInput, keys: readonly string[], earlier?: EarlierPrints): string[] {
  const { pageSet } = input;
  const portable = portableOf(input);
  const recordPrints = new Map<string, string>();
  const recordPrint = (url: string) => {
    let print = recordPrints.get(url);
    if (print === undefined) {
      const record = pageSet.records().get(url);
      print = record === undefined ? '-' : hash(portable(record));
      recordPrints.set(url, print);
    }
    return print;
  };
  let earlierRecords: Map<string, string> | undefined;
  const earlierRecord = (prefix: string) => {
    earlierRecords ??= new Map(
      keys.flatMap((key, index) =>
        key.startsWith('page:') && !key.includes(' ') ? [[key, earlier!.prints[index]!]] : [],
      ),
    );
    return earlierRecords.get(prefix);
  };
  let entryPrint: ((key: string) => string) | undefined;
  const earlierProofs = earlier?.entryProofs;
  const proofs = input.entryProofs;
  /** Whether the entry a field key ("entry:blog/a-slug:en [...]", `prefix` before the space) names has the proof it had. */
  const sameEntry = (prefix: string) => {
    if (!earlierProofs || !proofs) return false;
    const id = prefix.slice('entry:'.length, prefix.lastIndexOf(':'));
    const proof = proofs.get(id);
    return proof !== undefined && proof === earlierProofs.get(id);
  };
  const json = (value: unknown) => (value === undefined ? '-' : printOf(portable(JSON.stringify(value))));

  return keys.map((key, index) => {
    const colon = key.indexOf(':');
    const kind = colon < 0 ? key : key.slice(0, colon);
    const rest = key.slice(colon + 1);
    if (earlier?.pagesUnchanged && (kind === 'page' || kind === 'exists')) return earlier.prints[index]!;
    switch (kind) {
      case 'page': {
        const space = key.indexOf(' ');
        if (space < 0) return recordPrint(rest);
        const prefix = key.slice(0, space);
        const url = prefix.slice('page:'.length);
        if (earlier && earlierRecord(prefix) === recordPrint(url)) return earlier.prints[index]!;
        // The record itself, as the render read it (made the same way from the same config and entries).
        return printOf(portable(readTracked(key, prefix, pageSet.byUrl.get(url)) ?? ''));
      }
      case 'exists':
        return pageSet.byUrl.has(rest) ? '1' : '0';
      case 'messages':
        return json(input.messages[rest]);
      case 'content':
        return json(input.contents.get(rest));
      case 'entry': {
        const space = key.indexOf(' ');
        if (space >= 0) {
          // A field of one translation, as the render read it (see `viewOf` in render/render.ts).
          const prefix = key.slice(0, space);
          if (earlier && sameEntry(prefix)) return earlier.prints[index]!;
          return printOf(portable(readTracked(key, prefix, translationAt(input.entries, prefix)) ?? ''));
        }
        entryPrint ??= entryPrinter(input.entries, input.entryList, (text) => hash(portable(text)));
        return entryPrint(key);
      }
      case 'entries':
        entryPrint ??= entryPrinter(input.entries, input.entryList, (text) => hash(portable(text)));
        return entryPrint(key);
      default:
        // An input this module does not know: never the same, so its readers are always rendered.
        return `? ${performance.now()}`;
    }
  });
}

/** The fingerprint of what the pages are expanded from besides the config. */
export function fingerprintRoutes(input: FingerprintInput): string {
  return hash(portableOf(input)(entryIndexKey(input.config, input.entryList)));
}
