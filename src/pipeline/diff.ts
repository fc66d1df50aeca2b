/**
 * What differs between the inputs of the last good build and those of this run, as the render
 * dependencies it touches (see `RenderDependency` in render/render.ts): a page whose render read
 * none of them renders to the same bytes (pure).
 */
import { readTracked } from '../render/tracked-view.js';
import { diffEntries, type Entry, type Messages, type PageContent } from './content-api.js';
import type { PageSet } from './routes-stage.js';
import { sameJson } from './stage.js';

/** The inputs renders read. */
export interface RenderedInputs {
  messages: Messages;
  /** Entries by key ("<collection>/<slug>"). */
  entries: ReadonlyMap<string, Entry>;
  contents: ReadonlyMap<string, PageContent>;
  pageSet: PageSet;
}

/**
 * The render dependencies whose values differ between `before` and `now`. `reads` are the reads
 * the renders of `before` reported: a field of another page's record ("page:/blog/ [...]") counts
 * only when what that read sees differs.
 */
export function diffInputs(before: RenderedInputs, now: RenderedInputs, reads: Iterable<string>): Set<string> {
  const changed = new Set<string>();
  for (const locale of new Set([...Object.keys(now.messages), ...Object.keys(before.messages)])) {
    if (!sameJson(now.messages[locale], before.messages[locale])) changed.add(`messages:${locale}`);
  }
  const readList = [...reads];
  diffEntries(before.entries, now.entries, changed, readList);
  for (const key of new Set([...now.contents.keys(), ...before.contents.keys()])) {
    if (!sameJson(now.contents.get(key), before.contents.get(key))) changed.add(`content:${key}`);
  }
  if (now.pageSet !== before.pageSet) diffRecords(before.pageSet.records(), now.pageSet.records(), readList, changed);
  return changed;
}

function diffRecords(
  before: Map<string, string>,
  now: Map<string, string>,
  reads: Iterable<string>,
  changed: Set<string>,
): void {
  const records = new Map<string, { old?: string; now?: string; parsed?: [unknown, unknown] }>();
  for (const url of new Set([...now.keys(), ...before.keys()])) {
    const old = before.get(url);
    const current = now.get(url);
    if (old === current) continue;
    changed.add(`page:${url}`);
    if ((old === undefined) !== (current === undefined)) changed.add(`exists:${url}`);
    records.set(url, { old, now: current });
  }
  if (records.size === 0) return;
  const parse = (json: string | undefined): unknown => (json === undefined ? undefined : JSON.parse(json));
  for (const read of reads) {
    const space = read.indexOf(' ');
    if (!read.startsWith('page:') || space < 0) continue;
    const record = records.get(read.slice('page:'.length, space));
    if (!record) continue;
    const [old, current] = (record.parsed ??= [parse(record.old), parse(record.now)]);
    const prefix = read.slice(0, space);
    if (readTracked(read, prefix, old) !== readTracked(read, prefix, current)) changed.add(read);
  }
}
