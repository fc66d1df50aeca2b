/**
 * `site build` into a folder an earlier build wrote renders only the pages whose inputs changed
 * (their read-sets are kept beside the build cache), and the folder ends up byte for byte what a
 * cold build with no cache writes: after an edited post, an added and a deleted post, an edited
 * message, copy edited with the pages rendered by a worker, and a page changed on disk behind the
 * build's back. The same holds for a site with other collections and a fallback chain (the engine
 * fixture): an entry translated, an entry of a second collection edited.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempSite, type TempSite } from '../helpers/fixture-site';
import { outputRoot, repoRoot } from '../helpers/paths';
import { listFiles } from '../helpers/site-files';

const run = promisify(execFile);
const slug = 'why-repair-beats-recycling';

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
    return { rendered, written, pages };
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

  it('renders every page into a new folder, then again once to learn what each reads, then none', async () => {
    const first = await build('--out', 'out');
    expect(first.rendered).toBe(first.pages);
    const second = await build('--out', 'out');
    expect(second.rendered).toBe(second.pages);
    expect(second.written).toBe(0);
    const third = await build('--out', 'out');
    expect(third.rendered).toBe(0);
    expect(third.written).toBe(0);
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
    await build('--out', 'out');
    await build('--out', 'out');
    expect((await build('--out', 'out')).rendered).toBe(0);

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
