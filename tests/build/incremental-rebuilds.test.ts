/**
 * `site build` into an earlier build whose entries are all kept (nothing in their folders changed)
 * still rebuilds what a change reaches: a template, the page copy a template asks more of, the
 * config the entries read, a deleted and a new post, a file added to a post's folder; and a file or
 * a page a link leads to taken away still fails the build. The folder ends up byte for byte what a
 * cold build with no cache writes. The same for a post with highlighted code, whose HTML the entry
 * snapshots keep apart from the code stylesheet and the feed.
 */
import { cp, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempSite, type TempSite } from '../helpers/fixture-site';
import { repoRoot } from '../helpers/paths';
import { listFiles } from '../helpers/site-files';
import { builds, editableSite, putBack, settle, slug } from '../helpers/incremental';

describe('site build with its entries kept', () => {
  const { temp, build, expectSameAsCold, edit, entries, outputOf } = editableSite();

  it('renders every page after a template edit, the entries still kept', async () => {
    await settle();
    await build('--out', 'out');
    await edit(
      join(temp.dir, 'templates', 'layout', 'Footer.tsx'),
      '<footer className="site-footer">',
      '<footer className="site-footer" data-edited="">',
    );
    const rebuilt = await build('--out', 'out');
    expect(rebuilt).toMatchObject({ kept: entries, rendered: rebuilt.pages });
    expect(await readFile(join(temp.dir, 'out', 'index.html'), 'utf8')).toContain('data-edited=""');
    await expectSameAsCold();
  });

  it('indexes the pages the build before rendered by the hashes it took of them, without reading them back', async () => {
    // The build before rendered every page (the template edit). A page's file is changed behind
    // the build's back with its size and modification time put back: read again, it would change the index.
    const page = join(temp.dir, 'out', 'blog', slug, 'index.html');
    const original = await readFile(page);
    const { mtimeNs } = await stat(page, { bigint: true });
    const searchIndex = async () => {
      const files = (await outputOf()).entries();
      return new Map([...files].filter(([file]) => file.startsWith('pagefind/')));
    };
    const before = await searchIndex();
    expect(before.size).toBeGreaterThan(2);
    await writeFile(page, original.toString('utf8').replaceAll('recycling', 'xxxxxxxxx'));
    await putBack(page, mtimeNs);
    expect(await build('--out', 'out')).toMatchObject({ rendered: 0, written: 0 });
    expect(await searchIndex()).toEqual(before);
    await writeFile(page, original);
    await putBack(page, mtimeNs);
  });

  it('checks the page copy again when a template asks more of it, though the copy is the same', async () => {
    // The copy validated by the last build is kept by the templates' bundle (content/pages.ts `ValidatedCopy`).
    await build('--out', 'out');
    const contact = join(temp.dir, 'templates', 'pages', 'Contact.tsx');
    const schema = 'details: z.strictObject({ heading: text, text })';
    await edit(contact, schema, 'details: z.strictObject({ heading: text, text, phoneHours: text })');
    const failed = build('--out', 'out');
    await expect(failed).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('CONTENT_INVALID') });
    await expect(failed).rejects.toMatchObject({
      stderr: expect.stringMatching(/contact\/en\.yaml.*details\.phoneHours/),
    });
    await edit(contact, 'details: z.strictObject({ heading: text, text, phoneHours: text })', schema);
    expect((await build('--out', 'out')).rendered).toBe(0);
    await expectSameAsCold();
  });

  it('loads every entry again after an edit of the config they read, and keeps them after one they do not', async () => {
    // Posts say "Book a {minutes}-minute meeting": the booking's length is part of what an entry is loaded with.
    await edit(temp.config, /^  minutes: 30$/m, '  minutes: 45');
    const rebuilt = await build('--out', 'out');
    expect(rebuilt).toMatchObject({ kept: 0, rendered: rebuilt.pages });
    expect(await readFile(join(temp.dir, 'out', 'blog', 'repair-as-a-retail-service', 'index.html'), 'utf8')).toContain(
      '45-minute meeting',
    );
    await expectSameAsCold();
    await settle();
    await build('--out', 'out');
    await edit(temp.config, 'name: Mendwise', 'name: Mendwise Again');
    const renamed = await build('--out', 'out');
    // The entries are kept, the pages are not: they are expanded from the config.
    expect(renamed).toMatchObject({ kept: entries, rendered: renamed.pages, pageSet: 'expanded' });
    await expectSameAsCold();
  });

  it('drops the pages of a deleted post and adds those of a new one', async () => {
    await settle();
    await build('--out', 'out');
    await rm(join(temp.dir, 'content', 'blog', slug), { recursive: true });
    const removed = await build('--out', 'out');
    expect(removed).toMatchObject({ kept: entries - 1, pageSet: 'expanded' });
    expect((await listFiles(join(temp.dir, 'out'))).some((file) => file.includes(slug))).toBe(false);
    await expectSameAsCold();
    const folder = join(temp.dir, 'content', 'blog', 'a-brand-new-post');
    await mkdir(folder);
    await writeFile(
      join(folder, 'en.md'),
      '---\ntitle: "A brand new post"\ndescription: "Written during the test."\ndate: 2026-03-01\ncategory: circularity\nauthor: Test\n---\n\nHello.\n',
    );
    const added = await build('--out', 'out');
    expect(added.kept).toBe(entries - 1);
    expect(await readFile(join(temp.dir, 'out', 'blog', 'a-brand-new-post', 'index.html'), 'utf8')).toContain(
      'A brand new post',
    );
    await expectSameAsCold();
  });

  it('loads an entry again when a file is added to its folder', async () => {
    await settle();
    await build('--out', 'out');
    const folder = join(temp.dir, 'content', 'blog', 'a-brand-new-post');
    await writeFile(
      join(folder, 'no.md'),
      '---\ntitle: "Et helt nytt innlegg"\ndescription: "Skrevet under testen."\ndate: 2026-03-01\ncategory: circularity\nauthor: Test\n---\n\nHei.\n',
    );
    const added = await build('--out', 'out');
    expect(added.kept).toBe(entries - 1);
    expect(await readFile(join(temp.dir, 'out', 'no', 'blog', 'a-brand-new-post', 'index.html'), 'utf8')).toContain(
      'Et helt nytt innlegg',
    );
    await expectSameAsCold();
  });

  it('checks the links again when a file they lead to is gone, though no input changed', async () => {
    await edit(
      join(temp.dir, 'content', 'blog', 'a-brand-new-post', 'en.md'),
      'Hello.',
      'Hello, with [our logo](/logo.svg).',
    );
    await settle();
    await build('--out', 'out');
    // The links were found whole with these inputs and files: not checked again.
    expect(await build('--out', 'out')).toMatchObject({ kept: entries, rendered: 0 });
    await rm(join(temp.dir, 'public', 'logo.svg'));
    const failed = build('--out', 'out');
    await expect(failed).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('LINK_BROKEN') });
    await expect(failed).rejects.toMatchObject({ stderr: expect.stringContaining('/logo.svg') });
  });

  it('checks the links again after a config edit that takes away the page they lead to', async () => {
    await cp(join(repoRoot, 'public', 'logo.svg'), join(temp.dir, 'public', 'logo.svg'));
    await edit(
      join(temp.dir, 'content', 'blog', 'a-brand-new-post', 'en.md'),
      '[our logo](/logo.svg)',
      '[a shop story](/shop/blog/a-day-in-a-tailor-shop/)',
    );
    await settle();
    await build('--out', 'out');
    expect(await build('--out', 'out')).toMatchObject({ kept: entries, rendered: 0 });
    await edit(
      temp.config,
      '{ path: "/shop/blog/{slug}", template: BlogPost,',
      '{ path: "/shop/posts/{slug}", template: BlogPost,',
    );
    await expect(build('--out', 'out')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('LINK_BROKEN'),
    });
  });
});

describe('site build with nothing changed, of a post with highlighted code', () => {
  let temp: TempSite;
  beforeAll(async () => {
    temp = await createTempSite();
    const post = join(temp.dir, 'content', 'blog', slug, 'en.md');
    await writeFile(post, `${await readFile(post, 'utf8')}\n\`\`\`ts\nconst repaired: boolean = true;\n\`\`\`\n`);
  });
  afterAll(() => temp?.cleanup());
  const { build, expectSameAsCold } = builds(() => temp.dir);

  it('links the code stylesheet and fills the feed from entries whose HTML their snapshots keep apart', async () => {
    await settle();
    await build('--out', 'out');
    // Every entry taken from its snapshot (entry-html.ts): whether a post has code, and its HTML for the feed, come from there.
    expect(await build('--out', 'out')).toMatchObject({ rendered: 0, written: 0, kept: 9 });
    const files = await listFiles(join(temp.dir, 'out'));
    expect(files.filter((file) => /^assets\/code\.[\w-]+\.css$/.test(file))).toHaveLength(1);
    // The JSON Feed carries the newest posts' full text.
    expect(await readFile(join(temp.dir, 'out', 'feed.json'), 'utf8')).toContain('repaired');
    // A build that renders the post again reads its HTML from the snapshot too.
    await rm(join(temp.dir, 'out', 'blog', slug, 'index.html'));
    expect(await build('--out', 'out')).toMatchObject({ rendered: 1, kept: 9 });
    expect(await readFile(join(temp.dir, 'out', 'blog', slug, 'index.html'), 'utf8')).toContain('repaired');
    await expectSameAsCold();
  });
});
