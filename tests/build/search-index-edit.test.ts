/**
 * `site build` after one post's body is edited indexes again only the part of the search index the
 * post's changed pages are in: with `search.pagesPerPart` small, each language's posts are in
 * parts of their own (pagefind/<language>-<n>/), and Pagefind is given the pages of the parts
 * whose pages changed, no other (the other language's and the other parts' indexes come from the
 * build cache). A search, as the search page makes it (its parts merged), finds the edited text;
 * the output, pagefind/ included, is byte for byte what a cold build with no cache writes.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { editableSite, settle, slug } from '../helpers/incremental';
import { searchIndex } from '../helpers/pagefind-search';

interface Entry {
  languages: Record<string, { hash: string; page_count: number }>;
  parts?: Record<string, { path: string; hash: string }[]>;
}

describe('the search index after a one-post edit', () => {
  const { temp, build, expectSameAsCold, edit } = editableSite();
  beforeAll(async () => {
    const config = join(temp.dir, 'site.config.yaml');
    const text = await readFile(config, 'utf8');
    expect(text).toMatch(/^search:\n  enabled: true\n/m);
    await writeFile(config, text.replace(/^search:\n/m, 'search:\n  pagesPerPart: 2\n'));
  });

  const readEntry = async (folder: string) =>
    JSON.parse(await readFile(join(temp.dir, 'out', 'pagefind', folder, 'pagefind-entry.json'), 'utf8')) as Entry;
  /** Each part of the index (the main bundle's languages, "en", and the parts, "en-1/"): its hash and page count. */
  const partsOfIndex = async () => {
    const main = await readEntry('');
    const parts = new Map<string, { hash: string; pages: number }>();
    for (const [language, { hash, page_count }] of Object.entries(main.languages))
      parts.set(language, { hash, pages: page_count });
    for (const part of Object.values(main.parts ?? {}).flat()) {
      const { languages } = await readEntry(part.path);
      const { hash, page_count } = Object.values(languages)[0]!;
      expect(hash).toBe(part.hash);
      parts.set(part.path, { hash, pages: page_count });
    }
    return parts;
  };
  /** The pages of the parts whose index changed between two builds. */
  const changedPages = (before: Map<string, { hash: string; pages: number }>, after: typeof before) =>
    [...after]
      .filter(([name, { hash }]) => before.get(name)?.hash !== hash)
      .reduce((sum, [, { pages }]) => sum + pages, 0);

  it('indexes again only the parts of the edited post’s pages, finds its text, and gives the index of a cold build', async () => {
    const first = await build('--out', 'out');
    expect(first.indexed).toEqual({ indexed: first.indexed!.searchable, searchable: expect.any(Number) });
    const initial = await partsOfIndex();
    // Both languages' posts are in parts of their own, beside each language's other pages.
    expect([...initial.keys()].filter((name) => !name.includes('/')).sort()).toEqual(['en', 'nb']);
    expect([...initial.keys()].some((name) => name.startsWith('en-'))).toBe(true);
    expect([...initial.keys()].some((name) => name.startsWith('nb-'))).toBe(true);
    expect([...initial.values()].reduce((sum, { pages }) => sum + pages, 0)).toBe(first.indexed!.searchable);
    const english = [...initial].filter(([name]) => name === 'en' || name.startsWith('en-'));
    const englishPages = english.reduce((sum, [, { pages }]) => sum + pages, 0);
    await settle();
    expect((await build('--out', 'out')).indexed).toEqual({ indexed: 0, searchable: first.indexed!.searchable });

    const post = join(temp.dir, 'content', 'blog', slug, 'en.md');
    // The first edit renders every page, to record what each reads; the second renders what it reaches.
    await edit(post, /\n$/, '\n\nA first paragraph, added by the test.\n');
    const once = await build('--out', 'out');
    const afterFirst = await partsOfIndex();
    expect(once.indexed).toEqual({ indexed: changedPages(initial, afterFirst), searchable: first.indexed!.searchable });

    await edit(post, /\n$/, '\n\nA zanzibarquokka paragraph, added by the test.\n');
    const edited = await build('--out', 'out');
    expect(edited.rendered).toBeLessThan(edited.pages);
    const afterEdit = await partsOfIndex();
    const changed = [...afterEdit]
      .filter(([name, { hash }]) => afterFirst.get(name)!.hash !== hash)
      .map(([name]) => name);
    // The post's part changed and no Norwegian one did; Pagefind was given those parts' pages alone.
    expect(changed.some((name) => name.startsWith('en-'))).toBe(true);
    expect(changed.every((name) => name === 'en' || name.startsWith('en-'))).toBe(true);
    expect(edited.indexed).toEqual({
      indexed: changedPages(afterFirst, afterEdit),
      searchable: first.indexed!.searchable,
    });
    expect(edited.indexed!.indexed).toBeLessThan(englishPages);

    const [found, kettle] = await searchIndex(join(temp.dir, 'out'), 'en', ['zanzibarquokka', 'kettle']);
    expect(found!.map(({ url }) => url)).toEqual([`/blog/${slug}/`]);
    expect(found![0]!.excerpt).toContain('<mark>zanzibarquokka</mark>');
    expect(kettle!.map(({ url }) => url)).toEqual(['/blog/a-day-in-a-tailor-shop/']);
    const [norwegian] = await searchIndex(join(temp.dir, 'out'), 'nb', ['zanzibarquokka']);
    expect(norwegian).toEqual([]);
    await expectSameAsCold();
  }, 300_000);
});
