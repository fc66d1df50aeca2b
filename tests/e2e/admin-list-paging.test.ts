/**
 * The content editor's list pages through the server, in Chromium, with `site serve --admin` on a
 * blog of 120 posts: the first page shows 50 and says "1–50 of 120"; Next (a click, then the
 * keyboard) shows the posts after them; the search asks the server, so it finds a post of the last
 * page the screen never loaded, and opens it; a filter starts again from the first page. axe finds
 * nothing on the list with its paging.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../helpers/axe';
import { launchBrowser } from '../helpers/browser';
import { startAdminServer } from '../helpers/admin-server';
import { createTempSite, type TempSite } from '../helpers/fixture-site';
import { signInWithPassword } from './support';

const editor = { email: 'editor@example.com', role: 'editor' as const, password: 'editor password 1' };
const count = 120;
/** The one post whose title has this word: the last page's. */
const lastPageSlug = 'post-117';
const lastPageTitle = 'The lighthouse keeper mends his coat';

/** Post `post-NNN`: its English (and, for even numbers, Norwegian) front matter. */
function postText(index: number, locale: string): string {
  const title = index === 117 ? lastPageTitle : `Repair story number ${index}`;
  return [
    '---',
    `title: "${locale === 'no' ? `Reparasjon nummer ${index}` : title}"`,
    `description: "A short story about repair, number ${index}."`,
    `date: 2026-01-${String((index % 28) + 1).padStart(2, '0')}`,
    `category: ${index % 2 ? 'saas' : 'retail'}`,
    ...(index === 3 ? ['draft: true'] : []),
    '---',
    '',
    `The text of post ${index}.`,
    '',
  ].join('\n');
}

describe('the content list pages through the server (site serve --admin, 120 posts)', () => {
  let site: TempSite;
  let server: Awaited<ReturnType<typeof startAdminServer>>;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  const listRequests: URL[] = [];

  beforeAll(async () => {
    site = await createTempSite();
    // The blog's posts are these: the real site's are left out.
    const blog = join(site.dir, 'content', 'blog');
    await rm(blog, { recursive: true, force: true });
    for (let index = 0; index < count; index++) {
      const folder = join(blog, `post-${String(index).padStart(3, '0')}`);
      await mkdir(folder, { recursive: true });
      await writeFile(join(folder, 'en.md'), postText(index, 'en'));
      if (index % 2 === 0) await writeFile(join(folder, 'no.md'), postText(index, 'no'));
    }
    [server, browser] = await Promise.all([
      startAdminServer({ users: [editor], configPath: site.config, projectRoot: site.dir, posts: true }),
      launchBrowser(),
    ]);
    const context = await browser.newContext({ locale: 'en-US', bypassCSP: true });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/admin/collections/blog') listRequests.push(url);
    });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await site?.cleanup();
  });

  const rows = () => page.getByRole('table').getByRole('row');
  const status = () => page.getByRole('navigation', { name: 'Pages of the list' }).getByRole('status');

  it('shows the first 50 posts and how many there are, and Next shows the ones after them', async () => {
    await signInWithPassword(page, `${server.url}/admin/blog/`, editor);
    await expect.poll(() => status().textContent()).toBe('1–50 of 120');
    // A header row and 50 posts: the list asked for one page, not the whole blog.
    expect(await rows().count()).toBe(51);
    expect(listRequests.at(-1)?.searchParams.get('limit')).toBe('50');
    expect(await rows().filter({ hasText: 'post-000' }).count()).toBe(1);
    expect(await rows().filter({ hasText: 'post-050' }).count()).toBe(0);
    const previous = page.getByRole('button', { name: 'Previous page' });
    expect(await previous.isDisabled()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => status().textContent()).toBe('51–100 of 120');
    await rows().filter({ hasText: 'post-050' }).waitFor();
    expect(await rows().filter({ hasText: 'post-000' }).count()).toBe(0);

    // The keyboard: Next takes Enter, and on the last page it is off.
    const next = page.getByRole('button', { name: 'Next page' });
    await next.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => status().textContent()).toBe('101–120 of 120');
    expect(await rows().count()).toBe(21);
    expect(await next.isDisabled()).toBe(true);
    await previous.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => status().textContent()).toBe('51–100 of 120');
  });

  it('searches through the server: a post of the last page is found from the first, and opens', async () => {
    await page.getByRole('button', { name: 'Previous page' }).click();
    await expect.poll(() => status().textContent()).toBe('1–50 of 120');
    expect(await rows().filter({ hasText: lastPageTitle }).count()).toBe(0);
    await page.getByLabel('Search by title or address').fill('lighthouse');
    await expect.poll(() => status().textContent()).toBe('1–1 of 1');
    expect(listRequests.at(-1)?.searchParams.get('q')).toBe('lighthouse');
    await rows().filter({ hasText: lastPageSlug }).waitFor();
    await page.getByRole('button', { name: `Edit: ${lastPageTitle}` }).click();
    await expect.poll(() => page.getByLabel('Title *').inputValue()).toBe(lastPageTitle);
    await page.getByRole('button', { name: 'Back to all posts' }).click();
    // Back in the list, the search and its page are as they were.
    await expect.poll(() => status().textContent()).toBe('1–1 of 1');
  });

  it('filters through the server from the first page: drafts, then a language', async () => {
    await page.getByLabel('Search by title or address').fill('');
    await expect.poll(() => status().textContent()).toBe('1–50 of 120');
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => status().textContent()).toBe('51–100 of 120');
    await page.getByLabel('Status').selectOption('draft');
    await expect.poll(() => status().textContent()).toBe('1–1 of 1');
    await rows().filter({ hasText: 'post-003' }).waitFor();
    await page.getByLabel('Status').selectOption('missing');
    await page.getByLabel('Language').selectOption('no');
    // The odd posts have no Norwegian: 60 of them, from the first page.
    await expect.poll(() => status().textContent()).toBe('1–50 of 60');
    expect(problems).toEqual([]);
  });
});
