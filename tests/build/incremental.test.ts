/**
 * `site build` into a folder an earlier build wrote renders only the pages whose inputs changed
 * (their read-sets are kept beside the build cache; a first build into a new folder records that
 * each page read every input, so its first edit renders all), and the folder ends up byte for byte what a
 * cold build with no cache writes: after an edited post, an added and a deleted post, an edited
 * message, copy edited with the pages rendered by a worker, and a page changed on disk behind the
 * build's back. The same holds for a site with other collections and a fallback chain (the engine
 * fixture): an entry translated, an entry of a second collection edited. With nothing changed, a
 * build takes every entry folder as the last build loaded it (by the stat of its files) and renders
 * nothing and checks no link; a same-size edit with its modification time put back, a template, the
 * config, a deleted and a new post each still rebuild their pages, and a file or a page a link leads
 * to taken away still fails the build.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempSite, type TempSite } from '../helpers/fixture-site';
import { outputRoot, repoRoot } from '../helpers/paths';
import { listFiles } from '../helpers/site-files';
import { settleMs } from '../../src/pipeline/entry-snapshots';

const run = promisify(execFile);
const slug = 'why-repair-beats-recycling';
/** Sets a file's modification time back to `mtimeNs`, to the nanosecond, as `touch -d` does. */
async function putBack(file: string, mtimeNs: bigint) {
  const seconds = mtimeNs / 1_000_000_000n;
  await run('touch', ['-m', '-d', `@${seconds}.${String(mtimeNs - seconds * 1_000_000_000n).padStart(9, '0')}`, file]);
}
/** Files changed less than `settleMs` ago are not trusted by their stat: wait until they are older. */
const settle = () => new Promise((done) => setTimeout(done, settleMs + 100));

/** Builds of the site in `site()` with a cache of their own, and the oracle: the same files as a cold build. */
function builds(site: () => string) {
  let cacheDir: string;
  beforeAll(async () => {
    await mkdir(outputRoot, { recursive: true });
    cacheDir = await mkdtemp(join(outputRoot, 'cache-'));
  });
  afterAll(() => rm(cacheDir, { recursive: true, force: true }));

  /** A verbose build into `out`: how many pages it rendered and how many files it wrote. */
  const build = async (...args: string[]) => {
    const { stdout, stderr } = await run('node', [join(repoRoot, 'bin', 'site.js'), 'build', '--verbose', ...args], { cwd: site(), env: { ...process.env, SITE_CACHE_DIR: cacheDir } });
    const rendered = Number(/(\d+) pages rendered/.exec(stderr)?.[1]);
    const written = Number(/wrote (\d+) of/.exec(stderr)?.[1]);
    const pages = Number(/built (\d+) pages/.exec(stdout)?.[1]);
    const kept = Number(/entries kept (\d+)/.exec(stderr)?.[1]);
    const pageSet = /page set (kept|expanded)/.exec(stderr)?.[1];
    const warnings = stderr.split('\n').filter((line) => line.startsWith('warning'));
    return { rendered, written, pages, kept, pageSet, warnings };
  };

  /** Every file of `out` is the same as in a cold build without the cache, and there are no others. */
  const expectSameAsCold = async () => {
    const dir = site();
    await rm(join(dir, 'cold'), { recursive: true, force: true });
    await build('--out', 'cold', '--no-cache');
    const files = await listFiles(join(dir, 'cold'));
    expect(await listFiles(join(dir, 'out'))).toEqual(files);
    const different: string[] = [];
    for (const file of files) {
      const [a, b] = await Promise.all([readFile(join(dir, 'out', file)), readFile(join(dir, 'cold', file))]);
      if (!a.equals(b)) different.push(file);
    }
    expect(different).toEqual([]);
  };

  const edit = async (path: string, from: string | RegExp, to: string) => {
    const text = await readFile(path, 'utf8');
    expect(text.replace(from, to)).not.toBe(text);
    await writeFile(path, text.replace(from, to));
  };
  return { build, expectSameAsCold, edit };
}

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
    await edit(join(temp.dir, 'content', 'blog', slug, 'en.md'), 'title: "Why repair beats recycling"', 'title: "Why repair beats recycling, every time"');
    const rebuilt = await build('--out', 'out');
    expect(rebuilt.rendered).toBeGreaterThan(0);
    // Every post's end block lists two others (templates/layout/PostEnd.tsx) by title: a title
    // edit re-renders the posts that list this one, still far from the whole site.
    expect(rebuilt.rendered).toBeLessThan(rebuilt.pages / 4);
    await expectSameAsCold();
  });

  it('adds and removes the pages of a post', async () => {
    const folder = join(temp.dir, 'content', 'blog', 'a-brand-new-post');
    await mkdir(folder);
    await writeFile(join(folder, 'en.md'), '---\ntitle: "A brand new post"\ndescription: "Written during the test."\ndate: 2026-03-01\ncategory: circularity\nauthor: Test\n---\n\nHello.\n');
    const added = await build('--out', 'out');
    expect(added.rendered).toBeLessThan(added.pages);
    await expectSameAsCold();
    await rm(folder, { recursive: true });
    await build('--out', 'out');
    await expectSameAsCold();
  });

  it('renders the pages of the locale of an edited message', async () => {
    await edit(join(temp.dir, 'content', 'messages', 'no.yaml'), /^skipToContent: .*$/m, 'skipToContent: Hopp rett ned til innholdet');
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
    await edit(join(dir, 'content', 'work', 'cases', 'bridge', 'en.md'), 'title: Bridge', 'title: Bridge over the fjord');
    const edited = await build('--out', 'out');
    expect(edited.rendered).toBeGreaterThan(0);
    expect(edited.rendered).toBeLessThan(edited.pages / 2);
    await expectSameAsCold();

    // A Norwegian translation of an English-only entry replaces the fallback on the Norwegian pages.
    await writeFile(join(dir, 'content', 'news', 'english-only', 'nb.md'), '---\ntitle: Bare på engelsk, til nå\ndescription: Nå også på norsk.\ndate: 2026-03-01\ntopic: tools\n---\n\nOversatt.\n');
    const translated = await build('--out', 'out');
    expect(translated.rendered).toBeGreaterThan(0);
    expect(translated.rendered).toBeLessThan(translated.pages);
    await expectSameAsCold();
  });
});

describe('site build with nothing changed', () => {
  let temp: TempSite;
  beforeAll(async () => {
    // The templates and public/ copied too, so the test can edit them.
    temp = await createTempSite({ editConfig: (text) => text.replace(/^  templates: .*$/m, '  templates: templates').replace(/^  public: .*$/m, '  public: public') });
    await cp(join(repoRoot, 'templates'), join(temp.dir, 'templates'), { recursive: true });
    await cp(join(repoRoot, 'public'), join(temp.dir, 'public'), { recursive: true });
  });
  afterAll(() => temp?.cleanup());
  const { build, expectSameAsCold, edit } = builds(() => temp.dir);
  const entries = 9;
  const outputOf = async () => {
    const dir = join(temp.dir, 'out');
    return new Map(await Promise.all((await listFiles(dir)).map(async (file) => [file, await readFile(join(dir, file))] as const)));
  };

  it('keeps every entry and renders nothing, leaving the output byte for byte as it was', async () => {
    await settle();
    // The first build records the entries' stamps and the pages expanded from them; the next one
    // takes every entry from them, and the pages, and renders none.
    const recorded = await build('--out', 'out');
    expect(recorded).toMatchObject({ rendered: recorded.pages, kept: 0, pageSet: 'expanded' });
    const before = await outputOf();
    const again = await build('--out', 'out');
    // The pages too are taken as the build before expanded them, with the warnings it gave
    // (a post not translated into Norwegian): the same, at the same places.
    expect(again).toMatchObject({ rendered: 0, written: 0, kept: entries, pageSet: 'kept' });
    expect(again.warnings.some((line) => line.includes('ENTRY_UNTRANSLATED'))).toBe(true);
    expect(again.warnings).toEqual(recorded.warnings);
    expect(await outputOf()).toEqual(before);
    await expectSameAsCold();
  }, 180_000);

  it('writes a social image again when its file is gone or changed, and leaves the others as they are', async () => {
    await settle();
    await build('--out', 'out');
    const social = (await listFiles(join(temp.dir, 'out'))).filter((file) => file.startsWith('_social/'));
    expect(social.length).toBeGreaterThan(2);
    await rm(join(temp.dir, 'out', social[0]!));
    await writeFile(join(temp.dir, 'out', social[1]!), 'not a png');
    const rebuilt = await build('--out', 'out');
    expect(rebuilt).toMatchObject({ rendered: 0, written: 2 });
    await expectSameAsCold();
  });

  it('finds files added to the output since its last write, in any folder, without listing the unchanged ones', async () => {
    // Two builds: the second records what each page reads, and the stamps of the output's files and folders.
    await build('--out', 'out');
    await settle();
    await build('--out', 'out');
    const out = join(temp.dir, 'out');
    await writeFile(join(out, 'stray.txt'), 'added by hand');
    await writeFile(join(out, 'blog', slug, 'stray.txt'), 'added by hand');
    await mkdir(join(out, 'new-folder', 'inner'), { recursive: true });
    await writeFile(join(out, 'new-folder', 'inner', 'stray.txt'), 'added by hand');
    const rebuilt = await build('--out', 'out');
    expect(rebuilt.rendered).toBe(0);
    // The output is the build's own (its marker says so): what the build does not make goes.
    await expectSameAsCold();
  });

  it('draws every social image again with a new logo', async () => {
    await settle();
    await build('--out', 'out');
    const before = await outputOf();
    await edit(join(temp.dir, 'public', 'logo.svg'), '</svg>', '<circle cx="4" cy="4" r="3"/></svg>');
    await build('--out', 'out');
    const after = await outputOf();
    const social = [...after.keys()].filter((file) => file.startsWith('_social/') && file.endsWith('.png'));
    expect(social.length).toBeGreaterThan(2);
    expect(social.filter((file) => !after.get(file)!.equals(before.get(file)!))).toEqual(social);
    await expectSameAsCold();
  });

  it('renders an edit of the same size whose modification time was put back', async () => {
    const file = join(temp.dir, 'content', 'blog', slug, 'en.md');
    const { mtimeNs, size } = await stat(file, { bigint: true });
    await edit(file, 'title: "Why repair beats recycling"', 'title: "Why fixing beats recycling"');
    // Put back to the nanosecond, as `touch -d` does: only the change time tells the edit now.
    await putBack(file, mtimeNs);
    expect(await stat(file, { bigint: true })).toMatchObject({ mtimeNs, size });
    const rebuilt = await build('--out', 'out');
    expect(rebuilt.kept).toBe(entries - 1);
    expect(rebuilt.rendered).toBeGreaterThan(0);
    expect(await readFile(join(temp.dir, 'out', 'blog', slug, 'index.html'), 'utf8')).toContain('Why fixing beats recycling');
    await expectSameAsCold();
  });

  it('renders every page after a template edit, the entries still kept', async () => {
    await settle();
    await build('--out', 'out');
    await edit(join(temp.dir, 'templates', 'layout', 'Footer.tsx'), '<footer className="site-footer">', '<footer className="site-footer" data-edited="">');
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
    await expect(failed).rejects.toMatchObject({ stderr: expect.stringMatching(/contact\/en\.yaml.*details\.phoneHours/) });
    await edit(contact, 'details: z.strictObject({ heading: text, text, phoneHours: text })', schema);
    expect((await build('--out', 'out')).rendered).toBe(0);
    await expectSameAsCold();
  });

  it('loads every entry again after an edit of the config they read, and keeps them after one they do not', async () => {
    // Posts say "Book a {minutes}-minute meeting": the booking's length is part of what an entry is loaded with.
    await edit(temp.config, /^  minutes: 30$/m, '  minutes: 45');
    const rebuilt = await build('--out', 'out');
    expect(rebuilt).toMatchObject({ kept: 0, rendered: rebuilt.pages });
    expect(await readFile(join(temp.dir, 'out', 'blog', 'repair-as-a-retail-service', 'index.html'), 'utf8')).toContain('45-minute meeting');
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
    await writeFile(join(folder, 'en.md'), '---\ntitle: "A brand new post"\ndescription: "Written during the test."\ndate: 2026-03-01\ncategory: circularity\nauthor: Test\n---\n\nHello.\n');
    const added = await build('--out', 'out');
    expect(added.kept).toBe(entries - 1);
    expect(await readFile(join(temp.dir, 'out', 'blog', 'a-brand-new-post', 'index.html'), 'utf8')).toContain('A brand new post');
    await expectSameAsCold();
  });

  it('loads an entry again when a file is added to its folder', async () => {
    await settle();
    await build('--out', 'out');
    const folder = join(temp.dir, 'content', 'blog', 'a-brand-new-post');
    await writeFile(join(folder, 'no.md'), '---\ntitle: "Et helt nytt innlegg"\ndescription: "Skrevet under testen."\ndate: 2026-03-01\ncategory: circularity\nauthor: Test\n---\n\nHei.\n');
    const added = await build('--out', 'out');
    expect(added.kept).toBe(entries - 1);
    expect(await readFile(join(temp.dir, 'out', 'no', 'blog', 'a-brand-new-post', 'index.html'), 'utf8')).toContain('Et helt nytt innlegg');
    await expectSameAsCold();
  });

  it('checks the links again when a file they lead to is gone, though no input changed', async () => {
    await edit(join(temp.dir, 'content', 'blog', 'a-brand-new-post', 'en.md'), 'Hello.', 'Hello, with [our logo](/logo.svg).');
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
    await edit(join(temp.dir, 'content', 'blog', 'a-brand-new-post', 'en.md'), '[our logo](/logo.svg)', '[a shop story](/shop/blog/a-day-in-a-tailor-shop/)');
    await settle();
    await build('--out', 'out');
    expect(await build('--out', 'out')).toMatchObject({ kept: entries, rendered: 0 });
    await edit(temp.config, '{ path: "/shop/blog/{slug}", template: BlogPost,', '{ path: "/shop/posts/{slug}", template: BlogPost,');
    await expect(build('--out', 'out')).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('LINK_BROKEN') });
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
