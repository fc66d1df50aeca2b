/**
 * `/api/admin/pages` on `site serve --admin`: every page's copy listed, each key read beside the
 * default locale's text, changed in place (every other byte of the YAML kept) with If-Match, refused
 * with 422 for a locked key, a wrong shape or a key the file does not have, audited, and live on the
 * served page when the save is answered.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLiveAdminServer } from '../helpers/admin-server';
import type { TempSite } from '../helpers/fixture-site';
import { auditEntries } from '../helpers/store';

const editor = { email: 'editor@example.com', role: 'editor' as const, password: 'editor password 1' };

interface Page {
  fields: { key: string; kind: string; value: string | string[]; source: string | string[] | null; locked: boolean }[];
  version: string;
}

describe('site serve --admin: /api/admin/pages', () => {
  let running: Awaited<ReturnType<typeof startLiveAdminServer>>;
  let site: TempSite;
  let server: Awaited<ReturnType<typeof startLiveAdminServer>>['server'];
  let auth: { cookie: string; csrf: string };
  const headers = (version?: string) => ({
    cookie: auth.cookie,
    origin: server.url,
    'x-csrf-token': auth.csrf,
    'content-type': 'application/json',
    ...(version ? { 'if-match': `"${version}"` } : {}),
  });
  const page = async (address: string) =>
    (await server.send('GET', `/api/admin/pages/${address}`, { headers: { cookie: auth.cookie } })).json() as Page;
  const landing = (site: TempSite) => join(site.dir, 'content', 'pages', 'landing', 'no.yaml');

  beforeAll(async () => {
    running = await startLiveAdminServer([editor], {
      prepare: async (site) => {
        // The developer locks the claim's figure of the landing page.
        const text = await readFile(site.config, 'utf8');
        await writeFile(
          site.config,
          text.replace(/^admin:\n/m, 'admin:\n  locked:\n    - { content: landing, keys: [claim.figure] }\n'),
        );
      },
    });
    ({ site, server } = running);
    auth = await server.signIn(editor.email, editor.password);
  }, 120_000);
  afterAll(() => running?.close());

  it('lists every page content id with its languages, nested ones included', async () => {
    const answer = await server.send('GET', '/api/admin/pages', { headers: { cookie: auth.cookie } });
    expect(answer.status).toBe(200);
    const { pages } = answer.json() as { pages: { id: string; locales: string[] }[] };
    expect(pages).toContainEqual({ id: 'landing', label: 'Landing', locales: ['en', 'no'], outdated: [] });
    expect(pages).toContainEqual({ id: 'hub/pricing', label: 'Hub › Pricing', locales: ['en', 'no'], outdated: [] });
    expect(pages.map((entry) => entry.id)).toEqual([...pages.map((entry) => entry.id)].sort());
  });

  it("reads a page's keys as fields, the English beside the Norwegian, with the version as ETag; 404 for no such page", async () => {
    const answer = await server.send('GET', '/api/admin/pages/landing/no', { headers: { cookie: auth.cookie } });
    expect(answer.status).toBe(200);
    const body = answer.json() as Page;
    expect(answer.headers.etag).toBe(`"${body.version}"`);
    expect(body.fields.find((field) => field.key === 'hero.heading')).toEqual({
      key: 'hero.heading',
      label: 'Hero › Heading',
      kind: 'line',
      value: 'Gjør reparasjon til det enkle valget',
      source: 'Make repair the easy choice',
      locked: false,
    });
    expect(body.fields.find((field) => field.key === 'claim.figure')).toMatchObject({ locked: true });
    expect(
      (await server.send('GET', '/api/admin/pages/nothing-here/no', { headers: { cookie: auth.cookie } })).status,
    ).toBe(404);
    expect((await server.send('GET', '/api/admin/pages/landing/de', { headers: { cookie: auth.cookie } })).status).toBe(
      404,
    );
  });

  it('answers a stale If-Match with 409 and a missing one with 428', async () => {
    const body = JSON.stringify({ changes: [{ key: 'hero.heading', value: 'Ny overskrift' }] });
    expect(
      (await server.send('PUT', '/api/admin/pages/landing/no', { headers: headers('stale-version'), body })).status,
    ).toBe(409);
    expect((await server.send('PUT', '/api/admin/pages/landing/no', { headers: headers(), body })).status).toBe(428);
  });

  it('refuses a locked key, an unknown key and two lines in a one-line field with 422; the file is untouched', async () => {
    const before = await readFile(landing(site), 'utf8');
    const { version } = await page('landing/no');
    for (const [change, message] of [
      [{ key: 'claim.figure', value: '1 million tonn' }, 'claim.figure is locked'],
      [{ key: 'hero.nothing', value: 'x' }, 'hero.nothing is not a text of this page'],
      [{ key: 'hero.heading', value: 'Two\nlines' }, 'hero.heading is one line'],
      [{ key: 'hero.heading', value: '  ' }, 'write a text for hero.heading'],
    ] as const) {
      const answer = await server.send('PUT', '/api/admin/pages/landing/no', {
        headers: headers(version),
        body: JSON.stringify({ changes: [change] }),
      });
      expect(answer.status).toBe(422);
      expect(JSON.stringify(answer.json())).toContain(message);
    }
    expect(await readFile(landing(site), 'utf8')).toBe(before);
  });

  it('saves a key: exactly that line changes, the page shows it when the save is answered, and the save is audited', async () => {
    const before = await readFile(landing(site), 'utf8');
    expect((await server.send('GET', '/no/')).text).toContain('Gjør reparasjon til det enkle valget');
    const { version } = await page('landing/no');
    const saved = await server.send('PUT', '/api/admin/pages/landing/no', {
      headers: headers(version),
      body: JSON.stringify({ changes: [{ key: 'hero.heading', value: 'Reparasjon, gjort enkelt' }] }),
    });
    expect(saved.status).toBe(200);
    const body = saved.json() as { version: string; diff: string; rebuilt: boolean; ok: boolean };
    expect(body).toMatchObject({ rebuilt: true, ok: true });
    expect(body.diff).toContain(
      '-  heading: Gjør reparasjon til det enkle valget\n+  heading: Reparasjon, gjort enkelt',
    );
    expect(saved.headers.etag).toBe(`"${body.version}"`);
    expect(await readFile(landing(site), 'utf8')).toBe(
      before.replace('heading: Gjør reparasjon til det enkle valget', 'heading: Reparasjon, gjort enkelt'),
    );
    const live = (await server.send('GET', '/no/')).text;
    expect(live).toContain('Reparasjon, gjort enkelt');
    expect(live).not.toContain('Gjør reparasjon til det enkle valget');
    expect((await page('landing/no')).version).toBe(body.version);
    expect(await auditEntries(join(site.dir, 'data'))).toContainEqual(
      expect.objectContaining({
        user: editor.email,
        action: 'page-copy',
        page: 'landing',
        locale: 'no',
        newHash: body.version,
        paths: ['hero.heading'],
      }),
    );
  });

  it('edits a text of a list of objects (the features of /hub) by its place: exactly that line changes, live at once', async () => {
    const file = join(site.dir, 'content', 'pages', 'hub', 'en.yaml');
    const before = await readFile(file, 'utf8');
    const { version, fields } = await page('hub/en');
    expect(fields.find((field) => field.key === 'features.items.1.title')).toMatchObject({
      label: 'Features › Items › #2 › Title',
      kind: 'line',
      value: 'SMS updates',
    });
    const saved = await server.send('PUT', '/api/admin/pages/hub/en', {
      headers: headers(version),
      body: JSON.stringify({ changes: [{ key: 'features.items.1.title', value: 'Text message updates' }] }),
    });
    expect(saved.status).toBe(200);
    expect(await readFile(file, 'utf8')).toBe(before.replace('- title: SMS updates', '- title: Text message updates'));
    expect((await server.send('GET', '/hub/')).text).toContain('Text message updates');
  });

  it('marks the Norwegian outdated after an English edit, with the English diff since, until the Norwegian is saved again', async () => {
    type Translated = Page & { translation?: { outdated: boolean; since: string; diff?: string } };
    const read = async (address: string) =>
      (
        await server.send('GET', `/api/admin/pages/${address}`, { headers: { cookie: auth.cookie } })
      ).json() as Translated;
    const save = async (address: string, key: string, value: string) => {
      const { version } = await read(address);
      const answer = await server.send('PUT', `/api/admin/pages/${address}`, {
        headers: headers(version),
        body: JSON.stringify({ changes: [{ key, value }] }),
      });
      expect(answer.status).toBe(200);
    };
    await save(
      'ourstory/no',
      'title',
      (await read('ourstory/no')).fields.find((field) => field.key === 'title')!.value as string,
    );
    expect((await read('ourstory/no')).translation).toEqual({ outdated: false, since: expect.any(String) });
    const english = (await read('ourstory/en')).fields.find((field) => field.key === 'title')!.value as string;
    await save('ourstory/en', 'title', `${english} today`);
    expect((await read('ourstory/en')).translation).toBeUndefined();
    const outdated = (await read('ourstory/no')).translation!;
    expect(outdated).toMatchObject({ outdated: true, since: expect.any(String) });
    expect(outdated.diff).toContain(`-title: ${english}\n+title: ${english} today`);
    // The list says it too, before the page is opened.
    const listed = async () =>
      (
        (await server.send('GET', '/api/admin/pages', { headers: { cookie: auth.cookie } })).json() as {
          pages: { id: string; outdated: string[] }[];
        }
      ).pages.find((entry) => entry.id === 'ourstory')!.outdated;
    expect(await listed()).toEqual(['no']);
    await save(
      'ourstory/no',
      'title',
      (await read('ourstory/no')).fields.find((field) => field.key === 'title')!.value as string,
    );
    expect((await read('ourstory/no')).translation).toMatchObject({ outdated: false });
    expect(await listed()).toEqual([]);
  });
});
