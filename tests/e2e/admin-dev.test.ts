/** The admin with `site dev` in Chromium: sign-in by the one-time link (see admin-flow.ts for the flow), and a settings save the watcher rebuilds. */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser';
import { describeAdminFlow } from './admin-flow';
import { startDevAdmin } from './support';

describeAdminFlow('the admin with site dev, in the browser', async () => {
  const running = await startDevAdmin();
  const { site, dev, admin } = running;
  return {
    url: dev.url,
    siteDir: site.dir,
    email: 'local@site-dev',
    socialImages: false,
    role: 'admin',
    async anonymous(page) {
      await expect.poll(() => page.getByRole('status').textContent()).toContain('one-time sign-in link');
    },
    async signIn(page) {
      await page.goto(`${dev.url}/auth/?token=${admin.tokens.issue()}`);
      await page.waitForURL(/\/admin\/blog\/$/);
      // The token left the address bar and is used up.
      expect(page.url()).not.toContain('token=');
    },
    close: () => running.close(),
  };
});

describe('the settings with site dev, in the browser', () => {
  it('saves a plan limit from /admin/settings, and the pricing page shows it once the watcher has rebuilt', async () => {
    const running = await startDevAdmin();
    const { site, dev, admin } = running;
    const browser = await launchBrowser();
    try {
      const page = await (await browser.newContext({ locale: 'en-US' })).newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(`${dev.url}/auth/?token=${admin.tokens.issue()}`);
      await page.waitForURL(/\/admin\/blog\/$/);
      await page.goto(`${dev.url}/admin/settings/`);
      const orders = page.getByRole('textbox', { name: 'plus Orders per month' });
      // On a phone, site dev's warnings panel (the site's legal texts are not reviewed) covers no control: it sits at the end of the page.
      await page.setViewportSize({ width: 375, height: 740 });
      const panel = page.locator('#site-dev-warnings');
      await panel.waitFor();
      expect(await panel.evaluate((element) => getComputedStyle(element).position)).toBe('static');
      await orders.scrollIntoViewIfNeeded();
      const review = page.getByRole('button', { name: 'Review changes' });
      expect(
        await review.evaluate((button) => {
          const box = button.getBoundingClientRect();
          return button.contains(document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2));
        }),
      ).toBe(true);
      await orders.fill('175');
      await review.click();
      const changes = page.getByRole('region', { name: 'Your changes' });
      // In words, as in serve; the file behind its disclosure.
      await changes.waitFor();
      expect(
        await changes
          .getByRole('row', { name: /^Plus: orders per month/ })
          .locator('td')
          .allInnerTexts(),
      ).toEqual(['150', '175']);
      await changes.getByText('Show the file').click();
      expect(await changes.locator('pre').innerText()).toContain('+    limits: { ordersPerMonth: 175 }');
      await changes.getByRole('button', { name: 'Save changes' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved. The website is being rebuilt.' }).waitFor();
      expect(await readFile(site.config, 'utf8')).toContain('    limits: { ordersPerMonth: 175 }\n');
      await expect
        .poll(async () => (await page.request.get(`${dev.url}/hub/pricing/`)).text(), {
          timeout: 20_000,
          interval: 250,
        })
        .toContain('Up to 175 orders per month');
    } finally {
      await browser.close();
      await running.close();
    }
  }, 90_000);
});
