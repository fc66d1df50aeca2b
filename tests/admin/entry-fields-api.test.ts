/**
 * The admin's API with the richer fields (issue 48): `GET /api/admin/collections` describes a
 * select with its options named from the messages, a reference with the entries it may name, and
 * a list of objects with its declaration; a save of a list of objects is written and read back; a
 * reference to no entry and an image naming no file are refused with 422 at the field, nothing written.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLiveSite, type LiveSite } from '../../src/admin/live-site';
import { build, silentLogger } from '../../src/api';
import { startAdminServer } from '../helpers/admin-server';
import type { TempSite } from '../helpers/fixture-site';
import { caseFile, createTeamSite } from '../helpers/team-site';

const editor = { email: 'editor@example.com', role: 'editor' as const, password: 'editor password 1' };

describe('site serve --admin with list, object, image, select and reference fields', () => {
  let site: TempSite;
  let server: Awaited<ReturnType<typeof startAdminServer>>;
  let live: LiveSite;
  let auth: { cookie: string; csrf: string };
  const headers = (version: string) => ({
    cookie: auth.cookie,
    origin: server.url,
    'x-csrf-token': auth.csrf,
    'content-type': 'application/json',
    'if-match': `"${version}"`,
  });
  const get = (path: string) => server.send('GET', path, { headers: { cookie: auth.cookie } });
  const put = (path: string, body: unknown, version: string) =>
    server.send('PUT', path, { headers: headers(version), body: JSON.stringify(body) });
  const memberFile = () => join(site.dir, 'content', 'team', 'ada', 'en.md');

  beforeAll(async () => {
    site = await createTeamSite();
    // The live site of `site serve --admin`: its last build is what a save is checked against.
    const dist = join(site.dir, 'dist');
    await build({ config: site.config, out: dist, logger: silentLogger, socialImages: false });
    live = createLiveSite({ config: site.config, dir: dist });
    await live.start();
    server = await startAdminServer({
      users: [editor],
      configPath: site.config,
      projectRoot: site.dir,
      dir: dist,
      site: live,
      collection: 'cases',
    });
    auth = await server.signIn(editor.email, editor.password);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await live?.dispose();
    await site?.cleanup();
  });

  it('describes each field by its type: the options of a select and of a reference, the parts of a list', async () => {
    const answer = await get('/api/admin/collections');
    expect(answer.status).toBe(200);
    type Field = {
      name: string;
      type: string;
      options?: { value: string; names: Record<string, string> }[];
      field?: unknown;
    };
    const collections = answer.json() as { id: string; fields: Field[] }[];
    const fieldOf = (collection: string, name: string) =>
      collections.find((each) => each.id === collection)!.fields.find((each) => each.name === name)!;
    expect(fieldOf('team', 'role')).toMatchObject({
      type: 'choice',
      options: [
        { value: 'repair', names: { en: 'Repairs', no: 'Reparasjon' } },
        { value: 'sales', names: { en: 'Sales', no: 'Salg' } },
      ],
    });
    expect(fieldOf('cases', 'lead')).toMatchObject({
      type: 'reference',
      options: [{ value: 'ada', names: { en: 'Ada Lovelace', no: 'Ada Lovelace' } }],
    });
    expect(fieldOf('team', 'links')).toMatchObject({
      type: 'list',
      field: { type: 'list', of: { label: { type: 'string' }, url: { type: 'string' } } },
    });
    expect(fieldOf('team', 'bio').type).toBe('markdown');
    expect(fieldOf('team', 'photo').type).toBe('image');
  });

  it('saves a list of objects as the repeater sends it, and the file reads back with it', async () => {
    const entry = (await get('/api/admin/collections/team/ada/en')).json();
    const links = [
      { label: 'Website', url: 'https://example.org/ada' },
      { label: 'Workshop', url: 'https://example.org/workshop' },
    ];
    const answer = await put(
      '/api/admin/collections/team/ada/en',
      { frontMatter: { ...entry.frontMatter, links }, body: entry.body },
      entry.version,
    );
    expect(answer.status).toBe(200);
    const saved = (await get('/api/admin/collections/team/ada/en')).json();
    expect(saved.frontMatter.links).toEqual(links);
    expect(saved.frontMatter.photo).toEqual({ src: 'ada.png', alt: 'Ada at the workbench' });
    expect(await readFile(memberFile(), 'utf8')).toContain('photo: { src: ada.png, alt: "Ada at the workbench" }');
  });

  it('refuses a reference to no entry with 422 at the field and its line, naming the entries that exist', async () => {
    const entry = (await get('/api/admin/collections/cases/bike-shop/en')).json();
    const before = await readFile(caseFile(site, 'en'), 'utf8');
    const answer = await put(
      '/api/admin/collections/cases/bike-shop/en',
      { frontMatter: { ...entry.frontMatter, lead: 'no-such-person' }, body: entry.body },
      entry.version,
    );
    expect(answer.status).toBe(422);
    expect(answer.json().errors).toEqual([
      expect.objectContaining({
        code: 'ENTRY_REFERENCE',
        field: 'lead',
        line: 5,
        message: '"no-such-person" is no entry of team',
        hint: 'Name one of the entries of team: ada.',
      }),
    ]);
    expect(await readFile(caseFile(site, 'en'), 'utf8')).toBe(before);
  });

  it("refuses an image naming no file of the entry's folder with 422 at its src", async () => {
    const entry = (await get('/api/admin/collections/team/ada/en')).json();
    const before = await readFile(memberFile(), 'utf8');
    const answer = await put(
      '/api/admin/collections/team/ada/en',
      { frontMatter: { ...entry.frontMatter, photo: { src: 'missing.png', alt: 'Nobody' } }, body: entry.body },
      entry.version,
    );
    expect(answer.status).toBe(422);
    expect(answer.json().errors).toEqual([expect.objectContaining({ code: 'ENTRY_FIELD', field: 'photo.src' })]);
    expect(await readFile(memberFile(), 'utf8')).toBe(before);
  });
});
