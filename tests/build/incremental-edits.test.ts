/**
 * `site build` into a folder an earlier build wrote renders only the pages whose inputs changed
 * (their read-sets are kept beside the build cache; a first build into a new folder records that
 * each page read every input, so its first edit renders all), and the folder ends up byte for byte what a
 * cold build with no cache writes: after an edited post, an added and a deleted post, an edited
 * message, copy edited with the pages rendered by a worker, and a page changed on disk behind the
 * build's back. The same holds for a site with other collections and a fallback chain (the engine
 * fixture): an entry translated, an entry of a second collection edited. (The builds with nothing
 * changed are in incremental-unchanged.test.ts and incremental-rebuilds.test.ts.)
 */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempSite, type TempSite } from '../helpers/fixture-site';
import { outputRoot, repoRoot } from '../helpers/paths';
import { listFiles } from '../helpers/site-files';
import { builds, settle, slug } from '../helpers/incremental';

describe('site build into an earlier build', () => {
  let temp: TempSite;
  beforeAll(async () => {
    temp = await createTempSite();
  });
  afterAll(() => temp?.cleanup());
  const { build, expectSameAsCold, edit } = builds(() => temp.dir);

  it('renders every page into a new folder, none with nothing changed, and every page once more, tracked, at the first edit', async () => {
    // Entries older than `settleMs` have their snapshots: the first build renders untracked and
    // records each page as reading every input (written-output.ts `firstRenderState`).
    await settle();
    const first = await build('--out', 'out');
    expect(first.rendered).toBe(first.pages);
    expect(await build('--out', 'out')).toMatchObject({ rendered: 0, written: 0, pageSet: 'kept' });
    await edit(join(temp.dir, 'content', 'blog', slug, 'en.md'), /^description: "(.*)"$/m, 'description: "$1 Edited."');
    const edited = await build('--out', 'out');
    expect(edited.rendered).toBe(edited.pages);
    expect(edited.written).toBeGreaterThan(0);
    expect(edited.written).toBeLessThan(edited.pages);
    await expectSameAsCold();
  });

  it('renders only the pages that show an edited post', async () => {
    await edit(
      join(temp.dir, 'content', 'blog', slug, 'en.md'),
      'title: "Why repair beats recycling"',
      'title: "Why repair beats recycling, every time"',
    );
    const rebuilt = await build('--out', 'out');
    expect(rebuilt.rendered).toBeGreaterThan(0);
    // Every post's end block lists two others (templates/layout/PostEnd.tsx) by title: a title
    // edit re-renders the posts that list this one, still far from the whole site.
    expect(rebuilt.rendered).toBeLessThan(rebuilt.pages / 4);
    await expectSameAsCold();
  });

  it('renders only the post’s own pages for an edit of its body, the lists and the page set kept', async () => {
    // The English pages of the post, in every section: the lists and the other posts show its
    // summary (title, date, description, reading time), which a word changed in the body leaves as it was.
    const own = (await listFiles(join(temp.dir, 'out'))).filter(
      (file) => file.endsWith(`blog/${slug}/index.html`) && !file.startsWith('no/'),
    );
    expect(own.length).toBeGreaterThan(1);
    await edit(join(temp.dir, 'content', 'blog', slug, 'en.md'), 'collection bins', 'collection boxes');
    const body = await build('--out', 'out');
    expect(body).toMatchObject({ rendered: own.length, pageSet: 'kept' });
    await expectSameAsCold();
    // Its title is in the lists: they render again, and the page set is the same.
    await edit(join(temp.dir, 'content', 'blog', slug, 'en.md'), ', every time"', ', every single time"');
    const title = await build('--out', 'out');
    expect(title.rendered).toBeGreaterThan(own.length);
    expect(title.pageSet).toBe('kept');
    await expectSameAsCold();
  });

  it('adds and removes the pages of a post', async () => {
    const folder = join(temp.dir, 'content', 'blog', 'a-brand-new-post');
    await mkdir(folder);
    await writeFile(
      join(folder, 'en.md'),
      '---\ntitle: "A brand new post"\ndescription: "Written during the test."\ndate: 2026-03-01\ncategory: circularity\nauthor: Test\n---\n\nHello.\n',
    );
    const added = await build('--out', 'out');
    expect(added.rendered).toBeLessThan(added.pages);
    await expectSameAsCold();
    await rm(folder, { recursive: true });
    await build('--out', 'out');
    await expectSameAsCold();
  });

  it('renders the pages of the locale of an edited message', async () => {
    await edit(
      join(temp.dir, 'content', 'messages', 'no.yaml'),
      /^skipToContent: .*$/m,
      'skipToContent: Hopp rett ned til innholdet',
    );
    const rebuilt = await build('--out', 'out');
    expect(rebuilt.rendered).toBeGreaterThan(0);
    expect(rebuilt.rendered).toBeLessThan(rebuilt.pages);
    await expectSameAsCold();
  });

  it('records what each page read when the workers render them too', async () => {
    await edit(join(temp.dir, 'content', 'pages', 'hub', 'product', 'en.yaml'), /^title: (.*)$/m, 'title: $1 (edited)');
    const rebuilt = await build('--out', 'out', '--workers', '1');
    expect(rebuilt.rendered).toBeGreaterThan(0);
    expect(rebuilt.rendered).toBeLessThan(10);
    await expectSameAsCold();
    await edit(join(temp.dir, 'content', 'pages', 'hub', 'product', 'en.yaml'), / \(edited\)$/m, ' (edited twice)');
    expect((await build('--out', 'out')).rendered).toBe(rebuilt.rendered);
    await expectSameAsCold();
  });

  it('renders a page again when its file on disk is not the one written', async () => {
    const page = join(temp.dir, 'out', 'hub', 'product', 'index.html');
    await writeFile(page, `${await readFile(page, 'utf8')}<!-- changed by hand -->`);
    const rebuilt = await build('--out', 'out');
    expect(rebuilt.rendered).toBe(1);
    await expectSameAsCold();
  });

  it('renders every page when the config changes, and when the siblings are dropped', async () => {
    await edit(temp.config, 'name: Mendwise', 'name: Mendwise Rebuilt');
    const rebuilt = await build('--out', 'out');
    expect(rebuilt.rendered).toBe(rebuilt.pages);
    await expectSameAsCold();
    const plain = await build('--out', 'out', '--no-precompress');
    expect(plain.rendered).toBe(plain.pages);
    expect((await listFiles(join(temp.dir, 'out'))).filter((file) => /\.(br|gz)$/.test(file))).toEqual([]);
  });
});

describe('site build into an earlier build of a site with other collections', () => {
  let dir: string;
  beforeAll(async () => {
    await mkdir(outputRoot, { recursive: true });
    dir = await mkdtemp(join(outputRoot, 'engine-'));
    await cp(join(repoRoot, 'tests', 'fixtures', 'engine-site'), dir, { recursive: true });
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  const { build, expectSameAsCold, edit } = builds(() => dir);

  it('renders only what an entry of a second collection, or a new translation, changes', async () => {
    const first = await build('--out', 'out');
    expect(first.rendered).toBe(first.pages);
    expect((await build('--out', 'out')).rendered).toBe(0);
    // The first build into a new folder tracked what each page read, or (its entries older than
    // `settleMs`) recorded each as reading every input: then a first edit renders every page,
    // tracked. This one, of an English-only news item, leaves the folder knowing each page's reads.
    await edit(join(dir, 'content', 'news', 'english-only', 'en.md'), /\n*$/, '\n\nOne more line.\n');
    await build('--out', 'out');
    await expectSameAsCold();

    // The English case study is also what German readers see (the collection's fallback chain).
    await edit(
      join(dir, 'content', 'work', 'cases', 'bridge', 'en.md'),
      'title: Bridge',
      'title: Bridge over the fjord',
    );
    const edited = await build('--out', 'out');
    expect(edited.rendered).toBeGreaterThan(0);
    expect(edited.rendered).toBeLessThan(edited.pages / 2);
    await expectSameAsCold();

    // A Norwegian translation of an English-only entry replaces the fallback on the Norwegian pages.
    await writeFile(
      join(dir, 'content', 'news', 'english-only', 'nb.md'),
      '---\ntitle: Bare på engelsk, til nå\ndescription: Nå også på norsk.\ndate: 2026-03-01\ntopic: tools\n---\n\nOversatt.\n',
    );
    const translated = await build('--out', 'out');
    expect(translated.rendered).toBeGreaterThan(0);
    expect(translated.rendered).toBeLessThan(translated.pages);
    await expectSameAsCold();
  });
});
