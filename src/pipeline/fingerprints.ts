/**
 * Fingerprints of the values of render inputs (pure): what a key such as "messages:no",
 * "post:a-slug:no" or "page:/blog/ [\"blog\",\"pageNumber\"]" (see `RenderDependency`) resolves to
 * in this build, as a short hash. Two builds whose fingerprints of every key a page read are equal
 * render that page to the same bytes, given the same config, templates, islands and stylesheet.
 */
import { createHash } from 'node:crypto';
import { readTracked } from '../render/tracked-view.js';
import { fingerprintPosts } from './content-api.js';
import type { RenderedInputs } from './diff.js';
import type { Post } from './content-api.js';

/** What the fingerprints are taken of. */
export interface FingerprintInput extends RenderedInputs {
  postList: readonly Post[];
}

const hash = (text: string) => createHash('sha1').update(text).digest('base64');

/**
 * The fingerprint of each of `keys`. `previous` (key → fingerprint in an earlier build) saves work:
 * a field read of a page record whose whole record has the same fingerprint keeps its earlier one.
 */
export function fingerprintInputs(input: FingerprintInput, keys: readonly string[], previous?: ReadonlyMap<string, string>): string[] {
  const { pageSet } = input;
  const records = pageSet.records();
  const recordPrints = new Map<string, string>();
  const parsed = new Map<string, unknown>();
  const recordPrint = (url: string) => {
    let print = recordPrints.get(url);
    if (print === undefined) {
      const record = records.get(url);
      print = record === undefined ? '-' : hash(record);
      recordPrints.set(url, print);
    }
    return print;
  };
  // Parsed from the JSON, as dev compares them: a field set to undefined is no field.
  const recordOf = (url: string) => {
    if (!parsed.has(url)) {
      const record = records.get(url);
      parsed.set(url, record === undefined ? undefined : JSON.parse(record));
    }
    return parsed.get(url);
  };
  let posts: Map<string, string> | undefined;
  const json = (value: unknown) => (value === undefined ? '-' : hash(JSON.stringify(value)));

  return keys.map((key) => {
    const colon = key.indexOf(':');
    const kind = colon < 0 ? key : key.slice(0, colon);
    const rest = key.slice(colon + 1);
    switch (kind) {
      case 'page': {
        const space = key.indexOf(' ');
        if (space < 0) return recordPrint(rest);
        const prefix = key.slice(0, space);
        const url = prefix.slice('page:'.length);
        const earlier = previous?.get(key);
        if (earlier !== undefined && previous?.get(prefix) === recordPrint(url)) return earlier;
        return hash(readTracked(key, prefix, recordOf(url)) ?? '');
      }
      case 'exists':
        return pageSet.byUrl.has(rest) ? '1' : '0';
      case 'messages':
        return json(input.messages[rest]);
      case 'content':
        return json(input.contents.get(rest));
      case 'post':
      case 'posts':
        posts ??= fingerprintPosts(input.postList, hash);
        return posts.get(key) ?? '-';
      default:
        // An input this module does not know: never the same, so its readers are always rendered.
        return `? ${performance.now()}`;
    }
  });
}
