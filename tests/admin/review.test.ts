/**
 * Review before publishing in `site serve --admin` with `admin.review: true`: an editor's save of
 * a published post is checked but held (202), the file and the live page untouched, until an
 * admin approves it (written through the save: live, audited with the note, kept in the history)
 * or rejects it (nothing written). New posts, drafts and admins' saves are written at once.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLiveAdminServer } from '../helpers/admin-server';
import type { TempSite } from '../helpers/fixture-site';
import { auditEntries } from '../helpers/store';

const admin = { email: 'admin@example.com', role: 'admin' as const, password: 'admin password 1' };
const editor = { email: 'editor@example.com', role: 'editor' as const, password: 'editor password 1' };
const slug = 'a-day-in-a-tailor-shop';

interface Post {
  frontMatter: Record<string, unknown>;
  body: string;
  version: string;
  pending?: { id: string; by: string; at: string }[];
}

interface Listed {
  changes: { id: string; slug: string; locale: string; by: string; diff: string; stale: boolean }[];
}

describe('site serve --admin with admin.review: review before publishing', () => {
  let running: Awaited<ReturnType<typeof startLiveAdminServer>>;
  let site: TempSite;
  let server: Awaited<ReturnType<typeof startLiveAdminServer>>['server'];
  let asAdmin: { cookie: string; csrf: string };
  let asEditor: { cookie: string; csrf: string };
  const headers = (who: { cookie: string; csrf: string }, version?: string) => ({ cookie: who.cookie, origin: server.url, 'x-csrf-token': who.csrf, 'content-type': 'application/json', ...(version ? { 'if-match': `"${version}"` } : {}) });
  const get = async (path: string, who = asEditor) => server.send('GET', path, { headers: { cookie: who.cookie } });
  const post = async (path: string, who = asEditor) => (await get(path, who)).json() as Post;
  const retitle = async (path: string, title: string, who = asEditor) => {
    const now = await post(path, who);
    return server.send('PUT', path, { headers: headers(who, now.version), body: JSON.stringify({ frontMatter: { ...now.frontMatter, title }, body: now.body }) });
  };
  const decide = (id: string, verb: 'approve' | 'reject', note?: string, who = asAdmin) => server.send('POST', `/api/admin/reviews/${id}/${verb}`, { headers: headers(who), body: JSON.stringify(note === undefined ? {} : { note }) });
  const audit = () => auditEntries(join(site.dir, 'data'));

  beforeAll(async () => {
    running = await startLiveAdminServer([admin, editor], {
      async prepare(temp) {
        await writeFile(temp.config, (await readFile(temp.config, 'utf8')).replace(/^admin:\n/m, 'admin:\n  review: true\n'));
      },
    });
    ({ site, server } = running);
    asAdmin = await server.signIn(admin.email, admin.password);
    asEditor = await server.signIn(editor.email, editor.password);
  }, 120_000);
  afterAll(() => running?.close());

  it('holds an editor\'s save of a published post until an admin approves it with a note', async () => {
    const path = `/api/admin/posts/${slug}/en`;
    const file = join(site.dir, 'content', 'blog', slug, 'en.md');
    const original = await readFile(file, 'utf8');
    // Checked like a save: a bad date is refused (422), and a stale version (409).
    const before = await post(path);
    const bad = await server.send('PUT', path, { headers: headers(asEditor, before.version), body: JSON.stringify({ frontMatter: { ...before.frontMatter, date: '2026-02-30' }, body: before.body }) });
    expect(bad.status).toBe(422);
    expect((await server.send('PUT', path, { headers: headers(asEditor, 'stale'), body: JSON.stringify({ frontMatter: before.frontMatter, body: before.body }) })).status).toBe(409);

    await retitle(path, 'A first try');
    const held = await retitle(path, 'A day in a quiet tailor shop');
    expect(held.status).toBe(202);
    const { pending } = held.json() as { pending: { id: string; at: string } };
    expect(await readFile(file, 'utf8')).toBe(original);
    expect((await server.send('GET', `/blog/${slug}/`)).text).not.toContain('quiet tailor shop');

    // The entry, the posts list and the review list show it: one change per author and entry.
    expect((await post(path)).pending).toEqual([{ id: pending.id, by: editor.email, at: pending.at }]);
    const listed = (await get('/api/admin/posts')).json() as { slug: string; translations: Record<string, { pending?: boolean }> }[];
    expect(listed.find((each) => each.slug === slug)?.translations.en?.pending).toBe(true);
    const { changes } = (await get('/api/admin/reviews', asAdmin)).json() as Listed;
    expect(changes).toMatchObject([{ id: pending.id, slug, locale: 'en', by: editor.email, stale: false }]);
    expect(changes[0]!.diff).toContain('-title: "A day in a tailor shop"\n+title: "A day in a quiet tailor shop"');

    // Only an admin decides.
    expect((await decide(pending.id, 'approve', undefined, asEditor)).status).toBe(403);
    const approved = await decide(pending.id, 'approve', 'Looks good');
    expect(approved.status).toBe(200);
    expect(await readFile(file, 'utf8')).toContain('title: "A day in a quiet tailor shop"');
    expect((await server.send('GET', `/blog/${slug}/`)).text).toContain('A day in a quiet tailor shop');
    expect(await audit()).toContainEqual(expect.objectContaining({ user: admin.email, action: 'review-approve', slug, locale: 'en', change: pending.id, author: editor.email, note: 'Looks good' }));
    // The changes view names it in words: whose change, and the note.
    const { items } = (await get('/api/admin/changes', asAdmin)).json() as { items: Record<string, unknown>[] };
    expect(items).toContainEqual(expect.objectContaining({ action: 'review-approve', user: admin.email, slug, author: editor.email, note: 'Looks good' }));
    const { versions } = (await get(`${path}/history`)).json() as { versions: { by: string; summary: string }[] };
    expect(versions[0]).toMatchObject({ by: admin.email, summary: 'title' });
    expect((await post(path)).pending).toEqual([]);
    expect((await decide(pending.id, 'reject')).status).toBe(409);
  });

  it('rejects a change, writing nothing, and refuses to approve one whose file changed since (409)', async () => {
    const path = `/api/admin/posts/${slug}/no`;
    const file = join(site.dir, 'content', 'blog', slug, 'no.md');
    const first = (await retitle(path, 'Avvist tittel')).json() as { pending: { id: string } };
    const text = await readFile(file, 'utf8');
    const rejected = await decide(first.pending.id, 'reject', 'Not this one');
    expect(rejected.status).toBe(200);
    expect(await readFile(file, 'utf8')).toBe(text);
    expect(await audit()).toContainEqual(expect.objectContaining({ action: 'review-reject', change: first.pending.id, note: 'Not this one' }));

    const second = (await retitle(path, 'Ventende tittel')).json() as { pending: { id: string } };
    // An admin's save is never held: the file moves on.
    expect((await retitle(path, 'Admins tittel', asAdmin)).status).toBe(200);
    expect(((await get('/api/admin/reviews', asAdmin)).json() as Listed).changes).toMatchObject([{ id: second.pending.id, stale: true }]);
    expect((await decide(second.pending.id, 'approve')).status).toBe(409);
    expect(await readFile(file, 'utf8')).toContain('Admins tittel');
  });

  it('writes new posts and drafts at once', async () => {
    const path = '/api/admin/posts/a-draft-post/en';
    const frontMatter = { title: 'A draft', description: 'Not out yet.', date: '2026-01-15', category: 'circularity', author: 'Test Author', draft: true };
    const created = await server.send('POST', '/api/admin/posts', { headers: headers(asEditor), body: JSON.stringify({ slug: 'a-draft-post', locale: 'en', frontMatter, body: '\nHello.\n' }) });
    expect(created.status).toBe(201);
    expect((await retitle(path, 'A better draft')).status).toBe(200);
    expect(await readFile(join(site.dir, 'content', 'blog', 'a-draft-post', 'en.md'), 'utf8')).toContain('A better draft');
  });
});

describe('site serve --admin without admin.review', () => {
  it('writes an editor\'s save of a published post at once, as before', async () => {
    const running = await startLiveAdminServer([editor]);
    try {
      const { server, site } = running;
      const who = await server.signIn(editor.email, editor.password);
      const path = `/api/admin/posts/${slug}/en`;
      const now = (await server.send('GET', path, { headers: { cookie: who.cookie } })).json() as Post;
      expect(now.pending).toBeUndefined();
      const saved = await server.send('PUT', path, { headers: { cookie: who.cookie, origin: server.url, 'x-csrf-token': who.csrf, 'content-type': 'application/json', 'if-match': `"${now.version}"` }, body: JSON.stringify({ frontMatter: { ...now.frontMatter, title: 'Saved at once' }, body: now.body }) });
      expect(saved.status).toBe(200);
      expect(await readFile(join(site.dir, 'content', 'blog', slug, 'en.md'), 'utf8')).toContain('Saved at once');
      expect((await server.send('GET', '/api/admin/reviews', { headers: { cookie: who.cookie } })).json()).toEqual({ changes: [] });
    } finally {
      await running.close();
    }
  }, 120_000);
});
