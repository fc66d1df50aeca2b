/**
 * `GET /api/admin/visual?path=` on `site serve --admin`: the page as it will be published, with
 * `data-edit` on each element that shows a text of its copy (`hub#hero.heading`) or of an entry's
 * front matter (`blog/<slug>#title`), no marker left anywhere; 401 without a session, 404 for a
 * path that is no page of the site; the page runs no script and only the admin may frame it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLiveAdminServer } from '../helpers/admin-server';

const editor = { email: 'editor@example.com', role: 'editor' as const, password: 'editor password 1' };

describe('site serve --admin: /api/admin/visual', () => {
  let running: Awaited<ReturnType<typeof startLiveAdminServer>>;
  let server: Awaited<ReturnType<typeof startLiveAdminServer>>['server'];
  let cookie: string;
  const visual = (path: string, headers: Record<string, string> = { cookie }) =>
    server.send('GET', `/api/admin/visual?path=${encodeURIComponent(path)}`, { headers });

  beforeAll(async () => {
    running = await startLiveAdminServer([editor]);
    ({ server } = running);
    ({ cookie } = await server.signIn(editor.email, editor.password));
  }, 120_000);
  afterAll(() => running?.close());

  it("marks the elements that show the page's copy, and leaves no marker in the page", async () => {
    const answer = await visual('/hub/');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.headers['content-security-policy']).toContain("script-src 'none'");
    expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(answer.text).toMatch(
      /<h1 data-edit="hub#hero.heading" data-edit-locale="en" data-edit-kind="copy"[^>]*>Run your repair shop from one place<\/h1>/,
    );
    expect(answer.text).toContain('data-edit="hub#features.items.0.title"');
    // The head's title and description come from the copy too: taken out of the head, never attributed there.
    expect(answer.text).toContain('<title>Repair management for repairers and tailor shops');
    expect(answer.text).not.toMatch(/[\uE000-\uE0FF]/);
    // "/hub" finds the same page; the Norwegian page names its own file's language.
    expect((await visual('/hub')).text).toContain('data-edit="hub#hero.heading"');
    expect((await visual('/no/hub/')).text).toMatch(/data-edit="hub#hero.heading" data-edit-locale="no"/);
  });

  it("marks an entry's title and body as the entry's, on its page and in lists", async () => {
    const post = await visual('/blog/a-day-in-a-tailor-shop/');
    expect(post.status).toBe(200);
    expect(post.text).toMatch(
      /<h1 data-edit="blog\/a-day-in-a-tailor-shop#title" data-edit-locale="en" data-edit-kind="entry"[^>]*>A day in a tailor shop<\/h1>/,
    );
    expect(post.text).toContain('data-edit="blog/a-day-in-a-tailor-shop#body"');
    expect(post.text).not.toMatch(/[\uE000-\uE0FF]/);
    const list = await visual('/blog/');
    expect(list.text).toContain('data-edit="blog/a-day-in-a-tailor-shop#title"');
  });

  it('renders every page of the sitemap as published: the same bytes but for the data-edit attributes, the admin stylesheet and text drawn in SVG', async () => {
    const sitemap = (await server.send('GET', '/sitemap.xml')).text;
    const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => decodeURI(new URL(match[1]!).pathname));
    expect(paths.length).toBeGreaterThan(50);
    let marked = 0;
    for (const path of paths) {
      const [published, shown] = await Promise.all([server.send('GET', encodeURI(path)), visual(path)]);
      expect(shown.status, path).toBe(200);
      if (shown.text.includes('data-edit=')) marked++;
      const plain = shown.text
        .replace(/ data-edit(?:-locale|-kind)?="[^"]*"/g, '')
        .replace(/<link rel="stylesheet" href="\/assets\/admin\.[0-9a-f]{10}\.css" \/><\/head>/, '</head>');
      // A drawing that breaks a text into lines by its length may break it elsewhere: a marker counts.
      const drawingless = (html: string) => html.replace(/<svg[\s\S]*?<\/svg>/g, '<svg></svg>');
      expect(drawingless(plain), path).toBe(drawingless(published.text));
    }
    // Every page shows some text of its copy or of an entry.
    expect(marked).toBe(paths.length);
  });

  it('answers 401 without a session and 404 for no page of the site or an admin screen', async () => {
    expect((await visual('/hub/', {})).status).toBe(401);
    for (const path of ['/no-such-page/', '/admin/pages/', 'hub', '']) {
      const answer = await visual(path);
      expect(answer.status, path).toBe(404);
      expect(answer.json()).toMatchObject({ error: 'not_found' });
    }
  });
});
