/** The admin with `site dev` in Chromium: sign-in by the one-time link (see admin-flow.ts for the flow). */
import { expect } from 'vitest';
import { createDevAdmin, siteOf } from '../../src/admin/mount';
import { startDevServer } from '../../src/dev/server';
import { createEditableSite } from '../helpers/editable-site';
import { describeAdminFlow } from './admin-flow';

describeAdminFlow('the admin with site dev, in the browser', async () => {
  const site = await createEditableSite();
  let builder: Awaited<ReturnType<typeof startDevServer>>['builder'] | undefined;
  const admin = createDevAdmin({ projectRoot: site.dir, site: siteOf(() => builder) });
  const dev = await startDevServer({ config: site.config, port: 0, host: '127.0.0.1', admin });
  builder = dev.builder;
  return {
    url: dev.url,
    siteDir: site.dir,
    email: 'local@site-dev',
    socialImages: false,
    async anonymous(page) {
      await expect.poll(() => page.getByRole('status').textContent()).toContain('one-time sign-in link');
    },
    async signIn(page) {
      await page.goto(`${dev.url}/auth/?token=${admin.tokens.issue()}`);
      await page.waitForURL(/\/admin\/blog\/$/);
      // The token left the address bar and is used up.
      expect(page.url()).not.toContain('token=');
    },
    async close() {
      await dev.close();
      await site.cleanup();
    },
  };
});
