/**
 * Settings a site declares (`admin.settings`, issue 47): a small site that is not Mendwise (a copy of
 * tests/fixtures/engine-site) declares its newsletter's frequency, issues per year and intro, and a
 * limit of its plans. The config checks the declaration; the settings API offers exactly those
 * paths, checks each value by its declared type, writes it in place, and refuses any other path.
 */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { declaredChange, declaredValues } from '../../src/admin/declared-settings';
import { groupIn } from '../../src/admin/ui/islands/setting-paths';
import { loadConfig, parseConfig, type ResolvedConfig } from '../../src/config/load';
import { collectSiteErrors } from '../../src/errors';
import { startAdminServer } from '../helpers/admin-server';
import { fixturesRoot, outputRoot } from '../helpers/paths';

/** What the fixture adds to the engine fixture's config: its own data, a plan, and the settings it offers. */
const declared = `
data:
  newsletter:
    frequency: monthly
    issuesPerYear: 12
    intro: { nb: Hei, de: Hallo, en: Hello }
    owner: Kari

plans:
  - id: starter
    name: { nb: Start, de: Start, en: Starter }
    limits: { seats: 3 }
    price: { amount: 0, currency: EUR, period: month }
  - id: team
    name: { nb: Lag, de: Team, en: Team }
    limits: { seats: unlimited }
    price: on-request

admin:
  settings:
    - label: { nb: Nyhetsbrev, en: Newsletter }
      help: How often the newsletter goes out.
      fields:
        - { path: data.newsletter.frequency, type: text, label: { nb: Hyppighet, en: Frequency } }
        - { path: data.newsletter.issuesPerYear, type: number, label: Issues per year, integer: true, min: 1, max: 52, problem: { nb: Skriv et tall fra 1 til 52., en: Write a number from 1 to 52. } }
        - { path: data.newsletter.intro, type: localized-text, label: Intro }
    - label: Plans
      fields:
        - { path: plans.*.limits.seats, type: number, label: Seats, integer: true, min: 1, unlimited: true }
`;

describe('settings a site declares in admin.settings', () => {
  let dir: string;
  let configFile: string;
  let config: ResolvedConfig;

  beforeAll(async () => {
    await mkdir(outputRoot, { recursive: true });
    dir = await mkdtemp(join(outputRoot, 'declared-settings-'));
    await cp(join(fixturesRoot, 'engine-site'), dir, { recursive: true });
    configFile = join(dir, 'site.config.yaml');
    await writeFile(configFile, (await readFile(configFile, 'utf8')) + declared);
    config = await loadConfig(configFile);
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('gives each declared path the config holds, with its value and, under a *, its row (a plan by its id)', () => {
    expect(declaredValues(config)).toEqual([
      { path: 'data.newsletter.frequency', value: 'monthly' },
      { path: 'data.newsletter.issuesPerYear', value: 12 },
      { path: 'data.newsletter.intro', value: { nb: 'Hei', de: 'Hallo', en: 'Hello' } },
      { path: 'plans.0.limits.seats', value: 3, row: 'starter' },
      { path: 'plans.1.limits.seats', value: 'unlimited', row: 'team' },
    ]);
  });

  it('makes a change at a declared path, checked by its type; undeclared paths are not its to change', () => {
    expect(declaredChange(config, 'data.newsletter.frequency', ' weekly ')).toEqual({
      change: { path: ['data', 'newsletter', 'frequency'], value: 'weekly' },
    });
    expect(declaredChange(config, 'plans.0.limits.seats', 'Unlimited')).toEqual({
      change: { path: ['plans', 0, 'limits', 'seats'], value: 'unlimited' },
    });
    expect(declaredChange(config, 'data.newsletter.intro.de', 'Guten Tag')).toEqual({
      change: { path: ['data', 'newsletter', 'intro', 'de'], value: 'Guten Tag' },
    });
    expect(declaredChange(config, 'data.newsletter.issuesPerYear', 53)).toEqual({
      problem: 'give a whole number from 1 to 52',
    });
    expect(declaredChange(config, 'data.newsletter.issuesPerYear', 2.5)).toEqual({
      problem: 'give a whole number from 1 to 52',
    });
    expect(declaredChange(config, 'data.newsletter.frequency', null)).toEqual({
      problem: 'give a value; it cannot be empty',
    });
    expect(declaredChange(config, 'data.newsletter.frequency', 'one\ntwo')).toEqual({
      problem: 'write it as one line, without line breaks',
    });
    expect(declaredChange(config, 'data.newsletter.intro.fr', 'Bonjour')).toEqual({
      problem: 'data.newsletter.intro.fr names no language of the site',
    });
    for (const path of ['data.newsletter.owner', 'plans.2.limits.seats', 'plans.0.price', 'site.name'])
      expect(declaredChange(config, path, 'x'), path).toBeUndefined();
  });

  it('gives the screen the declaration in its language', () => {
    const [newsletter] = config.admin.settings.map((group) => groupIn(group, 'en'));
    expect(newsletter).toMatchObject({ label: 'Newsletter', help: 'How often the newsletter goes out.', keys: {} });
    expect(newsletter!.fields.map((field) => [field.label, field.problem])).toEqual([
      ['Frequency', undefined],
      ['Issues per year', 'Write a number from 1 to 52.'],
      ['Intro', undefined],
    ]);
    expect(groupIn(config.admin.settings[0]!, 'de').label).toBe('Nyhetsbrev');
  });

  it("refuses a declaration outside data. and a plan's limits, and number options on a text, at their lines", async () => {
    const text = (await readFile(configFile, 'utf8'))
      .replace('path: data.newsletter.frequency, type: text', 'path: site.origin, type: text')
      .replace('type: localized-text, label: Intro', 'type: localized-text, label: Intro, min: 1');
    let errors: ReturnType<typeof collectSiteErrors> = [];
    try {
      parseConfig(text, 'site.config.yaml', dir, { templates: ['Home', 'List', 'Entry'] });
    } catch (error) {
      errors = collectSiteErrors(error);
    }
    const lines = text.split('\n');
    expect(errors?.map((error) => [error.field, error.line])).toEqual([
      ['admin.settings[0].fields[0].path', lines.findIndex((line) => line.includes('path: site.origin')) + 1],
      ['admin.settings[0].fields[2]', lines.findIndex((line) => line.includes('label: Intro, min: 1')) + 1],
    ]);
    expect(errors?.[0]?.message).toContain('under data.');
  });

  describe('through /api/admin/settings', () => {
    let server: Awaited<ReturnType<typeof startAdminServer>>;
    let auth: { cookie: string; csrf: string };
    const admin = { email: 'admin@fixture.example', role: 'admin' as const, password: 'a long enough password' };
    const put = async (changes: unknown[]) => {
      const { version } = (
        await server.send('GET', '/api/admin/settings', { headers: { cookie: auth.cookie } })
      ).json() as { version: string };
      return server.send('PUT', '/api/admin/settings', {
        headers: {
          cookie: auth.cookie,
          origin: server.url,
          'x-csrf-token': auth.csrf,
          'content-type': 'application/json',
          'if-match': `"${version}"`,
        },
        body: JSON.stringify({ changes }),
      });
    };

    beforeAll(async () => {
      // The API alone is under test: the served folder needs only a page, not a build of the site.
      await mkdir(join(dir, 'dist'), { recursive: true });
      await writeFile(join(dir, 'dist', 'index.html'), '<!doctype html><title>Fixture</title>');
      server = await startAdminServer({
        users: [admin],
        configPath: configFile,
        projectRoot: dir,
        dir: join(dir, 'dist'),
        settings: true,
      });
      auth = await server.signIn(admin.email, admin.password);
    }, 60_000);
    afterAll(() => server?.close());

    it("offers the declared settings beside the engine's own", async () => {
      const { values } = (
        await server.send('GET', '/api/admin/settings', { headers: { cookie: auth.cookie } })
      ).json() as { values: { declared: unknown[]; plans: unknown[] } };
      expect(values.declared).toEqual(declaredValues(config));
      expect(values.plans).toEqual([
        {
          id: 'starter',
          name: { nb: 'Start', de: 'Start', en: 'Starter' },
          price: { amount: 0, currency: 'EUR', period: 'month' },
          highlighted: false,
          signupUrl: null,
        },
        {
          id: 'team',
          name: { nb: 'Lag', de: 'Team', en: 'Team' },
          price: 'on-request',
          highlighted: false,
          signupUrl: null,
        },
      ]);
    });

    it("saves the newsletter's frequency and a plan's seats: exactly those values change in the file", async () => {
      const before = await readFile(configFile, 'utf8');
      const saved = await put([
        { path: 'data.newsletter.frequency', value: 'weekly' },
        { path: 'plans.1.limits.seats', value: 25 },
        { path: 'data.newsletter.intro.en', value: 'Hi there' },
      ]);
      expect(saved.status, saved.text).toBe(200);
      const after = await readFile(configFile, 'utf8');
      expect(after).toBe(
        before
          .replace('frequency: monthly', 'frequency: weekly')
          .replace('limits: { seats: unlimited }', 'limits: { seats: 25 }')
          .replace('en: Hello }', 'en: Hi there }'),
      );
    });

    it('refuses a value its type does not take, and an undeclared path, saying so; the file is untouched', async () => {
      const before = await readFile(configFile, 'utf8');
      const wrong = await put([{ path: 'data.newsletter.issuesPerYear', value: 60 }]);
      expect(wrong.status).toBe(422);
      expect(wrong.json()).toEqual({
        errors: [
          {
            path: 'data.newsletter.issuesPerYear',
            message: 'give a whole number from 1 to 52',
            line: null,
            column: null,
          },
        ],
      });
      const undeclared = await put([{ path: 'data.newsletter.owner', value: 'Ola' }]);
      expect(undeclared.status).toBe(422);
      expect(undeclared.json()).toEqual({
        errors: [
          {
            path: 'data.newsletter.owner',
            message:
              'data.newsletter.owner is not edited here: a developer changes it in site.config.yaml, or declares it in admin.settings',
            line: null,
            column: null,
          },
        ],
      });
      expect(await readFile(configFile, 'utf8')).toBe(before);
    });
  });
});
