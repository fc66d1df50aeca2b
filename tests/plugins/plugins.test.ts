/**
 * Plugins (issue 28, item 4), through the real CLI on a temp copy of the site: remark and rehype
 * plugins in built HTML (posts and page copy), their options in the cache key, a missing or
 * throwing plugin's error, and a site plugin's head tags with the CSP that allows exactly them, its
 * route, its file after the build, and a throwing buildEnd that leaves the previous output as it was.
 */
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { createTempSite, type TempSite } from '../helpers/fixture-site';
import { fixturesRoot, repoRoot } from '../helpers/paths';
import { pathToFileURL } from 'node:url';

const execute = promisify(execFile);
/** The example plugin's inline script, whose hash the CSP must allow. */
const { inlineSnippet } = (await import(pathToFileURL(join(fixturesRoot, 'plugins', 'analytics.js')).href)) as {
  inlineSnippet: string;
};

/** Runs `site build` on the temp site; never throws, gives the exit code and the output. */
async function build(
  site: TempSite,
  out: string,
  args: string[] = [],
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await execute(
      process.execPath,
      [join(repoRoot, 'bin', 'site.js'), 'build', '--config', site.config, '--out', out, '--no-social-images', ...args],
      { cwd: repoRoot },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** A temp site with the fixture plugins in plugins/ and `yaml` appended to its config. */
async function siteWith(yaml: string, edit: (text: string) => string = (text) => text): Promise<TempSite> {
  const site = await createTempSite({ editConfig: (text) => `${edit(text)}\n${yaml}\n` });
  await cp(join(fixturesRoot, 'plugins'), join(site.dir, 'plugins'), { recursive: true });
  return site;
}

/** The config with a `markdown:` block naming plugins (the site's config has none of its own). */
function withMarkdownPlugins(remark: string, rehype: string) {
  return (text: string) => {
    expect(text).not.toMatch(/^markdown:/m);
    return `${text}\nmarkdown:\n  remarkPlugins: ${remark}\n  rehypePlugins: ${rehype}\n`;
  };
}

/** Every file below `dir` with its bytes, for byte-identity checks. */
async function snapshot(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(
      relative(dir, path),
      createHash('sha256')
        .update(await readFile(path))
        .digest('hex'),
    );
  }
  return files;
}

/** Polls `check` until it gives a value, for up to 60 s. */
async function waitFor<T>(check: () => T | undefined | Promise<T | undefined>, label: () => string): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${label()}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

const sites: TempSite[] = [];
afterEach(async () => {
  await Promise.all(sites.splice(0).map((site) => site.cleanup()));
});

describe('markdown plugins', () => {
  it('run on posts and page copy, and a changed option renders again', async () => {
    const site = await siteWith(
      '',
      withMarkdownPlugins('[./plugins/remark-smile.js]', '[[./plugins/rehype-heading-mark.js, { mark: " ✦" }]]'),
    );
    sites.push(site);
    const postFile = join(site.dir, 'content', 'blog', 'a-day-in-a-tailor-shop', 'en.md');
    await writeFile(postFile, `${await readFile(postFile, 'utf8')}\n## Plugin check\n\nHappy :smile: here.\n`);
    const copyFile = join(site.dir, 'content', 'pages', 'terms', 'en.md');
    await writeFile(copyFile, `${await readFile(copyFile, 'utf8')}\nCopy with :smile: too.\n`);
    const out = join(site.dir, 'dist');

    const first = await build(site, out);
    expect(first.code, first.stderr).toBe(0);
    const post = await readFile(join(out, 'blog', 'a-day-in-a-tailor-shop', 'index.html'), 'utf8');
    expect(post).toContain('Happy 😄 here.');
    expect(post).toMatch(/>Plugin check ✦<\/h2>/);
    expect(await readFile(join(out, 'terms', 'index.html'), 'utf8')).toContain('Copy with 😄 too.');

    // Only the option changes: the Markdown cache must not answer with the old HTML.
    await writeFile(site.config, (await readFile(site.config, 'utf8')).replace('mark: " ✦"', 'mark: " ◆"'));
    const second = await build(site, out);
    expect(second.code, second.stderr).toBe(0);
    const again = await readFile(join(out, 'blog', 'a-day-in-a-tailor-shop', 'index.html'), 'utf8');
    expect(again).toMatch(/>Plugin check ◆<\/h2>/);
    expect(again).not.toContain('✦');

    // The plugin file itself changes: the same.
    const pluginFile = join(site.dir, 'plugins', 'remark-smile.js');
    await writeFile(pluginFile, (await readFile(pluginFile, 'utf8')).replace("'😄'", "'🙂'"));
    const third = await build(site, out);
    expect(third.code, third.stderr).toBe(0);
    expect(await readFile(join(out, 'blog', 'a-day-in-a-tailor-shop', 'index.html'), 'utf8')).toContain(
      'Happy 🙂 here.',
    );
  }, 120_000);

  it('a missing plugin file or package fails with exit 1 naming it and the config field', async () => {
    const site = await siteWith(
      '',
      withMarkdownPlugins('[./plugins/no-such-plugin.js]', '[rehype-not-installed-anywhere]'),
    );
    sites.push(site);
    const { code, stderr } = await build(site, join(site.dir, 'dist'));
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /site\.config\.yaml:\d+:\d+ +markdown\.remarkPlugins\[0\] +plugin "\.\/plugins\/no-such-plugin\.js" cannot be found/,
    );
    expect(stderr).toMatch(
      /markdown\.rehypePlugins\[0\] +plugin "rehype-not-installed-anywhere" cannot be found: no package/,
    );
    expect(existsSync(join(site.dir, 'dist'))).toBe(false);
  }, 60_000);

  it('a plugin that throws fails the build naming the plugin and the document', async () => {
    const site = await siteWith('', withMarkdownPlugins('[./plugins/remark-throws.js]', '[]'));
    sites.push(site);
    const { code, stderr } = await build(site, join(site.dir, 'dist'));
    expect(code).toBe(1);
    expect(stderr).toContain('PLUGIN_FAILED');
    expect(stderr).toMatch(
      /content\/\S+\.md:\d+ +markdown\.remarkPlugins\[0\] +Markdown plugin "\.\/plugins\/remark-throws\.js" \(markdown\.remarkPlugins\[0\] in the config\) failed on this document: this plugin always fails/,
    );
  }, 60_000);
});

describe('site plugins', () => {
  it('add head tags the CSP allows exactly, a route, and a file after the build', async () => {
    const site = await siteWith('plugins:\n  - [./plugins/analytics.js, { domain: mendwise.example }]');
    sites.push(site);
    const out = join(site.dir, 'dist');
    const { code, stderr } = await build(site, out);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('analytics: wrote analytics.txt');

    const home = await readFile(join(out, 'index.html'), 'utf8');
    const head = home.slice(home.indexOf('<head>'), home.indexOf('</head>'));
    expect(head).toContain(
      '<script src="https://plausible.io/js/script.js" defer data-domain="mendwise.example"></script>',
    );
    expect(head).toContain(`<script>${inlineSnippet}</script>`);
    expect(head).toContain('<meta name="plugin-page" content="/" />');
    expect(await readFile(join(out, 'no', 'hub', 'index.html'), 'utf8')).toContain(
      '<meta name="plugin-page" content="/no/hub/" />',
    );

    const csp = /Content-Security-Policy: (.*)/.exec(await readFile(join(out, '_headers'), 'utf8'))![1]!;
    const scriptSrc = /script-src ([^;]*)/.exec(csp)![1]!.split(' ');
    const hash = `'sha256-${createHash('sha256').update(inlineSnippet).digest('base64')}'`;
    expect(scriptSrc).toContain(hash);
    expect(scriptSrc).toContain('https://plausible.io');
    // Exactly: the site's own four inline scripts, the snippet and the one origin.
    expect(scriptSrc.filter((source) => !source.startsWith("'sha256-") && source !== "'self'")).toEqual([
      'https://plausible.io',
    ]);
    expect(csp).toContain("style-src 'self';");

    expect(await readFile(join(out, 'stats', 'index.html'), 'utf8')).toContain(
      '<meta name="robots" content="noindex" />',
    );
    expect(await readFile(join(out, 'analytics.txt'), 'utf8')).toMatch(/^\d+ pages\n$/);
  }, 60_000);

  it("buildEnd's publicDir is the web root of each target: the output folder, or vercel's static/ inside the Build Output (issue 53)", async () => {
    const site = await siteWith('plugins:\n  - ./plugins/public-file.js');
    sites.push(site);
    for (const [target, root] of [
      ['node', ''],
      ['vercel', 'static'],
    ] as const) {
      const out = join(site.dir, `dist-${target}`);
      const { code, stderr } = await build(site, out, ['--target', target]);
      expect(code, stderr).toBe(0);
      expect(await readFile(join(out, root, 'hello.txt'), 'utf8')).toBe('hello\n');
      expect(await readFile(join(out, root, 'index.html'), 'utf8')).toContain('<html');
      expect(await readFile(join(out, 'beside.txt'), 'utf8')).toBe('beside\n');
    }
  }, 120_000);

  it('a throwing buildEnd names plugin and hook, exits 1, and leaves the previous output byte-identical', async () => {
    const site = await siteWith('plugins:\n  - [./plugins/analytics.js, { domain: mendwise.example }]');
    sites.push(site);
    const out = join(site.dir, 'dist');
    expect((await build(site, out)).code).toBe(0);
    const before = await snapshot(out);

    await writeFile(
      site.config,
      (await readFile(site.config, 'utf8')).replace('plugins:\n', 'plugins:\n  - ./plugins/build-end-throws.js\n'),
    );
    const { code, stderr } = await build(site, out);
    expect(code).toBe(1);
    expect(stderr).toContain('PLUGIN_FAILED');
    expect(stderr).toContain(
      'plugin "broken-after-build" (./plugins/build-end-throws.js) failed in buildEnd(): upload failed',
    );
    expect(await snapshot(out)).toEqual(before);
    expect(existsSync(join(out, 'half-done.txt'))).toBe(false);
    // No staging folder is left beside the output.
    expect((await readdir(dirname(out))).filter((name) => name.includes('.plugins-'))).toEqual([]);
  }, 90_000);

  it('a buildEnd that never settles fails after build.pluginTimeout with PLUGIN_TIMEOUT naming plugin and hook, exit 1, no staging copy left, the previous output as it was', async () => {
    const site = await siteWith('plugins:\n  - [./plugins/analytics.js, { domain: mendwise.example }]');
    sites.push(site);
    const out = join(site.dir, 'dist');
    expect((await build(site, out)).code).toBe(0);
    const before = await snapshot(out);

    await writeFile(
      site.config,
      `${(await readFile(site.config, 'utf8')).replace('plugins:\n', 'plugins:\n  - ./plugins/build-end-hangs.js\n')}\nbuild:\n  pluginTimeout: 1\n`,
    );
    const started = Date.now();
    const { code, stderr } = await build(site, out);
    expect(code, stderr).toBe(1);
    expect(Date.now() - started).toBeLessThan(45_000);
    expect(stderr).toContain('PLUGIN_TIMEOUT');
    expect(stderr).toContain(
      'plugin "hangs-after-build" (./plugins/build-end-hangs.js) did not finish buildEnd() within 1 s',
    );
    expect(stderr).toMatch(/build-end-hangs\.js +plugins\[0\] \(named in /);
    expect(await snapshot(out)).toEqual(before);
    expect((await readdir(dirname(out))).filter((name) => name.includes('.plugins-'))).toEqual([]);
  }, 120_000);

  it('process.exit in buildEnd is PLUGIN_EXIT naming plugin and hook: exit 1, nothing published, no staging copy left', async () => {
    const site = await siteWith('plugins:\n  - ./plugins/build-end-exits.js');
    sites.push(site);
    const out = join(site.dir, 'dist');
    const { code, stderr } = await build(site, out);
    expect(code, stderr).toBe(1);
    expect(stderr).toContain('PLUGIN_EXIT');
    expect(stderr).toContain(
      'plugin "exits-after-build" (./plugins/build-end-exits.js) called process.exit(0) in buildEnd()',
    );
    expect(existsSync(join(out, 'index.html'))).toBe(false);
    expect((await readdir(dirname(out))).filter((name) => name.includes('.plugins-'))).toEqual([]);
  }, 90_000);

  it('a routes() that never settles fails the build with PLUGIN_TIMEOUT, exit 1', async () => {
    const site = await siteWith('plugins:\n  - ./plugins/routes-hang.js\nbuild:\n  pluginTimeout: 0.5');
    sites.push(site);
    await writeFile(join(site.dir, 'plugins', 'hang'), '');
    const { code, stderr } = await build(site, join(site.dir, 'dist'));
    expect(code, stderr).toBe(1);
    expect(stderr).toContain('PLUGIN_TIMEOUT');
    expect(stderr).toContain('plugin "slow-routes" (./plugins/routes-hang.js) did not finish routes() within 0.5 s');
  }, 60_000);

  it('site dev goes on rebuilding after a hook that never settled', async () => {
    const site = await siteWith('plugins:\n  - ./plugins/routes-hang.js\nbuild:\n  pluginTimeout: 0.5');
    sites.push(site);
    const child = spawn(
      process.execPath,
      [join(repoRoot, 'bin', 'site.js'), 'dev', '--port', '0', '--no-admin', '--config', site.config],
      { cwd: site.dir, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout!.setEncoding('utf8').on('data', (text: string) => (output += text));
    child.stderr!.setEncoding('utf8').on('data', (text: string) => (output += text));
    try {
      const base = await waitFor(
        () => /site dev at (http:\/\/\S+?)\/?$/m.exec(output)?.[1],
        () => `the dev server's address: ${output}`,
      );
      // `build` names the last good build; a failed one leaves it and says ok: false.
      const status = async () =>
        (await (await fetch(`${base}/__site/status`)).json()) as {
          build: string;
          ok: boolean;
          problems: { code: string }[];
        };
      const first = await status();
      expect(first.ok).toBe(true);
      expect((await fetch(`${base}/slow-route/`)).status).toBe(200);
      // The hook hangs at the next config load: that rebuild fails with PLUGIN_TIMEOUT…
      await writeFile(join(site.dir, 'plugins', 'hang'), '');
      await writeFile(site.config, `${await readFile(site.config, 'utf8')}# hang\n`);
      const hung = await waitFor(
        async () => {
          const now = await status();
          return now.ok ? undefined : now;
        },
        () => `a failed rebuild: ${output}`,
      );
      expect(hung.problems.map((problem) => problem.code)).toContain('PLUGIN_TIMEOUT');
      // …and the next change rebuilds as ever.
      await rm(join(site.dir, 'plugins', 'hang'));
      await writeFile(
        site.config,
        (await readFile(site.config, 'utf8')).replace('site:\n  name: Mendwise', 'site:\n  name: Mendwise Again'),
      );
      await waitFor(
        async () => {
          const now = await status();
          return now.ok && now.build !== first.build ? now : undefined;
        },
        () => `a good rebuild after the hung one: ${output}`,
      );
      expect(await (await fetch(`${base}/slow-route/`)).text()).toContain('Mendwise Again');
    } finally {
      child.kill('SIGKILL');
    }
  }, 120_000);

  it('an invalid route from a plugin names the plugin', async () => {
    const site = await siteWith('plugins:\n  - ./plugins/bad-route.js');
    sites.push(site);
    const pluginFile = join(site.dir, 'plugins', 'bad-route.js');
    await writeFile(
      pluginFile,
      "export default { name: 'bad-route', routes: () => [{ path: '/fine', template: 'Legal' }, { path: 'no-slash', template: 'Legal' }] };\n",
    );
    const invalid = await build(site, join(site.dir, 'dist'));
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(
      /plugins\/bad-route\.js +routes\(\)\[1\]\.path +route from plugin "bad-route": start with "\/"/,
    );
    // Valid by the schema, refused by the cross-checks (the config's own /hub), still naming the plugin.
    await writeFile(
      pluginFile,
      "export default { name: 'bad-route', routes: () => [{ path: '/hub', template: 'Legal', content: 'terms' }] };\n",
    );
    const duplicate = await build(site, join(site.dir, 'dist'));
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toMatch(
      /plugins\/bad-route\.js +path +route "\/hub" from plugin "bad-route": route "\/hub" is already defined/,
    );
  }, 60_000);

  it('a route from a plugin may give its path per locale, and a map without the default locale names the plugin', async () => {
    const site = await siteWith('plugins:\n  - ./plugins/localized-route.js');
    sites.push(site);
    const pluginFile = join(site.dir, 'plugins', 'localized-route.js');
    await writeFile(
      pluginFile,
      "export default { name: 'localized-route', routes: () => [{ path: { no: '/vilkaar-kopi' }, template: 'Legal', content: 'terms' }] };\n",
    );
    const invalid = await build(site, join(site.dir, 'dist'));
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(
      /plugins\/localized-route\.js +routes\(\)\[0\]\.path +route from plugin "localized-route": the path map has no path for the default locale "en"/,
    );
    await writeFile(
      pluginFile,
      "export default { name: 'localized-route', routes: () => [{ path: { en: '/terms-copy', no: '/vilkaar-kopi' }, template: 'Legal', content: 'terms' }] };\n",
    );
    const out = join(site.dir, 'dist');
    const built = await build(site, out);
    expect(built.code, built.stderr).toBe(0);
    expect(existsSync(join(out, 'terms-copy', 'index.html'))).toBe(true);
    expect(await readFile(join(out, 'no', 'vilkaar-kopi', 'index.html'), 'utf8')).toContain(
      'hreflang="en" href="https://mendwise.example/terms-copy/"',
    );
  }, 60_000);
});
