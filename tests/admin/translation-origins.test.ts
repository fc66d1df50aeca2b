/**
 * Translation status of what exists (src/admin/translation-origins.ts): a page or post never saved
 * in the admin has a status all the same. In git, the English changed in a commit after the
 * Norwegian's last one makes the Norwegian outdated, with the English diff since and the changes in
 * words, in the lists and the reads; outside git, the baseline the admin took the first time it was
 * asked does the same for an English file edited since.
 */
import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLiveAdminServer } from '../helpers/admin-server';
import { commitEnglishEdits, editSiteFile } from '../helpers/git-fixture';

const editor = { email: 'editor@example.com', role: 'editor' as const, password: 'editor password 1' };
const slug = 'a-day-in-a-tailor-shop';

interface Status {
  outdated: boolean;
  since: string;
  diff?: string;
  changes?: { label: string; before: string; after: string }[];
}

/** The routes that say a status, for one running admin. */
function statusReader(server: Awaited<ReturnType<typeof startLiveAdminServer>>['server'], cookie: () => string) {
  const get = async (path: string) => (await server.send('GET', path, { headers: { cookie: cookie() } })).json();
  return {
    pages: async () => ((await get('/api/admin/pages')) as { pages: { id: string; outdated: string[] }[] }).pages,
    page: async (id: string) => ((await get(`/api/admin/pages/${id}/no`)) as { translation?: Status }).translation,
    post: async () => ((await get(`/api/admin/posts/${slug}/no`)) as { translation?: Status }).translation,
    listedPost: async () =>
      (
        (await get('/api/admin/posts')) as { slug: string; translations: Record<string, { outdated?: boolean }> }[]
      ).find((post) => post.slug === slug)!.translations,
  };
}

describe('translation status from git, for pages and posts never saved in the admin', () => {
  let running: Awaited<ReturnType<typeof startLiveAdminServer>>;
  let auth: { cookie: string; csrf: string };
  let read: ReturnType<typeof statusReader>;

  beforeAll(async () => {
    running = await startLiveAdminServer([editor], {
      // The English and the Norwegian committed, then an English edit committed.
      prepare: (site) => commitEnglishEdits(site.dir),
    });
    auth = await running.server.signIn(editor.email, editor.password);
    read = statusReader(running.server, () => auth.cookie);
  }, 120_000);
  afterAll(() => running?.close());

  it('lists the Norwegian of the edited page and post as outdated, and the others not', async () => {
    const pages = await read.pages();
    expect(pages.find((page) => page.id === 'landing')!.outdated).toEqual(['no']);
    expect(pages.find((page) => page.id === 'hub/pricing')!.outdated).toEqual([]);
    expect((await read.listedPost()).no!.outdated).toBe(true);
    expect((await read.listedPost()).en!.outdated).toBeUndefined();
  });

  it('answers the English diff since the Norwegian was committed, and the changes in words', async () => {
    const page = (await read.page('landing'))!;
    expect(page).toMatchObject({ outdated: true, since: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(page.diff).toContain('-  heading: Make repair the easy choice\n+  heading: Make repair the obvious choice');
    expect(page.changes).toEqual([
      { label: 'Hero › Heading', before: 'Make repair the easy choice', after: 'Make repair the obvious choice' },
    ]);
    expect(await read.page('hub/pricing')).toEqual({ outdated: false, since: expect.any(String) });
    const post = (await read.post())!;
    expect(post).toMatchObject({ outdated: true, sourceLocale: 'en' });
    expect(post.changes).toEqual([
      { label: 'Title', before: 'A day in a tailor shop', after: 'A day in a busy tailor shop' },
    ]);
  });

  it('takes the admin record over git once the Norwegian is saved', async () => {
    const answer = await running.server.send('GET', '/api/admin/pages/landing/no', {
      headers: { cookie: auth.cookie },
    });
    const { version } = answer.json() as { version: string };
    const saved = await running.server.send('PUT', '/api/admin/pages/landing/no', {
      headers: {
        cookie: auth.cookie,
        origin: running.server.url,
        'x-csrf-token': auth.csrf,
        'content-type': 'application/json',
        'if-match': `"${version}"`,
      },
      body: JSON.stringify({ changes: [{ key: 'hero.heading', value: 'Gjør reparasjon til det opplagte valget' }] }),
    });
    expect(saved.status).toBe(200);
    expect(await read.page('landing')).toEqual({ outdated: false, since: expect.any(String) });
    expect((await read.pages()).find((page) => page.id === 'landing')!.outdated).toEqual([]);
  });
});

describe('translation status outside git: the baseline of the first start', () => {
  let running: Awaited<ReturnType<typeof startLiveAdminServer>>;
  let auth: { cookie: string; csrf: string };
  let read: ReturnType<typeof statusReader>;

  beforeAll(async () => {
    running = await startLiveAdminServer([editor]);
    auth = await running.server.signIn(editor.email, editor.password);
    read = statusReader(running.server, () => auth.cookie);
  }, 120_000);
  afterAll(() => running?.close());

  it('takes the baseline in .site/ at the first question, then marks a translation whose English changed since', async () => {
    expect((await read.pages()).find((page) => page.id === 'landing')!.outdated).toEqual([]);
    await access(join(running.site.dir, '.site', 'translation-baseline.json'));
    expect(await read.page('landing')).toEqual({ outdated: false, since: expect.any(String) });
    // The English edited in a text editor, not in the admin.
    await editSiteFile(
      running.site.dir,
      'content/pages/landing/en.yaml',
      'Make repair the easy choice',
      'Make repair the obvious choice',
    );
    expect((await read.pages()).find((page) => page.id === 'landing')!.outdated).toEqual(['no']);
    const page = (await read.page('landing'))!;
    expect(page.outdated).toBe(true);
    expect(page.diff).toContain('+  heading: Make repair the obvious choice');
    expect(page.changes).toEqual([
      { label: 'Hero › Heading', before: 'Make repair the easy choice', after: 'Make repair the obvious choice' },
    ]);
  });
});
