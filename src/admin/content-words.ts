/**
 * The changes in words of a page's texts and of an entry (change-words.ts), as their screens name
 * them: a page's text by its key in words (pages-api.ts's `labelOf`, as the page editor labels its
 * fields), an entry's field by the content editor's copy (`fields:` by field name, or
 * `<collection>.<field>`), else the field's `label:` in the config, else its name in words; the
 * entry's text as the editor's "Text (Markdown)".
 */
import type { ResolvedConfig } from '../config/load.js';
import { parseDocument } from '../yaml-package.js';
import { changesInWords, labelOf, type ChangeInWords } from './change-words.js';
import { readFrontMatter, splitPost } from './front-matter-edit.js';
import { copyText, readScreenCopy, valueWords } from './screen-copy.js';

/** The language of numbers of the admin (its default locale's `intl`). */
function adminIntl(config: ResolvedConfig): string {
  return config.locales[config.site.defaultLocale]?.intl ?? config.site.defaultLocale;
}

/** Parsed YAML, or undefined for a text that does not read (its changes are then the file diff's alone). */
function readYaml(text: string): unknown {
  try {
    return parseDocument(text).toJS() as unknown;
  } catch {
    return undefined;
  }
}

/** The changes in words between two texts of a page's copy (a YAML file). */
export async function pageChangesInWords(
  config: ResolvedConfig,
  before: string,
  after: string,
): Promise<ChangeInWords[]> {
  const copy = await readScreenCopy(config, 'admin/pages');
  return changesInWords(readYaml(before) ?? {}, readYaml(after) ?? {}, {
    words: valueWords(copy),
    intl: adminIntl(config),
    label: (path) => labelOf(path.join('.')),
  });
}

/** An entry's text as data: its front matter, and its body under `body` ('' for no file: nothing). */
function entryData(text: string): Record<string, unknown> {
  if (!text) return {};
  try {
    return { ...readFrontMatter(text), body: splitPost(text).body.trim() };
  } catch {
    return { body: text };
  }
}

/** The changes in words between two texts of an entry of `collection` ('' for no file). */
export async function entryChangesInWords(
  config: ResolvedConfig,
  collection: string,
  before: string,
  after: string,
): Promise<ChangeInWords[]> {
  const copy = await readScreenCopy(config, 'admin/blog');
  const declared = config.collections[collection]?.fields ?? {};
  return changesInWords(entryData(before), entryData(after), {
    words: valueWords(copy),
    intl: adminIntl(config),
    label(path) {
      const name = path[0]!;
      if (name === 'body' && path.length === 1) return copyText(copy, 'editor', 'body') ?? 'Text';
      const field =
        copyText(copy, 'fields', `${collection}.${name}`) ??
        copyText(copy, 'fields', name) ??
        (declared as Record<string, { label?: string }>)[name]?.label ??
        labelOf(name);
      return path.length > 1 ? `${field} › ${labelOf(path.slice(1).join('.'))}` : field;
    },
  });
}
