/**
 * Diagnostics through the CLI: a template that refuses its copy fails the build naming the copy
 * file, the line and the field; warnings are printed with their place and leave the exit code 0.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempSite, type TempSite } from '../helpers/fixture-site';
import { repoRoot } from '../helpers/paths';

const run = promisify(execFile);

/** Runs the CLI in the repository (or in `cwd`); resolves with the exit code and both streams. */
function site(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return siteIn(repoRoot, ...args);
}

function siteIn(cwd: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return run('node', [join(repoRoot, 'bin', 'site.js'), ...args], { cwd }).then(
    (result) => ({ code: 0, ...result }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      stdout: error.stdout,
      stderr: error.stderr,
    }),
  );
}

describe('a template that raises a diagnostic', () => {
  it('fails with exit 1, naming the copy file, the line and column of the field, the field and the hint', async () => {
    const result = await site('check', '--config', 'tests/fixtures/template-diagnostic/site.config.yaml');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'TEMPLATE_REJECTED  tests/fixtures/template-diagnostic/content/pages/landing/en.yaml:5:12  hero.caption  / (template Landing): the hero has a caption but no image  (Add hero.image, or remove the caption.)',
    );
    expect(result.stderr).toContain('> 5 |   caption: An image caption without an image');
    expect(result.stderr).not.toContain('internal error');
    expect(result.stderr).toMatch(/\n1 error\n$/);
  });
});

describe('warnings', () => {
  it('are printed by site check with file, line and field, and leave the exit code 0', async () => {
    const result = await site('check', '--config', 'tests/fixtures/engine-site/site.config.yaml');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^ok: \d+ pages checked/);
    const lines = result.stderr.trim().split('\n');
    // The .example domains of the demo company, each at the line of its field.
    const placeholder = (field: string) =>
      new RegExp(
        `^warning  CONFIG_PLACEHOLDER  tests/fixtures/engine-site/site\\.config\\.yaml:\\d+:\\d+  ${field.replace(/\./g, '\\.')}  "[^"]+" (is|looks like) a placeholder`,
      );
    for (const field of [
      'site.origin',
      'company.email',
      'company.social.linkedin',
      'company.social.instagram',
      'booking.url',
    ]) {
      expect(
        lines.filter((line) => placeholder(field).test(line)),
        field,
      ).toHaveLength(1);
    }
    expect(lines).toContain(
      'warning  CONFIG_PLACEHOLDER  tests/fixtures/engine-site/site.config.yaml:67:10  company.email  "hello@fixture.example" is a placeholder: fixture.example is a domain reserved for examples, so mail to it never arrives  (Replace it with the real value in site.config.yaml before the site goes live; the build still succeeds.)',
    );
    // One warning per untranslated entry, naming its folder, the missing locales and what readers get instead.
    const hint = (files: string, name: string) =>
      `(Add ${files} to the folder; until then its pages there show the fallback language (collections.${name}.fallback in site.config.yaml decides which).)`;
    expect(lines.filter((line) => line.includes('ENTRY_UNTRANSLATED'))).toEqual([
      `warning  ENTRY_UNTRANSLATED  tests/fixtures/engine-site/content/news/english-only  news entry "english-only" is not translated into nb, de: readers in nb and de get the en text  ${hint('nb.md and de.md', 'news')}`,
      `warning  ENTRY_UNTRANSLATED  tests/fixtures/engine-site/content/news/new-tool  news entry "new-tool" is not translated into de: readers in de get the nb text  ${hint('de.md', 'news')}`,
      // The cases collection falls back to English for German before the default language.
      `warning  ENTRY_UNTRANSLATED  tests/fixtures/engine-site/content/work/cases/bridge  cases entry "bridge" is not translated into de: readers in de get the en text  ${hint('de.md', 'cases')}`,
    ]);
  });
});

describe('infos', () => {
  let temp: TempSite;
  beforeAll(async () => {
    temp = await createTempSite({ posts: join(repoRoot, 'tests', 'fixtures', 'blog-posts') });
  });
  afterAll(() => temp.cleanup());

  it('are printed only with --verbose, and never change the exit code', async () => {
    const draft =
      'info  ENTRY_DRAFT  content/blog/delta/en.md  blog entry "delta" in en is a draft (draft: true): left out  (Set draft: false in its front matter to publish it, or build with --drafts to see it.)';
    const quiet = await siteIn(temp.dir, 'check');
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).not.toContain('ENTRY_DRAFT');
    const verbose = await siteIn(temp.dir, 'check', '--verbose');
    expect(verbose.code, verbose.stderr).toBe(0);
    expect(verbose.stderr.split('\n')).toContain(draft);
    // With --drafts the draft is built, so there is nothing to say about it.
    expect((await siteIn(temp.dir, 'check', '--verbose', '--drafts')).stderr).not.toContain('ENTRY_DRAFT');
  });
});
