/**
 * `site serve --admin` with two saves at once: a post and the settings, sent together. Both answer
 * "live", so both changes must be on the served pages, round after round; a post's rename and a
 * settings save, which both write site.config.yaml, take turns (the admin's one write queue) so
 * neither loses the other's change; and a restart publishes what the sources build but the served
 * folder lacks (a save whose publish was lost).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLiveSite } from '../../src/admin/live-site';
import { startLiveAdminServer } from '../helpers/admin-server';

const admin = { email: 'chief@example.com', role: 'admin' as const, password: 'chief password 1' };
const slug = 'a-day-in-a-tailor-shop';

describe('site serve --admin: two saves at once', () => {
  let live: Awaited<ReturnType<typeof startLiveAdminServer>>;
  let auth: { cookie: string; csrf: string };

  beforeAll(async () => {
    live = await startLiveAdminServer([admin]);
    auth = await live.server.signIn(admin.email, admin.password);
  }, 120_000);
  afterAll(() => live?.close());

  const headers = (version?: string) => ({
    cookie: auth.cookie,
    origin: live.server.url,
    'x-csrf-token': auth.csrf,
    'content-type': 'application/json',
    ...(version ? { 'if-match': `"${version}"` } : {}),
  });

  it('publishes both: every round, the post page shows the new title and the footer the new e-mail', async () => {
    const { server } = live;
    for (let round = 1; round <= 5; round++) {
      const post = (
        await server.send('GET', `/api/admin/posts/${slug}/en`, { headers: { cookie: auth.cookie } })
      ).json();
      const settings = (
        await server.send('GET', '/api/admin/settings', { headers: { cookie: auth.cookie } })
      ).json() as { version: string };
      const title = `A day in a tailor shop, round ${round}`;
      const email = `round${round}@mendwise.example`;
      const [savedPost, savedSettings] = await Promise.all([
        server.send('PUT', `/api/admin/posts/${slug}/en`, {
          headers: headers(post.version),
          body: JSON.stringify({ frontMatter: { ...post.frontMatter, title }, body: post.body }),
        }),
        server.send('PUT', '/api/admin/settings', {
          headers: headers(settings.version),
          body: JSON.stringify({ changes: [{ path: 'company.email', value: email }] }),
        }),
      ]);
      expect([savedPost.status, savedSettings.status]).toEqual([200, 200]);
      expect(savedPost.json()).toMatchObject({ rebuilt: true, ok: true });
      expect(savedSettings.json()).toMatchObject({ rebuilt: true, ok: true });
      const page = (await server.send('GET', `/blog/${slug}/`)).text;
      expect(page.includes(title), `round ${round}: the post's change is served`).toBe(true);
      expect(page.includes(email), `round ${round}: the settings' change is served`).toBe(true);
      // And on disk, the file a static host or a restart would serve.
      const file = await readFile(join(live.site.dir, 'dist', 'blog', slug, 'index.html'), 'utf8');
      expect(file.includes(title) && file.includes(email), `round ${round}: both changes are in the file`).toBe(true);
    }
  }, 120_000);

  it('takes a rename and a settings save of site.config.yaml in turns: the redirects and the setting both stay, or the later save is told it is stale', async () => {
    const { server } = live;
    const names = ['why-repair-beats-recycling', 'why-repair-still-beats-recycling', 'repair-beats-recycling'];
    for (let round = 1; round < names.length; round++) {
      const [from, to] = [names[round - 1]!, names[round]!];
      const settings = (
        await server.send('GET', '/api/admin/settings', { headers: { cookie: auth.cookie } })
      ).json() as { version: string };
      const email = `rename${round}@mendwise.example`;
      const [renamed, saved] = await Promise.all([
        server.send('POST', `/api/admin/posts/${from}/rename`, {
          headers: headers(),
          body: JSON.stringify({ slug: to }),
        }),
        server.send('PUT', '/api/admin/settings', {
          headers: headers(settings.version),
          body: JSON.stringify({ changes: [{ path: 'company.email', value: email }] }),
        }),
      ]);
      expect(renamed.status, renamed.text).toBe(200);
      // First in line, the settings save is written and the rename reads it; second, it finds the file changed.
      expect([200, 409], saved.text).toContain(saved.status);
      const config = parse(await readFile(live.site.config, 'utf8')) as {
        company: { email: string };
        redirects: { from: string; to: string }[];
      };
      expect(config.redirects, `round ${round}: the rename's redirects are kept`).toContainEqual({
        from: `/blog/${from}`,
        to: `/blog/${to}`,
      });
      if (saved.status === 200) expect(config.company.email, `round ${round}: the setting is kept`).toBe(email);
    }
  }, 120_000);

  it('publishes at start what the sources build and the served folder lacks', async () => {
    const dir = join(live.site.dir, 'dist');
    const postFile = join(live.site.dir, 'content', 'blog', slug, 'en.md');
    // A change that reached the sources but never the served folder (the publish was lost, or the
    // process was stopped between the two).
    const text = await readFile(postFile, 'utf8');
    await writeFile(postFile, text.replace(/^title: .*$/m, 'title: Written while nobody published'));
    const restarted = createLiveSite({ config: live.site.config, dir });
    try {
      expect(await restarted.start()).toBeGreaterThan(0);
      expect(await readFile(join(dir, 'blog', slug, 'index.html'), 'utf8')).toContain('Written while nobody published');
      // A second start has nothing left to publish.
      const again = createLiveSite({ config: live.site.config, dir });
      try {
        expect(await again.start()).toBe(0);
      } finally {
        await again.dispose();
      }
    } finally {
      await restarted.dispose();
    }
  }, 120_000);
});
