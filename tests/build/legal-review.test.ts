/**
 * The legal pages ship as templates the company must review: no "this is a template" box on the
 * public pages, but a warning from `site build` and `site check` that names each file, until the
 * config says `legal.reviewed: true`.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../src/build';
import { createTempSite, type TempSite } from '../helpers/fixture-site';
import { repoRoot } from '../helpers/paths';

const run = promisify(execFile);
const legalFiles = [
  'content/pages/privacy/en.md',
  'content/pages/privacy/no.md',
  'content/pages/terms/en.md',
  'content/pages/terms/no.md',
];

describe('legal pages not yet reviewed (the shipped config)', () => {
  let temp: TempSite;
  beforeAll(async () => {
    temp = await createTempSite();
  });
  afterAll(() => temp.cleanup());

  it('build warns once per legal file, naming it with a hint, and still succeeds', async () => {
    const cwd = process.cwd();
    process.chdir(temp.dir);
    try {
      const result = await buildSite({ config: temp.config });
      const warnings = result.warnings.filter((warning) => warning.code === 'LEGAL_UNREVIEWED');
      expect(warnings.map((warning) => warning.file)).toEqual(legalFiles);
      expect(
        warnings.every((warning) => warning.severity === 'warning' && warning.hint.includes('legal.reviewed: true')),
      ).toBe(true);
      const terms = result.files.get('terms/index.html');
      expect(typeof terms === 'string' ? terms : new TextDecoder().decode(terms)).not.toMatch(
        /is a template|er en mal/,
      );
    } finally {
      process.chdir(cwd);
    }
  });

  it('site check prints the warnings on stderr and exits 0', async () => {
    const { stdout, stderr } = await run('node', [join(repoRoot, 'bin', 'site.js'), 'check'], { cwd: temp.dir });
    expect(stdout).toMatch(/^ok: \d+ pages checked/);
    for (const file of legalFiles) expect(stderr).toContain(`LEGAL_UNREVIEWED  ${file}  legal text`);
  });
});

describe('legal pages marked reviewed', () => {
  let temp: TempSite;
  beforeAll(async () => {
    temp = await createTempSite({
      editConfig: (text) => text.replace(/^legal:\n  reviewed: false$/m, 'legal:\n  reviewed: true'),
    });
  });
  afterAll(() => temp.cleanup());

  it('build and check give no legal warning', async () => {
    const result = await buildSite({ config: temp.config });
    expect(result.warnings.filter((warning) => warning.code === 'LEGAL_UNREVIEWED')).toEqual([]);
    const { stderr } = await run('node', [join(repoRoot, 'bin', 'site.js'), 'check'], { cwd: temp.dir });
    expect(stderr).not.toContain('LEGAL_UNREVIEWED');
  });
});
