/**
 * Markdown plugins that work as published (issue 45, item 6), with the real rehype-autolink-headings
 * from npm on tests/fixtures/autolink-headings: the headings have their ids before the site's
 * rehype plugins run, so the plugin links each one (ids as they always were); `markdown.sanitize`
 * lets the link's class and aria-hidden through the sanitiser, which strips them without it; what
 * would run script cannot be allowed (a positioned config error), and stays stripped whatever a
 * plugin makes.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { fixturesRoot, outputRoot, repoRoot } from '../helpers/paths';

const run = promisify(execFile);
const made: string[] = [];

/** A copy of the fixture with its config edited. */
async function fixtureSite(editConfig: (text: string) => string = (text) => text): Promise<string> {
  await mkdir(outputRoot, { recursive: true });
  const dir = await mkdtemp(join(outputRoot, 'autolink-'));
  made.push(dir);
  await cp(join(fixturesRoot, 'autolink-headings'), dir, { recursive: true });
  const config = join(dir, 'site.config.yaml');
  await writeFile(config, editConfig(await readFile(config, 'utf8')));
  return dir;
}

/** Runs `site <args>` in `dir` (the build cache on: the sanitize option must be in its keys). */
async function site(dir: string, ...args: string[]): Promise<{ code: number; stderr: string }> {
  try {
    const { stderr } = await run(process.execPath, [join(repoRoot, 'bin', 'site.js'), ...args], { cwd: dir });
    return { code: 0, stderr };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr };
  }
}

const headings = (html: string) => [...html.matchAll(/<h2[^>]*>.*?<\/h2>/g)].map((match) => match[0]);
const withoutSanitize = (text: string) => text.replace(/ {2}sanitize:\n(?: {4}.*\n)+/, '');

afterAll(async () => {
  for (const dir of made) await rm(dir, { recursive: true, force: true });
});

describe('rehype-autolink-headings with markdown.sanitize', () => {
  it('links every heading of posts and page copy to its id, with the class and aria-hidden the config gives', async () => {
    const dir = await fixtureSite();
    const built = await site(dir, 'build');
    expect(built.code, built.stderr).toBe(0);
    expect(headings(await readFile(join(dir, 'dist', 'blog', 'first-post', 'index.html'), 'utf8'))).toEqual([
      '<h2 id="introduction">Introduction<a class="anchor" aria-hidden="true" tabindex="-1" href="#introduction">#</a></h2>',
      // The id a heading that starts with a digit has always had, in the plugin's link too.
      '<h2 id="section-2026-in-review">2026 in review<a class="anchor" aria-hidden="true" tabindex="-1" href="#section-2026-in-review">#</a></h2>',
    ]);
    expect(headings(await readFile(join(dir, 'dist', 'index.html'), 'utf8'))).toEqual([
      '<h2 id="welcome">Welcome<a class="anchor" aria-hidden="true" tabindex="-1" href="#welcome">#</a></h2>',
    ]);

    // The same cache, without the extension: the documents are rendered again, and the sanitiser
    // strips the class and aria-hidden (GitHub's schema allows neither on a link).
    await writeFile(
      join(dir, 'site.config.yaml'),
      withoutSanitize(await readFile(join(dir, 'site.config.yaml'), 'utf8')),
    );
    const plain = await site(dir, 'build');
    expect(plain.code, plain.stderr).toBe(0);
    expect(headings(await readFile(join(dir, 'dist', 'blog', 'first-post', 'index.html'), 'utf8'))[0]).toBe(
      '<h2 id="introduction">Introduction<a tabindex="-1" href="#introduction">#</a></h2>',
    );
  });

  it('refuses to allow script, event handlers, inline style and javascript: URLs, at their place in the config', async () => {
    const dir = await fixtureSite((text) =>
      text.replace(
        '      a: [[className, anchor], aria-hidden]\n',
        '      a: [[className, anchor], aria-hidden, onclick]\n      "*": [style]\n    tagNames: [script, iframe]\n    protocols:\n      href: [javascript]\n',
      ),
    );
    for (const command of ['check', 'build']) {
      const result = await site(dir, command);
      expect(result.code, command).toBe(1);
      expect(result.stderr).toContain(
        'CONFIG_INVALID  site.config.yaml:40:45  markdown.sanitize.attributes.a[2]  "onclick" is an event handler: it would run script in the visitor\'s browser',
      );
      expect(result.stderr).toContain(
        'CONFIG_INVALID  site.config.yaml:41:13  markdown.sanitize.attributes.*[0]  "style" cannot be allowed: inline style is refused',
      );
      expect(result.stderr).toContain(
        'CONFIG_INVALID  site.config.yaml:42:16  markdown.sanitize.tagNames[0]  <script> cannot be allowed',
      );
      expect(result.stderr).toContain(
        'CONFIG_INVALID  site.config.yaml:42:24  markdown.sanitize.tagNames[1]  <iframe> cannot be allowed',
      );
      expect(result.stderr).toContain(
        'CONFIG_INVALID  site.config.yaml:44:14  markdown.sanitize.protocols.href[0]  the javascript: protocol cannot be allowed',
      );
    }
  });

  it("strips a plugin's script, event handler and inline style even with the allow-list extended", async () => {
    const dir = await fixtureSite((text) =>
      text.replace('  rehypePlugins:\n', '  rehypePlugins:\n    - ./plugins/rehype-inject.js\n'),
    );
    const built = await site(dir, 'build');
    expect(built.code, built.stderr).toBe(0);
    const html = await readFile(join(dir, 'dist', 'blog', 'first-post', 'index.html'), 'utf8');
    expect(headings(html)[0]).toBe(
      '<h2 id="introduction">Introduction<a href="/" class="anchor">x</a><a class="anchor" aria-hidden="true" tabindex="-1" href="#introduction">#</a></h2>',
    );
    expect(html).not.toMatch(/alert|onclick|style="/i);
  });
});
