/**
 * Renaming a post's slug in the admin (`site serve --admin`, issue 30): the folder moves with both
 * languages, a redirect from every old address (each locale, audience section and alias) is added
 * to site.config.yaml without touching its other bytes, the save is audited, and after the live
 * rebuild the old URL answers with a 301 to the new one. Renaming back takes the redirects along.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLiveAdminServer } from '../helpers/admin-server';
import { auditEntries } from '../helpers/store';

const editor = { email: 'editor@example.com', role: 'editor' as const, password: 'editor password 1' };
const old = 'why-repair-beats-recycling';
const renamed = 'repair-beats-recycling';

describe('renaming a post in the admin', () => {
  let live: Awaited<ReturnType<typeof startLiveAdminServer>>;
  let auth: { cookie: string; csrf: string };
  let configBefore: string;

  beforeAll(async () => {
    live = await startLiveAdminServer([editor]);
    auth = await live.server.signIn(editor.email, editor.password);
    configBefore = await readFile(live.site.config, 'utf8');
  }, 180_000);
  afterAll(async () => {
    await live?.close();
  });

  const rename = (from: string, to: string) =>
    live.server.send('POST', `/api/admin/posts/${from}/rename`, {
      headers: {
        cookie: auth.cookie,
        origin: live.server.url,
        'x-csrf-token': auth.csrf,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ slug: to }),
    });
  const answer = async (path: string) => {
    const response = await fetch(live.server.url + encodeURI(path), { redirect: 'manual' });
    return [response.status, response.headers.get('location')];
  };

  it('moves the folder, appends a redirect per old address to the config byte for byte, audits it, and the old URLs answer 301 after the rebuild', async () => {
    expect(await answer(`/blog/${old}/`)).toEqual([200, null]);
    const response = await rename(old, renamed);
    expect(response.status, response.text).toBe(200);
    expect(response.json()).toMatchObject({ slug: renamed, rebuilt: true, ok: true });

    const blog = join(live.site.dir, 'content', 'blog');
    expect(existsSync(join(blog, old))).toBe(false);
    expect((await readdir(join(blog, renamed))).sort()).toEqual(['cover.jpg', 'en.md', 'no.md']);

    const pairs = [
      ['/blog', '/blog'],
      ['/no/blog', '/no/blog'],
      ['/hub/blog', '/hub/blog'],
      ['/no/hub/blog', '/no/hub/blog'],
      ['/shop/blog', '/shop/blog'],
      ['/no/shop/blog', '/no/shop/blog'],
      ['/workwear/blog', '/workwear/blog'],
      ['/no/workwear/blog', '/no/workwear/blog'],
      ['/no/arbeidsklær/blog', '/no/arbeidsklær/blog'],
    ].map(([from, to]) => ({ from: `${from}/${old}`, to: `${to}/${renamed}` }));
    const configAfter = await readFile(live.site.config, 'utf8');
    // Every byte before is kept; the redirects are new lines at the end.
    expect(configAfter.startsWith(configBefore)).toBe(true);
    expect((parse(configAfter) as { redirects: unknown[] }).redirects).toEqual(expect.arrayContaining(pairs));
    expect((parse(configAfter) as { redirects: unknown[] }).redirects).toHaveLength(pairs.length);
    expect(configAfter.slice(configBefore.length)).toMatch(
      /^redirects:\n {2}- from: \/blog\/why-repair-beats-recycling\n {4}to: \/blog\/repair-beats-recycling\n/,
    );

    const audit = (await auditEntries(join(live.site.dir, 'data'))).filter((entry) => entry.action === 'rename');
    expect(audit).toMatchObject([{ user: editor.email, slug: old, to: renamed }]);

    for (const { from, to } of pairs) expect(await answer(from)).toEqual([301, encodeURI(`${to}/`)]);
    expect(await answer(`/no/blog/${renamed}/`)).toEqual([200, null]);
  }, 120_000);

  it('renaming back removes the redirects from the addresses it takes again', async () => {
    const response = await rename(renamed, old);
    expect(response.status, response.text).toBe(200);
    const redirects = (parse(await readFile(live.site.config, 'utf8')) as { redirects: { from: string; to: string }[] })
      .redirects;
    expect(redirects).toHaveLength(9);
    for (const redirect of redirects) {
      expect(redirect.from).toContain(renamed);
      expect(redirect.to).toContain(old);
    }
    expect(await answer(`/blog/${old}/`)).toEqual([200, null]);
    expect(await answer(`/blog/${renamed}`)).toEqual([301, `/blog/${old}/`]);
  }, 120_000);

  it('a further rename points the earlier redirects at the new addresses (no chain), and adds its own', async () => {
    const third = 'repair-first';
    expect((await rename(old, third)).status).toBe(200);
    const redirects = (parse(await readFile(live.site.config, 'utf8')) as { redirects: { from: string; to: string }[] })
      .redirects;
    expect(redirects).toHaveLength(18);
    for (const redirect of redirects) expect(redirect.to).toContain(third);
    expect(await answer(`/blog/${renamed}`)).toEqual([301, `/blog/${third}/`]);
    expect(await answer(`/blog/${old}`)).toEqual([301, `/blog/${third}/`]);
    expect((await rename(third, old)).status).toBe(200);
  }, 120_000);

  it('refuses a slug another post has (409), and an invalid one (400), changing nothing', async () => {
    const before = await readFile(live.site.config, 'utf8');
    expect((await rename(old, 'a-day-in-a-tailor-shop')).status).toBe(409);
    expect((await rename(old, 'Not A Slug')).status).toBe(400);
    expect(await readFile(live.site.config, 'utf8')).toBe(before);
    expect(existsSync(join(live.site.dir, 'content', 'blog', old, 'en.md'))).toBe(true);
  });
});
