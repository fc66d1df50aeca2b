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
  const headers = (who: { cookie: string; csrf: string }, version?: string) => ({
    cookie: who.cookie,
    origin: server.url,
    'x-csrf-token': who.csrf,
    'content-type': 'application/json',
    ...(version ? { 'if-match': `"${version}"` } : {}),
  });
  const get = async (path: string, who = asEditor) => server.send('GET', path, { headers: { cookie: who.cookie } });
  const post = async (path: string, who = asEditor) => (await get(path, who)).json() as Post;
  const retitle = async (path: string, title: string, who = asEditor) => {
    const now = await post(path, who);
    return server.send('PUT', path, {
      headers: headers(who, now.version),
      body: JSON.stringify({ frontMatter: { ...now.frontMatter, title }, body: now.body }),
    });
  };
  const decide = (id: string, verb: 'approve' | 'reject', note?: string, who = asAdmin) =>
    server.send('POST', `/api/admin/reviews/${id}/${verb}`, {
      headers: headers(who),
      body: JSON.stringify(note === undefined ? {} : { note }),
    });
  const audit = () => auditEntries(join(site.dir, 'data'));

  beforeAll(async () => {
    running = await startLiveAdminServer([admin, editor], {
      async prepare(temp) {
        await writeFile(
          temp.config,
          (await readFile(temp.config, 'utf8')).replace(/^admin:\n/m, 'admin:\n  review: true\n'),
        );
      },
    });
    ({ site, server } = running);
    asAdmin = await server.signIn(admin.email, admin.password);
    asEditor = await server.signIn(editor.email, editor.password);
  }, 120_000);
  afterAll(() => running?.close());

  it("holds an editor's save of a published post until an admin approves it with a note", async () => {
    const path = `/api/admin/posts/${slug}/en`;
    const file = join(site.dir, 'content', 'blog', slug, 'en.md');
    const original = await readFile(file, 'utf8');
    // Checked like a save: a bad date is refused (422), and a stale version (409).
    const before = await post(path);
    const bad = await server.send('PUT', path, {
      headers: headers(asEditor, before.version),
      body: JSON.stringify({ frontMatter: { ...before.frontMatter, date: '2026-02-30' }, body: before.body }),
    });
    expect(bad.status).toBe(422);
    expect(
      (
        await server.send('PUT', path, {
          headers: headers(asEditor, 'stale'),
          body: JSON.stringify({ frontMatter: before.frontMatter, body: before.body }),
        })
      ).status,
    ).toBe(409);

    await retitle(path, 'A first try');
    const held = await retitle(path, 'A day in a quiet tailor shop');
    expect(held.status).toBe(202);
    const { pending } = held.json() as { pending: { id: string; at: string } };
    expect(await readFile(file, 'utf8')).toBe(original);
    expect((await server.send('GET', `/blog/${slug}/`)).text).not.toContain('quiet tailor shop');

    // The entry, the posts list and the review list show it: one change per author and entry.
    expect((await post(path)).pending).toEqual([{ id: pending.id, by: editor.email, at: pending.at }]);
    const listed = (await get('/api/admin/posts')).json() as {
      slug: string;
      translations: Record<string, { pending?: boolean }>;
    }[];
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
    expect(await audit()).toContainEqual(
      expect.objectContaining({
        user: admin.email,
        action: 'review-approve',
        slug,
        locale: 'en',
        change: pending.id,
        author: editor.email,
        note: 'Looks good',
      }),
    );
    // The changes view names it in words: whose change, and the note.
    const { items } = (await get('/api/admin/changes', asAdmin)).json() as { items: Record<string, unknown>[] };
    expect(items).toContainEqual(
      expect.objectContaining({
        action: 'review-approve',
        user: admin.email,
        slug,
        author: editor.email,
        note: 'Looks good',
      }),
    );
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
    expect(await audit()).toContainEqual(
      expect.objectContaining({ action: 'review-reject', change: first.pending.id, note: 'Not this one' }),
    );

    const second = (await retitle(path, 'Ventende tittel')).json() as { pending: { id: string } };
    // An admin's save is never held: the file moves on.
    expect((await retitle(path, 'Admins tittel', asAdmin)).status).toBe(200);
    expect(((await get('/api/admin/reviews', asAdmin)).json() as Listed).changes).toMatchObject([
      { id: second.pending.id, stale: true },
    ]);
    expect((await decide(second.pending.id, 'approve')).status).toBe(409);
    expect(await readFile(file, 'utf8')).toContain('Admins tittel');
  });

  it("writes an editor's new drafts and their edits at once (nothing of them is on the site)", async () => {
    const path = '/api/admin/posts/a-draft-post/en';
    const frontMatter = {
      title: 'A draft',
      description: 'Not out yet.',
      date: '2026-01-15',
      category: 'circularity',
      author: 'Test Author',
      draft: true,
    };
    const created = await server.send('POST', '/api/admin/posts', {
      headers: headers(asEditor),
      body: JSON.stringify({ slug: 'a-draft-post', locale: 'en', frontMatter, body: '\nHello.\n' }),
    });
    expect(created.status).toBe(201);
    expect((await retitle(path, 'A better draft')).status).toBe(200);
    expect(await readFile(join(site.dir, 'content', 'blog', 'a-draft-post', 'en.md'), 'utf8')).toContain(
      'A better draft',
    );
  });

  // Issue 46: review covers every change of an editor that would change the public site, not only
  // saves of a published text.
  const held = (answer: { status: number; json(): any }) => {
    expect(answer.status).toBe(202);
    return (answer.json() as { pending: { id: string } }).pending.id;
  };
  const waiting = async (api: string, id: string) =>
    ((await get(`${api}/reviews`, asAdmin)).json() as { changes: Record<string, unknown>[] }).changes.find(
      (change) => change.id === id,
    );
  const exists = (file: string) =>
    readFile(file).then(
      () => true,
      () => false,
    );

  it("holds an editor's deletion of a published translation; the admin's approval deletes it", async () => {
    const name = 'sms-updates-that-customers-love';
    const path = `/api/admin/posts/${name}/no`;
    const file = join(site.dir, 'content', 'blog', name, 'no.md');
    const text = await readFile(file, 'utf8');
    const title = (await post(path)).frontMatter.title as string;
    const id = held(await server.send('DELETE', path, { headers: headers(asEditor, (await post(path)).version) }));
    expect(await readFile(file, 'utf8')).toBe(text);
    expect((await server.send('GET', `/no/blog/${name}/`)).text).toContain(title);
    expect((await post(path)).pending).toMatchObject([{ id, by: editor.email }]);
    const change = await waiting('/api/admin', id);
    expect(change).toMatchObject({ kind: 'delete', slug: name, locale: 'no', by: editor.email, stale: false });
    expect(change!.diff).toContain(`-title: ${text.match(/^title: (.*)$/m)![1]}`);

    expect((await decide(id, 'approve', 'Out of date')).status).toBe(200);
    expect(await exists(file)).toBe(false);
    expect((await server.send('GET', `/no/blog/${name}/`)).text).not.toContain(title);
    expect(await audit()).toContainEqual(
      expect.objectContaining({ user: admin.email, action: 'delete', slug: name, locale: 'no', review: id }),
    );
  });

  it("holds an editor's rename of a published post (and its redirects); the admin's approval renames it", async () => {
    const [from, to] = ['qr-codes-for-workwear-repairs', 'qr-codes-on-workwear'];
    const config = await readFile(site.config, 'utf8');
    const id = held(
      await server.send('POST', `/api/admin/posts/${from}/rename`, {
        headers: headers(asEditor),
        body: JSON.stringify({ slug: to }),
      }),
    );
    expect(await exists(join(site.dir, 'content', 'blog', from, 'en.md'))).toBe(true);
    expect(await exists(join(site.dir, 'content', 'blog', to))).toBe(false);
    expect(await readFile(site.config, 'utf8')).toBe(config);
    expect((await server.send('GET', `/blog/${from}/`)).status).toBe(200);
    expect(await waiting('/api/admin', id)).toMatchObject({
      kind: 'rename',
      slug: from,
      to,
      by: editor.email,
      stale: false,
    });

    const approved = await decide(id, 'approve');
    expect(approved.status).toBe(200);
    expect(approved.json()).toMatchObject({ slug: to });
    expect(await exists(join(site.dir, 'content', 'blog', to, 'en.md'))).toBe(true);
    expect(await readFile(site.config, 'utf8')).toContain(`to: /blog/${to}\n`);
    expect((await server.send('GET', `/blog/${to}/`)).status).toBe(200);
    expect(await audit()).toContainEqual(
      expect.objectContaining({ user: admin.email, action: 'rename', slug: from, to, review: id }),
    );
  });

  it('holds a new translation of a published post, a draft made public, a scheduled post moved to a past date, and new posts', async () => {
    // A new translation of a published post: the Norwegian page showed the English until now.
    const name = 'building-a-local-repair-network';
    const english = await post(`/api/admin/posts/${name}/en`);
    const frontMatter = { ...english.frontMatter, title: 'Et lokalt reparasjonsnettverk' };
    const created = await server.send('POST', '/api/admin/posts', {
      headers: headers(asEditor),
      body: JSON.stringify({ slug: name, locale: 'no', frontMatter, body: english.body }),
    });
    const id = held(created);
    expect(await exists(join(site.dir, 'content', 'blog', name, 'no.md'))).toBe(false);
    expect((await server.send('GET', `/no/blog/${name}/`)).text).not.toContain('Et lokalt reparasjonsnettverk');
    expect(await waiting('/api/admin', id)).toMatchObject({ kind: 'save', slug: name, locale: 'no', stale: false });
    expect((await decide(id, 'approve')).status).toBe(200);
    expect((await server.send('GET', `/no/blog/${name}/`)).text).toContain('Et lokalt reparasjonsnettverk');

    // A draft made public: written while a draft, held once `draft` goes.
    const draft = {
      title: 'Going public',
      description: 'Soon out.',
      date: '2026-01-15',
      category: 'circularity',
      author: 'Test Author',
      draft: true,
    };
    expect(
      (
        await server.send('POST', '/api/admin/posts', {
          headers: headers(asEditor),
          body: JSON.stringify({ slug: 'going-public', locale: 'en', frontMatter: draft, body: '\nHello.\n' }),
        })
      ).status,
    ).toBe(201);
    const draftFile = join(site.dir, 'content', 'blog', 'going-public', 'en.md');
    const { draft: _draft, ...published } = (await post('/api/admin/posts/going-public/en')).frontMatter;
    held(
      await server.send('PUT', '/api/admin/posts/going-public/en', {
        headers: headers(asEditor, (await post('/api/admin/posts/going-public/en')).version),
        body: JSON.stringify({ frontMatter: published, body: '\nHello.\n' }),
      }),
    );
    expect(await readFile(draftFile, 'utf8')).toContain('draft: true');
    expect((await server.send('GET', '/blog/going-public/')).status).toBe(404);

    // A post scheduled by an admin, moved to a past date by an editor.
    const later = {
      title: 'Later',
      description: 'Not yet.',
      date: '2099-01-01',
      category: 'circularity',
      author: 'Test Author',
    };
    expect(
      (
        await server.send('POST', '/api/admin/posts', {
          headers: headers(asAdmin),
          body: JSON.stringify({ slug: 'later-post', locale: 'en', frontMatter: later, body: '\nLater.\n' }),
        })
      ).status,
    ).toBe(201);
    const scheduled = await post('/api/admin/posts/later-post/en');
    held(
      await server.send('PUT', '/api/admin/posts/later-post/en', {
        headers: headers(asEditor, scheduled.version),
        body: JSON.stringify({ frontMatter: { ...scheduled.frontMatter, date: '2026-01-15' }, body: scheduled.body }),
      }),
    );
    expect(await readFile(join(site.dir, 'content', 'blog', 'later-post', 'en.md'), 'utf8')).toContain(
      'date: 2099-01-01',
    );
    expect((await server.send('GET', '/blog/later-post/')).status).toBe(404);

    // An editor's new post, out now or on a later day, waits too: it would appear without an admin.
    for (const [slug, date] of [
      ['out-now', '2026-01-15'],
      ['out-later', '2099-06-01'],
    ]) {
      held(
        await server.send('POST', '/api/admin/posts', {
          headers: headers(asEditor),
          body: JSON.stringify({ slug, locale: 'en', frontMatter: { ...later, date }, body: '\nNew.\n' }),
        }),
      );
      expect(await exists(join(site.dir, 'content', 'blog', slug!, 'en.md'))).toBe(false);
    }
  });

  it("holds an editor's page texts until an admin approves them; an admin's are written at once", async () => {
    const path = '/api/admin/pages/landing/no';
    const file = join(site.dir, 'content', 'pages', 'landing', 'no.yaml');
    const text = await readFile(file, 'utf8');
    const { version } = (await get(path)).json() as { version: string };
    const answer = await server.send('PUT', path, {
      headers: headers(asEditor, version),
      body: JSON.stringify({ changes: [{ key: 'hero.heading', value: 'Reparasjon, enkelt og greit' }] }),
    });
    const id = held(answer);
    expect(answer.json().pending).toMatchObject({ by: editor.email });
    expect(await readFile(file, 'utf8')).toBe(text);
    expect((await server.send('GET', '/no/')).text).not.toContain('Reparasjon, enkelt og greit');
    const change = await waiting('/api/admin/pages', id);
    expect(change).toMatchObject({ kind: 'save', slug: 'landing', locale: 'no', by: editor.email, stale: false });
    expect(change!.diff).toContain('+  heading: Reparasjon, enkelt og greit');
    // Editors see their own; only an admin decides.
    expect(
      ((await get('/api/admin/pages/reviews')).json() as { changes: { id: string }[] }).changes.map((each) => each.id),
    ).toContain(id);
    expect(
      (await server.send('POST', `/api/admin/pages/reviews/${id}/approve`, { headers: headers(asEditor), body: '{}' }))
        .status,
    ).toBe(403);

    const approved = await server.send('POST', `/api/admin/pages/reviews/${id}/approve`, {
      headers: headers(asAdmin),
      body: JSON.stringify({ note: 'Fine' }),
    });
    expect(approved.status).toBe(200);
    expect(await readFile(file, 'utf8')).toContain('heading: Reparasjon, enkelt og greit');
    expect((await server.send('GET', '/no/')).text).toContain('Reparasjon, enkelt og greit');
    expect(await audit()).toContainEqual(
      expect.objectContaining({ user: admin.email, action: 'page-copy', page: 'landing', locale: 'no', review: id }),
    );
    expect(await audit()).toContainEqual(
      expect.objectContaining({
        user: admin.email,
        action: 'review-approve',
        page: 'landing',
        locale: 'no',
        change: id,
        author: editor.email,
        note: 'Fine',
      }),
    );

    const now = (await get(path, asAdmin)).json() as { version: string };
    expect(
      (
        await server.send('PUT', path, {
          headers: headers(asAdmin, now.version),
          body: JSON.stringify({ changes: [{ key: 'hero.heading', value: 'Admins overskrift' }] }),
        })
      ).status,
    ).toBe(200);
  });

  it('lists every held change in one queue, in words, and decides it there; the per-API addresses keep working', async () => {
    const pagePath = '/api/admin/pages/hub/no';
    const { version } = (await get(pagePath)).json() as { version: string; fields: { key: string }[] };
    const first = (await get(pagePath)).json() as { fields: { key: string; value: unknown }[] };
    const key = first.fields.find((field) => typeof field.value === 'string')!.key;
    const pageId = held(
      await server.send('PUT', pagePath, {
        headers: headers(asEditor, version),
        body: JSON.stringify({ changes: [{ key, value: 'Køen sier det med ord' }] }),
      }),
    );
    const postId = held(await retitle(`/api/admin/posts/${slug}/en`, 'A day in a queued tailor shop'));
    type Queued = {
      id: string;
      kind: string;
      item: string;
      locale: string;
      by: string;
      at: string;
      diff: string;
      changes: { label: string; before: string; after: string }[];
    };
    const queue = async (who = asAdmin) =>
      ((await get('/api/admin/review-queue', who)).json() as { changes: Queued[] }).changes;
    const page = (await queue()).find((change) => change.id === pageId)!;
    expect(page).toMatchObject({ kind: 'page', item: 'hub', locale: 'no', by: editor.email, at: expect.any(String) });
    expect(page.changes).toEqual([
      { label: expect.any(String), before: expect.any(String), after: 'Køen sier det med ord' },
    ]);
    expect(page.diff).toContain('+');
    const entry = (await queue()).find((change) => change.id === postId)!;
    expect(entry).toMatchObject({ kind: 'entry', item: `blog/${slug}`, locale: 'en' });
    expect(entry.changes).toContainEqual({
      label: 'Title',
      before: expect.any(String),
      after: 'A day in a queued tailor shop',
    });
    // An editor sees their own changes, and decides none.
    expect((await queue(asEditor)).map((change) => change.id)).toEqual(expect.arrayContaining([pageId, postId]));
    expect(
      (
        await server.send('POST', `/api/admin/review-queue/${pageId}/approve`, {
          headers: headers(asEditor),
          body: '{}',
        })
      ).status,
    ).toBe(403);
    // Decided in the queue, with a note, through the page API's own code.
    const approved = await server.send('POST', `/api/admin/review-queue/${pageId}/approve`, {
      headers: headers(asAdmin),
      body: JSON.stringify({ note: 'From the queue' }),
    });
    expect(approved.status).toBe(200);
    expect(await readFile(join(site.dir, 'content', 'pages', 'hub', 'no.yaml'), 'utf8')).toContain(
      'Køen sier det med ord',
    );
    expect(await audit()).toContainEqual(
      expect.objectContaining({ action: 'review-approve', page: 'hub', change: pageId, note: 'From the queue' }),
    );
    // The post's change, still waiting, is decided at the blog's own address.
    expect((await decide(postId, 'reject', 'Not now')).status).toBe(200);
    expect((await queue()).map((change) => change.id)).not.toContain(postId);
    expect(
      (
        await server.send('POST', `/api/admin/review-queue/${postId}/approve`, {
          headers: headers(asAdmin),
          body: '{}',
        })
      ).status,
    ).toBe(409);
  });

  it("holds an editor's settings until an admin approves them from the queue", async () => {
    const before = await readFile(site.config, 'utf8');
    const settings = await get('/api/admin/settings');
    expect(settings.status).toBe(200);
    const { version } = settings.json() as { version: string };
    const id = held(
      await server.send('PUT', '/api/admin/settings', {
        headers: headers(asEditor, version),
        body: JSON.stringify({ changes: [{ path: 'booking.minutes', value: 45 }] }),
      }),
    );
    expect(await readFile(site.config, 'utf8')).toBe(before);
    const queued = (
      (await get('/api/admin/review-queue', asAdmin)).json() as { changes: Record<string, unknown>[] }
    ).changes.find((change) => change.id === id);
    expect(queued).toMatchObject({
      kind: 'settings',
      item: 'settings',
      by: editor.email,
      stale: false,
      changes: [{ label: 'Meeting booking: meeting length (minutes)', before: '30', after: '45' }],
    });
    expect(queued!.diff).toContain('+  minutes: 45');
    expect(((await get('/api/admin/settings/reviews')).json() as { changes: { id: string }[] }).changes).toEqual([
      expect.objectContaining({ id }),
    ]);
    const approved = await server.send('POST', `/api/admin/review-queue/${id}/approve`, {
      headers: headers(asAdmin),
      body: JSON.stringify({ note: 'Longer meetings' }),
    });
    expect(approved.status).toBe(200);
    expect(await readFile(site.config, 'utf8')).toContain('  minutes: 45\n');
    expect(await audit()).toContainEqual(
      expect.objectContaining({ action: 'settings', user: admin.email, review: id, paths: ['booking.minutes'] }),
    );
    expect(await audit()).toContainEqual(
      expect.objectContaining({ action: 'review-approve', change: id, author: editor.email, note: 'Longer meetings' }),
    );
  });

  it("holds an editor's alt text and focal point of an image until an admin approves them", async () => {
    const images = (
      (await get('/api/admin/media')).json() as {
        images: { id: string; file: string; version: string; alt: Record<string, string> }[];
      }
    ).images;
    const image = images.find((each) => each.file === 'cover.jpg')!;
    const sidecar = join(site.dir, 'content', 'blog', 'why-repair-beats-recycling', 'cover.jpg.yaml');
    const before = await readFile(sidecar, 'utf8').catch(() => undefined);
    const answer = await server.send('PUT', `/api/admin/media/${image.id}`, {
      headers: headers(asEditor, image.version),
      body: JSON.stringify({
        alt: { en: 'A patched green jacket', no: 'En lappet grønn jakke' },
        focus: { x: 0.3, y: 0.6 },
      }),
    });
    const id = held(answer);
    expect(await readFile(sidecar, 'utf8').catch(() => undefined)).toBe(before);
    expect(await waiting('/api/admin/media', id)).toMatchObject({
      kind: 'save',
      slug: image.id,
      name: 'cover.jpg',
      by: editor.email,
      stale: false,
    });
    expect(
      (await server.send('POST', `/api/admin/media/reviews/${id}/approve`, { headers: headers(asAdmin), body: '{}' }))
        .status,
    ).toBe(200);
    expect(await readFile(sidecar, 'utf8')).toContain('A patched green jacket');
    expect(await audit()).toContainEqual(
      expect.objectContaining({ user: admin.email, action: 'media-update', image: 'cover.jpg', review: id }),
    );
  });
});

describe('site serve --admin without admin.review', () => {
  it("writes an editor's save of a published post at once, as before", async () => {
    const running = await startLiveAdminServer([editor]);
    try {
      const { server, site } = running;
      const who = await server.signIn(editor.email, editor.password);
      const path = `/api/admin/posts/${slug}/en`;
      const now = (await server.send('GET', path, { headers: { cookie: who.cookie } })).json() as Post;
      expect(now.pending).toBeUndefined();
      const saved = await server.send('PUT', path, {
        headers: {
          cookie: who.cookie,
          origin: server.url,
          'x-csrf-token': who.csrf,
          'content-type': 'application/json',
          'if-match': `"${now.version}"`,
        },
        body: JSON.stringify({ frontMatter: { ...now.frontMatter, title: 'Saved at once' }, body: now.body }),
      });
      expect(saved.status).toBe(200);
      expect(await readFile(join(site.dir, 'content', 'blog', slug, 'en.md'), 'utf8')).toContain('Saved at once');
      expect((await server.send('GET', '/api/admin/reviews', { headers: { cookie: who.cookie } })).json()).toEqual({
        changes: [],
      });
    } finally {
      await running.close();
    }
  }, 120_000);
});
