/**
 * Code highlighting at build time: a post's fenced code becomes Shiki's tokens as spans with
 * classes, coloured by a hashed stylesheet linked only from pages with such code; no script and no
 * inline style is added, so Chromium colours the tokens under the site's CSP (`style-src 'self'`)
 * and reports no violation, and axe finds nothing. An unknown language stays plain and escaped.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markdownPipelineId, markdownPluginsId, markdownPluginsOf } from '../../src/content/markdown';
import { axeViolations } from '../helpers/axe';
import { launchBrowser } from '../helpers/browser';
import { buildInto } from '../helpers/build';
import { createTempSite, type TempSite } from '../helpers/fixture-site';
import { serveSite, type TestServer } from '../helpers/server';

const post = 'a-day-in-a-tailor-shop';
const code = [
  '',
  '```ts',
  'const ready: boolean = order.due <= today; // "<done>"',
  '```',
  '',
  '```nosuchlanguage',
  '<script>alert(1)</script>',
  '```',
  '',
].join('\n');

let temp: TempSite;
let out: string;
let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  temp = await createTempSite();
  const file = join(temp.dir, 'content', 'blog', post, 'en.md');
  await writeFile(file, (await readFile(file, 'utf8')) + code);
  out = join(temp.dir, 'dist');
  await buildInto(temp.config, out);
  [server, browser] = await Promise.all([serveSite({ dir: out, configPath: temp.config }), launchBrowser()]);
}, 120_000);

afterAll(async () => {
  await Promise.allSettled([browser?.close(), server?.close()]);
  await temp?.cleanup();
});

const pageOf = (path: string) => readFile(join(out, path, 'index.html'), 'utf8');
const scriptsOf = (html: string) => html.match(/<script\b[^>]*>/g) ?? [];

describe('fenced code', () => {
  it('is highlighted as spans with classes, with no inline style and no script added', async () => {
    const html = await pageOf(`blog/${post}`);
    const block = /<pre class="shiki"[\s\S]*?<\/pre>/.exec(html)?.[0] ?? '';
    expect(block).toMatch(/<span class="c-[0-9a-f]{6}">const<\/span>/);
    expect(block).toContain('&#x3C;done>');
    expect(block).not.toContain('style=');
    expect(block).not.toContain('<script');
    // The same scripts as a post without code.
    expect(scriptsOf(html)).toEqual(scriptsOf(await pageOf('blog/building-a-local-repair-network')));
  });

  it('of an unknown language stays plain and escaped', async () => {
    const html = await pageOf(`blog/${post}`);
    expect(html).toContain(
      '<pre><code class="language-nosuchlanguage">&#x3C;script>alert(1)&#x3C;/script>\n</code></pre>',
    );
  });

  it('links the code stylesheet only from pages with code, and publishes it', async () => {
    const link = /<link rel="stylesheet" href="(\/assets\/code\.[0-9a-f]{10}\.css)" \/>/;
    const href = link.exec(await pageOf(`blog/${post}`))?.[1];
    expect(href).toBeDefined();
    expect(await readFile(join(out, href!), 'utf8')).toContain('.shiki .c-cf222e{color:#cf222e}');
    expect(await pageOf('blog/building-a-local-repair-network')).not.toMatch(link);
    expect(await pageOf(`no/blog/${post}`)).not.toMatch(link);
  });

  it('is coloured in Chromium under the CSP, with no violation, and axe finds nothing', async () => {
    const context = await browser.newContext({ locale: 'en-US' });
    try {
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      await page.addInitScript(() =>
        document.addEventListener('securitypolicyviolation', (event) =>
          console.error(`CSP ${event.violatedDirective}`),
        ),
      );
      const response = await page.goto(new URL(`/blog/${post}/`, server.url).href);
      expect(response?.headers()['content-security-policy']).toContain("style-src 'self'");
      const colour = await page
        .locator('pre.shiki .line > span')
        .first()
        .evaluate((span) => getComputedStyle(span).color);
      expect(colour).toBe('rgb(207, 34, 46)');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
    // axe is injected as a script, which the CSP would refuse.
    const audit = await browser.newContext({ locale: 'en-US', bypassCSP: true });
    try {
      const page = await audit.newPage();
      await page.goto(new URL(`/blog/${post}/`, server.url).href);
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await audit.close();
    }
  });
});

describe('the code stylesheet of a rebuild', () => {
  it('follows a change of theme and comes back the same when the theme does', async () => {
    const link = /href="(\/assets\/code\.[0-9a-f]{10}\.css)"/;
    const stylesheet = async (dir: string) => {
      const href = link.exec(await readFile(join(dir, 'blog', post, 'index.html'), 'utf8'))![1]!;
      return readFile(join(dir, href), 'utf8');
    };
    const first = await stylesheet(out);
    const original = await readFile(temp.config, 'utf8');
    const again = join(temp.dir, 'dist-again');
    try {
      // The first build kept the stylesheet in the build cache: another theme must not get it.
      await writeFile(temp.config, `${original}\nmarkdown:\n  highlight:\n    theme: min-light\n`);
      await buildInto(temp.config, again);
      const other = await stylesheet(again);
      expect(other).not.toBe(first);
      expect(other).not.toContain('.shiki .c-cf222e{');
      await writeFile(temp.config, original);
      await buildInto(temp.config, again);
      expect(await stylesheet(again)).toBe(first);
    } finally {
      await writeFile(temp.config, original);
    }
  }, 60_000);
});

describe('the Markdown cache key', () => {
  it("changes with the highlighter's version and with the themes", () => {
    expect(markdownPipelineId()).toMatch(/^shiki@\d+\.\d+\.\d+$/m);
    const config = (highlight: unknown) =>
      ({ extensions: { remark: [], rehype: [] }, markdown: { highlight } }) as Parameters<typeof markdownPluginsOf>[0];
    const ids = [
      { theme: 'github-light-default' },
      { theme: 'min-light' },
      { theme: 'github-light-default', darkTheme: 'github-dark-default' },
      false,
    ].map((highlight) => markdownPluginsId(markdownPluginsOf(config(highlight))));
    expect(new Set(ids).size).toBe(4);
  });
});
