import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load';
import { collectSiteErrors, type SiteError } from '../../src/errors';
import { siteDataOf } from '../../src/render/site-data';
import { siteData } from '../../templates/layout/schemas';
import { repoRoot } from '../helpers/paths';

const shipped = readFileSync(join(repoRoot, 'site.config.yaml'), 'utf8');
const templates = [
  'AdminBlog',
  'AdminChanges',
  'AdminInbox',
  'AdminSettings',
  'AudienceHome',
  'Auth',
  'BlogList',
  'BlogPost',
  'BookMeeting',
  'BookingBooked',
  'BookingFailed',
  'Contact',
  'ContactFailed',
  'ContactSent',
  'LaunchCampaign',
  'Landing',
  'Legal',
  'OurStory',
  'PlanPricing',
  'Presentation',
  'Product',
  'QuotePricing',
  'Search',
];

function errorsOf(text: string): SiteError[] {
  try {
    parseConfig(text, 'site.config.yaml', repoRoot, { templates });
  } catch (error) {
    const errors = collectSiteErrors(error);
    if (errors) return errors;
    throw error;
  }
  throw new Error('expected the config to be rejected');
}

/** The 1-based line of the first occurrence of `needle` in `text`. */
function lineOf(text: string, needle: string): number {
  const index = text.indexOf(needle);
  if (index < 0) throw new Error(`"${needle}" not in text`);
  return text.slice(0, index).split('\n').length;
}

describe('config errors', () => {
  it('accepts the shipped config', () => {
    const config = parseConfig(shipped, 'site.config.yaml', repoRoot, { templates });
    expect(config.localeIds).toEqual(['en', 'no']);
    expect(config.plans.map((plan) => plan.limits.ordersPerMonth)).toEqual([10, 50, 150, 'unlimited']);
  });

  it('reports invalid YAML syntax with line and column', () => {
    const text = shipped.replace('  name: Mendwise', '  name: [Mendwise');
    const [error] = errorsOf(text);
    expect(error!.code).toBe('YAML_SYNTAX');
    expect(error!.file).toBe('site.config.yaml');
    expect(error!.line).toBeGreaterThanOrEqual(lineOf(text, '[Mendwise'));
    expect(error!.format()).toMatch(/^site\.config\.yaml:\d+:\d+  /);
  });

  it('reports a wrong type at the value, naming the field', () => {
    const text = shipped.replace('    pageSize: 6', '    pageSize: six');
    const [error] = errorsOf(text);
    expect(error!.code).toBe('CONFIG_INVALID');
    expect(error!.field).toBe('collections.blog.pageSize');
    expect(error!.message).toBe('expected a number, got string "six"');
    expect(error!.hint).toBe('See docs/config.md#collections.');
    expect(error!.line).toBe(lineOf(text, 'pageSize: six'));
    expect(error!.column).toBe(15);
    expect(error!.format()).toContain(
      `site.config.yaml:${lineOf(text, 'pageSize: six')}:15  collections.blog.pageSize  `,
    );
  });

  it('reports an unknown key at the key, so typos never pass silently', () => {
    const text = shipped.replace('  themeColor: "#0f5132"', '  themeColour: "#0f5132"');
    const errors = errorsOf(text);
    const unknown = errors.find((error) => error.code === 'CONFIG_UNKNOWN_KEY')!;
    expect(unknown.field).toBe('site.themeColour');
    expect(unknown.line).toBe(lineOf(text, 'themeColour'));
    expect(unknown.column).toBe(3);
    expect(unknown.message).toBe('unknown key "themeColour": did you mean "themeColor"?');
    expect(unknown.hint).toBe('Rename it to themeColor; unknown keys are not ignored. See docs/config.md#site.');
  });

  it('reports every problem of the file at once', () => {
    const text = shipped
      .replace('    pageSize: 6', '    pageSize: six')
      .replace('  themeColor: "#0f5132"', '  themeColour: "#0f5132"');
    expect(
      errorsOf(text)
        .map((error) => error.code)
        .sort(),
    ).toEqual(['CONFIG_INVALID', 'CONFIG_UNKNOWN_KEY']);
  });

  it('reports an unknown template reference on the line that uses it', () => {
    const text = shipped.replace('template: Product, audience: hub', 'template: Prodcut, audience: hub');
    const [error] = errorsOf(text);
    expect(error!.code).toBe('UNKNOWN_TEMPLATE');
    expect(error!.line).toBe(lineOf(text, 'Prodcut'));
    expect(error!.message).toContain('Prodcut');
    expect(error!.hint).toContain('Product');
  });

  it('reports a route that names an unknown collection, with the known ones', () => {
    const text = shipped.replace(
      '{ path: /shop/blog, template: BlogList, audience: shop, list: blog }',
      '{ path: /shop/blog, template: BlogList, audience: shop, list: blgo }',
    );
    const [error] = errorsOf(text);
    expect(error!.code).toBe('UNKNOWN_COLLECTION');
    expect(error!.field).toMatch(/^routes\[\d+\]\.list$/);
    expect(error!.line).toBe(lineOf(text, 'list: blgo'));
    expect(error!.hint).toBe('Known collections: blog.');
  });

  it('reports an unknown audience on the line that uses it', () => {
    const text = shipped.replace(
      '{ path: /shop/pricing, template: QuotePricing, audience: shop',
      '{ path: /shop/pricing, template: QuotePricing, audience: shops',
    );
    const [error] = errorsOf(text);
    expect(error!.code).toBe('UNKNOWN_AUDIENCE');
    expect(error!.line).toBe(lineOf(text, 'audience: shops'));
  });

  it('reports a search.path that is no route, at its line', () => {
    const text = shipped.replace('  path: /search\n', '  path: /find\n');
    const error = errorsOf(text).find((entry) => entry.field === 'search.path');
    expect(error).toMatchObject({ code: 'UNKNOWN_ROUTE', line: lineOf(text, '  path: /find') });
  });

  it('reports an unknown route reference', () => {
    const text = shipped.replace('alternate: /hub-presentation-no', 'alternate: /hub-presentation-norsk');
    const [error] = errorsOf(text);
    expect(error!.code).toBe('UNKNOWN_ROUTE');
    expect(error!.field).toMatch(/^routes\[\d+\]\.alternate$/);
    expect(error!.line).toBe(lineOf(text, 'alternate: /hub-presentation-norsk'));
  });

  it("reports page copy for the settings (admin.copy) that is no route's content, at its line", () => {
    const text = shipped.replace(
      '- { content: hub/pricing, keys: [addon.heading, addon.text] }',
      '- { content: hub/prices, keys: [addon.heading] }',
    );
    const [error] = errorsOf(text);
    expect(error).toMatchObject({ code: 'UNKNOWN_ROUTE', field: 'admin.copy[0].content' });
    expect(error!.line).toBe(lineOf(text, 'content: hub/prices'));
  });

  it("reports locked page copy (admin.locked) that is no route's content, at its line", () => {
    const text = shipped.replace('admin:\n', 'admin:\n  locked:\n    - { content: landings, keys: [hero.heading] }\n');
    const [error] = errorsOf(text);
    expect(error).toMatchObject({ code: 'UNKNOWN_ROUTE', field: 'admin.locked[0].content' });
    expect(error!.line).toBe(lineOf(text, 'content: landings'));
  });

  it('reports a duplicate route and where the first one is', () => {
    const text = shipped.replace(
      '  - { path: /privacy, template: Legal, content: privacy }',
      '  - { path: /privacy, template: Legal, content: privacy }\n  - { path: /terms, template: Legal, content: privacy }',
    );
    const [error] = errorsOf(text);
    expect(error!.code).toBe('DUPLICATE_ROUTE');
    expect(error!.line).toBe(lineOf(text, '{ path: /terms, template: Legal, content: privacy }'));
    expect(error!.message).toContain(`line ${lineOf(text, '{ path: /terms, template: Legal, content: terms }')}`);
  });

  it('reports a route at a path an endpoint answers (booking, contact, the admin API), at its line with a hint', () => {
    const cases: [string, string, RegExp][] = [
      ['/api/booking', 'booking.endpoint', /booking/],
      ['/api/booking/slots', 'booking.endpoint', /booking/],
      ['/api/contact', 'contact.endpoint', /contact/],
      ['/api/admin/inbox', 'admin', /admin/],
      ['/api/auth', 'admin', /admin/],
    ];
    for (const [path, names, hint] of cases) {
      const route = `  - { path: ${path}, template: Legal, content: terms }`;
      const text = shipped.replace(
        '  - { path: /privacy, template: Legal, content: privacy }',
        `  - { path: /privacy, template: Legal, content: privacy }\n${route}`,
      );
      const errors = errorsOf(text);
      expect(errors, path).toHaveLength(1);
      expect(errors[0], path).toMatchObject({
        code: 'DUPLICATE_ROUTE',
        file: 'site.config.yaml',
        line: lineOf(text, route),
        column: route.indexOf(path) + 1,
        field: expect.stringMatching(/^routes\[\d+\]\.path$/),
      });
      expect(errors[0]!.message, path).toContain(names);
      expect(errors[0]!.hint, path).toMatch(hint);
    }
    // A localized path at an endpoint (/no prefix included) is refused at that path.
    const localized = shipped.replace(
      '  - { path: /privacy, template: Legal, content: privacy }',
      '  - { path: /privacy, template: Legal, content: privacy }\n  - { path: /apis, paths: { no: /api-no }, template: Legal, content: terms }',
    );
    expect(() => parseConfig(localized, 'site.config.yaml', repoRoot, { templates })).not.toThrow();
    const moved = shipped.replace('  endpoint: /api/contact', '  endpoint: /no/skjema');
    const atEndpoint = moved.replace(
      '  - { path: /privacy, template: Legal, content: privacy }',
      '  - { path: /privacy, template: Legal, content: privacy }\n  - { path: /form, paths: { no: /skjema }, template: Legal, content: terms }',
    );
    const [error] = errorsOf(atEndpoint);
    expect(error).toMatchObject({
      code: 'DUPLICATE_ROUTE',
      field: expect.stringMatching(/^routes\[\d+\]\.paths\.no$/),
      line: lineOf(atEndpoint, '{ path: /form'),
    });
    expect(error!.message).toContain('/no/skjema');
    // Without the admin, its API is no endpoint; with a booking provider, neither is the built-in booking's.
    const noAdmin = shipped
      .replace('admin:\n', 'admin:\n  enabled: false\n')
      .replace(
        '  - { path: /privacy, template: Legal, content: privacy }',
        '  - { path: /privacy, template: Legal, content: privacy }\n  - { path: /api/admin, template: Legal, content: terms }',
      );
    expect(() => parseConfig(noAdmin, 'site.config.yaml', repoRoot, { templates })).not.toThrow();
  });

  it('reports a navigation item that leads nowhere', () => {
    const text = shipped.replace('path: "/{audience}/pricing"', 'path: "/{audience}/prices"');
    const errors = errorsOf(text);
    expect(errors.every((error) => error.code === 'UNKNOWN_ROUTE')).toBe(true);
    expect(errors.map((error) => error.message).join('\n')).toContain('/hub/prices');
  });

  it('reports a plan feature listed in two plans (plans are cumulative), at the second', () => {
    const text = shipped.replace(
      '    features: [ai-agent, shop-claims]',
      '    features: [ai-agent, shop-claims, invoicing]',
    );
    const [error] = errorsOf(text);
    expect(error!.code).toBe('CONFIG_INVALID');
    expect(error!.field).toBe('plans[3].features[2]');
    expect(error!.message).toBe('feature "invoicing" is already in plan "basic"');
    expect(error!.line).toBe(lineOf(text, '    features: [ai-agent, shop-claims, invoicing]'));
  });

  it("checks ROI defaults against their bounds, with the site's own schema of data: (templates/layout/schemas.ts)", () => {
    const text = shipped.replace(
      'ordersPerMonth: { default: 120, min: 1, max: 100000 }',
      'ordersPerMonth: { default: 0, min: 1, max: 100000 }',
    );
    const config = parseConfig(text, 'site.config.yaml', repoRoot);
    let errors: SiteError[] | undefined;
    try {
      siteDataOf(config, { data: siteData });
    } catch (error) {
      errors = collectSiteErrors(error);
    }
    expect(errors?.[0]).toMatchObject({
      code: 'CONFIG_INVALID',
      field: 'data.roi.inputs.ordersPerMonth.default',
      message: 'default 0 is outside 1–100000',
      line: lineOf(shipped, 'ordersPerMonth: { default: 120'),
    });
    expect(errors?.[0]!.hint).toContain('templates/layout/Layout.tsx');
  });

  it('refuses links that would run script: booking, social links and the form endpoint', () => {
    const text = shipped
      .replace('booking:\n', 'booking:\n  url: "javascript:alert(1)"\n')
      .replace('linkedin: https://www.linkedin.com/company/mendwise-example', 'linkedin: "data:text/html,hi"')
      .replace('endpoint: /api/contact', 'endpoint: "javascript:steal()"');
    const errors = errorsOf(text);
    expect(errors.map((error) => [error.field, error.message])).toEqual([
      ['company.social.linkedin', 'use an http:// or https:// address'],
      ['contact.endpoint', 'use a path such as /api/contact or an http(s):// address'],
      ['booking.url', 'use an http:// or https:// address'],
    ]);
  });

  it('refuses a site or booking time zone the runtime does not know, and a plan sign-up link that would run script', () => {
    const text = shipped
      .replaceAll('timeZone: Europe/Oslo', 'timeZone: Europe/Atlantis')
      .replace('  - id: free\n', '  - id: free\n    signupUrl: "javascript:alert(1)"\n');
    expect(errorsOf(text).map((error) => [error.field, error.message])).toEqual([
      ['site.timeZone', 'use an IANA time zone such as Europe/Oslo'],
      ['plans[0].signupUrl', 'use an http:// or https:// address'],
      ['booking.timeZone', 'use an IANA time zone such as Europe/Oslo'],
    ]);
  });

  it('refuses a font to preload that is no file, at its line in the list', () => {
    const text = shipped.replace('inter-latin-700-normal.woff2', 'inter-latin-750-normal.woff2');
    const [error] = errorsOf(text);
    expect(error).toMatchObject({
      code: 'CONFIG_INVALID',
      field: 'output.preloadFonts[1]',
      line: lineOf(text, 'inter-latin-750'),
      column: 7,
    });
    expect(error!.message).toContain('inter-latin-750-normal.woff2", which is no file');
    expect(error!.hint).toContain('relative to the config file');
  });

  it('reports an alias bomb and nesting too deep to read as problems of the file, not crashes', () => {
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x]',
      ...'bcdefghij'
        .split('')
        .map((name, index) => `${name}: &${name} [${Array(9).fill(`*${'abcdefghij'[index]}`).join(', ')}]`),
    ].join('\n');
    const [aliases] = errorsOf(`${shipped}\nbomb:\n${bomb.replace(/^/gm, '  ')}\n`);
    expect(aliases).toMatchObject({
      code: 'YAML_SYNTAX',
      file: 'site.config.yaml',
      line: 1,
      message: expect.stringContaining('resource-exhaustion attack'),
    });
    const [deep] = errorsOf(`${shipped}\ndeep: ${'['.repeat(20_000)}${']'.repeat(20_000)}\n`);
    expect(deep).toMatchObject({ code: 'YAML_SYNTAX', message: 'the document is nested too deeply to read' });
  });
});

describe('JSON Schema for editors', () => {
  it('is committed up to date with the zod schema (run `node bin/site.js schema` after changing it)', async () => {
    const { formatJsonSchema } = await import('../../src/config/schema');
    expect(readFileSync(join(repoRoot, 'schema', 'site.config.schema.json'), 'utf8')).toBe(formatJsonSchema());
  });

  it('is referenced from the top of site.config.yaml', () => {
    expect(shipped.split('\n')[0]).toBe('# yaml-language-server: $schema=./schema/site.config.schema.json');
  });
});
