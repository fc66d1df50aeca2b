/**
 * analytics: and head: (issue 30, item 4), through the real CLI on temp copies of the site: the
 * counter's tag on every public page and on no admin page, the CSP (the hosts' header, or the
 * pages' meta on GitHub Pages) widened by exactly the origins each needs, GA4 behind the consent
 * banner, and config mistakes reported with file and line. The browser side of the banner is
 * tests/e2e/consent.test.ts.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script without types
import { defaultBudget, measureJavaScript } from '../../scripts/js-budget.js';
import { createTempSite, type TempSite } from '../helpers/fixture-site';
import { repoRoot } from '../helpers/paths';

const execute = promisify(execFile);
const sites: TempSite[] = [];

afterAll(async () => {
  await Promise.all(sites.map((site) => site.cleanup()));
});

/** Builds a temp copy of the site with `yaml` appended to its config; never throws. */
async function buildWith(
  yaml: string,
  target: string,
  prepare?: (site: TempSite) => Promise<void>,
): Promise<{ code: number; stderr: string; out: string }> {
  const site = await createTempSite({ editConfig: (text) => `${text}\n${yaml}\n` });
  sites.push(site);
  await prepare?.(site);
  const out = join(site.dir, 'dist');
  try {
    const { stderr } = await execute(
      process.execPath,
      [
        join(repoRoot, 'bin', 'site.js'),
        'build',
        '--config',
        site.config,
        '--out',
        out,
        '--target',
        target,
        '--no-social-images',
        '--no-precompress',
      ],
      { cwd: repoRoot },
    );
    return { code: 0, stderr, out };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr, out };
  }
}

/** Every HTML page of a build by its path, split into the admin's screens and the public pages. */
async function pages(out: string): Promise<{ admin: Map<string, string>; public: Map<string, string> }> {
  const admin = new Map<string, string>();
  const visible = new Map<string, string>();
  for (const entry of await readdir(out, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.html')) continue;
    const path = relative(out, join(entry.parentPath, entry.name));
    (/^(?:no\/)?(?:admin|auth)\//.test(path) ? admin : visible).set(path, await readFile(join(out, path), 'utf8'));
  }
  return { admin, public: visible };
}

/** A policy's sources on other origins, by directive (what 'self', hashes and data: leave). */
function thirdPartySources(policy: string): Record<string, string[]> {
  const sources: Record<string, string[]> = {};
  for (const directive of policy.split(';')) {
    const [name, ...values] = directive.trim().split(/\s+/);
    const others = values.filter((value) => !/^'|^data:$/.test(value));
    if (name && others.length) sources[name] = others;
  }
  return sources;
}

const headerPolicy = async (out: string) =>
  /Content-Security-Policy: (.*)/.exec(await readFile(join(out, '_headers'), 'utf8'))![1]!;
const metaPolicy = (html: string) =>
  /<meta http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(html)![1]!.replace(/&#39;/g, "'");

describe('analytics: plausible (no cookies)', async () => {
  const { code, stderr, out } = await buildWith(
    'analytics:\n  provider: plausible\n  domain: mendwise.example',
    'netlify',
  );

  it('tags every public page and no admin page, with no banner', async () => {
    expect(code, stderr).toBe(0);
    const { admin, public: visible } = await pages(out);
    expect(visible.size).toBeGreaterThan(100);
    const tag = '<script defer data-domain="mendwise.example" src="https://plausible.io/js/script.js"></script></head>';
    for (const [path, html] of visible) expect(html, path).toContain(tag);
    expect(admin.size).toBeGreaterThan(0);
    for (const [path, html] of admin) expect(html, path).not.toContain('plausible');
    const home = visible.get('index.html')!;
    expect(home).not.toContain('site-consent');
    expect(home).not.toContain('data-consent-open');
    expect((await readdir(join(out, 'assets'))).filter((name) => name.startsWith('consent.'))).toEqual([]);
  });

  it('widens the CSP header by exactly its origin, in script-src and connect-src', async () => {
    expect(thirdPartySources(await headerPolicy(out))).toEqual({
      'script-src': ['https://plausible.io'],
      'connect-src': ['https://plausible.io'],
    });
  });
});

describe('analytics: a self-hosted counter at a configured URL, on GitHub Pages', async () => {
  const yaml =
    'analytics:\n  provider: counter\n  script: https://stats.mendwise.example/count.js\n  endpoint: https://collect.mendwise.example/api\n  data: { website-id: 4f1c2a }';
  const { code, stderr, out } = await buildWith(yaml, 'github-pages');

  it("tags every public page and no admin page, and each page's meta policy allows exactly its origins", async () => {
    expect(code, stderr).toBe(0);
    const { admin, public: visible } = await pages(out);
    const tag = '<script defer src="https://stats.mendwise.example/count.js" data-website-id="4f1c2a"></script>';
    for (const [path, html] of visible) {
      expect(html, path).toContain(tag);
      expect(thirdPartySources(metaPolicy(html)), path).toEqual({
        'script-src': ['https://stats.mendwise.example'],
        'connect-src': ['https://collect.mendwise.example'],
      });
    }
    for (const [path, html] of admin) expect(html, path).not.toContain('stats.mendwise.example/count.js');
    expect(visible.get('index.html')).not.toContain('site-consent');
  });
});

describe('analytics: a counter that sets cookies', async () => {
  const yaml =
    'analytics:\n  provider: counter\n  script: https://stats.mendwise.example/count.js\n  cookies: true\n  data: { site: mendwise }';
  const { code, stderr, out } = await buildWith(yaml, 'netlify');

  it('waits for consent like GA4: the consent script names the counter and its attributes, and the CSP allows its origin', async () => {
    expect(code, stderr).toBe(0);
    const home = (await pages(out)).public.get('index.html')!;
    expect(home).not.toContain('<script defer src="https://stats.mendwise.example');
    expect(home).toMatch(
      /<script defer src="\/assets\/consent\.[0-9a-f]{10}\.js" data-load="https:\/\/stats\.mendwise\.example\/count\.js" data-attrs="\{&quot;data-site&quot;:&quot;mendwise&quot;\}"><\/script>/,
    );
    expect(home).toContain('id="site-consent"');
    expect(thirdPartySources(await headerPolicy(out))).toEqual({
      'script-src': ['https://stats.mendwise.example'],
      'connect-src': ['https://stats.mendwise.example'],
    });
  });
});

describe('analytics: ga4 (sets cookies)', async () => {
  const { code, stderr, out } = await buildWith('analytics:\n  provider: ga4\n  measurementId: G-MENDWISE1', 'netlify');

  it('loads no Google script from the page itself: the consent script carries it, on public pages only', async () => {
    expect(code, stderr).toBe(0);
    const { admin, public: visible } = await pages(out);
    const assets = await readdir(join(out, 'assets'));
    const script = assets.find((name) => /^consent\.[0-9a-f]{10}\.js$/.test(name));
    const stylesheet = assets.find((name) => /^consent\.[0-9a-f]{10}\.css$/.test(name));
    expect(script && stylesheet).toBeTruthy();
    for (const [path, html] of visible) {
      expect(html, path).toContain(
        `<script defer src="/assets/${script}" data-load="https://www.googletagmanager.com/gtag/js?id=G-MENDWISE1" data-gtag="G-MENDWISE1"></script>`,
      );
      expect(html, path).toContain(`<link rel="stylesheet" href="/assets/${stylesheet}" />`);
      expect(html, path).not.toMatch(/<script[^>]*src="https:\/\/www\.googletagmanager/);
      expect(html, path).toContain(
        '<section id="site-consent" class="site-consent" aria-labelledby="site-consent-title" hidden>',
      );
    }
    for (const [path, html] of admin) {
      expect(html, path).not.toContain('consent');
      expect(html, path).not.toContain('G-MENDWISE1');
    }
    // Inline code is never used: the bootstrap is in the external file, which reads the ID from its tag.
    expect(await readFile(join(out, 'assets', script!), 'utf8')).toContain("gtag('config',g)");
  });

  it('keeps every page within the JavaScript budget, the consent script counted', () => {
    const rows = measureJavaScript(out) as { page: string; files: string[]; gzip: number }[];
    expect(rows.find((row) => row.page === '/')!.files).toEqual([
      expect.stringMatching(/^\/assets\/consent\.[0-9a-f]{10}\.js$/),
    ]);
    expect(rows.filter((row) => row.gzip > defaultBudget).map((row) => row.page)).toEqual([]);
  });

  it("writes the banner and the footer button in each locale's words", async () => {
    const { public: visible } = await pages(out);
    expect(visible.get('index.html')).toContain(
      '<button type="button" data-consent="granted">Accept</button><button type="button" data-consent="denied">Decline</button>',
    );
    expect(visible.get('index.html')).toContain(
      '<button type="button" data-consent-open="true">Cookie settings</button>',
    );
    expect(visible.get('no/index.html')).toContain(
      '<button type="button" data-consent="granted">Godta</button><button type="button" data-consent="denied">Avslå</button>',
    );
    expect(visible.get('no/index.html')).toContain(
      '<button type="button" data-consent-open="true">Innstillinger for informasjonskapsler</button>',
    );
  });

  it('widens the CSP header by exactly the origins Google lists for GA4', async () => {
    expect(thirdPartySources(await headerPolicy(out))).toEqual({
      'script-src': ['https://*.googletagmanager.com'],
      'img-src': ['https://*.google-analytics.com', 'https://*.googletagmanager.com'],
      'connect-src': [
        'https://*.analytics.google.com',
        'https://*.google-analytics.com',
        'https://*.googletagmanager.com',
      ],
    });
  });
});

describe('head: third-party tags', async () => {
  const yaml = [
    'head:',
    '  tags:',
    '    - { tag: script, src: "https://widget.chat.example/loader.js", async: true }',
    '    - { tag: link, rel: preconnect, href: "https://api.chat.example" }',
    '    - { tag: meta, name: chat-widget, content: mendwise }',
    '  csp:',
    '    connectSrc: [https://api.chat.example]',
    '    frameSrc: [https://frame.chat.example]',
  ].join('\n');
  const { code, stderr, out } = await buildWith(yaml, 'netlify');

  it("writes the tags on public pages only, and the CSP allows the script's origin and the listed ones", async () => {
    expect(code, stderr).toBe(0);
    const { admin, public: visible } = await pages(out);
    const tags =
      '<script src="https://widget.chat.example/loader.js" async></script><link rel="preconnect" href="https://api.chat.example" /><meta name="chat-widget" content="mendwise" />';
    for (const [path, html] of visible) expect(html, path).toContain(tags);
    for (const [path, html] of admin) expect(html, path).not.toContain('chat.example');
    expect(thirdPartySources(await headerPolicy(out))).toEqual({
      'script-src': ['https://widget.chat.example'],
      'connect-src': ['https://api.chat.example'],
      'frame-src': ['https://frame.chat.example'],
    });
  });
});

describe('config mistakes', () => {
  it('rejects an inline script and a plain-http address, naming file, line and field, exit 1', async () => {
    const yaml = [
      'head:',
      '  tags:',
      '    - tag: script',
      '      src: http://tracker.example/t.js',
      '      content: "alert(1)"',
    ].join('\n');
    const { code, stderr, out } = await buildWith(yaml, 'netlify');
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /CONFIG_INVALID\s+\S*site\.config\.yaml:\d+:\d+\s+head\.tags\[0\]\.content\s+an inline script is not allowed/,
    );
    expect(stderr).toMatch(
      /CONFIG_INVALID\s+\S*site\.config\.yaml:\d+:\d+\s+head\.tags\[0\]\.src\s+use an https:\/\/ address/,
    );
    expect(existsSync(out)).toBe(false);
  });

  it('rejects a GA4 measurement ID of the wrong form and a CSP source with a path', async () => {
    const yaml =
      'analytics:\n  provider: ga4\n  measurementId: UA-1234-1\nhead:\n  csp:\n    frameSrc: [https://frame.example/path]';
    const { code, stderr } = await buildWith(yaml, 'netlify');
    expect(code).toBe(1);
    expect(stderr).toMatch(/site\.config\.yaml:\d+:\d+\s+analytics\.measurementId\s+give the measurement ID/);
    expect(stderr).toMatch(/site\.config\.yaml:\d+:\d+\s+head\.csp\.frameSrc\[0\]\s+give an origin/);
  });

  it("names a missing banner message in each locale's file when GA4 is on", async () => {
    const { code, stderr } = await buildWith(
      'analytics:\n  provider: ga4\n  measurementId: G-MENDWISE1',
      'netlify',
      async (site) => {
        for (const locale of ['en', 'no']) {
          const file = join(site.dir, 'content', 'messages', `${locale}.yaml`);
          await writeFile(file, (await readFile(file, 'utf8')).replace(/^ {2}decline: .*\n/m, ''));
        }
      },
    );
    expect(code).toBe(1);
    expect(stderr).toMatch(/CONTENT_MISSING\s+\S*content\/messages\/en\.yaml\s+consent\.decline/);
    expect(stderr).toMatch(/CONTENT_MISSING\s+\S*content\/messages\/no\.yaml\s+consent\.decline/);
  });
});
