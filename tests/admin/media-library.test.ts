/**
 * The media library of `site serve --admin` (`/api/admin/media…`): every image of every entry
 * folder listed once by the hash of its bytes with where it is used, reused in another entry (the
 * bytes and sidecar copied, the front matter value answered), its alt text per language and focal
 * point saved into the sidecar of every copy (If-Match: 428 without, 409 when stale), deleted only
 * when unused (409 with the uses), by an editor, audited; signed out it answers 401.
 */
import { access, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempSite, type TempSite } from '../helpers/fixture-site';
import { startAdminServer } from '../helpers/admin-server';
import { auditEntries } from '../helpers/store';

const editor = { email: 'editor@example.com', role: 'editor' as const, password: 'editor password 1' };
const postA = 'a-day-in-a-tailor-shop';
const postB = 'building-a-local-repair-network';
const postC = 'sms-updates-that-customers-love';

interface Listed {
  id: string;
  path: string;
  file: string;
  width: number;
  height: number;
  bytes: number;
  uses: { collection: string; slug: string; locale: string; title: string; imageAlt?: string }[];
  alt: Record<string, string>;
  focus: { x: number; y: number } | null;
  version: string;
}

describe('site serve --admin: the media library', () => {
  let site: TempSite;
  let server: Awaited<ReturnType<typeof startAdminServer>>;
  let auth: { cookie: string; csrf: string };
  let name: string;
  const folder = (slug: string) => join(site.dir, 'content', 'blog', slug);
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    server.send(method, `/api/admin/${path}`, {
      headers: {
        cookie: auth.cookie,
        origin: server.url,
        'x-csrf-token': auth.csrf,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const library = async () => ((await call('GET', 'media')).json() as { images: Listed[] }).images;
  const ours = async () => (await library()).find((image) => image.file === name)!;
  /** Names the image in a post's front matter (as the editor's save does). */
  const useIn = async (slug: string, locale: string) => {
    const file = join(folder(slug), `${locale}.md`);
    await writeFile(file, (await readFile(file, 'utf8')).replace(/^---\n/, `---\nimage: ${name}\n`));
  };
  const exists = (file: string) =>
    access(file).then(
      () => true,
      () => false,
    );

  beforeAll(async () => {
    site = await createTempSite();
    server = await startAdminServer({ users: [editor], configPath: site.config, projectRoot: site.dir, media: true });
    auth = await server.signIn(editor.email, editor.password);
    const photo = await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#2a6f4e' } })
      .jpeg()
      .toBuffer();
    const answer = await server.send('POST', `/api/admin/media?post=${postA}`, {
      headers: { cookie: auth.cookie, origin: server.url, 'content-type': 'image/jpeg', 'x-csrf-token': auth.csrf },
      body: photo,
    });
    name = (answer.json() as { path: string }).path;
    // The same bytes in a second entry's folder, put there by hand: one image of the library.
    await writeFile(join(folder(postB), name), photo);
    await useIn(postA, 'en');
    await useIn(postB, 'en');
  });
  afterAll(async () => {
    await server?.close();
    await site?.cleanup();
  });

  it("lists every image once, with its size and every entry that uses it, the site's own images too", async () => {
    const images = await library();
    expect(images.filter((image) => image.file === name)).toHaveLength(1);
    const image = await ours();
    expect(image).toMatchObject({ id: name.slice(0, 16), width: 1600, height: 900, alt: {}, focus: null });
    expect(image.bytes).toBeGreaterThan(0);
    expect(image.path).toContain(join('content', 'blog', postA, name));
    expect(image.uses.map((use) => `${use.slug}/${use.locale}`).sort()).toEqual([`${postA}/en`, `${postB}/en`]);
    expect(image.uses[0]!.title).toBe('A day in a tailor shop');
    const cover = images.find((candidate) => candidate.file === 'cover.jpg')!;
    expect(cover.uses.map((use) => use.locale).sort()).toEqual(['en', 'no']);
    expect(cover.uses.find((use) => use.locale === 'no')!.imageAlt).toMatch(/^Illustrasjon: /);
  });

  it('reuses an image in another entry: the bytes copied under the same name, the front matter value answered', async () => {
    const { id } = await ours();
    const answer = await call('POST', `media/${id}/use`, { collection: 'blog', slug: postC });
    expect(answer.status).toBe(200);
    expect(answer.json()).toMatchObject({ path: name });
    expect((await readFile(join(folder(postC), name))).equals(await readFile(join(folder(postA), name)))).toBe(true);
    // Still one image, unused by C until its front matter says so.
    expect((await library()).filter((image) => image.file === name)).toHaveLength(1);
    expect((await call('POST', `media/${id}/use`, { collection: 'blog', slug: 'no-such-post' })).status).toBe(404);
    expect((await call('POST', `media/${id}/use`, { collection: 'blog', slug: '../../etc' })).status).toBe(400);
  });

  it('saves alt text per language and a focal point into the sidecar of every copy, with If-Match (428 without, 409 when stale)', async () => {
    const image = await ours();
    const body = { alt: { en: 'A green workbench', no: 'En grønn arbeidsbenk' }, focus: { x: 0.25, y: 0.75 } };
    expect((await call('PUT', `media/${image.id}`, body)).status).toBe(428);
    const saved = await call('PUT', `media/${image.id}`, body, { 'if-match': `"${image.version}"` });
    expect(saved.status).toBe(200);
    const stale = await call(
      'PUT',
      `media/${image.id}`,
      { ...body, focus: null },
      { 'if-match': `"${image.version}"` },
    );
    expect(stale.status).toBe(409);
    for (const slug of [postA, postB, postC]) {
      const text = await readFile(join(folder(slug), `${name}.yaml`), 'utf8');
      expect(text).toContain('no: "En grønn arbeidsbenk"');
      expect(text).toContain('focus: { x: 0.25, y: 0.75 }');
    }
    expect(await ours()).toMatchObject({
      alt: body.alt,
      focus: body.focus,
      version: (saved.json() as { version: string }).version,
    });
    const wrong = await call(
      'PUT',
      `media/${image.id}`,
      { alt: { de: 'Eine Werkbank' }, focus: { x: 2, y: 0 } },
      { 'if-match': `"${(await ours()).version}"` },
    );
    expect(wrong.status).toBe(422);
  });

  it('deletes an image only when no entry uses it: 409 with the uses, then every copy and sidecar gone', async () => {
    const image = await ours();
    const refused = await call('DELETE', `media/${image.id}`);
    expect(refused.status).toBe(409);
    expect((refused.json() as { uses: unknown[] }).uses).toHaveLength(2);
    for (const slug of [postA, postB]) {
      const file = join(folder(slug), 'en.md');
      await writeFile(file, (await readFile(file, 'utf8')).replace(`image: ${name}\n`, ''));
    }
    expect((await call('DELETE', `media/${image.id}`)).status).toBe(200);
    for (const slug of [postA, postB, postC]) {
      expect(await exists(join(folder(slug), name))).toBe(false);
      expect(await exists(join(folder(slug), `${name}.yaml`))).toBe(false);
    }
    expect((await library()).some((candidate) => candidate.file === name)).toBe(false);
    expect((await call('DELETE', `media/${image.id}`)).status).toBe(404);
  });

  it('audits every change with the editor who made it', async () => {
    const actions = (await auditEntries(join(site.dir, 'data')))
      .filter((entry) => entry.user === editor.email)
      .map((entry) => entry.action);
    expect(actions).toEqual(expect.arrayContaining(['media-upload', 'media-use', 'media-update', 'media-delete']));
  });

  it('answers 401 signed out, and 403 without the CSRF token', async () => {
    const signedOut = (method: string, path: string) =>
      server.send(method, `/api/admin/${path}`, { headers: { origin: server.url } });
    expect((await signedOut('GET', 'media')).status).toBe(401);
    expect((await signedOut('DELETE', 'media/0123456789abcdef')).status).toBe(401);
    expect(
      (
        await server.send('PUT', '/api/admin/media/0123456789abcdef', {
          headers: { cookie: auth.cookie, origin: server.url },
        })
      ).status,
    ).toBe(403);
  });
});
