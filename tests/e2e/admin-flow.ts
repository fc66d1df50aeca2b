/**
 * The admin's end-to-end flow in Chromium, shared by `site dev` and `site serve --admin`: an
 * anonymous visit of /admin/blog lands on /auth; sign in; create a post in English, preview it,
 * then the Norwegian from the English, and see both on /blog and /no/blog; an invalid edit shows
 * the field error with nothing written; upload an image for the post and see it on the post as
 * AVIF and WebP sources (and, where the build draws them, as its og:image); sign out. axe finds
 * nothing in any state.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../helpers/axe';
import { launchBrowser } from '../helpers/browser';

/** A running admin to test. */
export interface AdminUnderTest {
  url: string;
  /** The temp site's folder. */
  siteDir: string;
  /** What /auth says to an anonymous visitor (a status text, or a form label). */
  anonymous(page: Page): Promise<void>;
  /** Signs in from /auth and lands on /admin/blog. */
  signIn(page: Page): Promise<void>;
  /** The email the editor shows. */
  email: string;
  /** Whether its builds draw social images (site serve's do, site dev's do not). */
  socialImages: boolean;
  /** The signed-in account's role (the changes page is for admins). */
  role: 'admin' | 'editor';
  close(): Promise<void>;
}

const slug = 'repair-cafes-in-oslo';

/** Runs the flow against the admin `start` starts. */
export function describeAdminFlow(name: string, start: () => Promise<AdminUnderTest>): void {
  describe(name, () => {
    let admin: AdminUnderTest;
    let browser: Browser;
    let page: Page;
    const problems: string[] = [];

    beforeAll(async () => {
      [admin, browser] = await Promise.all([start(), launchBrowser()]);
      const context = await browser.newContext({ locale: 'en-US', bypassCSP: true });
      context.setDefaultTimeout(15_000);
      page = await context.newPage();
      page.on('console', (message) => {
        if (message.type() === 'error' && !/status of (401|404|422)/.test(message.text()))
          problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));
    });

    afterAll(async () => {
      await browser?.close();
      await admin?.close();
    });

    it('sends an anonymous visit of /admin/blog to /auth', async () => {
      await page.goto(`${admin.url}/admin/blog/`);
      await page.waitForURL(/\/auth\/$/);
      await admin.anonymous(page);
      expect(await axeViolations(page)).toEqual([]);
    });

    it('signs in and opens the blog editor', async () => {
      await admin.signIn(page);
      await page.waitForURL(/\/admin\/blog\/$/);
      await page.getByRole('table').waitFor();
      expect(await page.getByText(`Signed in as ${admin.email}`).count()).toBe(1);
      expect(await page.getByRole('row').count()).toBeGreaterThan(5);
      expect(await axeViolations(page)).toEqual([]);
    });

    it('creates a post in English, then the Norwegian from the English, and both show on the site', async () => {
      await page.getByRole('button', { name: 'New post' }).click();
      // Before the first save the library's button is off, and says why.
      const choose = page.getByRole('button', { name: 'Choose from the library…' });
      expect(await choose.isDisabled()).toBe(true);
      expect(await choose.getAttribute('aria-describedby')).toBeTruthy();
      expect(await page.locator(`#${await choose.getAttribute('aria-describedby')}`).textContent()).toContain(
        'Save the post once before adding its image.',
      );
      await page.getByLabel('Address (slug)').fill(slug);
      await page.getByLabel('Title *').fill('Repair cafés in Oslo');
      await page
        .getByLabel('Description (shown in lists and search results) *')
        .fill('Where to get things fixed in Oslo.');
      await page.getByLabel('Publication date *').fill('2026-11-01');
      await page.getByLabel('Category *').selectOption('circularity');
      await page.getByLabel('Author *').fill('Test Author');
      await page.getByLabel('Text (Markdown)').fill('Repair cafés meet every week.\n\nBring your jacket.');
      expect(await page.getByText(/words, about 1 min to read/).count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);
      await page.keyboard.press('Control+s');
      await page.getByText('Saved. The site is updated.').first().waitFor();
      const english = await readFile(join(admin.siteDir, 'content', 'blog', slug, 'en.md'), 'utf8');
      expect(await choose.isDisabled()).toBe(false);
      expect(english).toContain('title: Repair cafés in Oslo');

      await page.getByLabel('Title *').fill('Repair cafés in Oslo (preview)');
      const [preview] = await Promise.all([
        page.waitForEvent('popup'),
        page.getByRole('button', { name: 'Preview' }).click(),
      ]);
      await preview.waitForURL(/\/api\/admin\/preview\/[\w-]{43}$/);
      expect(await preview.locator('h1').textContent()).toBe('Repair cafés in Oslo (preview)');
      expect(await preview.locator('meta[name="robots"]').getAttribute('content')).toContain('noindex');
      // It says what it is, above the page, styled under the site's CSP (no inline style).
      const banner = preview.getByRole('note');
      expect(await banner.textContent()).toMatch(/^Preview – not published\./);
      expect(await banner.evaluate((node) => getComputedStyle(node).position)).toBe('sticky');
      await preview.close();
      expect(await readFile(join(admin.siteDir, 'content', 'blog', slug, 'en.md'), 'utf8')).not.toContain('(preview)');
      await page.getByLabel('Title *').fill('Repair cafés in Oslo');

      await page.getByRole('tab', { name: /Norsk/ }).click();
      await page.getByRole('button', { name: 'Start from the English text' }).click();
      await page.getByLabel('Title *').fill('Reparasjonskafeer i Oslo');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('Saved. The site is updated.').first().waitFor();
      expect(await readFile(join(admin.siteDir, 'content', 'blog', slug, 'no.md'), 'utf8')).toContain(
        'title: Reparasjonskafeer i Oslo',
      );

      const blog = await browser.newPage();
      try {
        await expect
          .poll(async () => await (await blog.goto(`${admin.url}/blog/`))!.text(), { timeout: 15_000 })
          .toContain('Repair cafés in Oslo');
        await expect
          .poll(async () => await (await blog.goto(`${admin.url}/no/blog/`))!.text(), { timeout: 15_000 })
          .toContain('Reparasjonskafeer i Oslo');
      } finally {
        await blog.close();
      }
    });

    it('shows the field error of an invalid edit and writes nothing', async () => {
      const file = join(admin.siteDir, 'content', 'blog', slug, 'no.md');
      const before = await readFile(file, 'utf8');
      await page.getByLabel('Title *').fill('');
      const category = page.getByRole('combobox', { name: /^Category/ });
      const chosen = await category.inputValue();
      await category.selectOption('');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.locator('.field-error').first().waitFor();
      expect(await page.getByLabel('Title *').getAttribute('aria-invalid')).toBe('true');
      // In the admin's words (its copy's problems:), the categories by their names, not the check's "required field is missing".
      const errors = await page.locator('.field-error').allTextContents();
      expect(errors).toContain('Give the post a title.');
      expect(errors).toContainEqual(expect.stringMatching(/^Choose a category: .*Retail.*\.$/));
      expect(errors.join(' ')).not.toMatch(/expected|required field|schema/);
      await category.selectOption(chosen);
      expect(await readFile(file, 'utf8')).toBe(before);
      expect(await axeViolations(page)).toEqual([]);
    });

    it('opens a post in a language from a link (as the changes page, for admins, links each post)', async () => {
      if (admin.role === 'admin') {
        await page.goto(`${admin.url}/admin/changes/`);
        const link = page
          .getByRole('table', { name: 'Changes, newest first' })
          .getByRole('link', { name: slug })
          .first();
        expect(await link.getAttribute('href')).toMatch(
          new RegExp(`^/admin/blog/\\?collection=blog&post=${slug}&locale=(?:en|no)$`),
        );
      }
      await page.goto(`${admin.url}/admin/blog/?post=${slug}&locale=no`);
      await page.getByRole('tab', { name: /Norsk/, selected: true }).waitFor();
      expect(await page.getByLabel('Title *').inputValue()).toMatch(/\S/);
      expect(await axeViolations(page)).toEqual([]);
    });

    it('uploads an image for the post, which the post then shows as AVIF and WebP, and as its og:image', async () => {
      await page.getByRole('tab', { name: /English/ }).click();
      const photo = await sharp({ create: { width: 1600, height: 1000, channels: 3, background: '#b4530f' } })
        .jpeg()
        .toBuffer();
      await page
        .getByLabel('Upload an image…')
        .setInputFiles({ name: 'cafe.jpg', mimeType: 'image/jpeg', buffer: photo });
      await page.getByText('Image uploaded. Describe it in the image description, then save.').first().waitFor();
      const name = await page.getByLabel("Image (a file in the post's folder)").inputValue();
      expect(name).toMatch(/^[0-9a-f]{16}\.jpg$/);
      expect((await readFile(join(admin.siteDir, 'content', 'blog', slug, name))).equals(photo)).toBe(true);
      await page.getByLabel(/^Image description/).fill('Orange light over a repair café counter');
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.getByText('Saved. The site is updated.').first().waitFor();

      const post = await browser.newPage();
      try {
        await expect
          .poll(async () => await (await post.goto(`${admin.url}/blog/${slug}/`))!.text(), { timeout: 15_000 })
          .toContain('<picture class="post-image">');
        expect(await post.locator('.post-image source[type="image/avif"]').getAttribute('srcset')).toMatch(
          /-480\.avif 480w, .*-1440\.avif 1440w$/,
        );
        expect(await post.locator('.post-image source[type="image/webp"]').getAttribute('srcset')).toMatch(
          /-960\.webp 960w/,
        );
        const image = post.locator('.post-image img');
        expect(await image.getAttribute('alt')).toBe('Orange light over a repair café counter');
        await expect
          .poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth))
          .toBeGreaterThan(0);
        expect(await image.evaluate((element: HTMLImageElement) => element.currentSrc)).toMatch(/\.avif$/);
        const og = await post
          .locator('meta[property="og:image"]')
          .getAttribute('content')
          .catch(() => null);
        if (admin.socialImages) {
          expect(og).toMatch(/\/_social\/[\w-]{16}\.jpg$/);
          const card = await post.request.get(`${admin.url}${new URL(og!).pathname}`);
          expect(card.status()).toBe(200);
          expect(await sharp(await card.body()).metadata()).toMatchObject({ format: 'jpeg', width: 1200, height: 630 });
        }
      } finally {
        await post.close();
      }
    });

    it('signs out', async () => {
      page.once('dialog', (dialog) => void dialog.accept());
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(/\/auth\/$/);
      const session = await page.request.get(`${admin.url}/api/admin/session`);
      expect(session.status()).toBe(401);
      expect(problems, problems.join('\n')).toEqual([]);
    });
  });
}
