/**
 * One build path (issue 47): the admin's rebuilds run the output stages `site build` runs. On a
 * small site (a copy of tests/fixtures/engine-site whose `news` collection is its blog) with search
 * on, precompressed siblings and a site plugin with `buildEnd`, a save and a delete through the
 * admin API of `site serve --admin` leave the served folder byte for byte what a fresh `site build`
 * of the same sources writes into another folder: the search index finds the saved words and no
 * longer the deleted post's, and `buildEnd` ran for each rebuild. The island bundles are the same
 * though the build cache (a folder of the test's own) was filled first by the same site one folder
 * deeper: esbuild's names of the same bytes depend on where the inputs lie from the site, and
 * `site build` answered from the cache where the live site runs esbuild. `site dev` serves the
 * same search index from memory. The posts' index is in parts (`search.pagesPerPart: 1`), each
 * part made again only when its pages changed.
 */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveSite } from '../../src/admin/live-site';
import { build, silentLogger } from '../../src/api';
import { buildSite } from '../../src/build';
import { createDevBuilder } from '../../src/dev/rebuild';
import { startAdminServer, startLiveAdmin, writeHeaders } from '../helpers/admin-server';
import { fixturesRoot, outputRoot } from '../helpers/paths';
import { listFiles } from '../helpers/site-files';

const editor = { email: 'editor@fixture.example', role: 'editor' as const, password: 'a long enough password' };

/** A copy of the engine fixture with a blog, search, precompression and the pages-list plugin, in `dir` (default: a new folder). */
async function createSite(dir?: string): Promise<{ dir: string; config: string }> {
  await mkdir(outputRoot, { recursive: true });
  dir ??= await mkdtemp(join(outputRoot, 'one-build-path-'));
  await cp(join(fixturesRoot, 'engine-site'), dir, { recursive: true });
  await cp(join(fixturesRoot, 'plugins', 'pages-list.js'), join(dir, 'plugins', 'pages-list.js'));
  const configFile = join(dir, 'site.config.yaml');
  let config = await readFile(configFile, 'utf8');
  config = config
    .replace('list: news', 'list: blog')
    .replace('entry: news', 'entry: blog')
    .replace(/^ {2}news:\n/m, '  blog:\n    folder: news\n');
  config = config.replace(
    '  - { path: /, template: Home }\n',
    '  - { path: /, template: Home }\n  - { path: /search, template: Home }\n',
  );
  config = config.replace('output:\n  precompress: false', 'output:\n  precompress: true');
  // Its posts' index in parts (one page each at most), as a site with many posts has it.
  await writeFile(
    configFile,
    `${config}\nsearch:\n  enabled: true\n  pagesPerPart: 1\n\nplugins:\n  - ./plugins/pages-list.js\n`,
  );
  for (const locale of ['nb', 'de', 'en']) {
    const file = join(dir, 'content', 'messages', `${locale}.yaml`);
    await writeFile(file, (await readFile(file, 'utf8')).replace(/^news:/m, 'blog:'));
  }
  return { dir, config: configFile };
}

/** The text of every page the search index holds (Pagefind's fragments: gzip, a signature, then JSON), by URL. */
async function indexedText(dir: string): Promise<Map<string, string>> {
  const pages = new Map<string, string>();
  for (const file of (await listFiles(join(dir, 'pagefind'))).filter((name) => name.endsWith('.pf_fragment'))) {
    const fragment = gunzipSync(await readFile(join(dir, 'pagefind', file))).toString('utf8');
    const { url, content } = JSON.parse(fragment.slice(fragment.indexOf('{'))) as { url: string; content: string };
    pages.set(url, content);
  }
  return pages;
}

/** The files of `a` and `b` whose bytes differ, or that only one of them has. */
async function differences(a: string, b: string): Promise<string[]> {
  const [left, right] = await Promise.all([listFiles(a), listFiles(b)]);
  const all = [...new Set([...left, ...right])].sort();
  const differing: string[] = [];
  for (const file of all) {
    const [x, y] = await Promise.all([
      readFile(join(a, file)).catch(() => undefined),
      readFile(join(b, file)).catch(() => undefined),
    ]);
    if (!x || !y || !x.equals(y)) differing.push(file);
  }
  return differing;
}

describe('site serve --admin publishes what site build writes', () => {
  let site: { dir: string; config: string };
  let dist: string;
  let live: LiveSite;
  let server: Awaited<ReturnType<typeof startAdminServer>>;
  let auth: { cookie: string; csrf: string };
  let deeper: string;
  const runs = async () => (await readFile(join(site.dir, 'build-end.log'), 'utf8')).trim().split('\n').length;
  const headers = (version: string) => writeHeaders(server.url, auth, version);
  /** A fresh `site build` of the sources as they are now, into a folder of its own; the served folder is the same, file for file. */
  const expectSameAsFreshBuild = async () => {
    const fresh = join(site.dir, 'fresh');
    await rm(fresh, { recursive: true, force: true });
    await build({ config: site.config, out: fresh, logger: silentLogger });
    // Nothing is left out: the output marker is in both, and the render state, the build lock and the journal live beside the folders.
    expect(await differences(dist, fresh)).toEqual([]);
  };

  beforeAll(async () => {
    site = await createSite();
    process.env.SITE_CACHE_DIR = join(site.dir, '.cache');
    deeper = await mkdtemp(join(outputRoot, 'one-build-path-deeper-'));
    await buildSite({ config: (await createSite(join(deeper, 'one', 'more'))).config, socialImages: false });
    let published: number;
    ({ dist, live, server, published } = await startLiveAdmin(site, [editor], { build: { socialImages: true } }));
    expect(published).toBe(0);
    auth = await server.signIn(editor.email, editor.password);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await live?.dispose();
    delete process.env.SITE_CACHE_DIR;
    if (site) await rm(site.dir, { recursive: true, force: true });
    if (deeper) await rm(deeper, { recursive: true, force: true });
  });

  it('starts from the folder site build wrote, island bundles included: its search index, pages.txt of buildEnd and siblings', async () => {
    expect([...(await indexedText(dist)).keys()]).toContain('/en/aktuelt/english-only/');
    expect(await readFile(join(dist, 'pages.txt'), 'utf8')).toContain('/en/aktuelt/english-only/');
    expect((await listFiles(dist)).filter((file) => file.endsWith('.br')).length).toBeGreaterThan(10);
    // The build, and the live site's first run.
    expect(await runs()).toBe(2);
  });

  it('indexes a saved post within the save, runs buildEnd, and serves what site build writes', async () => {
    const post = (
      await server.send('GET', '/api/admin/posts/new-tool/en', { headers: { cookie: auth.cookie } })
    ).json();
    const saved = await server.send('PUT', '/api/admin/posts/new-tool/en', {
      headers: headers(post.version),
      body: JSON.stringify({ frontMatter: post.frontMatter, body: `${post.body}\nA zanzibarquux of a tool.\n` }),
    });
    expect(saved.status).toBe(200);
    expect(saved.json()).toMatchObject({ rebuilt: true, ok: true });
    expect((await indexedText(dist)).get('/en/aktuelt/new-tool/')).toContain('zanzibarquux');
    expect(await runs()).toBe(3);
    const search = await server.send('GET', '/pagefind/pagefind-entry.json');
    expect(search.status).toBe(200);
    const parts = (search.json() as { parts?: Record<string, { path: string }[]> }).parts ?? {};
    expect(Object.values(parts).flat().length).toBeGreaterThan(1);
    for (const { path } of Object.values(parts).flat())
      expect((await server.send('GET', `/pagefind/${path}pagefind-entry.json`)).status).toBe(200);
    await expectSameAsFreshBuild();
  });

  it('takes a deleted post out of the search index and out of what buildEnd wrote, within the delete', async () => {
    const post = (
      await server.send('GET', '/api/admin/posts/english-only/en', { headers: { cookie: auth.cookie } })
    ).json();
    const deleted = await server.send('DELETE', '/api/admin/posts/english-only/en', { headers: headers(post.version) });
    expect(deleted.status).toBe(200);
    expect(deleted.json()).toMatchObject({ deleted: true, rebuilt: true, ok: true });
    const indexed = await indexedText(dist);
    expect([...indexed.keys()].filter((url) => url.includes('english-only'))).toEqual([]);
    expect([...indexed.values()].filter((text) => text.includes('Only in English'))).toEqual([]);
    expect(await readFile(join(dist, 'pages.txt'), 'utf8')).not.toContain('english-only');
    expect((await server.send('GET', '/en/aktuelt/english-only/')).status).toBe(404);
    expect(await runs()).toBe(5);
    await expectSameAsFreshBuild();
  });
});

describe('site dev serves the search index site build writes', () => {
  it('makes it on first request, from every page, byte for byte', async () => {
    const site = await createSite();
    const dev = createDevBuilder({ config: site.config });
    try {
      expect((await dev.rebuild()).ok).toBe(true);
      const out = join(site.dir, 'built');
      await build({ config: site.config, out, socialImages: false, logger: silentLogger });
      const index = (await listFiles(out)).filter((file) => file.startsWith('pagefind/') && !/\.(br|gz)$/.test(file));
      expect(index.length).toBeGreaterThan(5);
      for (const file of index)
        expect(Buffer.from((await dev.served(file))!), file).toEqual(await readFile(join(out, file)));
      expect(await dev.served('pagefind/no-such-file.js')).toBeUndefined();
    } finally {
      await dev.dispose();
      await rm(site.dir, { recursive: true, force: true });
    }
  });
});
