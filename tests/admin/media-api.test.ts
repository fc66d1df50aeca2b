/**
 * Uploading a post's image to `site serve --admin` (`POST /api/admin/media?post=<slug>`): stored in
 * the post's folder under the hash of its bytes, its type checked from the bytes (SVG and a
 * renamed text file are refused with 415, a type that disagrees with the bytes too), 5 MB at most
 * (413), the post must exist, CSRF and a session are required, and the upload is audited.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempSite, type TempSite } from '../helpers/fixture-site';
import { startAdminServer } from '../helpers/admin-server';
import { auditEntries } from '../helpers/store';

const editor = { email: 'editor@example.com', role: 'editor' as const, password: 'editor password 1' };
const slug = 'why-repair-beats-recycling';

describe('site serve --admin: /api/admin/media', () => {
  let site: TempSite;
  let server: Awaited<ReturnType<typeof startAdminServer>>;
  let auth: { cookie: string; csrf: string };
  const folder = () => join(site.dir, 'content', 'blog', slug);
  const upload = (body: Buffer | string, type: string, post = slug, csrf: string | null = auth.csrf) =>
    server.send('POST', `/api/admin/media?post=${encodeURIComponent(post)}`, {
      headers: {
        cookie: auth.cookie,
        origin: server.url,
        'content-type': type,
        ...(csrf === null ? {} : { 'x-csrf-token': csrf }),
      },
      body,
    });

  beforeAll(async () => {
    site = await createTempSite();
    server = await startAdminServer({ users: [editor], configPath: site.config, projectRoot: site.dir, media: true });
    auth = await server.signIn(editor.email, editor.password);
  });
  afterAll(async () => {
    await server?.close();
    await site?.cleanup();
  });

  it("stores an image in the post's folder under the hash of its bytes and answers the front matter value", async () => {
    const photo = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#b4530f' } })
      .webp()
      .toBuffer();
    const answer = await upload(photo, 'image/webp');
    expect(answer.status).toBe(201);
    const { path, width, height } = answer.json() as { path: string; width: number; height: number };
    expect(path).toMatch(/^[0-9a-f]{16}\.webp$/);
    expect([width, height]).toEqual([1200, 800]);
    expect((await readFile(join(folder(), path))).equals(photo)).toBe(true);
    // The same bytes again are the same file.
    expect((await upload(photo, 'image/webp')).json()).toMatchObject({ path });
    const audit = JSON.stringify(await auditEntries(join(site.dir, 'data')));
    expect(audit).toContain(`"action":"media-upload"`);
    expect(audit).toContain(path);
  });

  it('refuses an SVG, a text file named as an image, and bytes of another type than declared, with 415, storing nothing', async () => {
    const before = await readdir(folder());
    expect(
      (await upload('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', 'image/svg+xml')).status,
    ).toBe(415);
    expect((await upload('just text, renamed to photo.png', 'image/png')).status).toBe(415);
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    expect((await upload(png, 'image/jpeg')).status).toBe(415);
    expect(await readdir(folder())).toEqual(before);
  });

  it('refuses an image over 5 MB with 413, and an image for a post that does not exist with 404', async () => {
    const big = Buffer.alloc(5 * 1024 * 1024 + 1);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(big);
    expect((await upload(big, 'image/png')).status).toBe(413);
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    expect((await upload(png, 'image/png', 'no-such-post')).status).toBe(404);
    expect((await upload(png, 'image/png', '../../etc')).status).toBe(400);
  });

  it('needs the CSRF token', async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    expect((await upload(png, 'image/png', slug, null)).status).toBe(403);
  });
});
