import { describe, expect, it } from 'vitest';
import { placeholderReason } from '../../src/config/placeholders';
import { parseConfig } from '../../src/config/load';
import { createDiagnostics } from '../../src/diagnostics';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../helpers/paths';

describe('placeholder company facts', () => {
  it('recognises reserved domains in e-mail addresses and URLs', () => {
    expect(placeholderReason(['company', 'email'], 'hello@mendwise.example')).toBe(
      '"hello@mendwise.example" is a placeholder: mendwise.example is a domain reserved for examples, so mail to it never arrives',
    );
    expect(placeholderReason(['site', 'origin'], 'https://www.example.com')).toMatch(
      /www\.example\.com is a domain reserved for examples, so links to it lead nowhere$/,
    );
    expect(placeholderReason(['company', 'email'], 'post@mendwise.no')).toBeUndefined();
    expect(placeholderReason(['site', 'origin'], 'https://examples.no')).toBeUndefined();
  });

  it('recognises the org number 999 999 999 and a phone number of zeros, but not real ones', () => {
    expect(placeholderReason(['company', 'orgNumber'], '999 999 999')).toBe(
      '"999 999 999" is a placeholder organisation number',
    );
    expect(placeholderReason(['company', 'orgNumber'], '923 609 016')).toBeUndefined();
    expect(placeholderReason(['company', 'phone'], '+47 000 00 000')).toBe(
      '"+47 000 00 000" is a placeholder phone number',
    );
    expect(placeholderReason(['company', 'phone'], '+47 22 00 00 00')).toBeUndefined();
  });

  it('recognises handles and addresses that say example', () => {
    expect(
      placeholderReason(['company', 'social', 'linkedin'], 'https://www.linkedin.com/company/mendwise-example'),
    ).toBe('"https://www.linkedin.com/company/mendwise-example" looks like a placeholder: it says "example"');
    expect(placeholderReason(['company', 'address', 'street'], 'Eksempelgata 1')).toBe(
      '"Eksempelgata 1" looks like a placeholder: it says "Eksempel"',
    );
    expect(placeholderReason(['company', 'address', 'street'], 'Karl Johans gate 1')).toBeUndefined();
  });

  it('are warnings of the config, at the line of their field, and the config still loads', () => {
    const text = readFileSync(join(repoRoot, 'tests', 'fixtures', 'engine-site', 'site.config.yaml'), 'utf8').replace(
      'orgNumber: "123 456 789"',
      'orgNumber: "999 999 999"',
    );
    const diagnostics = createDiagnostics();
    const config = parseConfig(text, 'site.config.yaml', repoRoot, { diagnostics });
    expect(config.company?.orgNumber).toBe('999 999 999');
    expect(diagnostics.hasErrors).toBe(false);
    const orgNumber = diagnostics.of('warning').find((warning) => warning.field === 'company.orgNumber');
    const line = text.split('\n').findIndex((row) => row.includes('orgNumber:')) + 1;
    expect(orgNumber?.format()).toBe(
      `site.config.yaml:${line}:14  company.orgNumber  "999 999 999" is a placeholder organisation number  (Replace it with the real value in site.config.yaml before the site goes live; the build still succeeds.)`,
    );
  });
});
