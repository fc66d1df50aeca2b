/**
 * The media library end to end in Chromium, with `site dev` and with `site serve --admin`: upload
 * an image to post A, choose it from the library in post B (a dialog Escape closes, focus back on
 * its button), save, and see it on B's page; then on /admin/media give it a Norwegian description
 * and a focal point, which the site's pages then place their crops by. axe finds nothing in any state.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevAdmin, siteOf } from '../../src/admin/mount';
import { createLiveSite } from '../../src/admin/live-site';
import { buildSite } from '../../src/build';
import { startDevServer } from '../../src/dev/server';
import { writeSite } from '../../src/emit/write';
import { followingStoreSource } from '../../src/store/source';
import { startAdminServer } from '../helpers/admin-server';
import { axeViolations } from '../helpers/axe';
import { launchBrowser } from '../helpers/browser';
import { createEditableSite } from '../helpers/editable-site';

const postA = 'a-day-in-a-tailor-shop';
const postB = 'building-a-local-repair-network';

interface Running {
  url: string;
  siteDir: string;
  role: 'admin' | 'editor';
  signIn(page: Page): Promise<void>;
  close(): Promise<void>;
}

function describeMediaFlow(name: string, start: () => Promise<Running>) {
  describe(name, () => {
    let running: Running;
    let browser: Browser;
    let page: Page;
    let file: string;
    const problems: string[] = [];
    const saved = () => page.getByText('Saved. The site is updated.').first().waitFor();
    const pageOf = async (path: string) => (await page.request.get(`${running.url}${path}`)).text();

    beforeAll(async () => {
      [running, browser] = await Promise.all([start(), launchBrowser()]);
      // axe runs as an injected script, which the CSP would refuse; the last check reads a page under it.
      const context = await browser.newContext({ locale: 'en-US', bypassCSP: true });
      context.setDefaultTimeout(20_000);
      page = await context.newPage();
      page.on('pageerror', (error) => problems.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error' && !/status of (401|404|409|422)/.test(message.text()))
          problems.push(message.text());
      });
      await running.signIn(page);
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await running?.close();
    });

    it('uploads an image to post A, and post B takes it from the library and shows it', async () => {
      await page.goto(`${running.url}/admin/blog/?post=${postA}&locale=en`);
      await page.getByLabel('Title *').waitFor();
      const photo = await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#2a6f4e' } })
        .jpeg()
        .toBuffer();
      await page
        .getByLabel('Upload an image…')
        .setInputFiles({ name: 'bench.jpg', mimeType: 'image/jpeg', buffer: photo });
      await page.getByText('Image uploaded.', { exact: false }).first().waitFor();
      file = await page.getByLabel("Image (a file in the post's folder)").inputValue();
      await page.getByLabel(/^Image description/).fill('A green workbench');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await saved();

      await page.goto(`${running.url}/admin/blog/?post=${postB}&locale=en`);
      await page.getByLabel('Title *').waitFor();
      const choose = page.getByRole('button', { name: 'Choose from the library…' });
      await choose.click();
      const dialog = page.getByRole('dialog', { name: 'Choose an image from the library' });
      // Named by its description: post A's image description, in the language being edited.
      const choice = dialog.getByRole('button', { name: 'A green workbench', exact: true });
      await choice.waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      expect(await choose.evaluate((button) => button === document.activeElement)).toBe(true);
      await choose.press('Enter');
      await choice.focus();
      await page.keyboard.press('Enter');
      await dialog.waitFor({ state: 'hidden' });
      expect(await page.getByLabel("Image (a file in the post's folder)").inputValue()).toBe(file);
      expect((await readFile(join(running.siteDir, 'content', 'blog', postB, file))).equals(photo)).toBe(true);
      await page.getByLabel(/^Image description/).fill('The same green workbench');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await saved();
      const hash = file.slice(0, 16);
      await expect
        .poll(() => pageOf(`/blog/${postB}/`), { timeout: 20_000, interval: 250 })
        .toMatch(new RegExp(`<img [^>]*src="/assets/images/${hash}-960\\.webp"[^>]*alt="The same green workbench"`));
    });

    it('gives the image a Norwegian description and a focal point on /admin/media, which the pages then use', async () => {
      await page.goto(`${running.url}/admin/media/`);
      const item = page.getByRole('article', { name: file });
      await item.waitFor();
      expect(await item.getByRole('link', { name: 'A day in a tailor shop' }).getAttribute('href')).toBe(
        `/admin/blog/?post=${postA}&locale=en`,
      );
      const remove = item.getByRole('button', { name: 'Delete' });
      expect(await remove.isDisabled()).toBe(true);
      expect(await axeViolations(page)).toEqual([]);
      await item.getByLabel('Description (Norsk)').fill('En grønn arbeidsbenk');
      await item.getByLabel('From the left (%)').fill('20');
      // The arrow keys on the image move the point too (5 % a press).
      await item.getByRole('button', { name: /^Focal point/ }).press('ArrowDown');
      expect(await item.getByLabel('From the top (%)').inputValue()).toBe('55');
      await item.getByRole('button', { name: 'Save' }).click();
      await item.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      // It says what happened: rebuilt and live with site serve, rebuilding with site dev's watcher.
      expect(await item.getByRole('status').textContent()).toMatch(
        name.includes('site dev')
          ? /^Saved\. The website is being rebuilt\.$/
          : /^Saved\. The website was rebuilt in \d+ ms\.$/,
      );
      expect(await axeViolations(page)).toEqual([]);
      const sidecar = await readFile(join(running.siteDir, 'content', 'blog', postB, `${file}.yaml`), 'utf8');
      expect(sidecar).toContain('no: "En grønn arbeidsbenk"');
      expect(sidecar).toContain('focus: { x: 0.2, y: 0.55 }');
      await expect
        .poll(() => pageOf(`/blog/${postB}/`), { timeout: 20_000, interval: 250 })
        .toContain('class="focus focus-x-20 focus-y-55"');
      // The page's stylesheet places it, under the strict CSP.
      const strict = await (await browser.newContext()).newPage();
      await strict.goto(`${running.url}/blog/${postB}/`);
      expect(await strict.locator('.post-image img').evaluate((image) => getComputedStyle(image).objectPosition)).toBe(
        '20% 55%',
      );
      await strict.context().close();
      if (running.role === 'admin') {
        // The changes page says what was done to the image and links the library.
        await page.goto(`${running.url}/admin/changes/`);
        const row = page.getByRole('row').filter({ hasText: "Changed an image's descriptions or focal point" }).first();
        expect(await row.getByRole('link', { name: file }).getAttribute('href')).toBe('/admin/media/');
        expect(await axeViolations(page)).toEqual([]);
      }
    });

    it('deletes an image no post uses, and says so', async () => {
      const { csrfToken } = (await (await page.request.get(`${running.url}/api/admin/session`)).json()) as {
        csrfToken: string;
      };
      const unused = await sharp({ create: { width: 800, height: 450, channels: 3, background: '#b4530f' } })
        .png()
        .toBuffer();
      const uploaded = await page.request.post(`${running.url}/api/admin/media?post=${postB}`, {
        headers: { 'content-type': 'image/png', 'x-csrf-token': csrfToken, origin: running.url },
        data: unused,
      });
      const { path } = (await uploaded.json()) as { path: string };
      await page.goto(`${running.url}/admin/media/`);
      const item = page.getByRole('article', { name: path });
      await item.getByText('No post uses this image.').waitFor();
      page.once('dialog', (dialog) => void dialog.accept());
      await item.getByRole('button', { name: 'Delete' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: `${path} was deleted.` })
        .waitFor();
      await item.waitFor({ state: 'detached' });
      expect(
        await readFile(join(running.siteDir, 'content', 'blog', postB, path)).then(
          () => true,
          () => false,
        ),
      ).toBe(false);
      expect(await axeViolations(page)).toEqual([]);
      expect(problems, problems.join('\n')).toEqual([]);
    });
  });
}

describeMediaFlow('the media library with site dev, in the browser', async () => {
  const site = await createEditableSite();
  let builder: Awaited<ReturnType<typeof startDevServer>>['builder'] | undefined;
  const store = followingStoreSource(() => builder?.config);
  const admin = createDevAdmin({ projectRoot: site.dir, store, site: siteOf(() => builder) });
  const dev = await startDevServer({ config: site.config, port: 0, host: '127.0.0.1', admin, store });
  builder = dev.builder;
  return {
    url: dev.url,
    siteDir: site.dir,
    role: 'admin',
    async signIn(page) {
      await page.goto(`${dev.url}/auth/?token=${admin.tokens.issue()}`);
      await page.waitForURL(/\/admin\/blog\/$/);
    },
    async close() {
      await dev.close();
      await store.close();
      await site.cleanup();
    },
  };
});

describeMediaFlow('the media library with site serve --admin, in the browser', async () => {
  const editor = { email: 'editor@example.com', role: 'editor' as const, password: 'editor password 1' };
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
    role: 'editor',
    async signIn(page) {
      await page.goto(`${server.url}/auth/`);
      await page.getByLabel('E-mail address').fill(editor.email);
      await page.getByLabel('Password').fill(editor.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/admin\/blog\/$/);
    },
    async close() {
      await server.close();
      await live.dispose();
      await site.cleanup();
    },
  };
});
