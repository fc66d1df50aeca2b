/** The admin with `site serve --admin` in Chromium: email and password, saves rebuilt in process (see admin-flow.ts for the flow). */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLiveSite } from '../../src/admin/live-site';
import { buildSite } from '../../src/build';
import { writeSite } from '../../src/emit/write';
import { launchBrowser } from '../helpers/browser';
import { createEditableSite } from '../helpers/editable-site';
import { serveSite } from '../helpers/server';
import { startAdminServer } from '../helpers/admin-server';
import { describeAdminFlow } from './admin-flow';

const editor = { email: 'editor@example.com', role: 'editor' as const, password: 'editor password 1' };

describeAdminFlow('the admin with site serve --admin, in the browser', async () => {
  const site = await createEditableSite();
  const dist = join(site.dir, 'dist');
  await writeSite(dist, (await buildSite({ config: site.config })).files);
  const live = createLiveSite({ config: site.config, dir: dist });
  await live.start();
  const server = await startAdminServer({
    users: [editor],
    configPath: site.config,
    projectRoot: site.dir,
    dir: dist,
    site: live,
  });
  return {
    url: server.url,
    siteDir: site.dir,
    email: editor.email,
    socialImages: true,
    role: 'editor',
    async anonymous(page) {
      await page.getByLabel('E-mail address').waitFor();
      expect(await page.getByLabel('Password').count()).toBe(1);
    },
    async signIn(page) {
      await page.getByLabel('E-mail address').fill(editor.email);
      await page.getByLabel('Password').fill('a wrong password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').filter({ hasText: 'E-mail or password is wrong' }).waitFor();
      await page.getByLabel('Password').fill(editor.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
    },
    async close() {
      await server.close();
      await live.dispose();
      await site.cleanup();
    },
  };
});

describe('/auth and /admin/blog on a static host (no admin)', () => {
  it('say so: to a visitor of /auth in plain words, and to the team on the admin pages, whom it tells where the admin runs', async () => {
    const [server, browser] = await Promise.all([serveSite(), launchBrowser()]);
    try {
      const page = await browser.newPage();
      // Nothing is asked of an admin that is not there: no failing request, no console error.
      const asked: string[] = [];
      const problems: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/api/')) asked.push(request.url());
      });
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      for (const path of [
        '/auth/',
        '/admin/blog/',
        '/admin/media/',
        '/admin/pages/',
        '/admin/inbox/',
        '/admin/changes/',
      ]) {
        await page.goto(`${server.url}${path}`);
        if (path === '/auth/') {
          await expect
            .poll(() => page.getByRole('status').textContent())
            .toContain('You cannot sign in on this website');
          expect(await page.getByRole('status').textContent()).not.toMatch(/site (dev|serve)|`/);
        } else {
          // The team is told in plain words too: no command to type (the copy review's jargon point).
          await expect
            .poll(() => page.getByRole('status').textContent())
            .toContain('The admin is not running on this site.');
          expect(await page.getByRole('status').textContent()).not.toMatch(/site (dev|serve)|`/);
        }
        expect(page.url()).toBe(`${server.url}${path}`);
      }
      expect(asked).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
      await server.close();
    }
  });
});

describe('the blog editor and another editor', () => {
  it('announces a change another account saves to the post open here', async () => {
    const other = { email: 'other@example.com', role: 'editor' as const, password: 'other password 1' };
    const site = await createEditableSite();
    const dist = join(site.dir, 'dist');
    await writeSite(dist, (await buildSite({ config: site.config })).files);
    const live = createLiveSite({ config: site.config, dir: dist });
    await live.start();
    const [server, browser] = await Promise.all([
      startAdminServer({
        users: [editor, other],
        configPath: site.config,
        projectRoot: site.dir,
        dir: dist,
        site: live,
      }),
      launchBrowser(),
    ]);
    try {
      const page = await browser.newPage();
      await page.goto(`${server.url}/auth/`);
      await page.getByLabel('E-mail address').fill(editor.email);
      await page.getByLabel('Password').fill(editor.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Edit: A day in a tailor shop' }).click();
      await page.getByLabel('Title').first().waitFor();

      const auth = await server.signIn(other.email, other.password);
      const slug = 'a-day-in-a-tailor-shop';
      const post = (
        await server.send('GET', `/api/admin/posts/${slug}/no`, { headers: { cookie: auth.cookie } })
      ).json();
      const saved = await server.send('PUT', `/api/admin/posts/${slug}/no`, {
        headers: {
          cookie: auth.cookie,
          origin: server.url,
          'x-csrf-token': auth.csrf,
          'content-type': 'application/json',
          'if-match': `"${post.version}"`,
        },
        body: JSON.stringify({
          frontMatter: { ...post.frontMatter, title: 'En dag i et travelt skredderverksted' },
          body: post.body,
        }),
      });
      expect(saved.status).toBe(200);
      await expect
        .poll(() => page.getByRole('status').last().textContent(), { timeout: 10_000 })
        .toContain(`${other.email} has just changed the`);
    } finally {
      await browser.close();
      await server.close();
      await live.dispose();
      await site.cleanup();
    }
  }, 60_000);
});
