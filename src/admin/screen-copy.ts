/**
 * An admin screen's copy, read on the server for the words an API answers in (changes in words:
 * change-words.ts): the site's `content/pages/<id>/<locale>.yaml` when it has one, else the
 * engine's (src/admin/ui/copy/), as the build reads it (content/pages.ts), in the admin's
 * language (the site's default locale).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { adminCopyFiles } from '../admin-pages.js';
import { sourcesOf } from '../config/sources.js';
import type { ResolvedConfig } from '../config/load.js';
import { parseDocument } from '../yaml-package.js';
import type { ValueWords } from './change-words.js';

/** A screen's copy as data: nested maps of texts. */
export type ScreenCopy = Record<string, unknown>;

/** The copy of the screen `id` (`admin/settings`) in the admin's language ({} when there is none). */
export async function readScreenCopy(config: ResolvedConfig, id: string): Promise<ScreenCopy> {
  const locale = config.site.defaultLocale;
  for (const file of [join(sourcesOf(config).copy(id), `${locale}.yaml`), ...adminCopyFiles(id, locale)]) {
    const text = await readFile(file, 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    const data = parseDocument(text).toJS() as unknown;
    return data !== null && typeof data === 'object' ? (data as ScreenCopy) : {};
  }
  return {};
}

/** A text of a block of the copy (`copyText(copy, 'fields', 'booking.url')`), or undefined. */
export function copyText(copy: ScreenCopy, block: string, key: string): string | undefined {
  const texts = copy[block];
  const text = texts !== null && typeof texts === 'object' ? (texts as Record<string, unknown>)[key] : undefined;
  return typeof text === 'string' ? text : undefined;
}

/** The words of a screen's `history:` block (its change lists' words) for values without their own (English when the copy has none). */
export function valueWords(copy: ScreenCopy): ValueWords {
  return {
    yes: copyText(copy, 'history', 'yes') ?? 'Yes',
    no: copyText(copy, 'history', 'no') ?? 'No',
    none: copyText(copy, 'history', 'none') ?? '(empty)',
  };
}
