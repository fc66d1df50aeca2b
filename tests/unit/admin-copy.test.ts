/**
 * The engine's admin copy says the same in every language it ships: for every screen's folder of
 * src/admin/ui/copy/, each `<locale>.yaml` has the keys of `en.yaml` (nested keys included), no
 * others, and per key the same `{placeholders}` and `code`. Every folder must have a Norwegian `no.yaml`, so
 * an English key added without its Norwegian fails here, naming the file and the key.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/paths';

const copyRoot = join(repoRoot, 'src', 'admin', 'ui', 'copy');
/** The languages every screen must ship besides English. */
const required = ['no'];

/** The folders holding an en.yaml: each screen's copy (admin/blog, auth…). */
function copyFolders(folder: string): string[] {
  const entries = readdirSync(folder, { withFileTypes: true });
  const here = entries.some((entry) => entry.isFile() && entry.name === 'en.yaml') ? [folder] : [];
  return [
    ...here,
    ...entries.filter((entry) => entry.isDirectory()).flatMap((entry) => copyFolders(join(folder, entry.name))),
  ];
}

/** Every leaf of a parsed YAML file by its dotted key ("history.restore"), with its text. */
function leaves(value: unknown, prefix = ''): Map<string, string> {
  if (value === null || typeof value !== 'object') return new Map([[prefix, String(value)]]);
  return new Map(
    Object.entries(value).flatMap(([key, child]) => [...leaves(child, prefix ? `${prefix}.${key}` : key)]),
  );
}

/** What a translation keeps as it is: the `{placeholders}` the screen fills in, and the `code` (commands, file names). */
const placeholders = (text: string) =>
  [...new Set([...(text.match(/\{\w+\}/g) ?? []), ...(text.match(/`[^`]+`/g) ?? [])])].sort();

const folders = copyFolders(copyRoot);

describe('the admin copy of the engine', () => {
  it('finds the screens', () => {
    expect(folders.map((folder) => relative(copyRoot, folder))).toEqual(
      expect.arrayContaining([
        'admin/blog',
        'admin/changes',
        'admin/inbox',
        'admin/media',
        'admin/pages',
        'admin/settings',
        'admin/visual',
        'auth',
      ]),
    );
  });

  for (const folder of folders) {
    const name = relative(copyRoot, folder);
    it(`${name}: every language has the keys, placeholders and code of en.yaml`, () => {
      const english = leaves(parse(readFileSync(join(folder, 'en.yaml'), 'utf8')));
      const locales = readdirSync(folder)
        .filter((file) => file.endsWith('.yaml') && file !== 'en.yaml')
        .map((file) => file.slice(0, -'.yaml'.length));
      expect(locales, `${name}: no ${required.join('.yaml, no ')}.yaml`).toEqual(expect.arrayContaining(required));
      const problems: string[] = [];
      for (const locale of locales) {
        const file = relative(repoRoot, join(folder, `${locale}.yaml`));
        const other = leaves(parse(readFileSync(join(folder, `${locale}.yaml`), 'utf8')));
        for (const [key, text] of english) {
          const translated = other.get(key);
          if (translated === undefined) problems.push(`${file}: missing ${key}`);
          else if (placeholders(translated).join() !== placeholders(text).join())
            problems.push(
              `${file}: ${key} has ${placeholders(translated).join(' ') || 'no placeholder'}, en.yaml ${placeholders(text).join(' ') || 'none'}`,
            );
        }
        for (const key of other.keys()) if (!english.has(key)) problems.push(`${file}: ${key} is not in en.yaml`);
      }
      expect(problems).toEqual([]);
    });
  }
});
