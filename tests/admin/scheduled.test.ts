/** Scheduled posts: a post dated after today is left out of lists, feeds, sitemap and pages until its day; --future includes it. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../src/build';
import { isPublished } from '../../src/content/collections';
import { createTempSite, type TempSite } from '../helpers/fixture-site';

const post = (date: string) =>
  `---\ntitle: A scheduled post\ndescription: It appears on its day.\ndate: ${date}\ncategory: saas\nauthor: Test Author\n---\n\nComing soon.\n`;

describe('scheduled posts', () => {
  it('are published from their day on', () => {
    expect(isPublished('2030-01-02', '2030-01-01')).toBe(false);
    expect(isPublished('2030-01-01', '2030-01-01')).toBe(true);
    expect(isPublished('2029-12-31', '2030-01-01')).toBe(true);
    expect(isPublished('2099-01-01', undefined)).toBe(true);
  });

  let site: TempSite;
  beforeAll(async () => {
    site = await createTempSite();
    await mkdir(join(site.dir, 'content', 'blog', 'scheduled-post'), { recursive: true });
    await writeFile(join(site.dir, 'content', 'blog', 'scheduled-post', 'en.md'), post('2030-06-01'));
  });
  afterAll(() => site?.cleanup());

  const text = (files: Awaited<ReturnType<typeof buildSite>>['files'], name: string) => {
    const file = files.get(name);
    return file === undefined ? undefined : Buffer.from(file as Uint8Array | string).toString('utf8');
  };

  it('leave a post out of pages, lists, feeds and the sitemap before its day, and include it with --future or on the day', async () => {
    const before = await buildSite({ config: site.config, today: () => '2030-05-31', workers: 0 });
    expect(before.files.has('blog/scheduled-post/index.html')).toBe(false);
    expect(text(before.files, 'blog/index.html')).not.toContain('A scheduled post');
    expect(text(before.files, 'rss.xml')).not.toContain('scheduled-post');
    expect(text(before.files, 'sitemap.xml')).not.toContain('scheduled-post');

    const future = await buildSite({ config: site.config, today: () => '2030-05-31', future: true, workers: 0 });
    expect(future.files.has('blog/scheduled-post/index.html')).toBe(true);
    expect(text(future.files, 'blog/index.html')).toContain('A scheduled post');

    const onTheDay = await buildSite({ config: site.config, today: () => '2030-06-01', workers: 0 });
    expect(onTheDay.files.has('blog/scheduled-post/index.html')).toBe(true);
    expect(text(onTheDay.files, 'sitemap.xml')).toContain('scheduled-post');
  });
});
