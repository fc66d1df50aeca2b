/**
 * `redirects:` in the config (issue 30): old paths that are not pages any more, written for every
 * host target and answered by `site serve` and `site dev` with their status and Location; a
 * redirect that does not fit the pages is an error at its line in site.config.yaml, and the build
 * leaves the output as it was. On a copy of tests/fixtures/engine-site (default locale nb at "",
 * de at /de, news at /aktuelt).
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../src/build';
import { loadConfig } from '../../src/config/load';
import { startDevServer } from '../../src/dev/server';
import { collectSiteErrors } from '../../src/errors';
import { redirectFromPaths } from '../../src/routes/redirects';
import { axeViolations } from '../helpers/axe';
import { launchBrowser } from '../helpers/browser';
import { fixturesRoot, outputRoot, repoRoot } from '../helpers/paths';
import { serveSite } from '../helpers/server';
import { listAll, read } from '../targets/support';

const run = promisify(execFile);

const redirects = `
redirects:
  - { from: /aktuelt/old-news, to: /aktuelt/first-hire }
  - from: /de/aktuelt/alt/
    to: "/de/aktuelt/first-hire#start"
    status: 302
  - { from: /gone, to: "https://example.org/elsewhere", status: 308 }
`;

/** A copy of the engine fixture with `extra` appended to its config and `output` settings put in. */
async function createSite(extra: string, output = ''): Promise<{ dir: string; config: string }> {
  await mkdir(outputRoot, { recursive: true });
  const dir = await mkdtemp(join(outputRoot, 'redirects-'));
  await cp(join(fixturesRoot, 'engine-site'), dir, { recursive: true });
  const config = join(dir, 'site.config.yaml');
  const text = await readFile(config, 'utf8');
  await writeFile(config, text.replace('output:\n', `output:\n${output}`) + extra);
  return { dir, config };
}

/** Builds with the CLI into `out`; the exit code and what it printed. */
async function build(config: string, out: string): Promise<{ code: number; stderr: string }> {
  try {
    const { stderr } = await run(
      'node',
      [join(repoRoot, 'bin', 'site.js'), 'build', '--config', config, '--out', out],
      { cwd: repoRoot },
    );
    return { code: 0, stderr };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr };
  }
}

const sites: { dir: string }[] = [];
afterAll(async () => {
  for (const site of sites) await rm(site.dir, { recursive: true, force: true });
});

/** The site built for a target; its output folder. */
async function builtFor(target: string, more = ''): Promise<string> {
  const site = await createSite(redirects, `  target: ${target}\n${more}`);
  sites.push(site);
  const out = join(site.dir, 'dist');
  const { code, stderr } = await build(site.config, out);
  expect(code, stderr).toBe(0);
  return out;
}

describe('the redirect files of each host', () => {
  const lines = [
    '/aktuelt/old-news  /aktuelt/first-hire/  301',
    '/aktuelt/old-news/  /aktuelt/first-hire/  301',
    '/de/aktuelt/alt  /de/aktuelt/first-hire/#start  302',
    '/de/aktuelt/alt/  /de/aktuelt/first-hire/#start  302',
    '/gone  https://example.org/elsewhere  308',
    '/gone/  https://example.org/elsewhere  308',
  ];

  it('netlify: _redirects sends each old path (with and without its slash) on, before the 404 catch-alls', async () => {
    const text = await read(await builtFor('netlify'), '_redirects');
    expect(text).toContain(['# Old paths that are not pages any more', ...lines].join('\n'));
    expect(text.indexOf(lines[0]!)).toBeLessThan(text.indexOf('# The 404 page of each language'));
  }, 60_000);

  it('cloudflare: _redirects holds the same lines', async () => {
    expect(await read(await builtFor('cloudflare'), '_redirects')).toBe(`${lines.join('\n')}\n`);
  }, 60_000);

  it('vercel: config.json answers each old path with its status and Location before the file system and the trailing-slash rule', async () => {
    const { routes } = JSON.parse(await read(await builtFor('vercel'), 'config.json')) as {
      routes: Record<string, unknown>[];
    };
    const at = (src: string) => routes.findIndex((route) => route.src === src);
    expect(routes).toContainEqual({
      src: '^/aktuelt/old-news/?$',
      headers: { Location: '/aktuelt/first-hire/' },
      status: 301,
    });
    expect(routes).toContainEqual({
      src: '^/de/aktuelt/alt/?$',
      headers: { Location: '/de/aktuelt/first-hire/#start' },
      status: 302,
    });
    expect(routes).toContainEqual({
      src: '^/gone/?$',
      headers: { Location: 'https://example.org/elsewhere' },
      status: 308,
    });
    const filesystem = routes.findIndex((route) => route.handle === 'filesystem');
    const trailingSlash = routes.findIndex(
      (route) => typeof route.src === 'string' && route.src.startsWith('^/((?:[^/]+/)*[^/.]+)$'),
    );
    expect(at('^/aktuelt/old-news/?$')).toBeLessThan(
      Math.min(filesystem, trailingSlash === -1 ? Infinity : trailingSlash),
    );
  }, 60_000);

  it('github-pages: a page at each old path refreshes to the new one, canonical to it, noindex, in the language of its path, and Chromium lands there', async () => {
    const out = await builtFor('github-pages');
    const page = await read(out, 'aktuelt/old-news/index.html');
    expect(page).toContain('<html lang="nb">');
    expect(page).toContain('<meta name="robots" content="noindex">');
    expect(page).toContain('<meta http-equiv="refresh" content="0; url=/aktuelt/first-hire/">');
    expect(page).toContain('<link rel="canonical" href="https://fixture.example/aktuelt/first-hire/">');
    expect(page).toContain('<a href="/aktuelt/first-hire/">https://fixture.example/aktuelt/first-hire/</a>');
    expect(page).toContain('content="default-src \'none\'"');
    const german = await read(out, 'de/aktuelt/alt/index.html');
    expect(german).toContain('<html lang="de">');
    expect(german).toContain('url=/de/aktuelt/first-hire/#start');
    expect(await read(out, 'gone/index.html')).toContain('url=https://example.org/elsewhere');
    expect(await listAll(out)).not.toContain('_redirects');

    // Served as GitHub serves it (the file exists, so no redirect of the server's own), a browser follows the refresh.
    const running = await serveSite({ dir: out, configPath: join(out, '..', 'site.config.yaml') });
    const browser = await launchBrowser();
    try {
      // A Norwegian reader: the site's language suggestion leaves the page alone.
      const tab = await browser.newPage({ locale: 'nb-NO' });
      const messages: string[] = [];
      tab.on('console', (message) => messages.push(message.text()));
      await tab.goto(`${running.url}/aktuelt/old-news/`);
      await tab.waitForURL(`${running.url}/aktuelt/first-hire/`);
      // The page itself, held still (its refresh answered 204, which a browser does not follow), has nothing for axe to find.
      // (bypassCSP: the page's own policy allows no script at all, axe's included.)
      const still = await browser.newPage({ locale: 'nb-NO', bypassCSP: true });
      await still.route('**/aktuelt/first-hire/', (route) => route.fulfill({ status: 204 }));
      await still.goto(`${running.url}/aktuelt/old-news/`);
      await still.waitForTimeout(300);
      expect(await axeViolations(still)).toEqual([]);
      await expect.poll(() => still.locator('a').textContent()).toBe('https://fixture.example/aktuelt/first-hire/');
      expect(await tab.locator('html').getAttribute('lang')).toBe('nb');
      expect(messages.filter((text) => /Content Security Policy/i.test(text))).toEqual([]);
    } finally {
      await browser.close();
      await running.close();
    }
  }, 90_000);

  it('github-pages under a base: the refresh, the link and the canonical name the base', async () => {
    const site = await createSite(redirects, '  target: github-pages\n');
    sites.push(site);
    await writeFile(
      site.config,
      (await readFile(site.config, 'utf8')).replace(
        '  origin: https://fixture.example\n',
        '  origin: https://fixture.example\n  base: /fixture\n',
      ),
    );
    const dist = join(site.dir, 'dist');
    expect((await build(site.config, dist)).code).toBe(0);
    const page = await read(dist, 'aktuelt/old-news/index.html');
    expect(page).toContain('url=/fixture/aktuelt/first-hire/');
    expect(page).toContain('<link rel="canonical" href="https://fixture.example/fixture/aktuelt/first-hire/">');
    expect(redirectFromPaths(await loadConfig(site.config))).toEqual([
      '/fixture/aktuelt/old-news',
      '/fixture/de/aktuelt/alt',
      '/fixture/gone',
    ]);
  }, 60_000);
});

describe('site serve and site dev', () => {
  let site: { dir: string; config: string };
  beforeAll(async () => {
    site = await createSite(redirects);
    sites.push(site);
  });

  /** What a server answers for each old path: status and Location. */
  async function answers(url: string): Promise<[number, string | null][]> {
    const result: [number, string | null][] = [];
    for (const path of [
      '/aktuelt/old-news',
      '/aktuelt/old-news/',
      '/de/aktuelt/alt/',
      '/gone',
      '/aktuelt/first-hire/',
    ]) {
      const response = await fetch(url + path, { redirect: 'manual' });
      result.push([response.status, response.headers.get('location')]);
    }
    return result;
  }
  const expected = [
    [301, '/aktuelt/first-hire/'],
    [301, '/aktuelt/first-hire/'],
    [302, '/de/aktuelt/first-hire/#start'],
    [308, 'https://example.org/elsewhere'],
    [200, null],
  ];

  it('site serve (node) answers each old path with its status and Location', async () => {
    const out = join(site.dir, 'dist');
    expect((await build(site.config, out)).code).toBe(0);
    const running = await serveSite({ dir: out, configPath: site.config });
    try {
      expect(await answers(running.url)).toEqual(expected);
    } finally {
      await running.close();
    }
  }, 60_000);

  it('site dev answers them alike', async () => {
    const dev = await startDevServer({ config: site.config, port: 0, host: '127.0.0.1' });
    try {
      expect(await answers(dev.url)).toEqual(expected);
    } finally {
      await dev.close();
    }
  }, 60_000);
});

describe('a redirect that does not fit the pages', () => {
  const broken = `
redirects:
  - { from: /aktuelt/old, to: /aktuelt/nope }
  - { from: /a, to: /b }
  - { from: /b, to: /a }
  - { from: /work, to: /aktuelt }
  - { from: /aktuelt/old/, to: /aktuelt }
  - { from: /c, to: /aktuelt/old }
`;

  it('is an error at its line and column in site.config.yaml, with a hint, for each kind', async () => {
    const site = await createSite(broken);
    sites.push(site);
    const lines = (await readFile(site.config, 'utf8')).split('\n');
    const line = (text: string) => lines.findIndex((candidate) => candidate.includes(text)) + 1;
    let errors: ReturnType<typeof collectSiteErrors> = [];
    try {
      await buildSite({ config: site.config, cache: false, workers: 0 });
    } catch (error) {
      errors = collectSiteErrors(error);
    }
    const found = (errors ?? []).map((error) => [error.code, error.field, error.line, error.column]);
    expect(found).toEqual(
      expect.arrayContaining([
        [
          'REDIRECT_TARGET_MISSING',
          'redirects[0].to',
          line('/aktuelt/nope'),
          lines[line('/aktuelt/nope') - 1]!.indexOf('/aktuelt/nope') + 1,
        ],
        [
          'REDIRECT_LOOP',
          'redirects[1].to',
          line('{ from: /a, to: /b }'),
          lines[line('{ from: /a, to: /b }') - 1]!.indexOf('/b') + 1,
        ],
        ['REDIRECT_LOOP', 'redirects[2].to', line('{ from: /b, to: /a }'), expect.any(Number)],
        [
          'REDIRECT_FROM_PAGE',
          'redirects[3].from',
          line('{ from: /work,'),
          lines[line('{ from: /work,') - 1]!.indexOf('/work') + 1,
        ],
        ['REDIRECT_DUPLICATE', 'redirects[4].from', line('{ from: /aktuelt/old/,'), expect.any(Number)],
        ['REDIRECT_TARGET_MISSING', 'redirects[5].to', line('{ from: /c,'), expect.any(Number)],
      ]),
    );
    expect(found).toHaveLength(6);
    const byCode = (code: string) => errors!.filter((error) => error.code === code);
    expect(byCode('REDIRECT_LOOP')[0]!.message).toContain('/a → /b → /a');
    expect(byCode('REDIRECT_TARGET_MISSING').map((error) => error.message)).toEqual([
      '/aktuelt/nope is not a page of the site',
      '/aktuelt/old is not a page but itself redirects (to /aktuelt/nope)',
    ]);
    for (const error of errors!) expect(error.hint, error.code).toBeTruthy();
  }, 60_000);

  it('fails `site build` with exit code 1, naming file:line:col, and leaves the previous output as it was', async () => {
    const site = await createSite('');
    sites.push(site);
    const out = join(site.dir, 'dist');
    expect((await build(site.config, out)).code).toBe(0);
    const before = await Promise.all(
      (await listAll(out)).map(async (file) => [file, await readFile(join(out, file), 'utf8')]),
    );
    await writeFile(
      site.config,
      (await readFile(site.config, 'utf8')) + '\nredirects:\n  - { from: /aktuelt/old, to: /aktuelt/nope }\n',
    );
    const lines = (await readFile(site.config, 'utf8')).split('\n');
    const line = lines.findIndex((text) => text.includes('/aktuelt/nope')) + 1;
    const { code, stderr } = await build(site.config, out);
    expect(code).toBe(1);
    expect(stderr).toContain(`site.config.yaml:${line}:${lines[line - 1]!.indexOf('/aktuelt/nope') + 1}`);
    expect(stderr).toContain('REDIRECT_TARGET_MISSING');
    expect(stderr).toContain('Give the path of a page as it is built');
    const after = await Promise.all(
      (await listAll(out)).map(async (file) => [file, await readFile(join(out, file), 'utf8')]),
    );
    expect(after).toEqual(before);
  }, 60_000);
});
