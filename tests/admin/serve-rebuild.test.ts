/**
 * `site serve --admin` publishes a save at once: the site is rebuilt in the same process (only the
 * affected pages) and the changed files are swapped into the served folder. A failed rebuild
 * leaves the served files untouched and returns the errors.
 */
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveSite } from '../../src/admin/live-site';
import { buildSite } from '../../src/build';
import { createEditableSite } from '../helpers/editable-site';
import type { TempSite } from '../helpers/fixture-site';
import { startAdminServer, startLiveAdmin, writeHeaders } from '../helpers/admin-server';

const editor = { email: 'editor@example.com', role: 'editor' as const, password: 'editor password 1' };
const slug = 'a-day-in-a-tailor-shop';

/** Every file of a folder with its bytes. */
async function snapshot(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      files.set(path.slice(dir.length), (await readFile(path)).toString('base64'));
    }
  }
  return files;
}

describe('site serve --admin: save → live', () => {
  let site: TempSite;
  let dist: string;
  let live: LiveSite;
  let server: Awaited<ReturnType<typeof startAdminServer>>;
  let auth: { cookie: string; csrf: string };

  beforeAll(async () => {
    site = await createEditableSite();
    ({ dist, live, server } = await startLiveAdmin(site, [editor], { build: { socialImages: true } }));
    auth = await server.signIn(editor.email, editor.password);
  });
  afterAll(async () => {
    await server?.close();
    await live?.dispose();
    await site?.cleanup();
  });
  const headers = (version: string) => writeHeaders(server.url, auth, version);

  it('serves the edited post as soon as the save is answered, rewriting only the files the edit changed', async () => {
    const before = await snapshot(dist);
    const post = (await server.send('GET', `/api/admin/posts/${slug}/en`, { headers: { cookie: auth.cookie } })).json();
    const started = performance.now();
    const saved = await server.send('PUT', `/api/admin/posts/${slug}/en`, {
      headers: headers(post.version),
      body: JSON.stringify({
        frontMatter: { ...post.frontMatter, title: 'A day in a busy tailor shop' },
        body: post.body,
      }),
    });
    expect(saved.status).toBe(200);
    expect(saved.json()).toMatchObject({ rebuilt: true, ok: true });
    const page = await server.send('GET', `/blog/${slug}/`);
    const saveToLive = performance.now() - started;
    expect(page.text).toContain('A day in a busy tailor shop');
    expect((await server.send('GET', '/blog/')).text).toContain('A day in a busy tailor shop');
    const after = await snapshot(dist);
    const changed = [...after.keys()].filter((path) => after.get(path) !== before.get(path));
    expect(changed).toContain(`/blog/${slug}/index.html`);
    expect(changed.length).toBeLessThan(before.size / 4);
    // The served folder is what `site build` writes for the new content, byte for byte.
    const rebuilt = await buildSite({ config: site.config });
    const html = Buffer.from(after.get(`/blog/${slug}/index.html`)!, 'base64');
    expect(html.toString('utf8')).toBe(String(rebuilt.files.get(`blog/${slug}/index.html`)));
    // Its precompressed siblings were made again from the new bytes.
    expect(brotliDecompressSync(Buffer.from(after.get(`/blog/${slug}/index.html.br`)!, 'base64'))).toEqual(html);
    expect(changed).toContain(`/blog/${slug}/index.html.gz`);
    console.log(`save-to-live (demo site, in-process): ${Math.round(saveToLive)} ms`);
  });

  it('previews an unsaved post through the real templates at a one-time, session-only, noindex URL', async () => {
    const file = join(site.dir, 'content', 'blog', 'preview-only', 'en.md');
    const frontMatter = {
      title: 'A post nobody saved',
      description: 'Only in the preview.',
      date: '2026-02-02',
      category: 'saas',
      author: 'Test Author',
    };
    const asked = await server.send('POST', '/api/admin/preview', {
      headers: {
        cookie: auth.cookie,
        origin: server.url,
        'x-csrf-token': auth.csrf,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ slug: 'preview-only', locale: 'en', frontMatter, body: '\nPreview **body**.\n' }),
    });
    expect(asked.status).toBe(200);
    const { url } = asked.json();
    expect(url).toMatch(/^\/api\/admin\/preview\/[\w-]{43}$/);
    const other = await server.signIn(editor.email, editor.password);
    expect((await server.send('GET', url, { headers: { cookie: other.cookie } })).status).toBe(404);
    const page = await server.send('GET', url, { headers: { cookie: auth.cookie } });
    expect(page.status).toBe(200);
    expect(page.headers['x-robots-tag']).toContain('noindex');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.text).toContain('<h1');
    expect(page.text).toContain('A post nobody saved');
    expect(page.text).toContain('<strong>body</strong>');
    expect(page.text).toMatch(/<meta name="robots" content="noindex/);
    expect((await server.send('GET', url, { headers: { cookie: auth.cookie } })).status).toBe(404);
    await expect(readFile(file)).rejects.toThrow();
    const invalid = await server.send('POST', '/api/admin/preview', {
      headers: {
        cookie: auth.cookie,
        origin: server.url,
        'x-csrf-token': auth.csrf,
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        slug: 'preview-only',
        locale: 'en',
        frontMatter: { ...frontMatter, category: 'gardening' },
        body: '',
      }),
    });
    expect(invalid.status).toBe(422);
    expect(invalid.json().errors[0].field).toBe('category');
  });

  it('leaves the served files untouched when the rebuild fails, and returns the errors', async () => {
    const template = join(site.dir, 'templates', 'pages', 'BlogPost.tsx');
    const original = await readFile(template, 'utf8');
    await writeFile(template, `${original}\nexport const broken = <div>;\n`);
    try {
      // The template is read again only when the pipeline is told it changed: tell it, as a watcher would.
      await live.rebuild(template);
      const before = await snapshot(dist);
      const post = (
        await server.send('GET', `/api/admin/posts/${slug}/en`, { headers: { cookie: auth.cookie } })
      ).json();
      const saved = await server.send('PUT', `/api/admin/posts/${slug}/en`, {
        headers: headers(post.version),
        body: JSON.stringify({ frontMatter: { ...post.frontMatter, title: 'Not live yet' }, body: post.body }),
      });
      expect(saved.status).toBe(200);
      const answer = saved.json();
      expect(answer.rebuilt).toBe(true);
      expect(answer.ok).toBe(false);
      expect(answer.errors[0].code).toBe('TEMPLATE_BUILD');
      expect(await snapshot(dist)).toEqual(before);
      expect((await server.send('GET', `/blog/${slug}/`)).text).not.toContain('Not live yet');
    } finally {
      await writeFile(template, original);
      await live.rebuild(template);
    }
    expect((await server.send('GET', `/blog/${slug}/`)).text).toContain('Not live yet');
  });
  it('checks the whole site before writing: a template that refuses the edit gets 422 with its field, and nothing is written', async () => {
    const template = join(site.dir, 'templates', 'pages', 'BlogPost.tsx');
    const original = await readFile(template, 'utf8');
    // A rule a site may keep in its template: the per-file check cannot know it, only a render can.
    await writeFile(
      template,
      original
        .replace('import { article,', 'import { templateError, article,')
        .replace(
          '  const { data, translation } = translationFor(props);\n',
          "  const { data, translation } = translationFor(props);\n  if (translation.title.startsWith('TODO')) templateError('a post title must not start with TODO', { field: 'title', hint: 'Write the real title.' });\n",
        ),
    );
    try {
      await live.rebuild(template);
      const file = join(site.dir, 'content', 'blog', slug, 'en.md');
      const text = await readFile(file, 'utf8');
      const before = await snapshot(dist);
      const post = (
        await server.send('GET', `/api/admin/posts/${slug}/en`, { headers: { cookie: auth.cookie } })
      ).json();
      const refused = await server.send('PUT', `/api/admin/posts/${slug}/en`, {
        headers: headers(post.version),
        body: JSON.stringify({ frontMatter: { ...post.frontMatter, title: 'TODO a title' }, body: post.body }),
      });
      expect(refused.status).toBe(422);
      const [error] = refused.json().errors;
      expect(error).toMatchObject({
        code: 'TEMPLATE_REJECTED',
        field: 'title',
        message: expect.stringContaining('must not start with TODO'),
        file: expect.stringContaining(`${slug}/en.md`),
      });
      expect(error.line).toBeGreaterThan(1);
      expect(await readFile(file, 'utf8')).toBe(text);
      expect(await snapshot(dist)).toEqual(before);
      // A draft is not shown, so the rule does not apply to it: it saves.
      const draft = await server.send('PUT', `/api/admin/posts/${slug}/en`, {
        headers: headers(post.version),
        body: JSON.stringify({
          frontMatter: { ...post.frontMatter, title: 'TODO a title', draft: true },
          body: post.body,
        }),
      });
      expect(draft.status).toBe(200);
      const restored = await server.send('PUT', `/api/admin/posts/${slug}/en`, {
        headers: headers(draft.json().version),
        body: JSON.stringify({ frontMatter: post.frontMatter, body: post.body }),
      });
      expect(restored.status).toBe(200);
    } finally {
      await writeFile(template, original);
      await live.rebuild(template);
    }
  });
  it('does not publish while a build holds the folder: the save says so, and the next save publishes both changes', async () => {
    const lock = join(site.dir, '.dist.site-lock');
    const other = 'building-a-local-repair-network';
    const edit = async (name: string, title: string) => {
      const post = (
        await server.send('GET', `/api/admin/posts/${name}/en`, { headers: { cookie: auth.cookie } })
      ).json();
      return server.send('PUT', `/api/admin/posts/${name}/en`, {
        headers: headers(post.version),
        body: JSON.stringify({ frontMatter: { ...post.frontMatter, title }, body: post.body }),
      });
    };
    await writeFile(lock, `${process.pid}\n`);
    try {
      const before = await snapshot(dist);
      const refused = await edit(slug, 'Saved while a build ran');
      expect(refused.status).toBe(200);
      expect(refused.json()).toMatchObject({
        rebuilt: true,
        ok: false,
        errors: [expect.objectContaining({ code: 'OUTPUT_BUSY' })],
      });
      expect(await snapshot(dist)).toEqual(before);
    } finally {
      await rm(lock, { force: true });
    }
    const published = await edit(other, 'Published after the build');
    expect(published.json()).toMatchObject({ rebuilt: true, ok: true });
    expect((await server.send('GET', `/blog/${other}/`)).text).toContain('Published after the build');
    expect((await server.send('GET', `/blog/${slug}/`)).text).toContain('Saved while a build ran');
  });
});
