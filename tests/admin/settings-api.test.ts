/**
 * `/api/admin/settings` on `site serve --admin`: the editable subset of site.config.yaml for
 * admins only, changed in place (every other byte of the file kept), checked as `site check`
 * checks it, written with If-Match, and live on the served pages when the save is answered.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLiveAdminServer } from '../helpers/admin-server';
import type { TempSite } from '../helpers/fixture-site';
import { auditEntries } from '../helpers/store';

const admin = { email: 'admin@example.com', role: 'admin' as const, password: 'admin password 1' };
const editor = { email: 'editor@example.com', role: 'editor' as const, password: 'editor password 1' };

describe('site serve --admin: /api/admin/settings', () => {
  let running: Awaited<ReturnType<typeof startLiveAdminServer>>;
  let site: TempSite;
  let server: Awaited<ReturnType<typeof startLiveAdminServer>>['server'];
  let auth: { cookie: string; csrf: string };
  const headers = (version?: string, who = auth) => ({
    cookie: who.cookie,
    origin: server.url,
    'x-csrf-token': who.csrf,
    'content-type': 'application/json',
    ...(version ? { 'if-match': `"${version}"` } : {}),
  });
  const settings = async () =>
    (await server.send('GET', '/api/admin/settings', { headers: { cookie: auth.cookie } })).json() as {
      version: string;
      values: {
        booking: { url: string | null };
        plans: { id: string }[];
        declared: { path: string; value: unknown; row?: string }[];
      };
    };

  beforeAll(async () => {
    running = await startLiveAdminServer([admin, editor]);
    ({ site, server } = running);
    auth = await server.signIn(admin.email, admin.password);
  }, 120_000);
  afterAll(() => running?.close());

  it("gives admins the editable values and the file's version; editors get 403", async () => {
    const answer = await server.send('GET', '/api/admin/settings', { headers: { cookie: auth.cookie } });
    expect(answer.status).toBe(200);
    const body = answer.json() as { version: string; values: Record<string, unknown> };
    expect(Object.keys(body.values).sort()).toEqual([
      'booking',
      'categories',
      'collections',
      'company',
      'contact',
      'copy',
      'declared',
      'plans',
    ]);
    // What the site declares in admin.settings, one per path the config holds: a plan's limits by the plan's id, the ROI inputs by key.
    const declared = body.values.declared as { path: string; value: unknown; row?: string }[];
    expect(declared).toContainEqual({ path: 'plans.1.limits.ordersPerMonth', value: 50, row: 'basic' });
    expect(declared).toContainEqual({ path: 'plans.3.limits.users', value: null, row: 'professional' });
    expect(declared).toContainEqual({ path: 'data.roi.timeSavedShare', value: 0.35 });
    expect(declared).toContainEqual({ path: 'data.roi.inputs.hourlyWage.step', value: null, row: 'hourlyWage' });
    expect(
      (
        body.values.categories as Record<string, { id: string; names: Record<string, string>; posts: string[] }[]>
      ).blog!.find((category) => category.id === 'retail'),
    ).toMatchObject({
      names: { en: 'Retail', no: expect.any(String) },
      posts: expect.arrayContaining([expect.stringMatching(/ \(en\)$/)]),
    });
    expect(body.values).not.toHaveProperty('routes');
    expect(answer.headers.etag).toBe(`"${body.version}"`);
    const asEditor = await server.signIn(editor.email, editor.password);
    expect((await server.send('GET', '/api/admin/settings', { headers: { cookie: asEditor.cookie } })).status).toBe(
      403,
    );
    expect(
      (
        await server.send('PUT', '/api/admin/settings', {
          headers: headers(body.version, asEditor),
          body: JSON.stringify({ changes: [{ path: 'booking.minutes', value: 45 }] }),
        })
      ).status,
    ).toBe(403);
  });

  it("refuses an invalid plan at the field with the message site check gives, a declared setting's value its type refuses, and undeclared keys; the file is untouched", async () => {
    const before = await readFile(site.config, 'utf8');
    const { version } = await settings();
    const put = (changes: unknown[]) =>
      server.send('PUT', '/api/admin/settings', { headers: headers(version), body: JSON.stringify({ changes }) });
    const invalid = await put([{ path: 'plans.1.signupUrl', value: 'javascript:alert(1)' }]);
    expect(invalid.status).toBe(422);
    const [error] = (invalid.json() as { errors: { path: string; message: string; line: number; column: number }[] })
      .errors;
    expect(error).toMatchObject({ path: 'plans[1].signupUrl' });
    // The admin words it (plain-errors.ts); no hint sends a marketer to the schema file.
    expect(JSON.stringify(invalid.json())).not.toContain('schema');
    // The key is added after the plan's last line, and the error names that new line.
    expect(error!.line).toBe(
      before.split('\n').findIndex((line) => line === '    features: [sms-updates, invoicing]') + 2,
    );
    // A declared limit (a whole number from 1, or unlimited) checked by its declared type.
    const declared = await put([{ path: 'plans.1.limits.ordersPerMonth', value: -5 }]);
    expect(declared.status).toBe(422);
    expect((declared.json() as { errors: unknown[] }).errors).toEqual([
      {
        path: 'plans.1.limits.ordersPerMonth',
        message: 'give a whole number of 1 or more, or the word unlimited',
        line: null,
        column: null,
      },
    ]);
    for (const path of [
      'site.origin',
      'plans.1.limits.seats',
      'data.roi.inputs.hourlyWage.label',
      'data.blog.categoryAudiences.saas',
      'plans.9.limits.ordersPerMonth',
    ]) {
      const refused = await put([{ path, value: 'x' }]);
      expect(refused.status, path).toBe(422);
      expect(JSON.stringify(refused.json()), path).toContain(`${path} is not edited here`);
    }
    expect(await readFile(site.config, 'utf8')).toBe(before);
  });

  it('answers a stale If-Match with 409 and a missing one with 428', async () => {
    const body = JSON.stringify({ changes: [{ path: 'booking.minutes', value: 45 }] });
    expect((await server.send('PUT', '/api/admin/settings', { headers: headers('stale-version'), body })).status).toBe(
      409,
    );
    expect((await server.send('PUT', '/api/admin/settings', { headers: headers(), body })).status).toBe(428);
  });

  it('shows the diff, then saves two values: exactly those lines change, and the pages show them when the save is answered', async () => {
    const before = await readFile(site.config, 'utf8');
    expect((await server.send('GET', '/no/hub/pricing/')).text).toContain('Opptil 50 ordrer per måned');
    const { version } = await settings();
    const changes = [
      { path: 'booking.url', value: 'https://cal.example/mendwise' },
      { path: 'plans.1.limits.ordersPerMonth', value: 75 },
    ];
    const preview = await server.send('POST', '/api/admin/settings/diff', {
      headers: headers(),
      body: JSON.stringify({ changes }),
    });
    expect(preview.status).toBe(200);
    const { diff } = preview.json() as { diff: string };
    expect(diff).toContain('-    limits: { ordersPerMonth: 50 }\n+    limits: { ordersPerMonth: 75 }');
    expect(diff).toContain('+  url: https://cal.example/mendwise');
    expect(await readFile(site.config, 'utf8')).toBe(before);

    const saved = await server.send('PUT', '/api/admin/settings', {
      headers: headers(version),
      body: JSON.stringify({ changes }),
    });
    expect(saved.status).toBe(200);
    expect(saved.json()).toMatchObject({ diff, rebuilt: true, ok: true });
    const after = await readFile(site.config, 'utf8');
    const removed = before.split('\n').filter((line) => !after.split('\n').includes(line));
    const added = after.split('\n').filter((line) => !before.split('\n').includes(line));
    expect(removed).toEqual(['    limits: { ordersPerMonth: 50 }']);
    expect(added).toEqual(['    limits: { ordersPerMonth: 75 }', '  url: https://cal.example/mendwise']);
    expect((await settings()).values.booking.url).toBe('https://cal.example/mendwise');
    // The version the save answers is the one the files now have: the next save can send it.
    expect((await settings()).version).toBe((saved.json() as { version: string }).version);
    expect((await server.send('GET', '/hub/book-meeting/')).text).toContain('href="https://cal.example/mendwise"');
    const pricing = (await server.send('GET', '/no/hub/pricing/')).text;
    expect(pricing).toContain('Opptil 75 ordrer per måned');
    expect(pricing).not.toContain('Opptil 50 ordrer per måned');
    const audit = JSON.stringify(await auditEntries(join(site.dir, 'data')));
    expect(audit).toContain('"action":"settings"');
  });

  it('says the changes in words beside the diff: named as the screen names them, the values as the site shows them', async () => {
    const preview = await server.send('POST', '/api/admin/settings/diff', {
      headers: headers(),
      body: JSON.stringify({
        changes: [
          { path: 'plans.1.price', value: { amount: 49, currency: 'EUR', period: 'month' } },
          { path: 'plans.1.limits.ordersPerMonth', value: 60 },
          { path: 'plans.0.highlighted', value: true },
          { path: 'data.roi.timeSavedShare', value: 0.4 },
          { path: 'company.email', value: 'team@mendwise.example' },
          { path: 'copy.0.en', value: 'Need more orders?' },
        ],
      }),
    });
    expect(preview.status).toBe(200);
    const { changes, diff } = preview.json() as {
      changes: { label: string; before: string; after: string }[];
      diff: string;
    };
    expect(diff).toContain('price: { amount: 49, currency: EUR, period: month }');
    expect(changes).toEqual(
      expect.arrayContaining([
        { label: 'Basic: price', before: 'On request', after: '€49 per month' },
        // The earlier test saved 75.
        { label: 'Basic: orders per month', before: '75', after: '60' },
        { label: 'Free: highlighted', before: 'No', after: 'Yes' },
        { label: 'ROI calculator: share of time saved (%)', before: '35%', after: '40%' },
        expect.objectContaining({ label: 'Company: e-mail address', after: 'team@mendwise.example' }),
        expect.objectContaining({
          label: expect.stringMatching(/^Page texts: Hub › Pricing › Addon › Heading \(English\)$/),
          after: 'Need more orders?',
        }),
      ]),
    );
    // The config's changes first, then the page texts; none is named by its path.
    expect(changes.at(-1)!.label).toMatch(/^Page texts: /);
    expect(JSON.stringify(changes)).not.toMatch(/plans\.|limits\./);
  });

  it('prices a plan on request ({ amount, currency, period }) and puts it back on request (null): only its price line changes, and the pricing page shows it', async () => {
    const before = await readFile(site.config, 'utf8');
    const put = async (value: unknown) =>
      server.send('PUT', '/api/admin/settings', {
        headers: headers((await settings()).version),
        body: JSON.stringify({ changes: [{ path: 'plans.2.price', value }] }),
      });
    const wrong = await put({ amount: 490, currency: 'NOK', period: 'week' });
    expect(wrong.status).toBe(422);
    expect((wrong.json() as { errors: { path: string; message: string }[] }).errors).toEqual([
      expect.objectContaining({
        path: 'plans.2.price.period',
        message: 'Choose whether the price is paid per month or per year.',
      }),
    ]);
    const priced = await put({ amount: 490, currency: 'NOK', period: 'year' });
    expect(priced.status).toBe(200);
    const after = await readFile(site.config, 'utf8');
    const lines = before.split('\n');
    const changed = after.split('\n').flatMap((line, index) => (line === lines[index] ? [] : [[lines[index], line]]));
    expect(changed).toEqual([['    price: on-request', '    price: { amount: 490, currency: NOK, period: year }']]);
    expect(after.split('\n')[lines.indexOf('  - id: plus') + 3]).toBe(
      '    price: { amount: 490, currency: NOK, period: year }',
    );
    expect((await settings()).values.plans[2]).toMatchObject({
      id: 'plus',
      price: { amount: 490, currency: 'NOK', period: 'year' },
    });
    const pricing = (await server.send('GET', '/hub/pricing/')).text;
    expect(pricing).toMatch(/NOK[\s\u00a0]?490/);
    expect(pricing).toContain('per year');
    const unknown = await put({ amount: 490, currency: 'XYZ', period: 'year' });
    expect(unknown.status).toBe(422);
    expect((unknown.json() as { errors: { path: string }[] }).errors[0]!.path).toBe('plans[2].price.currency');
    expect((await put(null)).status).toBe(200);
    expect(await readFile(site.config, 'utf8')).toBe(before);
  });

  it("edits the page texts the config offers (admin.copy): the add-on's heading in Norwegian, on the pricing page when the save is answered", async () => {
    const { values, version } = (
      await server.send('GET', '/api/admin/settings', { headers: { cookie: auth.cookie } })
    ).json() as {
      version: string;
      values: { copy: { content: string; key: string; values: Record<string, string> }[] };
    };
    const index = values.copy.findIndex((item) => item.content === 'hub/pricing' && item.key === 'addon.heading');
    expect(values.copy[index]!.values).toEqual({ en: 'The ‘100 orders’ add-on', no: 'Tilleggspakken «100 ordrer»' });
    const file = join(site.dir, 'content', 'pages', 'hub', 'pricing', 'no.yaml');
    const before = await readFile(file, 'utf8');
    const broken = await server.send('PUT', '/api/admin/settings', {
      headers: headers(version),
      body: JSON.stringify({ changes: [{ path: `copy.${index}.no`, value: 'Two\nlines' }] }),
    });
    expect(broken.status).toBe(422);
    const saved = await server.send('PUT', '/api/admin/settings', {
      headers: headers(version),
      body: JSON.stringify({ changes: [{ path: `copy.${index}.no`, value: 'Ekstrapakken «100 ordrer»' }] }),
    });
    expect(saved.status).toBe(200);
    const after = await readFile(file, 'utf8');
    expect(before.split('\n').filter((line) => !after.split('\n').includes(line))).toEqual([
      '  heading: Tilleggspakken «100 ordrer»',
    ]);
    expect((await server.send('GET', '/no/hub/pricing/')).text).toContain('Ekstrapakken «100 ordrer»');
  });

  describe('blog categories', () => {
    const save = async (changes: unknown[]) => {
      const { version } = await settings();
      return server.send('PUT', '/api/admin/settings', {
        headers: headers(version),
        body: JSON.stringify({ changes }),
      });
    };
    const messages = (locale: string) => readFile(join(site.dir, 'content', 'messages', `${locale}.yaml`), 'utf8');

    it("renames one in a language: only that line of that language's messages changes, and the posts show it", async () => {
      const before = await messages('en');
      const saved = await save([{ path: 'categories.blog.retail.en', value: 'Retail and brands' }]);
      expect(saved.status).toBe(200);
      const after = await messages('en');
      expect(before.split('\n').filter((line) => !after.split('\n').includes(line))).toEqual(['    retail: Retail']);
      expect(after).toContain('    retail: Retail and brands\n');
      expect((saved.json() as { diff: string }).diff).toContain('+    retail: Retail and brands');
      expect((await server.send('GET', '/blog/category/retail/')).text).toContain('Retail and brands');
    });

    it('adds one with a name in every language (config terms and both message files), and refuses one named in one language only', async () => {
      const half = await save([{ path: 'categories.blog.events.en', value: 'Events' }]);
      expect(half.status).toBe(422);
      expect(JSON.stringify(half.json())).toContain('categories.blog.events.no');
      expect(
        (
          await save([
            { path: 'categories.blog.all.en', value: 'All of it' },
            { path: 'categories.blog.all.no', value: 'Alt' },
          ])
        ).status,
      ).toBe(422);
      const saved = await save([
        { path: 'categories.blog.events.en', value: 'Events' },
        { path: 'categories.blog.events.no', value: 'Arrangementer' },
      ]);
      expect(saved.status).toBe(200);
      expect((await settings()).version).toBe((saved.json() as { version: string }).version);
      expect(await readFile(site.config, 'utf8')).toContain(
        'terms: [circularity, saas, retail, repairer-stories, events]',
      );
      expect(await messages('no')).toContain('    events: Arrangementer\n');
      expect((await server.send('GET', '/no/blog/category/events/')).status).toBe(200);
    });

    it('refuses to remove one that posts use, naming them; removes an unused one from the config and the messages', async () => {
      const used = await save([{ path: 'categories.blog.retail', value: null }]);
      expect(used.status).toBe(422);
      expect((used.json() as { errors: { message: string }[] }).errors[0]!.message).toMatch(
        /cannot be removed: \d+ posts? uses? it \([a-z0-9-]+ \((?:en|no)\)/,
      );
      const removed = await save([{ path: 'categories.blog.events', value: null }]);
      expect(removed.status).toBe(200);
      expect(await readFile(site.config, 'utf8')).toContain('terms: [circularity, saas, retail, repairer-stories]');
      expect(await messages('no')).not.toContain('events:');
      expect((await server.send('GET', '/no/blog/category/events/')).status).toBe(404);
    });
  });
});
