/**
 * An editor cannot stall the site: a post body that makes the Markdown parser slow is refused by
 * the `markdown:` limits before it is parsed (422, positioned, naming the key), and one within
 * raised limits is parsed in a worker thread that is ended past the admin's time budget (422),
 * while the server goes on answering; previews are rate-limited per session (429 with
 * Retry-After); a slug or locale that is not text is a 400, not a crash.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLiveSite, type LiveSite } from '../../src/admin/live-site';
import { createServeAdmin } from '../../src/admin/mount';
import { addUser } from '../../src/admin/users';
import { buildSite } from '../../src/build';
import { loadConfig } from '../../src/config/load';
import { writeSite } from '../../src/emit/write';
import { startServer } from '../../src/serve/server';
import { fixedStoreSource, openSiteStore, type StoreSource } from '../../src/store/source';
import { send, startLiveAdminServer, testScrypt } from '../helpers/admin-server';
import { createTempSite, type TempSite } from '../helpers/fixture-site';

const editor = { email: 'editor@example.com', role: 'editor' as const, password: 'editor password 1' };
const slug = 'a-day-in-a-tailor-shop';
const frontMatter = {
  title: 'A post nobody saved',
  description: 'Only in the preview.',
  date: '2026-02-02',
  category: 'saas',
  author: 'Test Author',
};
/**
 * 250 KB of link destinations left open: 15-25 s in micromark, under `markdown.maxBytes`; never
 * the same text twice, so the Markdown cache cannot hold its HTML from an earlier run.
 */
const stalling = `${'[a]('.repeat(64_000)}\n\n${randomUUID()}`;

/** Signs in at `base` and returns the headers of a JSON request of that session. */
async function signIn(base: string): Promise<Record<string, string>> {
  const answer = await send(base, 'POST', '/api/auth/login', {
    headers: { origin: base, 'content-type': 'application/json' },
    body: JSON.stringify({ email: editor.email, password: editor.password }),
  });
  if (answer.status !== 200) throw new Error(`sign-in failed: ${answer.status} ${answer.text}`);
  return {
    cookie: String(answer.headers['set-cookie']).split(';', 1)[0]!,
    origin: base,
    'x-csrf-token': answer.json().csrfToken,
    'content-type': 'application/json',
  };
}

describe('the admin with the default Markdown limits', () => {
  let running: Awaited<ReturnType<typeof startLiveAdminServer>>;
  let base: string;
  let headers: Record<string, string>;

  beforeAll(async () => {
    running = await startLiveAdminServer([editor]);
    base = running.server.url;
    headers = await signIn(base);
  });
  afterAll(() => running?.close());

  it('refuses a save and a preview of a paragraph of open link destinations at once, at the line and column past the limit', async () => {
    const file = join(running.site.dir, 'content', 'blog', slug, 'en.md');
    const before = await readFile(file, 'utf8');
    const post = (
      await send(base, 'GET', `/api/admin/posts/${slug}/en`, { headers: { cookie: headers.cookie! } })
    ).json();
    const started = performance.now();
    const saved = await send(base, 'PUT', `/api/admin/posts/${slug}/en`, {
      headers: { ...headers, 'if-match': `"${post.version}"` },
      body: JSON.stringify({ frontMatter: post.frontMatter, body: `\nIntro.\n\n${stalling}\n` }),
    });
    expect(saved.status).toBe(422);
    const bodyLine = before.split('\n').indexOf('---', 1) + 2;
    expect(saved.json().errors).toEqual([
      {
        code: 'MARKDOWN_LIMIT',
        message:
          'this paragraph has more than the 1,000 link and emphasis marks ([ ] * _ ~) allowed (markdown.maxParagraphMarks)',
        file: expect.stringMatching(/content\/blog\/a-day-in-a-tailor-shop\/en\.md$/),
        line: bodyLine + 3,
        column: 2001,
        field: null,
        hint: expect.stringContaining('markdown:'),
      },
    ]);
    expect(await readFile(file, 'utf8')).toBe(before);
    const previewed = await send(base, 'POST', '/api/admin/preview', {
      headers,
      body: JSON.stringify({ slug: 'preview-only', locale: 'en', frontMatter, body: stalling }),
    });
    expect(previewed.status).toBe(422);
    expect(previewed.json().errors[0]).toMatchObject({
      code: 'MARKDOWN_LIMIT',
      file: expect.stringMatching(/content\/blog\/preview-only\/en\.md$/),
      column: 2001,
      message: expect.stringContaining('(markdown.maxParagraphMarks)'),
    });
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it('answers 400 invalid_body when the slug or the locale is not text', async () => {
    for (const [slugValue, locale] of [
      [{ toString: 1 }, 'en'],
      ['fine-slug', { toString: 1 }],
      [['a'], 'en'],
      [5, 'en'],
    ]) {
      for (const path of ['/api/admin/posts', '/api/admin/preview']) {
        const answer = await send(base, 'POST', path, {
          headers,
          body: JSON.stringify({ slug: slugValue, locale, frontMatter, body: 'Text.' }),
        });
        expect(answer.status, `${path} ${JSON.stringify([slugValue, locale])}`).toBe(400);
        expect(answer.json()).toEqual({
          error: 'invalid_body',
          message: expect.stringMatching(/^"(slug|locale)" must be text$/),
        });
      }
    }
  });
});

describe('the admin with the Markdown limit raised', () => {
  let site: TempSite;
  let live: LiveSite;
  let server: Awaited<ReturnType<typeof startServer>>;
  let store: StoreSource | undefined;
  let headers: Record<string, string>;
  const budgetMs = 2_000;
  const preview = (body: string, session = headers) =>
    send(server.url, 'POST', '/api/admin/preview', {
      headers: session,
      body: JSON.stringify({ slug: 'preview-only', locale: 'en', frontMatter, body }),
    });

  beforeAll(async () => {
    site = await createTempSite({ editConfig: (text) => `${text}\nmarkdown:\n  maxParagraphMarks: 1000000\n` });
    const dist = join(site.dir, 'dist');
    await writeSite(dist, (await buildSite({ config: site.config, socialImages: false })).files);
    live = createLiveSite({ config: site.config, dir: dist });
    await live.start();
    const config = await loadConfig(site.config);
    store = fixedStoreSource(await openSiteStore(config));
    await addUser(await store.get(), editor.email, editor.role, editor.password, testScrypt);
    const admin = createServeAdmin({
      projectRoot: site.dir,
      store,
      origin: config.site.origin,
      scrypt: testScrypt,
      site: live,
      posts: {
        config: () => live.config,
        lastBuild: () => live.lastBuild,
        afterWrite: (file) => live.rebuild(file),
        markdownBudgetMs: budgetMs,
      },
      preview: {
        config: () => live.config,
        lastBuild: () => live.lastBuild,
        markdownBudgetMs: budgetMs,
        previewsPerMinute: 4,
      },
    });
    server = await startServer({
      config,
      store,
      dir: dist,
      port: 0,
      host: '127.0.0.1',
      admin,
      limits: { shutdownGraceMs: 100 },
    });
    headers = await signIn(server.url);
  });
  afterAll(async () => {
    await server?.close();
    await store?.close();
    await live?.dispose();
    await site?.cleanup();
  });

  it('parses a preview in a worker: the site answers meanwhile, and past the budget the preview is a 422 naming the file and the limit', async () => {
    let done = false;
    const started = performance.now();
    const asked = preview(stalling).finally(() => (done = true));
    const waits: number[] = [];
    while (!done) {
      const sent = performance.now();
      const page = await send(server.url, 'GET', '/');
      expect(page.status).toBe(200);
      waits.push(performance.now() - sent);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const took = performance.now() - started;
    // The page was asked for again and again while the parser ran, and never waited for it.
    expect(Math.max(...waits)).toBeLessThan(1_000);
    expect(waits.length).toBeGreaterThan(5);
    const answer = await asked;
    expect(answer.status).toBe(422);
    expect(answer.json().errors).toEqual([
      {
        code: 'MARKDOWN_LIMIT',
        message: 'the Markdown took more than the 2 s the admin allows for rendering a post',
        file: expect.stringMatching(/content\/blog\/preview-only\/en\.md$/),
        line: expect.any(Number),
        column: null,
        field: 'body',
        hint: expect.stringContaining('[ ] * _ ~'),
      },
    ]);
    expect(took).toBeGreaterThanOrEqual(budgetMs);
    expect(took).toBeLessThan(budgetMs + 3_000);
    // The ended worker is replaced: the next preview renders.
    const next = await preview('\nPreview **body**.\n');
    expect(next.status).toBe(200);
    expect((await send(server.url, 'GET', next.json().url, { headers: { cookie: headers.cookie! } })).text).toContain(
      '<strong>body</strong>',
    );
  });

  it('refuses a save whose Markdown takes longer than the budget, and writes nothing', async () => {
    const file = join(site.dir, 'content', 'blog', slug, 'en.md');
    const before = await readFile(file, 'utf8');
    const post = (
      await send(server.url, 'GET', `/api/admin/posts/${slug}/en`, { headers: { cookie: headers.cookie! } })
    ).json();
    const saved = await send(server.url, 'PUT', `/api/admin/posts/${slug}/en`, {
      headers: { ...headers, 'if-match': `"${post.version}"` },
      body: JSON.stringify({ frontMatter: post.frontMatter, body: stalling }),
    });
    expect(saved.status).toBe(422);
    expect(saved.json().errors[0]).toMatchObject({
      code: 'MARKDOWN_LIMIT',
      field: 'body',
      message: expect.stringContaining('2 s the admin allows'),
      file: expect.stringMatching(/a-day-in-a-tailor-shop\/en\.md$/),
    });
    expect(await readFile(file, 'utf8')).toBe(before);
  });

  it('answers 429 with Retry-After past the previews a session may ask for in a minute, and only to that session', async () => {
    const session = await signIn(server.url);
    for (let count = 0; count < 4; count++) expect((await preview('Text.', session)).status).toBe(200);
    const refused = await preview('Text.', session);
    expect(refused.status).toBe(429);
    expect(refused.json()).toMatchObject({ error: 'too_many_previews' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    const other = await signIn(server.url);
    expect((await preview('Text.', other)).status).toBe(200);
  });
});
