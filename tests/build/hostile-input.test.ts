/**
 * Content that is hostile or broken gets a positioned error or a warning, never a crash or a
 * silent publication: pathological Markdown, text that is not UTF-8, unsafe links, and symbolic
 * links or dot-files in public/.
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../src/build';
import { collectSiteErrors, type SiteError } from '../../src/errors';
import { buildInto } from '../helpers/build';
import { createTempSite, type TempSite } from '../helpers/fixture-site';
import { fixturesRoot, repoRoot } from '../helpers/paths';

async function buildErrors(config: string): Promise<SiteError[]> {
  try {
    await buildSite({ config, cache: false });
  } catch (error) {
    const errors = collectSiteErrors(error);
    if (errors) return errors;
    throw error;
  }
  throw new Error('expected the build to fail');
}

const front = (title: string) =>
  `---\ntitle: ${title}\ndescription: A post.\ndate: 2026-02-01\ncategory: saas\nauthor: Test\n---\n\n`;

describe('pathological Markdown', () => {
  let site: TempSite;
  beforeAll(async () => {
    site = await createTempSite({ posts: join(fixturesRoot, 'blog-posts') });
  });
  afterAll(() => site.cleanup());

  it('stops 2,000 nested quotes and an oversized post before parsing, naming file and line', async () => {
    await mkdir(join(site.dir, 'content', 'blog', 'nested'), { recursive: true });
    await writeFile(
      join(site.dir, 'content', 'blog', 'nested', 'en.md'),
      `${front('Nested')}Fine so far.\n\n${'>'.repeat(2000)} deep\n`,
    );
    await mkdir(join(site.dir, 'content', 'blog', 'huge'), { recursive: true });
    await writeFile(
      join(site.dir, 'content', 'blog', 'huge', 'en.md'),
      `${front('Huge')}${'A sentence of a very long post. '.repeat(10_000)}\n`,
    );
    const started = performance.now();
    const errors = await buildErrors(site.config);
    expect(performance.now() - started).toBeLessThan(20_000);
    // The size limit points at the first line of the body, the nesting at its line.
    expect(errors.map((error) => [error.code, error.file, error.line])).toEqual([
      ['MARKDOWN_LIMIT', expect.stringMatching(/content\/blog\/huge\/en\.md$/), 8],
      ['MARKDOWN_LIMIT', expect.stringMatching(/content\/blog\/nested\/en\.md$/), 11],
    ]);
    expect(errors[1]!.message).toContain('nested 2000 deep');
    expect(errors[0]!.message).toContain('more than the 262,144 allowed (markdown.maxBytes)');
  });

  it('takes the limits from the config', async () => {
    await rm(join(site.dir, 'content', 'blog', 'nested'), { recursive: true });
    const config = await readFile(site.config, 'utf8');
    await writeFile(site.config, `${config}\nmarkdown:\n  maxBytes: 400000\n`);
    try {
      const result = await buildSite({ config: site.config, cache: false });
      expect(result.pages.some((page) => page.url === '/blog/huge/')).toBe(true);
    } finally {
      await writeFile(site.config, config);
    }
  });
});

describe('files that are not what they seem', () => {
  let site: TempSite;
  let out: string;
  let warnings: readonly SiteError[];
  beforeAll(async () => {
    site = await createTempSite({ posts: join(fixturesRoot, 'blog-posts') });
    const publicDir = join(site.dir, 'public');
    await cp(join(repoRoot, 'public'), publicDir, { recursive: true });
    const config = await readFile(site.config, 'utf8');
    await writeFile(site.config, config.replace(/^ {2}public: .*$/m, `  public: ${JSON.stringify(publicDir)}`));
    await symlink('/etc/passwd', join(publicDir, 'passwd.txt'));
    await writeFile(join(publicDir, '.env'), 'SECRET=1');
    await mkdir(join(publicDir, '.git'));
    await writeFile(join(publicDir, '.git', 'config'), '[core]');
    await mkdir(join(publicDir, '.well-known'));
    await writeFile(join(publicDir, '.well-known', 'security.txt'), 'Contact: mailto:security@mendwise.example\n');
    await mkdir(join(site.dir, 'content', 'blog', 'latin1'), { recursive: true });
    await writeFile(
      join(site.dir, 'content', 'blog', 'latin1', 'en.md'),
      Buffer.concat([Buffer.from(front('Latin-1')), Buffer.from([0x42, 0x6c, 0xe5, 0x62, 0xe6, 0x72, 0x0a])]),
    );
    await mkdir(join(site.dir, 'content', 'blog', 'links'), { recursive: true });
    await writeFile(
      join(site.dir, 'content', 'blog', 'links', 'en.md'),
      `${front('Links')}[click](javascript:alert(document.cookie)) and [safe](https://mendwise.example/).\n`,
    );
    out = join(site.dir, 'dist');
    warnings = (await buildInto(site.config, out)).warnings;
  });
  afterAll(() => site.cleanup());

  it('publishes neither the symbolic link nor dot-files, but does publish .well-known, and says what it skipped', async () => {
    expect(existsSync(join(out, 'passwd.txt'))).toBe(false);
    expect(existsSync(join(out, '.env'))).toBe(false);
    expect(existsSync(join(out, '.git'))).toBe(false);
    expect(await readFile(join(out, '.well-known', 'security.txt'), 'utf8')).toContain('Contact:');
    expect(warnings.filter((warning) => warning.code === 'PUBLIC_SKIPPED').map((warning) => warning.file)).toEqual([
      expect.stringMatching(/public\/passwd\.txt$/),
    ]);
  });

  it('warns about a post that is not UTF-8, naming it, and still builds it', async () => {
    expect(
      warnings.filter((warning) => warning.code === 'ENCODING').map((warning) => [warning.file, warning.message]),
    ).toEqual([[expect.stringMatching(/content\/blog\/latin1\/en\.md$/), 'the file is not valid UTF-8 text']]);
    expect(await readFile(join(out, 'blog', 'latin1', 'index.html'), 'utf8')).toContain('Bl\uFFFDb\uFFFDr');
  });

  it('drops a javascript: link from a post and keeps the safe one', async () => {
    const html = await readFile(join(out, 'blog', 'links', 'index.html'), 'utf8');
    expect(html).not.toContain('javascript:');
    expect(html).toContain('<a href="https://mendwise.example/" rel="noopener">safe</a>');
  });
});
