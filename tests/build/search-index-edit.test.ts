/**
 * `site build` after one post's body is edited indexes again only the part of the search index the
 * post is in (its language): the other language's index is taken from the build cache, Pagefind is
 * not given its pages, and the index holds the edited text. The output, pagefind/ included, is byte
 * for byte what a cold build with no cache writes.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { editableSite, settle, slug } from '../helpers/incremental';
import { listFiles } from '../helpers/site-files';

describe('the search index after a one-post edit', () => {
  const { temp, build, expectSameAsCold, edit } = editableSite();

  /** The pages of each language in the index, from Pagefind's entry file. */
  const languages = async () => {
    const entry = JSON.parse(await readFile(join(temp.dir, 'out', 'pagefind', 'pagefind-entry.json'), 'utf8')) as {
      languages: Record<string, { page_count: number }>;
    };
    return Object.fromEntries(
      Object.entries(entry.languages).map(([language, { page_count }]) => [language, page_count]),
    );
  };
  /** Whether a word is in the index's chunks (gzipped files). */
  const indexHolds = async (word: string) => {
    const dir = join(temp.dir, 'out', 'pagefind', 'index');
    for (const file of await listFiles(dir))
      if (gunzipSync(await readFile(join(dir, file))).includes(word)) return true;
    return false;
  };

  it('indexes again only the edited post’s language, and gives the index of a cold build', async () => {
    const first = await build('--out', 'out');
    expect(first.indexed).toEqual({ indexed: first.indexed!.searchable, searchable: expect.any(Number) });
    const counts = await languages();
    expect(Object.keys(counts).sort()).toEqual(['en', 'nb']);
    expect(counts.en! + counts.nb!).toBe(first.indexed!.searchable);
    await settle();
    expect((await build('--out', 'out')).indexed).toEqual({ indexed: 0, searchable: first.indexed!.searchable });

    const post = join(temp.dir, 'content', 'blog', slug, 'en.md');
    // The first edit renders every page, to record what each reads; the second renders what it reaches.
    await edit(post, /\n$/, '\n\nA first paragraph, added by the test.\n');
    expect((await build('--out', 'out')).indexed).toEqual({
      indexed: counts.en,
      searchable: first.indexed!.searchable,
    });
    await edit(post, /\n$/, '\n\nA zanzibarquokka paragraph, added by the test.\n');
    const edited = await build('--out', 'out');
    expect(edited.rendered).toBeLessThan(edited.pages);
    // Pagefind was given the English pages only: the Norwegian part came from the cache.
    expect(edited.indexed).toEqual({ indexed: counts.en, searchable: first.indexed!.searchable });
    expect(await indexHolds('zanzibarquokka')).toBe(true);
    await expectSameAsCold();
  }, 300_000);
});
