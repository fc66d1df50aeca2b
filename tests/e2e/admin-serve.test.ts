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
  const server = await startAdminServer({ users: [editor], configPath: site.config, projectRoot: site.dir, dir: dist, site: live });
  return {
    url: server.url,
    siteDir: site.dir,
    email: editor.email,
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
  it('say plainly that the admin runs with site dev or site serve --admin', async () => {
    const [server, browser] = await Promise.all([serveSite(), launchBrowser()]);
    try {
      const page = await browser.newPage();
      for (const path of ['/auth/', '/admin/blog/', '/admin/inbox/', '/admin/changes/']) {
        await page.goto(`${server.url}${path}`);
        await expect.poll(() => page.getByRole('status').textContent()).toContain('site serve --admin');
        expect(page.url()).toBe(`${server.url}${path}`);
      }
    } finally {
      await browser.close();
      await server.close();
    }
  });
});
