/**
 * History and restore in `site serve --admin`: each save of a post, a page's copy or the settings
 * keeps the previous bytes in the store; `…/history` lists them newest first, `…/history/<id>`
 * gives one with its diff against the file now, and `…/restore` saves them again through the
 * item's own save (If-Match, audit `restore`, the live rebuild, itself kept as a version). Settings
 * are for admins only; the store keeps at most 50 versions of an item.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHistory, keptVersions } from '../../src/admin/history';
import { startLiveAdminServer } from '../helpers/admin-server';
import type { TempSite } from '../helpers/fixture-site';
import { auditEntries, storeIn, tempStore } from '../helpers/store';

const admin = { email: 'admin@example.com', role: 'admin' as const, password: 'admin password 1' };
const editor = { email: 'editor@example.com', role: 'editor' as const, password: 'editor password 1' };
const slug = 'a-day-in-a-tailor-shop';

interface Listed {
  versions: { id: string; by: string; at: string; summary: string }[];
}

describe('site serve --admin: history and restore', () => {
  let running: Awaited<ReturnType<typeof startLiveAdminServer>>;
  let site: TempSite;
  let server: Awaited<ReturnType<typeof startLiveAdminServer>>['server'];
  let asAdmin: { cookie: string; csrf: string };
  let asEditor: { cookie: string; csrf: string };
  const headers = (who: { cookie: string; csrf: string }, version?: string) => ({
    cookie: who.cookie,
    origin: server.url,
    'x-csrf-token': who.csrf,
    'content-type': 'application/json',
    ...(version ? { 'if-match': `"${version}"` } : {}),
  });
  const get = async (path: string, who = asEditor) => server.send('GET', path, { headers: { cookie: who.cookie } });
  const restore = (path: string, version: string, current?: string, who = asEditor) =>
    server.send('POST', `${path}/restore`, { headers: headers(who, current), body: JSON.stringify({ version }) });

  beforeAll(async () => {
    running = await startLiveAdminServer([admin, editor]);
    ({ site, server } = running);
    asAdmin = await server.signIn(admin.email, admin.password);
    asEditor = await server.signIn(editor.email, editor.password);
  }, 120_000);
  afterAll(() => running?.close());

  it("keeps a post's previous text at each save, shows its diff, and restores it as a new, audited, live save", async () => {
    const path = `/api/admin/posts/${slug}/en`;
    const file = join(site.dir, 'content', 'blog', slug, 'en.md');
    const original = await readFile(file, 'utf8');
    expect((await get(`${path}/history`)).json()).toEqual({ versions: [] });
    const post = (await get(path)).json() as { frontMatter: Record<string, unknown>; body: string; version: string };
    const saved = await server.send('PUT', path, {
      headers: headers(asEditor, post.version),
      body: JSON.stringify({
        frontMatter: { ...post.frontMatter, title: 'A day in a busy tailor shop' },
        body: `${post.body}\nOne more line.\n`,
      }),
    });
    expect(saved.status).toBe(200);
    const edited = await readFile(file, 'utf8');

    const { versions } = (await get(`${path}/history`)).json() as Listed;
    expect(versions).toEqual([
      {
        id: expect.any(String),
        by: editor.email,
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        summary: 'title, body',
        // What that save changed, in words: the field as the editor names it, the values as written.
        changes: [
          { label: 'Title', before: 'A day in a tailor shop', after: 'A day in a busy tailor shop' },
          { label: 'Text (Markdown)', before: expect.any(String), after: expect.stringContaining('One more line.') },
        ],
      },
    ]);
    const one = await get(`${path}/history/${versions[0]!.id}`);
    expect(one.status).toBe(200);
    const shown = one.json() as { files: Record<string, string>; diff: string };
    expect(shown.files).toEqual({ [`content/blog/${slug}/en.md`]: original });
    // What restoring it would change: the text now, then the version's.
    expect(shown.diff).toContain('-title: "A day in a busy tailor shop"\n+title: "A day in a tailor shop"');
    expect(shown.diff).toContain('-One more line.');
    expect((one.json() as { changes: unknown[] }).changes).toContainEqual({
      label: 'Title',
      before: 'A day in a busy tailor shop',
      after: 'A day in a tailor shop',
    });
    expect((await get(`${path}/history/999999`)).status).toBe(404);

    const { version: now } = saved.json() as { version: string };
    expect((await restore(path, versions[0]!.id)).status).toBe(428);
    expect((await restore(path, versions[0]!.id, post.version)).status).toBe(409);
    expect(await readFile(file, 'utf8')).toBe(edited);
    const restored = await restore(path, versions[0]!.id, now);
    expect(restored.status).toBe(200);
    expect(restored.headers.etag).toBe(`"${(restored.json() as { version: string }).version}"`);
    expect(await readFile(file, 'utf8')).toBe(original);
    // Live when answered: the served page has the old title again.
    expect((await server.send('GET', `/blog/${slug}/`)).text).toContain('A day in a tailor shop');
    expect(await auditEntries(join(site.dir, 'data'))).toContainEqual(
      expect.objectContaining({ user: editor.email, action: 'restore', slug, locale: 'en', version: versions[0]!.id }),
    );
    const after = ((await get(`${path}/history`)).json() as Listed).versions;
    expect(after).toHaveLength(2);
    expect(((await get(`${path}/history/${after[0]!.id}`)).json() as { files: Record<string, string> }).files).toEqual({
      [`content/blog/${slug}/en.md`]: edited,
    });
    // The files are already as that version has them.
    expect((await restore(path, versions[0]!.id, (restored.json() as { version: string }).version)).status).toBe(400);
  });

  it('refuses a version the site check finds wrong now (422), writing nothing', async () => {
    const path = `/api/admin/posts/${slug}/no`;
    const file = join(site.dir, 'content', 'blog', slug, 'no.md');
    const before = await readFile(file, 'utf8');
    // A version kept before the developer's config stopped allowing what it says.
    const source = await storeIn(join(site.dir, 'data'));
    try {
      await createHistory(source).record('entry', `blog/${slug}/no`, editor.email, 'date', {
        [`content/blog/${slug}/no.md`]: before.replace(/^date: .*$/m, 'date: 2026-02-30'),
      });
    } finally {
      await source.close();
    }
    const [version] = ((await get(`${path}/history`)).json() as Listed).versions;
    const { version: now } = (await get(path)).json() as { version: string };
    const refused = await restore(path, version!.id, now);
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.json())).toContain('date');
    expect(await readFile(file, 'utf8')).toBe(before);
    expect(((await get(`${path}/history`)).json() as Listed).versions).toHaveLength(1);
  });

  it("keeps a page's copy at each save and restores it", async () => {
    const path = '/api/admin/pages/landing/no';
    const file = join(site.dir, 'content', 'pages', 'landing', 'no.yaml');
    const original = await readFile(file, 'utf8');
    const { version } = (await get(path)).json() as { version: string };
    const saved = await server.send('PUT', path, {
      headers: headers(asEditor, version),
      body: JSON.stringify({ changes: [{ key: 'hero.heading', value: 'Ny overskrift' }] }),
    });
    expect(saved.status).toBe(200);
    const { versions } = (await get(`${path}/history`)).json() as Listed;
    expect(versions).toMatchObject([
      {
        by: editor.email,
        summary: 'hero.heading',
        changes: [{ label: 'Hero › Heading', before: expect.any(String), after: 'Ny overskrift' }],
      },
    ]);
    expect(((await get(`${path}/history/${versions[0]!.id}`)).json() as { diff: string }).diff).toContain(
      '-  heading: Ny overskrift',
    );
    const restored = await restore(path, versions[0]!.id, (saved.json() as { version: string }).version);
    expect(restored.status).toBe(200);
    expect(await readFile(file, 'utf8')).toBe(original);
    expect((await server.send('GET', '/no/')).text).toContain('Gjør reparasjon til det enkle valget');
    expect(await auditEntries(join(site.dir, 'data'))).toContainEqual(
      expect.objectContaining({
        action: 'restore',
        page: 'landing',
        locale: 'no',
        version: versions[0]!.id,
        paths: ['hero.heading'],
      }),
    );
    expect(((await get(`${path}/history`)).json() as Listed).versions).toHaveLength(2);
  });

  it("keeps the settings' files at each save; only admins see or restore them", async () => {
    const settings = async () => (await get('/api/admin/settings', asAdmin)).json() as { version: string };
    const original = await readFile(site.config, 'utf8');
    const saved = await server.send('PUT', '/api/admin/settings', {
      headers: headers(asAdmin, (await settings()).version),
      body: JSON.stringify({ changes: [{ path: 'booking.minutes', value: 45 }] }),
    });
    expect(saved.status).toBe(200);
    expect((await get('/api/admin/settings/history')).status).toBe(403);
    const { versions } = (await get('/api/admin/settings/history', asAdmin)).json() as Listed;
    expect(versions).toMatchObject([
      {
        by: admin.email,
        summary: 'booking.minutes',
        changes: [{ label: 'Meeting booking: meeting length (minutes)', after: '45' }],
      },
    ]);
    expect(
      ((await get(`/api/admin/settings/history/${versions[0]!.id}`, asAdmin)).json() as { changes: unknown[] }).changes,
    ).toEqual([{ label: 'Meeting booking: meeting length (minutes)', before: '45', after: expect.any(String) }]);
    const { version } = await settings();
    expect((await restore('/api/admin/settings', versions[0]!.id, version)).status).toBe(403);
    expect((await restore('/api/admin/settings', versions[0]!.id, 'stale', asAdmin)).status).toBe(409);
    const restored = await restore('/api/admin/settings', versions[0]!.id, version, asAdmin);
    expect(restored.status).toBe(200);
    expect(await readFile(site.config, 'utf8')).toBe(original);
    expect(await auditEntries(join(site.dir, 'data'))).toContainEqual(
      expect.objectContaining({
        user: admin.email,
        action: 'restore',
        version: versions[0]!.id,
        paths: ['booking.minutes'],
      }),
    );
  });
});

describe("the history's cap", () => {
  it(`keeps the newest ${keptVersions} versions of an item, and every other item's`, async () => {
    const source = await tempStore();
    try {
      const history = createHistory(source);
      for (let n = 1; n <= keptVersions + 2; n++)
        await history.record('entry', 'blog/a/en', 'anna@example.com', `save ${n}`, {
          'content/blog/a/en.md': `text ${n}`,
        });
      await history.record('entry', 'blog/b/en', 'anna@example.com', 'other', { 'content/blog/b/en.md': 'b' });
      const versions = await history.list('entry', 'blog/a/en');
      expect(versions).toHaveLength(keptVersions);
      expect(versions[0]!.summary).toBe(`save ${keptVersions + 2}`);
      expect(versions.at(-1)!.summary).toBe('save 3');
      expect(await history.list('entry', 'blog/b/en')).toHaveLength(1);
    } finally {
      await source.close();
    }
  });
});
