/**
 * Every collection in the admin's API (`site serve --admin`): `GET /api/admin/collections` with
 * each collection's schema, an entry of the second collection (`cases`) read, created, saved and
 * deleted at /api/admin/collections/cases/<slug>/<locale> with the blog's semantics (If-Match,
 * 428, 409, 422 at the field, the audit log naming the collection), a translation's own slug
 * (`slug:` front matter) written and refused when it is no URL-safe slug, the posts alias, and
 * 404 for a collection the site does not have.
 */
import { execFile } from 'node:child_process';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aliasCollection, humanize } from '../../src/admin/collections-api';
import type { ResolvedConfig } from '../../src/config/load';
import { startAdminServer } from '../helpers/admin-server';
import { createCollectionsSite } from '../helpers/collections-site';
import type { TempSite } from '../helpers/fixture-site';
import { auditEntries } from '../helpers/store';

const editor = { email: 'editor@example.com', role: 'editor' as const, password: 'editor password 1' };
const base = '/api/admin/collections/cases';

describe('site serve --admin: /api/admin/collections', () => {
  let site: TempSite;
  let server: Awaited<ReturnType<typeof startAdminServer>>;
  let auth: { cookie: string; csrf: string };
  const file = (slug: string, locale = 'en') => join(site.dir, 'content', 'cases', slug, `${locale}.md`);
  const headers = (extra: Record<string, string> = {}) => ({
    cookie: auth.cookie,
    origin: server.url,
    'x-csrf-token': auth.csrf,
    'content-type': 'application/json',
    ...extra,
  });
  const get = (path: string) => server.send('GET', path, { headers: { cookie: auth.cookie } });
  const put = (path: string, body: unknown, version?: string) =>
    server.send('PUT', path, {
      headers: headers(version ? { 'if-match': `"${version}"` } : {}),
      body: JSON.stringify(body),
    });
  const post = (path: string, body: unknown) =>
    server.send('POST', path, { headers: headers(), body: JSON.stringify(body) });

  beforeAll(async () => {
    site = await createCollectionsSite();
    server = await startAdminServer({ users: [editor], configPath: site.config, projectRoot: site.dir, posts: true });
    auth = await server.signIn(editor.email, editor.password);
  });
  afterAll(async () => {
    await server?.close();
    await site?.cleanup();
  });

  it('lists every collection with its routes, its fields (type, required, terms) and the built-in fields', async () => {
    const answer = await get('/api/admin/collections');
    expect(answer.status).toBe(200);
    const collections = answer.json() as {
      id: string;
      label: string;
      routes: { kind: string; urls: Record<string, string> }[];
      termField: string | null;
      builtIn: string[];
      fields: {
        name: string;
        type: string;
        required: boolean;
        label: string;
        options?: { value: string; names: Record<string, string> }[];
      }[];
    }[];
    expect(collections.map((collection) => collection.id)).toEqual(['cases', 'blog']);
    const cases = collections[0]!;
    expect(cases.routes).toEqual([
      {
        kind: 'entry',
        path: '/cases/{slug}',
        audience: null,
        urls: { en: '/cases/{slug}/', no: '/no/kunder/{slug}/' },
      },
    ]);
    expect(cases.termField).toBe('sector');
    expect(cases.builtIn).toEqual(expect.arrayContaining(['title', 'description', 'date', 'draft', 'image', 'slug']));
    const field = (name: string) => cases.fields.find((candidate) => candidate.name === name);
    expect(field('clients')).toMatchObject({ type: 'number', required: true, label: 'Clients' });
    expect(field('featured')).toMatchObject({ type: 'boolean', required: false });
    expect(field('since')).toMatchObject({ type: 'date', required: false });
    expect(field('partner')).toMatchObject({ type: 'string', required: false, label: 'Partner organisation' });
    expect(field('sector')).toMatchObject({
      type: 'choice',
      required: true,
      options: [
        { value: 'retail', names: { en: 'retail', no: 'retail' } },
        { value: 'hospitality', names: { en: 'hospitality', no: 'hospitality' } },
      ],
    });
    expect(field('title')).toMatchObject({ type: 'string', required: true, builtIn: true });
    const blog = collections[1]!;
    expect(blog.routes.filter((route) => route.kind === 'entry').map((route) => route.urls.no)).toContain(
      '/no/blog/{slug}/',
    );
    expect(
      blog.fields.find((candidate) => candidate.name === 'category')?.options?.map((option) => option.value),
    ).toEqual(['circularity', 'saas', 'retail', 'repairer-stories']);
  });

  it('reads, lists and saves an entry of the second collection with If-Match (428 without, 409 when stale)', async () => {
    const listed = await get(base);
    expect(listed.status).toBe(200);
    expect(listed.json()).toMatchObject([
      {
        slug: 'bike-shop',
        translations: { en: { title: 'A bike shop that repairs more', category: 'retail', status: 'published' } },
      },
    ]);
    const read = await get(`${base}/bike-shop/no`);
    expect(read.status).toBe(200);
    const entry = read.json();
    expect(entry.frontMatter).toMatchObject({ slug: 'sykkelbutikken', clients: 420, featured: true, sector: 'retail' });
    expect(read.headers.etag).toBe(`"${entry.version}"`);
    expect((await put(`${base}/bike-shop/no`, { frontMatter: entry.frontMatter, body: entry.body })).status).toBe(428);
    const before = await readFile(file('bike-shop', 'no'), 'utf8');
    const saved = await put(
      `${base}/bike-shop/no`,
      { frontMatter: { ...entry.frontMatter, clients: 512, slug: 'sykkelverkstedet' }, body: entry.body },
      entry.version,
    );
    expect(saved.status).toBe(200);
    expect(await readFile(file('bike-shop', 'no'), 'utf8')).toBe(
      before.replace('clients: 420', 'clients: 512').replace('slug: sykkelbutikken', 'slug: sykkelverkstedet'),
    );
    const stale = await put(
      `${base}/bike-shop/no`,
      { frontMatter: entry.frontMatter, body: 'Overwrite' },
      entry.version,
    );
    expect(stale.status).toBe(409);
    expect(stale.json().current.frontMatter).toMatchObject({ clients: 512, slug: 'sykkelverkstedet' });
  });

  it('refuses with 422 at the field: a sector not in the list, a number that is text, a slug that is not URL-safe', async () => {
    const entry = (await get(`${base}/bike-shop/en`)).json();
    const before = await readFile(file('bike-shop'), 'utf8');
    const answer = await put(
      `${base}/bike-shop/en`,
      {
        frontMatter: { ...entry.frontMatter, sector: 'gardening', clients: 'many', slug: 'Sykkel Butikk!' },
        body: entry.body,
      },
      entry.version,
    );
    expect(answer.status).toBe(422);
    const errors = answer.json().errors as { code: string; field: string; message: string }[];
    expect(errors.map((error) => error.field).sort()).toEqual(['clients', 'sector', 'slug']);
    expect(errors.find((error) => error.field === 'slug')!.message).toContain('URL-safe slug');
    expect(await readFile(file('bike-shop'), 'utf8')).toBe(before);
  });

  it('creates an entry of the second collection (409 when it exists), deletes it with If-Match, and logs both under the collection', async () => {
    const frontMatter = {
      title: 'A hotel that mends its linen',
      description: 'Linen repaired instead of replaced.',
      date: '2026-04-01',
      sector: 'hospitality',
      clients: 3,
      featured: false,
    };
    const created = await post(base, {
      slug: 'hotel-linen',
      locale: 'en',
      frontMatter,
      body: '\nSheets and towels.\n',
    });
    expect(created.status).toBe(201);
    expect(await readFile(file('hotel-linen'), 'utf8')).toBe(
      '---\ntitle: A hotel that mends its linen\ndescription: Linen repaired instead of replaced.\ndate: 2026-04-01\nsector: hospitality\nclients: 3\nfeatured: false\n---\n\nSheets and towels.\n',
    );
    expect((await post(base, { slug: 'hotel-linen', locale: 'en', frontMatter, body: '' })).status).toBe(409);
    const missing = await post(base, {
      slug: 'no-clients',
      locale: 'en',
      frontMatter: { ...frontMatter, clients: undefined },
      body: '',
    });
    expect(missing.status).toBe(422);
    expect(missing.json().errors[0]).toMatchObject({ code: 'FRONT_MATTER', field: 'clients' });
    const version = created.json().version as string;
    expect((await server.send('DELETE', `${base}/hotel-linen/en`, { headers: headers() })).status).toBe(428);
    expect(
      (await server.send('DELETE', `${base}/hotel-linen/en`, { headers: headers({ 'if-match': '"old"' }) })).status,
    ).toBe(409);
    expect(
      (await server.send('DELETE', `${base}/hotel-linen/en`, { headers: headers({ 'if-match': `"${version}"` }) }))
        .status,
    ).toBe(200);
    await expect(readFile(file('hotel-linen'))).rejects.toThrow();
    const audit = await auditEntries(join(site.dir, 'data'));
    expect(
      audit
        .filter((line) => line.slug === 'hotel-linen')
        .map((line) => [line.collection, line.action, line.oldHash, line.newHash]),
    ).toEqual([
      ['cases', 'create', null, version],
      ['cases', 'delete', version, null],
    ]);
  });

  it('keeps /api/admin/posts as the blog, and /api/admin/collections/blog as the same posts', async () => {
    const alias = await get('/api/admin/posts');
    expect(alias.status).toBe(200);
    const slugs = (alias.json() as { slug: string }[]).map((entry) => entry.slug);
    expect(slugs).toContain('a-day-in-a-tailor-shop');
    expect(slugs).not.toContain('bike-shop');
    expect((await get('/api/admin/collections/blog')).json()).toEqual(alias.json());
    // Paged: a collection's list names them entries, the blog's alias posts; the same page and total.
    const paged = (await get('/api/admin/collections/blog?limit=1&offset=1')).json() as Record<string, unknown>;
    expect(paged).toEqual({ entries: [alias.json()[1]], total: slugs.length });
    expect((await get('/api/admin/posts?limit=1&offset=1')).json()).toEqual({
      posts: paged.entries,
      total: slugs.length,
    });
    const read = await get('/api/admin/posts/a-day-in-a-tailor-shop/en');
    expect(read.status).toBe(200);
    expect((await get('/api/admin/collections/blog/a-day-in-a-tailor-shop/en')).json()).toEqual(read.json());
    expect((await get('/api/admin/posts/bike-shop/en')).status).toBe(404);
  });

  it('answers 404 with a plain message for a collection the site does not have, and 401 without a session', async () => {
    for (const path of ['/api/admin/collections/events', '/api/admin/collections/events/a-talk/en']) {
      const answer = await get(path);
      expect(answer.status, path).toBe(404);
      expect(answer.json()).toEqual({
        error: 'unknown_collection',
        message: 'this site has no collection "events": it has cases, blog',
      });
    }
    expect((await server.send('GET', '/api/admin/collections')).status).toBe(401);
    expect((await server.send('GET', `${base}/bike-shop/en`)).status).toBe(401);
  });

  // Issue 46: a lookup by a name from the URL found Object.prototype's keys (500, or 200 []).
  it('answers 404 for collection names that are keys of every object (constructor, __proto__, toString)', async () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      for (const path of [
        `/api/admin/collections/${name}`,
        `/api/admin/collections/${name}/a-talk/en`,
        `/api/admin/collections/${name}/reviews`,
      ]) {
        const answer = await get(path);
        expect(answer.status, path).toBe(404);
        expect(answer.json(), path).toMatchObject({ error: 'unknown_collection' });
      }
      const created = await post(`/api/admin/collections/${name}`, {
        slug: 'a-talk',
        locale: 'en',
        frontMatter: { title: 'A talk' },
        body: 'Hello.\n',
      });
      expect(created.status, name).toBe(404);
    }
  });
});

describe('site serve --admin with publish.git: a save of the second collection', () => {
  it('is committed alone with a message naming the collection, and the audit log names it too', async () => {
    const run = promisify(execFile);
    const site = await createCollectionsSite();
    const identity = {
      GIT_AUTHOR_NAME: 'Setup',
      GIT_AUTHOR_EMAIL: 'setup@example.com',
      GIT_COMMITTER_NAME: 'Setup',
      GIT_COMMITTER_EMAIL: 'setup@example.com',
    };
    const git = async (...args: string[]) =>
      (await run('git', args, { cwd: site.dir, env: { ...process.env, ...identity } })).stdout.trim();
    await appendFile(site.config, '\npublish:\n  git: { commit: true }\n');
    await writeFile(join(site.dir, '.gitignore'), '.site/\ndata/\n');
    await git('init', '--quiet', '--initial-branch', 'main');
    await git('add', '-A');
    await git('commit', '--quiet', '-m', 'initial');
    const server = await startAdminServer({
      users: [editor],
      configPath: site.config,
      projectRoot: site.dir,
      posts: true,
    });
    try {
      const auth = await server.signIn(editor.email, editor.password);
      const entry = (await server.send('GET', `${base}/bike-shop/en`, { headers: { cookie: auth.cookie } })).json();
      const headers = {
        cookie: auth.cookie,
        origin: server.url,
        'x-csrf-token': auth.csrf,
        'content-type': 'application/json',
        'if-match': `"${entry.version}"`,
      };
      const saved = await server.send('PUT', `${base}/bike-shop/en`, {
        headers,
        body: JSON.stringify({ frontMatter: { ...entry.frontMatter, clients: 421 }, body: entry.body }),
      });
      expect(saved.status).toBe(200);
      expect(saved.json().git).toMatchObject({ committed: true });
      expect(await git('log', '-1', '--format=%s')).toBe('content(cases): update bike-shop (en)');
      expect(await git('show', '--name-only', '--format=', 'HEAD')).toBe('content/cases/bike-shop/en.md');
      const audit = await auditEntries(join(site.dir, 'data'));
      expect(audit.filter((line) => line.action === 'git-commit').map((line) => [line.collection, line.slug])).toEqual([
        ['cases', 'bike-shop'],
      ]);
    } finally {
      await server.close();
      await site.cleanup();
    }
  });
});

describe('the posts alias and the labels of fields without one', () => {
  it('/api/admin/posts is the blog, else the first collection of a site without one', () => {
    const site = (...names: string[]) =>
      ({ collections: Object.fromEntries(names.map((name) => [name, {}])) }) as unknown as ResolvedConfig;
    expect(aliasCollection(site('cases', 'blog'))).toBe('blog');
    expect(aliasCollection(site('events', 'cases'))).toBe('events');
    expect(aliasCollection(site('events'), 'news')).toBe('news');
    expect(aliasCollection(undefined)).toBe('blog');
  });

  it('puts a field name in words', () => {
    expect(['authorRole', 'clients', 'imageAlt', 'yearOfTheProject'].map(humanize)).toEqual([
      'Author role',
      'Clients',
      'Image alt',
      'Year of the project',
    ]);
  });
});
