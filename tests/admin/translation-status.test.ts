/**
 * Translation status of a collection's entries in `site serve --admin`: saving a translation
 * records the English it was made from (in the entry folder's .translations.json); an English save
 * afterwards marks it outdated, with the English diff since, in the read and in the list, until the
 * translation is saved again. A translation never saved in the admin has the baseline's status
 * (translation-origins.test.ts tests it and git's).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempSite, type TempSite } from '../helpers/fixture-site';
import { startAdminServer } from '../helpers/admin-server';

const editor = { email: 'editor@example.com', role: 'editor' as const, password: 'editor password 1' };
const slug = 'a-day-in-a-tailor-shop';

interface Post {
  frontMatter: Record<string, unknown>;
  body: string;
  version: string;
  translation?: { outdated: boolean; since: string; diff?: string; sourceLocale: string };
}

describe('site serve --admin: translation status of posts', () => {
  let site: TempSite;
  let server: Awaited<ReturnType<typeof startAdminServer>>;
  let auth: { cookie: string; csrf: string };
  const read = async (locale: string) =>
    (
      await server.send('GET', `/api/admin/posts/${slug}/${locale}`, { headers: { cookie: auth.cookie } })
    ).json() as Post;
  const save = async (locale: string, change: (post: Post) => Post) => {
    const post = await read(locale);
    const { frontMatter, body } = change(post);
    const answer = await server.send('PUT', `/api/admin/posts/${slug}/${locale}`, {
      headers: {
        cookie: auth.cookie,
        origin: server.url,
        'x-csrf-token': auth.csrf,
        'content-type': 'application/json',
        'if-match': `"${post.version}"`,
      },
      body: JSON.stringify({ frontMatter, body }),
    });
    expect(answer.status).toBe(200);
  };
  const listed = async () => {
    const posts = (await server.send('GET', '/api/admin/posts', { headers: { cookie: auth.cookie } })).json() as {
      slug: string;
      translations: Record<string, { outdated?: boolean }>;
    }[];
    return posts.find((post) => post.slug === slug)!.translations;
  };

  beforeAll(async () => {
    site = await createTempSite();
    server = await startAdminServer({ users: [editor], configPath: site.config, projectRoot: site.dir, posts: true });
    auth = await server.signIn(editor.email, editor.password);
  });
  afterAll(async () => {
    await server?.close();
    await site?.cleanup();
  });

  it("has the first start's status for a translation never saved in the admin (outside git: the baseline), none for the default language", async () => {
    expect((await read('no')).translation).toEqual({ outdated: false, since: expect.any(String), sourceLocale: 'en' });
    expect((await read('en')).translation).toBeUndefined();
    expect((await listed()).no!.outdated).toBeUndefined();
  });

  it('marks the Norwegian outdated after an English edit, with the English diff since, until it is saved again', async () => {
    await save('no', (post) => post);
    expect((await read('no')).translation).toEqual({ outdated: false, since: expect.any(String), sourceLocale: 'en' });
    const record = JSON.parse(
      await readFile(join(site.dir, 'content', 'blog', slug, '.translations.json'), 'utf8'),
    ) as Record<string, { source: string }>;
    expect(record.no!.source).toBe(await readFile(join(site.dir, 'content', 'blog', slug, 'en.md'), 'utf8'));

    await save('en', (post) => ({
      ...post,
      body: post.body.replace('The shop in this story', 'The little shop in this story'),
    }));
    const outdated = (await read('no')).translation!;
    expect(outdated).toMatchObject({ outdated: true, sourceLocale: 'en' });
    expect(outdated.diff).toContain('-The shop in this story');
    expect(outdated.diff).toContain('+The little shop in this story');
    // The same in words: the English field that changed, as the editor names it.
    expect((outdated as { changes?: unknown[] }).changes).toEqual([
      {
        label: 'Text (Markdown)',
        before: expect.stringContaining('The shop in this story'),
        after: expect.stringContaining('The little shop in this story'),
      },
    ]);
    expect((await listed()).no!.outdated).toBe(true);
    expect((await listed()).en!.outdated).toBeUndefined();

    await save('no', (post) => post);
    expect((await read('no')).translation).toMatchObject({ outdated: false });
    expect((await listed()).no!.outdated).toBeUndefined();
  });
});
