/**
 * Broken links are errors: a link of a post or of page copy (a YAML value, a Markdown link in a
 * YAML string, the body of a Markdown copy file) that leads to no page, alias or file of the
 * build, or names an id its page does not have (a heading's or one the template makes), fails
 * `site check` and `site build` (exit 1) at the file, line and column where it is written, with
 * the nearest existing page or id as the hint; the previous dist/ stays as it was. Checked under
 * `site.base` as written (the base is put in front when the page is rendered).
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../src/build';
import { createDevBuilder } from '../../src/dev/rebuild';
import { collectSiteErrors, type SiteError } from '../../src/errors';
import { fixturesRoot, outputRoot, repoRoot } from '../helpers/paths';

const run = promisify(execFile);
const siteBin = join(repoRoot, 'bin', 'site.js');
const made: string[] = [];

/** A copy of tests/fixtures/links-site with `edits` (file → text transform) applied. */
async function linksSite(edits: Record<string, (text: string) => string> = {}): Promise<string> {
  await mkdir(outputRoot, { recursive: true });
  const dir = await mkdtemp(join(outputRoot, 'links-'));
  made.push(dir);
  await cp(join(fixturesRoot, 'links-site'), dir, { recursive: true });
  for (const [file, edit] of Object.entries(edits))
    await writeFile(join(dir, file), edit(await readFile(join(dir, file), 'utf8')));
  return dir;
}

/** The errors of a build of the site in `dir` (none when it succeeds). */
async function buildErrors(dir: string): Promise<SiteError[]> {
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    await buildSite({ config: 'site.config.yaml', cache: false, workers: 0, socialImages: false });
    return [];
  } catch (error) {
    const errors = collectSiteErrors(error);
    if (!errors) throw error;
    return errors;
  } finally {
    process.chdir(cwd);
  }
}

/** Runs `site <args>` in `dir`: exit code and output. */
async function site(dir: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('node', [siteBin, ...args], { cwd: dir });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const brief = (errors: SiteError[]) =>
  errors
    .filter((error) => error.code === 'LINK_BROKEN')
    .map((error) => ({ at: `${error.file}:${error.line}:${error.column}`, field: error.field, hint: error.hint }));

afterAll(async () => {
  for (const dir of made) await rm(dir, { recursive: true, force: true });
});

describe('links that lead somewhere', () => {
  it('pass: pages, an alias, a fragment to a heading and to an id the template makes, relative fragments, in every locale', async () => {
    const dir = await linksSite();
    expect(await buildErrors(dir)).toEqual([]);
  });
});

describe('a broken link and a broken fragment in a post', () => {
  const post = 'content/blog/first-post/en.md';
  const broken = {
    [post]: (text: string) => text.replace('(/pricing/)', '(/prices/)').replace('(/pricing/#faq)', '(/pricing/#fqa)'),
  };

  it('fail the build at file:line:col, with the nearest page and the nearest id as hints', async () => {
    const dir = await linksSite(broken);
    expect(brief(await buildErrors(dir))).toEqual([
      {
        at: `${post}:9:18`,
        field: undefined,
        hint: 'The nearest existing page is /pricing/; an alias or a redirect also counts as existing.',
      },
      { at: `${post}:9:45`, field: undefined, hint: 'The nearest id on that page is #faq.' },
    ]);
  });

  it('pass once the config redirects the old address (a redirect counts as existing)', async () => {
    const dir = await linksSite({
      [post]: (text) => text.replace('(/pricing/)', '(/prices/)'),
      'site.config.yaml': (text) =>
        text.replace('aliases:\n', 'redirects:\n  - { from: /prices, to: /pricing }\n\naliases:\n'),
    });
    expect(brief(await buildErrors(dir))).toEqual([]);
  });

  it('make site check and site build exit 1 naming them, and leave the previous dist/ as it was', async () => {
    const dir = await linksSite();
    expect((await site(dir, 'build')).code).toBe(0);
    // A first build into a new folder may record each page as reading every input (its entries
    // older than two seconds): the build after an edit then records what each page read, so later
    // builds keep the pages an edit does not touch.
    await writeFile(join(dir, post), `${await readFile(join(dir, post), 'utf8')}\nOne more line.\n`);
    expect((await site(dir, 'build')).code).toBe(0);
    const before = await readFile(join(dir, 'dist', 'blog', 'first-post', 'index.html'), 'utf8');
    await writeFile(join(dir, post), broken[post]!(await readFile(join(dir, post), 'utf8')));
    for (const command of ['check', 'build']) {
      const result = await site(dir, command);
      expect(result.code, command).toBe(1);
      expect(result.stderr).toContain(
        `LINK_BROKEN  ${post}:9:18  the link to /prices/ leads to no page of the site  (The nearest existing page is /pricing/;`,
      );
      expect(result.stderr).toContain(
        `LINK_BROKEN  ${post}:9:45  the link to /pricing/#fqa names #fqa, which is no id of the page /pricing/  (The nearest id on that page is #faq.)`,
      );
    }
    expect(await readFile(join(dir, 'dist', 'blog', 'first-post', 'index.html'), 'utf8')).toBe(before);
    // The pricing page is kept as an earlier build wrote it: its ids are read from dist/.
    await writeFile(
      join(dir, post),
      (await readFile(join(dir, post), 'utf8')).replace('(/prices/)', '(/pricing/#plans)').replace('#fqa', '#faq'),
    );
    const fixed = await site(dir, 'build', '--verbose');
    expect(fixed.code).toBe(0);
    // Only the post: the blog list reads its title and description, which the fix left as they were.
    expect(fixed.stderr + fixed.stdout).toMatch(/ 1 pages rendered /);
  });

  it("a fragment of the post's own page must be an id on it (Norwegian post, heading id)", async () => {
    const file = 'content/blog/first-post/no.md';
    const dir = await linksSite({ [file]: (text) => text.replace('(#innledning)', '(#inledning)') });
    expect(brief(await buildErrors(dir))).toEqual([
      { at: `${file}:9:50`, field: undefined, hint: 'The nearest id on that page is #innledning.' },
    ]);
  });
});

describe('links in page copy', () => {
  it('a YAML value, a Markdown link in a YAML string and a link of a Markdown copy file are checked, at their fields and places', async () => {
    const dir = await linksSite({
      'content/pages/home/no.yaml': (text) =>
        text
          .replace('href: /no/pricing/#faq', 'href: /no/pricng/')
          .replace('(/no/blog/first-post/)', '(/no/blog/frst-post/)'),
      'content/pages/pricing/en.md': (text) => text.replace('(#plans)', '(#plan)'),
    });
    expect(brief(await buildErrors(dir))).toEqual([
      {
        at: 'content/pages/home/no.yaml:4:9',
        field: 'cta.href',
        hint: 'The nearest existing page is /no/pricing/; an alias or a redirect also counts as existing.',
      },
      {
        at: 'content/pages/home/no.yaml:5:30',
        field: 'more',
        hint: 'The nearest existing page is /no/blog/first-post/; an alias or a redirect also counts as existing.',
      },
      { at: 'content/pages/pricing/en.md:7:43', field: undefined, hint: 'The nearest id on that page is #plans.' },
    ]);
  });
});

describe('a site under site.base', () => {
  const withBase = {
    'site.config.yaml': (text: string) => text.replace('  defaultLocale: en', '  defaultLocale: en\n  base: /docs'),
  };

  it('checks links as written, without the base, which the pages get in front', async () => {
    const dir = await linksSite(withBase);
    expect(await buildErrors(dir)).toEqual([]);
    const post = 'content/blog/first-post/en.md';
    const broken = await linksSite({ ...withBase, [post]: (text) => text.replace('(/pricing/)', '(/docs/pricing/)') });
    expect(brief(await buildErrors(broken))).toEqual([
      {
        at: `${post}:9:18`,
        field: undefined,
        hint: 'Write the link without site.base: /pricing/ (the base is put in front when the page is rendered).',
      },
    ]);
  });
});

describe('site dev', () => {
  it('fails a rebuild that breaks a link, keeping the last good build, and passes once it is fixed; a template that drops an id breaks the links to it', async () => {
    const dir = await linksSite();
    const builder = createDevBuilder({ config: join(dir, 'site.config.yaml') });
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      expect((await builder.rebuild()).ok).toBe(true);
      const post = join(dir, 'content/blog/first-post/en.md');
      const good = await readFile(post, 'utf8');
      await writeFile(post, good.replace('(/pricing/#faq)', '(/pricing/#fqa)'));
      const broken = await builder.rebuild([{ path: post }]);
      expect(broken.ok).toBe(false);
      expect(!broken.ok && broken.errors.map((error) => `${error.code} ${error.line}:${error.column}`)).toEqual([
        'LINK_BROKEN 9:46',
      ]);
      await writeFile(post, good);
      expect((await builder.rebuild([{ path: post }])).ok).toBe(true);

      // The id is the template's: without it, the post's link (whose page is not rendered again) breaks.
      const template = join(dir, 'templates/pages/Pricing.tsx');
      await writeFile(
        template,
        (await readFile(template, 'utf8')).replace('<section id="faq">', '<section id="questions">'),
      );
      const dropped = await builder.rebuild([{ path: template }]);
      expect(
        !dropped.ok &&
          dropped.errors.map((error) => `${error.code} ${error.file}:${error.line}:${error.column} ${error.hint}`),
      ).toEqual([
        'LINK_BROKEN content/blog/first-post/en.md:9:46 No id on that page is close to #faq; its ids include #plans, #questions.',
        'LINK_BROKEN content/blog/first-post/no.md:9:14 No id on that page is close to #faq; its ids include #plans, #questions.',
        'LINK_BROKEN content/pages/home/en.yaml:4:9 No id on that page is close to #faq; its ids include #plans, #questions.',
        'LINK_BROKEN content/pages/home/no.yaml:4:9 No id on that page is close to #faq; its ids include #plans, #questions.',
        'LINK_BROKEN content/pages/pricing/en.md:7:28 No id on that page is close to #faq; its ids include #plans, #questions.',
        'LINK_BROKEN content/pages/pricing/no.md:7:28 No id on that page is close to #faq; its ids include #plans, #questions.',
      ]);
    } finally {
      process.chdir(cwd);
      await builder.dispose();
    }
  });
});
