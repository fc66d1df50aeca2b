/**
 * The admin refuses a post that links nowhere as `site check` would: its save and its preview
 * answer 422 with the same LINK_BROKEN error (the file, the line and column of the link in the
 * text being saved, the nearest existing page as the hint), and nothing is written.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, startLiveAdminServer } from '../helpers/admin-server';

const editor = { email: 'editor@example.com', role: 'editor' as const, password: 'editor password 1' };
const slug = 'a-day-in-a-tailor-shop';

describe('site serve --admin: a post with a broken link', () => {
  let running: Awaited<ReturnType<typeof startLiveAdminServer>>;
  let base: string;
  let headers: Record<string, string>;

  beforeAll(async () => {
    running = await startLiveAdminServer([editor]);
    base = running.server.url;
    const answer = await send(base, 'POST', '/api/auth/login', {
      headers: { origin: base, 'content-type': 'application/json' },
      body: JSON.stringify({ email: editor.email, password: editor.password }),
    });
    headers = {
      cookie: String(answer.headers['set-cookie']).split(';', 1)[0]!,
      origin: base,
      'x-csrf-token': answer.json().csrfToken,
      'content-type': 'application/json',
    };
  });
  afterAll(() => running?.close());

  it('is refused on save and on preview with the error site check gives, and the file stays as it was', async () => {
    const file = join(running.site.dir, 'content', 'blog', slug, 'en.md');
    const before = await readFile(file, 'utf8');
    const post = (
      await send(base, 'GET', `/api/admin/posts/${slug}/en`, { headers: { cookie: headers.cookie! } })
    ).json();
    const body = `\nSee [prices](/hub/priser/) and [the questions](/hub/pricing/#no-such-section).\n${post.body}`;
    const bodyLine = before.split('\n').indexOf('---', 1) + 2;
    const expected = [
      {
        code: 'LINK_BROKEN',
        file: expect.stringMatching(/content\/blog\/a-day-in-a-tailor-shop\/en\.md$/),
        line: bodyLine + 1,
        column: 14,
        field: null,
        message: 'the link to /hub/priser/ leads to no page of the site',
        hint: 'The nearest existing page is /hub/pricing/; an alias or a redirect also counts as existing.',
      },
      {
        code: 'LINK_BROKEN',
        file: expect.stringMatching(/content\/blog\/a-day-in-a-tailor-shop\/en\.md$/),
        line: bodyLine + 1,
        column: 48,
        field: null,
        message:
          'the link to /hub/pricing/#no-such-section names #no-such-section, which is no id of the page /hub/pricing/',
        hint: expect.stringMatching(/^No id on that page is close to #no-such-section; its ids include #/),
      },
    ];

    const saved = await send(base, 'PUT', `/api/admin/posts/${slug}/en`, {
      headers: { ...headers, 'if-match': `"${post.version}"` },
      body: JSON.stringify({ frontMatter: post.frontMatter, body }),
    });
    expect(saved.status).toBe(422);
    expect(saved.json().errors).toEqual(expected);
    expect(await readFile(file, 'utf8')).toBe(before);

    const previewed = await send(base, 'POST', '/api/admin/preview', {
      headers,
      body: JSON.stringify({ slug, locale: 'en', frontMatter: post.frontMatter, body }),
    });
    expect(previewed.status).toBe(422);
    expect(previewed.json().errors).toEqual(expected);

    const fixed = body.replace('/hub/priser/', '/hub/pricing/').replace('#no-such-section', '');
    expect(
      (
        await send(base, 'POST', '/api/admin/preview', {
          headers,
          body: JSON.stringify({ slug, locale: 'en', frontMatter: post.frontMatter, body: fixed }),
        })
      ).status,
    ).toBe(200);
  });
});
