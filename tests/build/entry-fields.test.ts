/**
 * The richer fields of a collection (issue 48) in a real build: a data collection `team` (no
 * routes) whose entries have a select, an image beside the entry, a Markdown field, a list of
 * strings, a list of objects and an object, and a case study whose `lead` refers to a member,
 * which its template reads through `site.reference`. Each bad value fails the build at its file,
 * line and field: a reference to no entry names the entries that exist.
 */
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, type BuildResult } from '../../src/build';
import { collectSiteErrors, type SiteError } from '../../src/errors';
import { caseFile, createTeamSite } from '../helpers/team-site';
import type { TempSite } from '../helpers/fixture-site';
import { repoRoot } from '../helpers/paths';

const run = promisify(execFile);
const text = (result: BuildResult, file: string) => {
  const data = result.files.get(file);
  return typeof data === 'string' ? data : Buffer.from(data!).toString('utf8');
};

/** Runs `site <command>` in `dir`: its exit code and output. */
async function siteCommand(dir: string, command: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [join(repoRoot, 'bin', 'site.js'), command], { cwd: dir });
    return { code: 0, output: stderr + stdout };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stderr + failed.stdout };
  }
}

async function buildErrors(site: TempSite): Promise<SiteError[]> {
  return buildSite({ config: site.config, cache: false, socialImages: false }).then(
    () => [],
    (error) => collectSiteErrors(error) ?? [error],
  );
}

describe('a data collection and a reference to it', () => {
  let site: TempSite;
  let result: BuildResult;

  beforeAll(async () => {
    site = await createTeamSite();
    result = await buildSite({ config: site.config, cache: false, socialImages: false });
  }, 120_000);
  afterAll(() => site?.cleanup());

  it("renders the referenced member's fields on the case study, in each language", () => {
    const english = text(result, 'cases/bike-shop/index.html');
    expect(english).toContain('<h2>Ada Lovelace</h2>');
    expect(english).toContain('<p data-role="true">Repairs</p>');
    expect(english).toContain('<div data-bio="true"><p>Fixes <strong>anything</strong> with a seam.</p></div>');
    expect(english).toContain('<p data-photo="true">Ada at the workbench (640 px)</p>');
    expect(english).toContain('<p data-skills="true">sewing, zips</p>');
    expect(english).toContain('<a href="https://example.org/ada">Website</a>');
    const norwegian = text(result, 'no/kunder/sykkelbutikken/index.html');
    expect(norwegian).toContain('<p data-role="true">Reparasjon</p>');
    expect(norwegian).toContain('<p>Fikser <strong>alt</strong> med en søm.</p>');
  });

  it("gives a data collection's entries no pages, and publishes its image field's variants", () => {
    expect([...result.files.keys()].some((file) => /(^|\/)team\//.test(file))).toBe(false);
    expect([...result.files.keys()].some((file) => /^assets\/images\/[0-9a-f]{16}-\d+\.webp$/.test(file))).toBe(true);
  });
});

describe('bad field values', () => {
  let site: TempSite;
  beforeAll(async () => {
    site = await createTeamSite();
  }, 120_000);
  afterAll(() => site?.cleanup());

  it('a reference to no entry fails at its line, naming the field and the entries that exist', async () => {
    const file = caseFile(site, 'en');
    const before = await readFile(file, 'utf8');
    await writeFile(file, before.replace('lead: ada', 'lead: no-such-person'));
    try {
      const errors = await buildErrors(site);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({
        code: 'ENTRY_REFERENCE',
        field: 'lead',
        line: 5,
        column: 7,
        message: '"no-such-person" is no entry of team',
        hint: 'Name one of the entries of team: ada.',
      });
      expect(errors[0]!.file).toMatch(/content\/cases\/bike-shop\/en\.md$/);
      const check = await siteCommand(site.dir, 'check');
      expect(check.code).toBe(1);
      expect(check.output).toContain(
        'ENTRY_REFERENCE  content/cases/bike-shop/en.md:5:7  lead  "no-such-person" is no entry of team  (Name one of the entries of team: ada.)',
      );
    } finally {
      await writeFile(file, before);
    }
  });

  it('a select outside its options, a list item of the wrong type and an image without alt text fail at their lines', async () => {
    const file = join(site.dir, 'content', 'team', 'ada', 'en.md');
    const before = await readFile(file, 'utf8');
    await writeFile(
      file,
      before
        .replace('role: repair', 'role: plumbing')
        .replace('skills: [sewing, zips]', 'skills: [sewing, 3]')
        .replace('alt: "Ada at the workbench"', 'alt: ""'),
    );
    try {
      const errors = await buildErrors(site);
      const found = errors.map((error) => [error.code, error.field, error.line]);
      expect(found).toEqual(
        expect.arrayContaining([
          ['FRONT_MATTER', 'role', 3],
          ['FRONT_MATTER', 'photo.alt', 4],
          ['FRONT_MATTER', 'skills[1]', 6],
        ]),
      );
      expect(errors.find((error) => error.field === 'role')!.message).toMatch(/repair.*sales/);
    } finally {
      await writeFile(file, before);
    }
  });

  it("an image field naming no file in the entry's folder fails at its src", async () => {
    const file = join(site.dir, 'content', 'team', 'ada', 'no.md');
    const before = await readFile(file, 'utf8');
    await writeFile(file, before.replace('src: ada.png', 'src: missing.png'));
    try {
      const errors = await buildErrors(site);
      expect(errors[0]).toMatchObject({ code: 'ENTRY_FIELD', field: 'photo.src', line: 4 });
      expect(errors[0]!.file).toMatch(/content\/team\/ada\/no\.md$/);
    } finally {
      await writeFile(file, before);
    }
  });

  it('a reference to an unknown collection, and a select without options, are config errors at their keys', async () => {
    const before = await readFile(site.config, 'utf8');
    await writeFile(
      site.config,
      before
        .replace('collection: team, required: false', 'collection: staff, required: false')
        .replace('role: { type: select, options: [repair, sales], labels: team.roles }', 'role: { type: select }'),
    );
    try {
      const errors = await buildErrors(site);
      const lines = before.split('\n');
      expect(errors.map((error) => [error.code, error.field, error.message])).toEqual(
        expect.arrayContaining([
          ['CONFIG_INVALID', 'collections.team.fields.role.type', 'a select field needs options:'],
          ['UNKNOWN_COLLECTION', 'collections.cases.fields.lead.collection', 'unknown collection "staff"'],
        ]),
      );
      const lead = errors.find((error) => error.code === 'UNKNOWN_COLLECTION')!;
      expect(lines[lead.line! - 1]).toContain('lead: { type: reference');
    } finally {
      await writeFile(site.config, before);
    }
  });
});
