/**
 * The admin belongs to the engine (issue 28): a small site with no admin templates, copy or routes
 * of its own (a copy of tests/fixtures/engine-site whose `news` collection is its blog, default
 * locale nb) gets /auth and /admin/* from the engine, signs in on them in a real browser and sees
 * its posts; `admin: { enabled: false }` builds none of it; a route of its own at /auth is refused
 * with the line; its own copy of a screen replaces the engine's.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, type BuildResult } from '../../src/build';
import { writeSite } from '../../src/emit/write';
import { startAdminServer } from '../helpers/admin-server';
import { launchBrowser } from '../helpers/browser';
import { fixturesRoot, outputRoot, repoRoot } from '../helpers/paths';

const run = promisify(execFile);

/** A copy of the engine fixture with a blog (its `news` collection renamed), and `edit` applied to its config. */
async function createBlogSite(
  edit: (config: string) => string = (config) => config,
): Promise<{ dir: string; config: string }> {
  await mkdir(outputRoot, { recursive: true });
  const dir = await mkdtemp(join(outputRoot, 'engine-admin-'));
  await cp(join(fixturesRoot, 'engine-site'), dir, { recursive: true });
  const configFile = join(dir, 'site.config.yaml');
  let config = await readFile(configFile, 'utf8');
  config = config
    .replace('list: news', 'list: blog')
    .replace('entry: news', 'entry: blog')
    .replace(/^ {2}news:\n/m, '  blog:\n    folder: news\n');
  await writeFile(configFile, edit(config));
  for (const locale of ['nb', 'de', 'en']) {
    const file = join(dir, 'content', 'messages', `${locale}.yaml`);
    await writeFile(file, (await readFile(file, 'utf8')).replace(/^news:/m, 'blog:'));
  }
  return { dir, config: configFile };
}

const text = (result: BuildResult, file: string): string => {
  const data = result.files.get(file);
  if (data === undefined) throw new Error(`no file ${file}`);
  return typeof data === 'string' ? data : Buffer.from(data).toString('utf8');
};

describe('a site without admin templates of its own', () => {
  let site: { dir: string; config: string };
  let result: BuildResult;
  let browser: Browser;
  let server: Awaited<ReturnType<typeof startAdminServer>>;
  const who = { email: 'editor@fixture.example', password: 'a long enough password', role: 'editor' as const };

  beforeAll(async () => {
    site = await createBlogSite();
    result = await buildSite({ config: site.config, cache: false, workers: 0, socialImages: false });
    const dist = join(site.dir, 'dist');
    await writeSite(dist, result.files);
    server = await startAdminServer({
      users: [who],
      configPath: site.config,
      projectRoot: site.dir,
      dir: dist,
      posts: true,
    });
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (site) await rm(site.dir, { recursive: true, force: true });
  });

  it('gets the admin pages in its default locale (and /auth in each), noindex, in the admin layout with the admin stylesheet, and out of robots.txt and the sitemap', () => {
    for (const file of [
      'auth/index.html',
      'admin/blog/index.html',
      'admin/media/index.html',
      'admin/pages/index.html',
      'admin/visual/index.html',
      'admin/inbox/index.html',
      'admin/changes/index.html',
      'admin/settings/index.html',
    ]) {
      const html = text(result, file);
      expect(html, file).toContain('<html lang="nb"');
      expect(html, file).toContain('<meta name="robots" content="noindex" />');
      expect(html, file).toMatch(/<link rel="stylesheet" href="\/assets\/admin\.[0-9a-f]{10}\.css" \/>/);
      expect(html, file).toContain(
        '<div class="admin-ui" data-intl="nb-NO"><a class="admin-skip-link" href="#main">Skip to main content</a>',
      );
      // The engine's copy names the site by its config.
      expect(html, file).not.toContain('{siteName}');
      expect(html, file).not.toContain('BreadcrumbList');
    }
    expect(text(result, 'auth/index.html')).toContain('Sign-in is for Fixture administrators only.');
    expect(text(result, 'admin/blog/index.html')).toContain('data-island="BlogEditor"');
    expect(text(result, 'robots.txt')).toContain(
      'Disallow: /admin\nDisallow: /auth\nDisallow: /de/auth\nDisallow: /en/auth\n',
    );
    // /auth, which a site may link to from its pages, is there in every locale; the admin's screens are not.
    expect(text(result, 'de/auth/index.html')).toContain('<html lang="de"');
    expect(text(result, 'de/auth/index.html')).toContain('<meta name="robots" content="noindex" />');
    expect(result.files.has('de/admin/blog/index.html')).toBe(false);
    expect(text(result, 'sitemap.xml')).not.toContain('/admin');
    expect([...result.files.keys()].some((file) => /^assets\/admin\.[0-9a-f]{10}\.css$/.test(file))).toBe(true);
  });

  it('signs in on /auth and lists its posts on /admin/blog/', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${server.url}/admin/blog/`);
      await page.waitForURL(/\/auth\/$/);
      await page.getByLabel('E-mail address').fill(who.email);
      await page.getByLabel('Password').fill(who.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/admin\/blog\/$/);
      // Each post by its title in the default locale (nb), or the one language it is written in.
      await expect.poll(() => page.getByRole('table').innerText(), { timeout: 15_000 }).toContain('Nytt verktøy');
      const text = await page.getByRole('table').innerText();
      for (const title of ['Første ansatt', 'English only']) expect(text).toContain(title);
      await expect.poll(() => page.getByText(`Signed in as ${who.email}`).count()).toBe(1);
    } finally {
      await page.close();
    }
  }, 60_000);
});

describe('admin: { enabled: false }', () => {
  it('builds no admin page, island, stylesheet or robots line', async () => {
    const site = await createBlogSite((config) => `${config}\nadmin:\n  enabled: false\n`);
    try {
      const result = await buildSite({ config: site.config, cache: false, workers: 0, socialImages: false });
      const files = [...result.files.keys()];
      expect(files.filter((file) => file.startsWith('auth/') || file.startsWith('admin/'))).toEqual([]);
      expect(files.filter((file) => /^assets\/(admin\.|Admin|BlogEditor)/.test(file))).toEqual([]);
      expect(text(result, 'robots.txt')).not.toContain('/admin');
    } finally {
      await rm(site.dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("the admin pages and the site's own", () => {
  it('refuses a route of the site at an admin path, naming the line, with exit code 1', async () => {
    const site = await createBlogSite((config) =>
      config.replace(
        '  - { path: /, template: Home }\n',
        '  - { path: /, template: Home }\n  - { path: /auth, template: Home }\n',
      ),
    );
    try {
      const line =
        (await readFile(site.config, 'utf8')).split('\n').findIndex((text) => text.includes('path: /auth')) + 1;
      const failed = await run(process.execPath, [join(repoRoot, 'bin', 'site.js'), 'check', '--config', site.config], {
        cwd: site.dir,
      }).then(
        () => undefined,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stderr).toContain(`DUPLICATE_ROUTE  site.config.yaml:${line}:`);
      expect(failed?.stderr).toContain('route "/auth" is a page of the admin, which the engine adds itself');
      expect(failed?.stderr).toContain('set admin: { enabled: false }');
    } finally {
      await rm(site.dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("shows the site's own copy of a screen instead of the engine's, checked by the same schema", async () => {
    const site = await createBlogSite();
    try {
      const engineCopy = await readFile(join(repoRoot, 'src', 'admin', 'ui', 'copy', 'auth', 'en.yaml'), 'utf8');
      await mkdir(join(site.dir, 'content', 'pages', 'auth'), { recursive: true });
      await writeFile(
        join(site.dir, 'content', 'pages', 'auth', 'nb.yaml'),
        engineCopy.replace(/^heading: .*$/m, 'heading: Logg inn'),
      );
      const result = await buildSite({ config: site.config, cache: false, workers: 0, socialImages: false });
      expect(text(result, 'auth/index.html')).toContain('<h1>Logg inn</h1>');

      await writeFile(join(site.dir, 'content', 'pages', 'auth', 'nb.yaml'), engineCopy.replace(/^heading: .*\n/m, ''));
      const failed = await run(process.execPath, [join(repoRoot, 'bin', 'site.js'), 'check', '--config', site.config], {
        cwd: site.dir,
      }).then(
        () => undefined,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stderr).toMatch(/CONTENT_INVALID {2}content\/pages\/auth\/nb\.yaml.*heading/);
    } finally {
      await rm(site.dir, { recursive: true, force: true });
    }
  }, 60_000);
});
