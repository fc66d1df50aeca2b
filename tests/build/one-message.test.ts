/**
 * Issue 53, one diagnostic per mistake, on a copy of the real site: a mistake's consequences are
 * not reported beside it, a misspelt front-matter field is one message, a missing NotFound.tsx
 * names the templates folder, and a `{{token}}` of a Markdown copy file is placed by the file's lines.
 */
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSite } from '../../src/build';
import { SiteErrors, collectSiteErrors, type SiteError } from '../../src/errors';
import { createTempSite } from '../helpers/fixture-site';
import { repoRoot } from '../helpers/paths';

/** The errors and warnings of a build of the site after `change`. */
async function problemsAfter(
  change: (dir: string) => Promise<void>,
  editConfig?: (text: string) => string,
): Promise<{ errors: SiteError[]; warnings: SiteError[]; dir: string }> {
  const site = await createTempSite(editConfig ? { editConfig } : {});
  try {
    await change(site.dir);
    await buildSite({ config: site.config, socialImages: false });
    return { errors: [], warnings: [], dir: site.dir };
  } catch (error) {
    return {
      errors: collectSiteErrors(error) ?? [],
      warnings: error instanceof SiteErrors ? error.warnings : [],
      dir: site.dir,
    };
  } finally {
    await site.cleanup();
  }
}

const post = (dir: string, locale: string) => join(dir, 'content', 'blog', 'a-day-in-a-tailor-shop', `${locale}.md`);

async function edit(file: string, change: (text: string) => string): Promise<void> {
  await writeFile(file, change(await readFile(file, 'utf8')));
}

describe('one diagnostic per mistake (issue 53)', () => {
  it('a bad front-matter date is FRONT_MATTER at its line, and the entry is not also called untranslated', async () => {
    const { errors, warnings, dir } = await problemsAfter((dir) =>
      edit(post(dir, 'no'), (text) => text.replace('date: 2026-05-27', 'date: 2026-05-32')),
    );
    const file = relative(process.cwd(), post(dir, 'no'));
    expect(errors.map((error) => [error.code, error.file, error.line, error.field])).toEqual([
      ['FRONT_MATTER', file, 4, 'date'],
    ]);
    const untranslated = warnings.filter((warning) => warning.code === 'ENTRY_UNTRANSLATED');
    expect(untranslated.filter((warning) => warning.message.includes('a-day-in-a-tailor-shop'))).toEqual([]);
  });

  it('a misspelt required front-matter field is one message naming the field meant', async () => {
    const { errors, dir } = await problemsAfter((dir) =>
      edit(post(dir, 'no'), (text) => text.replace('author: Mendwise-teamet', 'autor: Mendwise-teamet')),
    );
    // The misspelt field's own line, wherever the post's front matter puts it.
    const line =
      (await readFile(post(repoRoot, 'no'), 'utf8')).split('\n').findIndex((text) => text.startsWith('author:')) + 1;
    expect(errors.map((error) => error.format())).toEqual([
      `${relative(process.cwd(), post(dir, 'no'))}:${line}:1  autor  unknown key "autor": did you mean "author"? ("author" is required and missing)  (Rename it to author; unknown keys are not ignored.)`,
    ]);
    expect(errors[0]!.code).toBe('FRONT_MATTER_UNKNOWN_KEY');
  });

  it('a missing NotFound.tsx is UNKNOWN_TEMPLATE at the templates folder that lacks it', async () => {
    let templates = '';
    const { errors } = await problemsAfter(
      async (dir) => {
        templates = join(dir, 'templates');
        await cp(join(repoRoot, 'templates'), templates, { recursive: true });
        await rm(join(templates, 'pages', 'NotFound.tsx'));
      },
      (text) => text.replace(/^ {2}templates: .*$/m, '  templates: templates'),
    );
    const folder = relative(process.cwd(), join(templates, 'pages'));
    expect(errors.map((error) => error.format())).toContain(
      `${folder}  the 404 pages need the template NotFound: there is no ${join(folder, 'NotFound.tsx')}  (Add NotFound.tsx to the folder (the starter of \`site init\` has one to copy): it renders the page a visitor gets for an address the site does not have.)`,
    );
  });

  it("an unknown {{token}} of a Markdown copy file is at the file's line and column, front matter counted", async () => {
    const { errors, dir } = await problemsAfter((dir) =>
      edit(join(dir, 'content', 'pages', 'terms', 'en.md'), (text) =>
        text.replace('## 1. Parties and scope', '## 1. Parties and scope {{company.emial}}'),
      ),
    );
    const token = errors.find((error) => error.message.startsWith('unknown token'));
    expect(token).toMatchObject({
      code: 'CONTENT_INVALID',
      file: relative(process.cwd(), join(dir, 'content', 'pages', 'terms', 'en.md')),
      line: 7,
      column: 25,
      message: 'unknown token {{company.emial}}: did you mean "{{company.email}}"?',
    });
  });
});
