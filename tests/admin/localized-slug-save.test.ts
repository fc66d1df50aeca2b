/**
 * A localized slug changed in `site serve --admin` (issue 31): the rebuild after the save writes
 * the lock of published paths as `site build` would, the served site answers the old URL with a
 * 301 to the new one at once, and with `publish.git.commit` the lock goes into the save's commit.
 * A slug another post has in that language is refused before anything is written.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createLiveSite, type LiveSite } from '../../src/admin/live-site';
import { build, silentLogger } from '../../src/api';
import { startAdminServer } from '../helpers/admin-server';
import { fixturesRoot, outputRoot } from '../helpers/paths';

const run = promisify(execFile);
const editor = { email: 'editor@example.com', role: 'editor' as const, password: 'editor password 1' };
const identity = {
  GIT_AUTHOR_NAME: 'Setup',
  GIT_AUTHOR_EMAIL: 'setup@example.com',
  GIT_COMMITTER_NAME: 'Setup',
  GIT_COMMITTER_EMAIL: 'setup@example.com',
};

describe('a Norwegian slug changed through the admin of site serve', () => {
  let dir: string;
  let live: LiveSite;
  let server: Awaited<ReturnType<typeof startAdminServer>>;
  let auth: { cookie: string; csrf: string };
  const lockFile = () => join(dir, 'site.paths.lock.yaml');
  const git = async (args: string[]) =>
    (await run('git', args, { cwd: dir, env: { ...process.env, ...identity } })).stdout.trim();
  /** Saves the Norwegian translation of `slug` with its front matter's slug set to `newSlug` (and its body, when given). */
  const saveSlug = async (slug: string, newSlug: string, body?: string) => {
    const post = (await server.send('GET', `/api/admin/posts/${slug}/no`, { headers: { cookie: auth.cookie } })).json();
    const headers = {
      cookie: auth.cookie,
      origin: server.url,
      'x-csrf-token': auth.csrf,
      'content-type': 'application/json',
      'if-match': `"${post.version}"`,
    };
    return server.send('PUT', `/api/admin/posts/${slug}/no`, {
      headers,
      body: JSON.stringify({ frontMatter: { ...post.frontMatter, slug: newSlug }, body: body ?? post.body }),
    });
  };

  beforeAll(async () => {
    await mkdir(outputRoot, { recursive: true });
    dir = await mkdtemp(join(outputRoot, 'l10n-admin-'));
    await cp(join(fixturesRoot, 'l10n-site'), dir, { recursive: true });
    const config = join(dir, 'site.config.yaml');
    await writeFile(config, `${await readFile(config, 'utf8')}\npublish:\n  git: { commit: true }\n`);
    const dist = join(dir, 'dist');
    await build({ config, out: dist, logger: silentLogger, socialImages: false });
    await writeFile(join(dir, '.gitignore'), '.site/\ndata/\ndist/\n');
    await git(['init', '--quiet', '--initial-branch', 'main']);
    await git(['add', '-A']);
    await git(['commit', '--quiet', '-m', 'initial']);
    live = createLiveSite({ config, dir: dist });
    await live.start();
    server = await startAdminServer({
      users: [editor],
      configPath: config,
      projectRoot: dir,
      dir: dist,
      site: live,
      collection: 'news',
    });
    auth = await server.signIn(editor.email, editor.password);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await live?.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers the old URL with 301 to the new one at once, lists it in the lock, and commits the lock with the post', async () => {
    expect((await server.send('GET', '/no/blogg/hvorfor-reparere/')).status).toBe(200);
    const saved = await saveSlug('why-repair', 'derfor-reparerer-vi');
    expect(saved.status).toBe(200);
    expect(saved.json()).toMatchObject({ rebuilt: true, ok: true, git: { committed: true } });

    const old = await server.send('GET', '/no/blogg/hvorfor-reparere/');
    expect(old.status).toBe(301);
    expect(old.headers.location).toBe('/no/blogg/derfor-reparerer-vi/');
    expect((await server.send('GET', '/no/blogg/derfor-reparerer-vi/')).status).toBe(200);

    const lock = parse(await readFile(lockFile(), 'utf8')) as Record<string, unknown>;
    expect(lock['no /blog/why-repair']).toEqual({
      path: '/no/blogg/derfor-reparerer-vi',
      before: ['/no/blogg/hvorfor-reparere'],
    });
    // The save's commit holds the post, the lock and the translation's record (translations.ts).
    expect((await git(['show', '--name-only', '--format=', 'HEAD'])).split('\n').sort()).toEqual([
      'content/news/why-repair/.translations.json',
      'content/news/why-repair/no.md',
      'site.paths.lock.yaml',
    ]);
    expect(await git(['status', '--porcelain'])).toBe('');
  }, 60_000);

  it('refuses a slug another post has in the same language (422, PATH_COLLISION at slug), writing nothing', async () => {
    const taken = (
      await server.send('GET', '/api/admin/posts/why-repair/no', { headers: { cookie: auth.cookie } })
    ).json().frontMatter.slug as string;
    const [post, lock] = await Promise.all([
      readFile(join(dir, 'content', 'news', 'tools', 'no.md'), 'utf8'),
      readFile(lockFile(), 'utf8'),
    ]);
    const refused = await saveSlug('tools', taken);
    expect(refused.status).toBe(422);
    const [error] = refused.json().errors as {
      code: string;
      field: string;
      message: string;
      file: string;
      line: number | null;
    }[];
    expect(error).toMatchObject({
      code: 'PATH_COLLISION',
      field: 'slug',
      file: expect.stringMatching(/content\/news\/tools\/no\.md$/),
      line: 5,
    });
    expect(error!.message).toContain(`/no/blogg/${taken}/ is claimed by news entry`);
    expect(await readFile(join(dir, 'content', 'news', 'tools', 'no.md'), 'utf8')).toBe(post);
    expect(await readFile(lockFile(), 'utf8')).toBe(lock);
    expect((await server.send('GET', '/no/blogg/tools/')).status).toBe(200);
  }, 60_000);

  it('keeps no path of a refused save in the lock, even once a later save rebuilds the site', async () => {
    const refused = await saveSlug('tools', 'verktoy', 'Se [siden som ikke finnes](/no/finnes-ikke/).\n');
    expect(refused.status).toBe(422);
    expect((await saveSlug('why-repair', 'derfor-reparerer-vi', 'Tekst på norsk, litt lengre.\n')).status).toBe(200);
    expect(await readFile(lockFile(), 'utf8')).not.toContain('verktoy');
    expect((await server.send('GET', '/no/blogg/verktoy/')).status).toBe(404);
  }, 60_000);
});
