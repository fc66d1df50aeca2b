/**
 * The blog editor's API in `site serve --admin`: list, read, update, create, delete; If-Match
 * versions (409), the build's own errors (422, with the positions `site check` gives), nothing
 * written on failure, path safety (400), the body limit (413), and two concurrent saves of one file.
 */
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../src/build';
import { collectSiteErrors } from '../../src/errors';
import { createTempSite, type TempSite } from '../helpers/fixture-site';
import { startAdminServer } from '../helpers/admin-server';
import { auditEntries } from '../helpers/store';

const editor = { email: 'editor@example.com', role: 'editor' as const, password: 'editor password 1' };
const slug = 'a-day-in-a-tailor-shop';

describe('site serve --admin: /api/admin/posts', () => {
  let site: TempSite;
  let server: Awaited<ReturnType<typeof startAdminServer>>;
  let auth: { cookie: string; csrf: string };
  const file = (name: string, locale = 'en') => join(site.dir, 'content', 'blog', name, `${locale}.md`);
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

  beforeAll(async () => {
    site = await createTempSite();
    server = await startAdminServer({ users: [editor], configPath: site.config, projectRoot: site.dir, posts: true });
    auth = await server.signIn(editor.email, editor.password);
  });
  afterAll(async () => {
    await server?.close();
    await site?.cleanup();
  });

  it('lists every post with its status per locale, and what a missing locale shows instead', async () => {
    await writeFile(
      file('a-day-in-a-tailor-shop', 'no'),
      (await readFile(file('a-day-in-a-tailor-shop', 'no'), 'utf8')).replace(/^date: .*$/m, 'date: 2099-01-01'),
    );
    const answer = await get('/api/admin/posts');
    expect(answer.status).toBe(200);
    const posts = answer.json() as { slug: string; translations: Record<string, Record<string, unknown>> }[];
    const post = posts.find((candidate) => candidate.slug === slug)!;
    expect(post.translations.en).toMatchObject({
      title: 'A day in a tailor shop',
      date: '2026-05-27',
      category: 'repairer-stories',
      status: 'published',
    });
    expect(post.translations.no!.status).toBe('scheduled');
    const englishOnly = posts.find((candidate) => candidate.slug === 'building-a-local-repair-network')!;
    expect(englishOnly.translations.no).toEqual({ status: 'missing', shownIn: 'en' });
  });

  it('pages the list with ?limit=&offset= and filters it as the screen does, answering { posts, total }', async () => {
    type Listed = { slug: string; translations: Record<string, Record<string, unknown>> };
    const all = (await get('/api/admin/posts')).json() as Listed[];
    expect(all.length).toBeGreaterThan(3);
    const first = (await get('/api/admin/posts?limit=2')).json() as { posts: Listed[]; total: number };
    expect(first.total).toBe(all.length);
    expect(first.posts).toEqual(all.slice(0, 2));
    const second = (await get('/api/admin/posts?limit=2&offset=2')).json() as { posts: Listed[]; total: number };
    expect(second.posts).toEqual(all.slice(2, 4));
    // Search: the slug or a title, case ignored; the total counts every match, the page holds the first.
    const searched = (await get('/api/admin/posts?q=TAILOR&limit=1')).json() as { posts: Listed[]; total: number };
    const matching = all.filter(
      (post) =>
        post.slug.includes('tailor') ||
        Object.values(post.translations).some((each) =>
          String(each.title ?? '')
            .toLowerCase()
            .includes('tailor'),
        ),
    );
    expect(searched.total).toBe(matching.length);
    expect(searched.posts).toEqual(matching.slice(0, 1));
    // Status in one locale: the Norwegian translation dated 2099 (the test above) is scheduled.
    const scheduled = (await get('/api/admin/posts?status=scheduled&locale=no')).json() as { posts: Listed[] };
    expect(scheduled.posts.map((post) => post.slug)).toContain(slug);
    expect(scheduled.posts.every((post) => post.translations.no!.status === 'scheduled')).toBe(true);
    // A bad page size is the default's; a page past the end is empty, with the total.
    const past = (await get(`/api/admin/posts?limit=x&offset=${all.length + 5}`)).json() as {
      posts: Listed[];
      total: number;
    };
    expect(past).toEqual({ posts: [], total: all.length });
  });

  it('lists a post edited on disk, outside the admin, with its new title (what the list keeps is read again)', async () => {
    const title = (posts: { slug: string; translations: Record<string, Record<string, unknown>> }[]) =>
      posts.find((candidate) => candidate.slug === slug)?.translations.en?.title;
    const before = (await get('/api/admin/posts?limit=500')).json().posts;
    expect(title(before)).toBe('A day in a tailor shop');
    const text = await readFile(file(slug), 'utf8');
    await writeFile(file(slug), text.replace(/^title: .*$/m, 'title: Edited in an editor'));
    try {
      await expect
        .poll(async () => title((await get('/api/admin/posts?limit=500')).json().posts))
        .toBe('Edited in an editor');
    } finally {
      await writeFile(file(slug), text);
    }
    await expect
      .poll(async () => title((await get('/api/admin/posts?limit=500')).json().posts))
      .toBe('A day in a tailor shop');
  });

  it('reads a post as front matter, body and version (also the ETag)', async () => {
    const answer = await get(`/api/admin/posts/${slug}/en`);
    expect(answer.status).toBe(200);
    const post = answer.json();
    expect(post.frontMatter).toMatchObject({
      title: 'A day in a tailor shop',
      category: 'repairer-stories',
      author: 'Mendwise',
    });
    expect(post.body).toMatch(/^\nThe shop in this story/);
    expect(answer.headers.etag).toBe(`"${post.version}"`);
    expect((await get(`/api/admin/posts/${slug}/de`)).status).toBe(400);
    expect((await get('/api/admin/posts/no-such-post/en')).status).toBe(404);
  });

  it('saves with If-Match, changing only the edited line; a stale version gets 409 with the current text', async () => {
    const before = await readFile(file(slug), 'utf8');
    const post = (await get(`/api/admin/posts/${slug}/en`)).json();
    expect((await put(`/api/admin/posts/${slug}/en`, { frontMatter: post.frontMatter, body: post.body })).status).toBe(
      428,
    );
    const saved = await put(
      `/api/admin/posts/${slug}/en`,
      { frontMatter: { ...post.frontMatter, title: 'A day in a busy tailor shop' }, body: post.body },
      post.version,
    );
    expect(saved.status).toBe(200);
    expect(await readFile(file(slug), 'utf8')).toBe(
      before.replace('title: "A day in a tailor shop"', 'title: "A day in a busy tailor shop"'),
    );
    const stale = await put(
      `/api/admin/posts/${slug}/en`,
      { frontMatter: post.frontMatter, body: 'Overwrite' },
      post.version,
    );
    expect(stale.status).toBe(409);
    expect(stale.json().current.frontMatter.title).toBe('A day in a busy tailor shop');
    expect(stale.json().current.version).toBe(saved.json().version);
  });

  it('refuses an invalid post with 422 and the errors `site check` reports for it, and writes nothing', async () => {
    const before = await readFile(file(slug), 'utf8');
    const post = (await get(`/api/admin/posts/${slug}/en`)).json();
    const answer = await put(
      `/api/admin/posts/${slug}/en`,
      { frontMatter: { ...post.frontMatter, category: 'gardening', date: '2026-02-30' }, body: post.body },
      post.version,
    );
    expect(answer.status).toBe(422);
    const errors = answer.json().errors as {
      code: string;
      message: string;
      field: string;
      line: number;
      column: number;
    }[];
    expect(errors.map((error) => error.field).sort()).toEqual(['category', 'date']);
    expect(await readFile(file(slug), 'utf8')).toBe(before);

    // The same text through `site check` (buildSite) in a copy of the site: the same codes, messages and positions.
    const copy = await createTempSite();
    try {
      const lines = before
        .split('\n')
        .map((line) =>
          line.startsWith('category:') ? 'category: gardening' : line.startsWith('date:') ? 'date: 2026-02-30' : line,
        );
      await writeFile(join(copy.dir, 'content', 'blog', slug, 'en.md'), lines.join('\n'));
      const thrown = await buildSite({ config: copy.config, workers: 0 }).then(
        () => undefined,
        (error: unknown) => error,
      );
      const reported = collectSiteErrors(thrown)!.map((error) => ({
        code: error.code,
        message: error.message,
        field: error.field,
        line: error.line,
        column: error.column,
      }));
      const ours = errors.map(({ code, message, field, line, column }) => ({ code, message, field, line, column }));
      const byField = (a: { field?: string }, b: { field?: string }) => ((a.field ?? '') < (b.field ?? '') ? -1 : 1);
      expect(ours.sort(byField)).toEqual(reported.sort(byField));
    } finally {
      await copy.cleanup();
    }
  });

  it('refuses a post whose image is not in its folder, at the image field with its line, and writes nothing', async () => {
    const before = await readFile(file(slug), 'utf8');
    const post = (await get(`/api/admin/posts/${slug}/en`)).json();
    const answer = await put(
      `/api/admin/posts/${slug}/en`,
      {
        frontMatter: { ...post.frontMatter, image: 'missing-photo.jpg', imageAlt: 'A photo that is not there' },
        body: post.body,
      },
      post.version,
    );
    expect(answer.status).toBe(422);
    const [error] = answer.json().errors as { code: string; message: string; field: string; line: number }[];
    expect(error).toMatchObject({
      code: 'ENTRY_IMAGE',
      field: 'image',
      message: 'no file "missing-photo.jpg" in the entry\'s folder',
    });
    expect(error!.line).toBeGreaterThan(1);
    expect(await readFile(file(slug), 'utf8')).toBe(before);
  });

  it("refuses slugs that are not the build's pattern, paths out of content/, and symbolic links (400)", async () => {
    for (const path of [
      '/api/admin/posts/..%2F..%2Fsite.config/en',
      '/api/admin/posts/%2E%2E/en',
      '/api/admin/posts/../en',
      '/api/admin/posts/Caps/en',
      '/api/admin/posts/%E0%A4%A/en',
      `/api/admin/posts/${slug}/..%2Fen`,
    ]) {
      expect((await get(path)).status, path).toBe(400);
    }
    const outside = join(site.dir, 'outside');
    await mkdir(outside, { recursive: true });
    await writeFile(join(outside, 'en.md'), '---\ntitle: x\n---\n');
    await symlink(outside, join(site.dir, 'content', 'blog', 'linked-post'));
    expect((await get('/api/admin/posts/linked-post/en')).status).toBe(400);
    const create = await server.send('POST', '/api/admin/posts', {
      headers: headers(),
      body: JSON.stringify({ slug: 'linked-post', locale: 'no', frontMatter: {}, body: '' }),
    });
    expect(create.status).toBe(400);
    const created = await server.send('POST', '/api/admin/posts', {
      headers: headers(),
      body: JSON.stringify({ slug: '../escape', locale: 'en', frontMatter: {}, body: '' }),
    });
    expect(created.status).toBe(400);
  });

  // Issue 46: a field held as a block scalar (`author: |`) saved as `---` answered 200 and glued
  // the next field onto it (`author: "---authorRole: Writer"`); saving `Bob` then failed.
  it('saves over a block scalar without touching the next field, and refuses (422) a text that would not read back', async () => {
    const name = 'why-repair-beats-recycling';
    const path = `/api/admin/posts/${name}/en`;
    const text = await readFile(file(name), 'utf8');
    await writeFile(file(name), text.replace(/^author: .*$/m, 'author: |\n  Mendwise team\n  (two lines)'));
    for (const author of ['---', 'Bob', 'Anna\nBerg']) {
      const post = (await get(path)).json();
      const saved = await put(path, { frontMatter: { ...post.frontMatter, author }, body: post.body }, post.version);
      expect(saved.status, author).toBe(200);
      expect((await get(path)).json().frontMatter, author).toEqual({ ...post.frontMatter, author });
    }
    expect((await get(path)).json().frontMatter.authorRole).toBe(
      'Writes about repair, circularity and the software behind them',
    );

    // A front matter written as a flow map: a new field is added inside it.
    const flow =
      '---\n{ title: "Flow", description: "A flow map.", date: 2026-01-15, category: circularity, author: Anna }\n---\n\nBody.\n';
    await writeFile(file(name), flow);
    const post = (await get(path)).json();
    expect(
      (await put(path, { frontMatter: { ...post.frontMatter, authorRole: 'Writer' }, body: post.body }, post.version))
        .status,
    ).toBe(200);
    expect(await readFile(file(name), 'utf8')).toBe(
      flow.replace('author: Anna }', 'author: Anna, authorRole: Writer }'),
    );

    // An alias of the changed value would change with it: refused at the alias's field, and nothing is written.
    const aliased =
      '---\ntitle: Aliased\ndescription: An alias.\ndate: 2026-01-15\ncategory: circularity\nauthor: &who Anna\nauthorRole: *who\n---\n\nBody.\n';
    await writeFile(file(name), aliased);
    const before = (await get(path)).json();
    const refused = await put(
      path,
      { frontMatter: { ...before.frontMatter, author: 'Bob' }, body: before.body },
      before.version,
    );
    expect(refused.status).toBe(422);
    expect(refused.json().errors[0]).toMatchObject({ code: 'FRONT_MATTER', field: 'authorRole' });
    expect(refused.json().errors[0].message).toMatch(/would not read back/);
    expect(await readFile(file(name), 'utf8')).toBe(aliased);
  });

  it('413 for a post body over 256 KB', async () => {
    const post = (await get(`/api/admin/posts/${slug}/en`)).json();
    const answer = await put(
      `/api/admin/posts/${slug}/en`,
      { frontMatter: post.frontMatter, body: 'x'.repeat(300 * 1024) },
      post.version,
    );
    expect(answer.status).toBe(413);
  });

  it('two concurrent saves of one file: one 200, one 409, and the file is exactly one of them', async () => {
    const post = (await get(`/api/admin/posts/${slug}/en`)).json();
    const bodies = ['\nFirst writer.\n', '\nSecond writer.\n'];
    const answers = await Promise.all(
      bodies.map((body) => put(`/api/admin/posts/${slug}/en`, { frontMatter: post.frontMatter, body }, post.version)),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const text = await readFile(file(slug), 'utf8');
    const winner = bodies[answers.findIndex((answer) => answer.status === 200)]!;
    expect(text.endsWith(`---\n${winner}`)).toBe(true);
  });

  it('announces saves on the event stream to signed-in editors only', async () => {
    expect((await server.send('GET', '/api/admin/events')).status).toBe(401);
    const received: string[] = [];
    const url = new URL('/api/admin/events', server.url);
    const stream = await new Promise<import('node:http').ClientRequest>((resolve, reject) => {
      const outgoing = httpRequest(
        { host: url.hostname, port: url.port, path: url.pathname, headers: { cookie: auth.cookie } },
        (incoming) => {
          expect(incoming.statusCode).toBe(200);
          expect(incoming.headers['content-type']).toContain('text/event-stream');
          incoming.on('data', (chunk: Buffer) => received.push(chunk.toString('utf8')));
          resolve(outgoing);
        },
      );
      outgoing.on('error', reject);
      outgoing.end();
    });
    try {
      const post = (await get(`/api/admin/posts/${slug}/en`)).json();
      expect(
        (
          await put(
            `/api/admin/posts/${slug}/en`,
            { frontMatter: post.frontMatter, body: `${post.body}\nOne more line.\n` },
            post.version,
          )
        ).status,
      ).toBe(200);
      await expect.poll(() => received.join('')).toContain('event: saved');
      const data = JSON.parse(/event: saved\ndata: (.*)\n/.exec(received.join(''))![1]!);
      expect(data).toMatchObject({ slug, locale: 'en', user: editor.email });
    } finally {
      stream.destroy();
    }
  });

  it('creates a post (409 when it exists) and deletes it with If-Match', async () => {
    const frontMatter = {
      title: 'Repair cafés in Oslo',
      description: 'Where to get things fixed.',
      date: '2026-01-15',
      category: 'circularity',
      author: 'Test Author',
    };
    const created = await server.send('POST', '/api/admin/posts', {
      headers: headers(),
      body: JSON.stringify({ slug: 'repair-cafes-in-oslo', locale: 'en', frontMatter, body: '\nHello.\n' }),
    });
    expect(created.status).toBe(201);
    expect(await readFile(file('repair-cafes-in-oslo'), 'utf8')).toBe(
      '---\ntitle: Repair cafés in Oslo\ndescription: Where to get things fixed.\ndate: 2026-01-15\ncategory: circularity\nauthor: Test Author\n---\n\nHello.\n',
    );
    const again = await server.send('POST', '/api/admin/posts', {
      headers: headers(),
      body: JSON.stringify({ slug: 'repair-cafes-in-oslo', locale: 'en', frontMatter, body: '' }),
    });
    expect(again.status).toBe(409);
    const invalid = await server.send('POST', '/api/admin/posts', {
      headers: headers(),
      body: JSON.stringify({
        slug: 'no-title',
        locale: 'en',
        frontMatter: { ...frontMatter, title: undefined },
        body: '',
      }),
    });
    expect(invalid.status).toBe(422);
    expect(invalid.json().errors[0]).toMatchObject({ code: 'FRONT_MATTER', field: 'title' });
    await expect(readFile(file('no-title'))).rejects.toThrow();
    const version = created.json().version as string;
    expect(
      (
        await server.send('DELETE', '/api/admin/posts/repair-cafes-in-oslo/en', {
          headers: headers({ 'if-match': 'old' }),
        })
      ).status,
    ).toBe(409);
    expect(
      (
        await server.send('DELETE', '/api/admin/posts/repair-cafes-in-oslo/en', {
          headers: headers({ 'if-match': `"${version}"` }),
        })
      ).status,
    ).toBe(200);
    await expect(readFile(file('repair-cafes-in-oslo'))).rejects.toThrow();
    const audit = await auditEntries(join(site.dir, 'data'));
    expect(
      audit
        .filter((line) => line.slug === 'repair-cafes-in-oslo')
        .map((line) => [line.action, line.oldHash, line.newHash]),
    ).toEqual([
      ['create', null, version],
      ['delete', version, null],
    ]);
  });
});
