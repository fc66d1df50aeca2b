/**
 * Publishing the admin's saves to git (`publish.git`): the saved file alone is committed, authored
 * by the admin, with a message naming the post, and pushed; a failed push is reported and the
 * saved file stays.
 */
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempSite, type TempSite } from '../helpers/fixture-site';
import { startAdminServer } from '../helpers/admin-server';
import { auditEntries } from '../helpers/store';

const run = promisify(execFile);
const editor = { email: 'editor@example.com', role: 'editor' as const, password: 'editor password 1' };
const admin = { email: 'admin@example.com', role: 'admin' as const, password: 'admin password 1' };
const slug = 'a-day-in-a-tailor-shop';
const identity = {
  GIT_AUTHOR_NAME: 'Setup',
  GIT_AUTHOR_EMAIL: 'setup@example.com',
  GIT_COMMITTER_NAME: 'Setup',
  GIT_COMMITTER_EMAIL: 'setup@example.com',
};

describe('site serve --admin with publish.git', () => {
  let site: TempSite;
  let remote: string;
  let server: Awaited<ReturnType<typeof startAdminServer>>;
  let auth: { cookie: string; csrf: string };
  const git = async (args: string[], cwd = site.dir) =>
    (await run('git', args, { cwd, env: { ...process.env, ...identity } })).stdout.trim();
  const edit = async (title: string) => {
    const post = (await server.send('GET', `/api/admin/posts/${slug}/en`, { headers: { cookie: auth.cookie } })).json();
    const headers = {
      cookie: auth.cookie,
      origin: server.url,
      'x-csrf-token': auth.csrf,
      'content-type': 'application/json',
      'if-match': `"${post.version}"`,
    };
    return server.send('PUT', `/api/admin/posts/${slug}/en`, {
      headers,
      body: JSON.stringify({ frontMatter: { ...post.frontMatter, title }, body: post.body }),
    });
  };

  beforeAll(async () => {
    site = await createTempSite({ editConfig: (text) => `${text}\npublish:\n  git: { commit: true, push: true }\n` });
    remote = join(site.dir, '..', `${site.dir.split('/').at(-1)}-remote.git`);
    await run('git', ['init', '--quiet', '--bare', remote]);
    await git(['init', '--quiet', '--initial-branch', 'main']);
    await writeFile(join(site.dir, '.gitignore'), '.site/\ndata/\n');
    await git(['add', '-A']);
    await git(['commit', '--quiet', '-m', 'initial']);
    await git(['remote', 'add', 'origin', remote]);
    await git(['push', '--quiet', 'origin', 'HEAD:refs/heads/main']);
    server = await startAdminServer({
      users: [editor, admin],
      configPath: site.config,
      projectRoot: site.dir,
      posts: true,
      settings: true,
      media: true,
    });
    auth = await server.signIn(editor.email, editor.password);
  });
  afterAll(async () => {
    await server?.close();
    await site?.cleanup();
    await run('rm', ['-rf', remote]);
  });

  it('commits a settings change (site.config.yaml alone) as the admin, naming what changed', async () => {
    const asAdmin = await server.signIn(admin.email, admin.password);
    const { version } = (
      await server.send('GET', '/api/admin/settings', { headers: { cookie: asAdmin.cookie } })
    ).json() as { version: string };
    const saved = await server.send('PUT', '/api/admin/settings', {
      headers: {
        cookie: asAdmin.cookie,
        origin: server.url,
        'x-csrf-token': asAdmin.csrf,
        'content-type': 'application/json',
        'if-match': `"${version}"`,
      },
      body: JSON.stringify({ changes: [{ path: 'booking.minutes', value: 45 }] }),
    });
    expect(saved.status).toBe(200);
    expect(saved.json().git).toMatchObject({ committed: true, pushed: true });
    expect(await git(['log', '-1', '--format=%an|%ae|%s'])).toBe(
      'admin|admin@example.com|content(settings): update booking.minutes',
    );
    expect(await git(['show', '--name-only', '--format=', 'HEAD'])).toBe('site.config.yaml');
  });

  it('commits the saved file alone, as the admin, and pushes it', async () => {
    // A change of someone else's in the working tree stays out of the commit.
    const other = join(site.dir, 'content', 'blog', 'building-a-local-repair-network', 'en.md');
    await writeFile(other, `${await readFile(other, 'utf8')}\nA local change.\n`);
    const saved = await edit('A day in a busy tailor shop');
    expect(saved.status).toBe(200);
    expect(saved.json().git).toMatchObject({ committed: true, pushed: true });
    const commit = saved.json().git.commit as string;
    expect(await git(['log', '-1', '--format=%H|%an|%ae|%s'])).toBe(
      `${commit}|editor|editor@example.com|content(blog): update ${slug} (en)`,
    );
    expect(await git(['show', '--name-only', '--format=', 'HEAD'])).toBe(`content/blog/${slug}/en.md`);
    expect(await git(['status', '--porcelain'])).toBe('M content/blog/building-a-local-repair-network/en.md');
    expect(await git(['log', '-1', '--format=%H', 'main'], remote)).toBe(commit);
  });

  it('commits a restore as it commits a save: the post as the version had it, pushed', async () => {
    const path = `/api/admin/posts/${slug}/en`;
    const before = await git(['show', `HEAD:content/blog/${slug}/en.md`]);
    const saved = await edit('A title taken back');
    expect(saved.status).toBe(200);
    const { versions } = (await server.send('GET', `${path}/history`, { headers: { cookie: auth.cookie } })).json() as {
      versions: { id: string }[];
    };
    const headers = {
      cookie: auth.cookie,
      origin: server.url,
      'x-csrf-token': auth.csrf,
      'content-type': 'application/json',
      'if-match': `"${saved.json().version}"`,
    };
    const restored = await server.send('POST', `${path}/restore`, {
      headers,
      body: JSON.stringify({ version: versions[0]!.id }),
    });
    expect(restored.status).toBe(200);
    expect(restored.json().git).toMatchObject({ committed: true, pushed: true });
    expect(await git(['log', '-1', '--format=%an|%s'])).toBe(`editor|content(blog): update ${slug} (en)`);
    expect(await git(['show', `HEAD:content/blog/${slug}/en.md`])).toBe(before);
    expect(await git(['log', '-1', '--format=%H', 'main'], remote)).toBe(restored.json().git.commit);
  });

  it("commits a media library save (the image's sidecar alone) as the editor who made it", async () => {
    const headers = {
      cookie: auth.cookie,
      origin: server.url,
      'x-csrf-token': auth.csrf,
      'content-type': 'application/json',
    };
    const { images } = (await server.send('GET', '/api/admin/media', { headers: { cookie: auth.cookie } })).json() as {
      images: { id: string; file: string; version: string }[];
    };
    const cover = images.find((image) => image.file === 'cover.jpg')!;
    const saved = await server.send('PUT', `/api/admin/media/${cover.id}`, {
      headers: { ...headers, 'if-match': `"${cover.version}"` },
      body: JSON.stringify({ alt: { en: 'A mended jacket' }, focus: { x: 0.4, y: 0.5 } }),
    });
    expect(saved.status).toBe(200);
    expect(saved.json().git).toMatchObject({ committed: true, pushed: true });
    expect(await git(['log', '-1', '--format=%an|%ae|%s'])).toBe(
      'editor|editor@example.com|content(media): update cover.jpg',
    );
    expect(await git(['show', '--name-only', '--format=', 'HEAD'])).toBe(
      'content/blog/why-repair-beats-recycling/cover.jpg.yaml',
    );
  });

  it('reports a failed push, and keeps the commit and the saved file', async () => {
    await git(['remote', 'set-url', 'origin', join(site.dir, 'no-such-remote.git')]);
    const saved = await edit('Saved while the remote is gone');
    expect(saved.status).toBe(200);
    expect(saved.json().git).toMatchObject({
      committed: true,
      pushed: false,
      error: expect.stringContaining('the push failed'),
    });
    expect(await readFile(join(site.dir, 'content', 'blog', slug, 'en.md'), 'utf8')).toContain(
      'Saved while the remote is gone',
    );
    const log = await auditEntries(join(site.dir, 'data'));
    expect(log.at(-1)).toMatchObject({ user: editor.email, action: 'git-failed', slug, locale: 'en', pushed: false });
  });
});
