/**
 * Translation status, shared by the page copy (pages-api.ts) and the entries of every collection
 * (posts-api.ts). Saving a translation (any locale but the default) records, in its folder's
 * `.translations.json` (beside the files, so it travels with them in git and serves both modes), the
 * version and text of the default locale's file it was made from. While that file changes later,
 * the translation is outdated, with the source's diff since then, until it is saved again. A
 * translation never saved in the admin has no record: its status then comes from git or, outside
 * git, from the baseline the admin took (translation-origins.ts), and is unknown when neither knows.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../atomic-write.js';
import type { ResolvedConfig } from '../config/load.js';
import { versionOf } from './post-files.js';
import type { TranslationOrigins } from './translation-origins.js';
import { fileDiff } from './text-diff.js';

/** What a translation was made from, per locale: the source's version and text, and when it was saved. */
export type TranslationRecords = Record<string, { sourceVersion: string; source: string; since: string }>;

/** The status the APIs answer for a translation with a record. */
export interface TranslationStatus {
  outdated: boolean;
  /** When the translation was saved. */
  since: string;
  /** The source's changes since then (outdated only), as a unified diff. */
  diff?: string;
}

/** The file of a folder's translation records (the write queue names it with the translation it records). */
export function translationRecordsFile(folder: string): string {
  return join(folder, '.translations.json');
}

/** The translation records of a folder (none yet, or a file that is not a JSON object: none). */
export async function readTranslationRecords(folder: string): Promise<TranslationRecords> {
  const text = await readFile(translationRecordsFile(folder), 'utf8').catch(() => undefined);
  if (text === undefined) return {};
  try {
    const records = JSON.parse(text) as unknown;
    return records !== null && typeof records === 'object' && !Array.isArray(records)
      ? (records as TranslationRecords)
      : {};
  } catch {
    return {};
  }
}

/** Whether the translation a record describes is older than the source's text `source`. */
export function isOutdated(record: TranslationRecords[string] | undefined, source: string): boolean {
  return isOutdatedSince(record, versionOf(source));
}

/** As `isOutdated`, with the source's version (its file's `versionOf`) instead of its text. */
export function isOutdatedSince(
  record: TranslationRecords[string] | undefined,
  sourceVersion: string | undefined,
): boolean {
  return record !== undefined && record.sourceVersion !== sourceVersion;
}

/** A translation's status from its record and the source's current text (`display`: the source file's name in the diff). */
export function translationStatus(
  record: TranslationRecords[string] | undefined,
  source: string,
  display: string,
): TranslationStatus | undefined {
  if (!record) return undefined;
  return isOutdated(record, source)
    ? { outdated: true, since: record.since, diff: fileDiff(display, record.source, source) }
    : { outdated: false, since: record.since };
}

/** Records that `locale`'s translation in `folder` was just saved against the source text `source`; gives the record file (to publish with the save). */
export async function recordTranslation(folder: string, locale: string, source: string, now: number): Promise<string> {
  const records = {
    ...(await readTranslationRecords(folder)),
    [locale]: { sourceVersion: versionOf(source), source, since: new Date(now).toISOString() },
  };
  const file = translationRecordsFile(folder);
  const sorted = Object.fromEntries(
    Object.keys(records)
      .sort()
      .map((key) => [key, records[key]!]),
  );
  await writeFileAtomic(file, `${JSON.stringify(sorted, null, 2)}\n`);
  return file;
}

/** A translation and its source (the default language's file) as they are now. */
export interface TranslationFiles {
  config: ResolvedConfig;
  /** The translation's record, if it was saved in the admin. */
  record: TranslationRecords[string] | undefined;
  translationFile: string;
  sourceFile: string;
  sourceText: string;
  /** The source file's name in the diff. */
  display: string;
  origins?: TranslationOrigins;
}

/**
 * A translation's status, and the source text it was made from (`base`, for the changes in words):
 * from its record, else from git or the baseline (`origins`); undefined when none knows.
 */
export async function translationState(
  files: TranslationFiles,
): Promise<{ status: TranslationStatus; base: string } | undefined> {
  const { record, sourceText, display } = files;
  if (record) return { status: translationStatus(record, sourceText, display)!, base: record.source };
  const origin = await files.origins?.originOf(files.config, files.translationFile, files.sourceFile);
  if (!origin) return undefined;
  return {
    status:
      origin.source === sourceText
        ? { outdated: false, since: origin.since }
        : { outdated: true, since: origin.since, diff: fileDiff(display, origin.source, sourceText) },
    base: origin.source,
  };
}

/** Whether a translation is older than its source's text (the lists' mark): by its record, else by git or the baseline. */
export async function isTranslationOutdated(files: Omit<TranslationFiles, 'display'>): Promise<boolean> {
  if (files.record) return isOutdated(files.record, files.sourceText);
  return (
    (await files.origins?.isOutdated(files.config, files.translationFile, files.sourceFile, files.sourceText)) ?? false
  );
}
