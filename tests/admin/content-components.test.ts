/**
 * Components in Markdown in the admin (issue 48, part 1): `GET /api/admin/components` lists the
 * engine's components with their attributes as form fields; a save whose body names an unknown
 * component or gives a refused attribute is refused (422) with the errors `site check` reports, at
 * the field `body` with their lines and columns, and nothing is written; a draft with a component
 * previews with the component rendered.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempSite, type TempSite } from '../helpers/fixture-site';
import { startLiveAdmin } from '../helpers/admin-server';

const editor = { email: 'editor@example.com', role: 'editor' as const, password: 'editor password 1' };
const slug = 'a-day-in-a-tailor-shop';

describe('components in the admin', () => {
  let site: TempSite;
  let live: Awaited<ReturnType<typeof startLiveAdmin>>;
  let server: Awaited<ReturnType<typeof startLiveAdmin>>['server'];
  let auth: { cookie: string; csrf: string };
  const file = () => join(site.dir, 'content', 'blog', slug, 'en.md');
  const headers = (extra: Record<string, string> = {}) => ({
    cookie: auth.cookie,
    origin: server.url,
    'x-csrf-token': auth.csrf,
    'content-type': 'application/json',
    ...extra,
  });
  const get = (path: string) => server.send('GET', path, { headers: { cookie: auth.cookie } });

  beforeAll(async () => {
    site = await createTempSite();
    live = await startLiveAdmin(site, [editor]);
    server = live.server;
    auth = await server.signIn(editor.email, editor.password);
  });
  afterAll(async () => {
    await live?.close();
    await site?.cleanup();
  });

  it('lists the components with their attributes as form fields', async () => {
    const answer = await get('/api/admin/components');
    expect(answer.status).toBe(200);
    const components = answer.json() as {
      name: string;
      kind: string;
      fields: { name: string; type: string; required: boolean }[];
    }[];
    expect(components.map((component) => [component.name, component.kind])).toEqual([
      ['callout', 'engine'],
      ['figure', 'engine'],
      ['video', 'engine'],
    ]);
    expect(components[0]!.fields).toEqual([
      {
        name: 'type',
        type: 'choice',
        required: false,
        options: ['note', 'tip', 'warning'],
        default: 'note',
        description: 'how strongly it speaks',
      },
      {
        name: 'title',
        type: 'text',
        required: false,
        description: 'its heading (the label of :::callout[…] gives it too)',
      },
    ]);
    expect(components[1]!.fields.map((field) => [field.name, field.type, field.required])).toEqual([
      ['src', 'image', true],
      ['alt', 'text', true],
    ]);
  });

  it('refuses (422) a body with an unknown component or a refused attribute, at the field body with its positions, writing nothing', async () => {
    const before = await readFile(file(), 'utf8');
    const post = (await get(`/api/admin/posts/${slug}/en`)).json();
    const body = `${post.body.trimEnd()}\n\n:::calout{type="tip"}\nTypo.\n:::\n\n::video{src="https://example.org/clip.mp4"}\n`;
    const answer = await server.send('PUT', `/api/admin/posts/${slug}/en`, {
      headers: headers({ 'if-match': `"${post.version}"` }),
      body: JSON.stringify({ frontMatter: post.frontMatter, body }),
    });
    expect(answer.status).toBe(422);
    const errors = answer.json().errors as {
      code: string;
      field: string;
      line: number;
      column: number;
      message: string;
      hint: string;
    }[];
    const bodyLine = before.split('\n').length - post.body.split('\n').length + 1;
    const at = (text: string) => body.split('\n').indexOf(text) + bodyLine;
    expect(errors.map(({ code, field, line, column, message }) => ({ code, field, line, column, message }))).toEqual([
      {
        code: 'CONTENT_COMPONENT',
        field: 'body',
        line: at(':::calout{type="tip"}'),
        column: 1,
        message: 'unknown component "calout" (:::calout): there is no templates/content/Calout.tsx',
      },
      {
        code: 'CONTENT_COMPONENT',
        field: 'body',
        line: at('::video{src="https://example.org/clip.mp4"}'),
        column: 9,
        message:
          'video: the attribute src="https://example.org/clip.mp4" is not accepted (give the address of a YouTube or Vimeo video)',
      },
    ]);
    expect(errors[0]!.hint).toBe('Known components: callout, figure, video. Did you mean "callout"?');
    expect(await readFile(file(), 'utf8')).toBe(before);
  });

  it('previews a draft with its component rendered, and saves it', async () => {
    const post = (await get(`/api/admin/posts/${slug}/en`)).json();
    const body = `${post.body.trimEnd()}\n\n:::callout{type="tip"}\nBring the **receipt**.\n:::\n`;
    const preview = await server.send('POST', '/api/admin/collections/blog/preview', {
      headers: headers(),
      body: JSON.stringify({ slug, locale: 'en', frontMatter: post.frontMatter, body }),
    });
    expect(preview.status, preview.text).toBe(200);
    const page = await get(preview.json().url);
    expect(page.text).toContain(
      '<div class="site-callout site-callout-tip" role="note"><p class="site-callout-title"><strong>Tip</strong></p><p>Bring the <strong>receipt</strong>.</p></div>',
    );
    const saved = await server.send('PUT', `/api/admin/posts/${slug}/en`, {
      headers: headers({ 'if-match': `"${post.version}"` }),
      body: JSON.stringify({ frontMatter: post.frontMatter, body }),
    });
    expect(saved.status, saved.text).toBe(200);
    expect(await readFile(file(), 'utf8')).toContain(':::callout{type="tip"}');
  });
});
