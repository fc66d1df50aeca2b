/**
 * Issue 53: a new team broke its site on purpose; each mistake it made gets one diagnostic that
 * says what was meant (did you mean), the shape the field takes, and where the manual says more,
 * at the line and column of the mistake.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseConfig } from '../../src/config/load';
import { checkParity } from '../../src/content/parity';
import { createDiagnostics } from '../../src/diagnostics';
import { didYouMean, editDistance, nearestAnchor } from '../../src/did-you-mean';
import { collectSiteErrors, type SiteError } from '../../src/errors';
import { parseYaml, validateYaml } from '../../src/yaml-source';
import { repoRoot } from '../helpers/paths';

const shipped = readFileSync(join(repoRoot, 'site.config.yaml'), 'utf8');
const templates = ['Landing', 'Product', 'Pricing'];

function errorsOf(text: string, names?: readonly string[]): SiteError[] {
  try {
    parseConfig(text, 'site.config.yaml', repoRoot, names ? { templates: names } : {});
  } catch (error) {
    const errors = collectSiteErrors(error);
    if (errors) return errors;
    throw error;
  }
  throw new Error('expected the config to be rejected');
}

function lineOf(text: string, needle: string): number {
  const index = text.indexOf(needle);
  if (index < 0) throw new Error(`"${needle}" not in text`);
  return text.slice(0, index).split('\n').length;
}

describe('did you mean', () => {
  it('counts a swap of two neighbouring letters as one edit, and suggests only what is close', () => {
    expect(editDistance('pageSzie', 'pageSize')).toBe(1);
    expect(didYouMean('pageSzie', ['pageSize', 'feed', 'fields'])).toBe('pageSize');
    expect(didYouMean('colections', ['collections', 'contact'])).toBe('collections');
    expect(didYouMean('clinet', ['client', 'title'])).toBe('client');
    expect(didYouMean('Landing', ['landing'])).toBe('landing');
    expect(didYouMean('zzz', ['collections', 'contact'])).toBeUndefined();
  });

  it('finds the nearest anchor by its beginning, a part of it, or a few edits, and none when nothing is close', () => {
    const ids = ['main', 'drafts-and-scheduled-posts', 'front-matter', 'images', 'writing-posts'];
    expect(nearestAnchor('draftz', ids)).toBe('drafts-and-scheduled-posts');
    expect(nearestAnchor('drafts', ids)).toBe('drafts-and-scheduled-posts');
    expect(nearestAnchor('scheduled', ids)).toBe('drafts-and-scheduled-posts');
    expect(nearestAnchor('frontmatter', ids)).toBe('front-matter');
    expect(nearestAnchor('imagse', ids)).toBe('images');
    expect(nearestAnchor('pricing', ids)).toBeUndefined();
  });
});

describe('the config (site.config.yaml)', () => {
  it('pageSzie: 10 names pageSize, at the key', () => {
    const text = shipped.replace('    pageSize: 6', '    pageSzie: 6');
    const [error, ...more] = errorsOf(text);
    expect(more).toEqual([]);
    expect(error!.format()).toBe(
      `site.config.yaml:${lineOf(text, 'pageSzie')}:5  collections.blog.pageSzie  unknown key "pageSzie": did you mean "pageSize"?  (Rename it to pageSize; unknown keys are not ignored. See docs/config.md#collections.)`,
    );
    expect(error!.code).toBe('CONFIG_UNKNOWN_KEY');
  });

  it('colections: names collections, at the key', () => {
    const text = shipped.replace(/^collections:/m, 'colections:');
    const unknown = errorsOf(text).filter((error) => error.code === 'CONFIG_UNKNOWN_KEY');
    expect(unknown).toHaveLength(1);
    expect(unknown[0]!.message).toBe('unknown key "colections": did you mean "collections"?');
    expect([unknown[0]!.line, unknown[0]!.column]).toEqual([lineOf(text, 'colections:'), 1]);
  });

  it('an unknown key with no near name lists the keys the object knows', () => {
    const text = shipped.replace('  legalName: Mendwise AS', '  legalName: Mendwise AS\n  founded: 2020');
    const [error] = errorsOf(text);
    expect(error!.message).toBe('unknown key "founded"');
    expect(error!.hint).toBe(
      'Remove it or fix its spelling; unknown keys are not ignored. Known keys here: legalName, address, orgNumber, email, social, openingHours. See docs/config.md#company.',
    );
  });

  it('company.address as one line says the fields it takes, with an example, and points to the manual (not node_modules)', () => {
    const text = shipped.replace(
      '  address: { street: Eksempelgata 1, postalCode: "0150", city: Oslo, country: "NO" }',
      '  address: Storgata 1, 0155 Oslo',
    );
    const [error, ...more] = errorsOf(text);
    expect(more).toEqual([]);
    expect(error!.format()).toBe(
      `site.config.yaml:${lineOf(text, 'Storgata')}:12  company.address  expected an object with street, postalCode, city and country, got string "Storgata 1, 0155 Oslo"  (Write it as address: { street: …, postalCode: …, city: …, country: … }. See docs/config.md#company.)`,
    );
    expect(error!.hint).not.toContain('node_modules');
    expect(error!.hint).not.toContain('schema/');
  });

  it('an enum names its values, and a described field adds its description', () => {
    const text = shipped.replace('  target: node', '  target: heroku');
    const [error] = errorsOf(text);
    expect(error!.message).toBe('must be one of "node", "netlify", "cloudflare", "vercel", "github-pages"');
    expect(error!.hint).toMatch(
      /^Write it as target: node\. The host the output is for .*See docs\/config\.md#output\.$/,
    );
    expect(error!.line).toBe(lineOf(text, 'heroku'));
  });

  it('a locale, template, audience, collection or route of the config that does not exist names the nearest', () => {
    const named = (text: string) => errorsOf(text).map((error) => `${error.code} ${error.message}`);
    expect(named(shipped.replace('defaultLocale: en', 'defaultLocale: eng'))).toContain(
      'UNKNOWN_LOCALE default locale "eng" is not defined under locales: did you mean "en"?',
    );
    const text = shipped.replace('template: Product, audience: hub', 'template: Prodcut, audience: hub');
    const template = errorsOf(text, templates).find((error) => error.message.includes('Prodcut'));
    expect(template).toMatchObject({
      code: 'UNKNOWN_TEMPLATE',
      message: 'unknown template "Prodcut": did you mean "Product"?',
      line: lineOf(text, 'Prodcut'),
    });
    expect(named(shipped.replace('template: Product, audience: hub', 'template: Product, audience: hbu'))).toContain(
      'UNKNOWN_AUDIENCE unknown audience "hbu": did you mean "hub"?',
    );
    expect(named(shipped.replace('from: /workwear, to:', 'from: /workware, to:'))).toContain(
      'UNKNOWN_ROUTE unknown route "/workware": did you mean "/workwear"?',
    );
    expect(named(shipped.replace('list: blog', 'list: blgo'))).toContain(
      'UNKNOWN_COLLECTION unknown collection "blgo": did you mean "blog"?',
    );
  });

  it('a text of the config missing a language has its own code, not CONTENT_PARITY', () => {
    const text = shipped.replace(
      /(audiences:\n {2}\w+:\n(?: {4}.*\n)*? {4}label: )\{ en: ([^,]+), "no": [^}]+\}/,
      '$1{ en: $2 }',
    );
    const [error] = errorsOf(text);
    expect(error!.code).toBe('CONFIG_LOCALE_MISSING');
    expect(error!.message).toBe('missing text for locale "no"');
  });

  it('a line indented one space too few is one YAML_SYNTAX error, at that line, counting what follows from it', () => {
    const text = shipped.replace('    label: Norsk', '   label: Norsk');
    const line = lineOf(text, '   label: Norsk');
    expect(errorsOf(text).map((error) => error.format())).toEqual([
      `site.config.yaml:${line}:11  Nested mappings are not allowed in compact mappings (the parser stumbles on 6 more lines after it, most likely because of this one)  (Check indentation and quoting around the position shown.)`,
    ]);
    const once = shipped.replace('  name: Mendwise', '  name: [Mendwise');
    expect(errorsOf(once)).toHaveLength(1);
  });
});

describe('copy and front matter', () => {
  const frontMatter = z.strictObject({ title: z.string(), date: z.string(), client: z.string() });

  it('a misspelt required field is one message linking the unknown key to the missing one', () => {
    const { source } = parseYaml('title: A case\ndate: "2026-01-02"\nclinet: Acme\n', 'content/work/a/en.md', 1);
    const { errors } = validateYaml(source, frontMatter, 'FRONT_MATTER');
    expect(errors.map((error) => error.format())).toEqual([
      'content/work/a/en.md:4:1  clinet  unknown key "clinet": did you mean "client"? ("client" is required and missing)  (Rename it to client; unknown keys are not ignored.)',
    ]);
    expect(errors[0]!.code).toBe('FRONT_MATTER_UNKNOWN_KEY');
  });

  it('an unknown key in page copy is CONTENT_UNKNOWN_KEY, naming the nearest field of the template', () => {
    const { source } = parseYaml('title: Hi\nsubtitel: oops\n', 'content/pages/landing/en.yaml');
    const { errors } = validateYaml(
      source,
      z.strictObject({ title: z.string(), subtitle: z.string().optional() }),
      'CONTENT_INVALID',
    );
    expect(errors).toMatchObject([
      { code: 'CONTENT_UNKNOWN_KEY', message: 'unknown key "subtitel": did you mean "subtitle"?', line: 2, column: 1 },
    ]);
  });

  it('a copy key missing in one language is CONTENT_INVALID only, not also CONTENT_PARITY', () => {
    const schema = z.strictObject({ title: z.string(), lead: z.string(), note: z.string().optional() });
    const diagnostics = createDiagnostics();
    const en = parseYaml('title: Hi\nlead: Welcome\nnote: x\n', 'en.yaml').source;
    const no = parseYaml('title: Hei\n', 'no.yaml').source;
    for (const source of [en, no]) diagnostics.add(...validateYaml(source, schema, 'CONTENT_INVALID').errors);
    checkParity(en, no, diagnostics);
    expect(diagnostics.list().map((error) => `${error.code} ${error.format()}`)).toEqual([
      'CONTENT_INVALID no.yaml:1:1  lead  required field is missing (expected a text)  (Compare the file with the fields the page template expects.)',
      'CONTENT_PARITY no.yaml:1:1  missing key "note" (present in en.yaml)  (Add the key to the other locale so both languages say the same things.)',
    ]);
  });
});
