/**
 * `site.base`: the demo site built for "/mendwise" (a GitHub Pages project site), crawled link by
 * link through `site serve` under that path, with its sitemap, feeds, head and hreflang checked;
 * the serve's own answers under a base; the targets that cannot take one; and the HTML rewrite
 * itself (real tags only, never text).
 */
import type { StoreSource } from '../../src/store/source';
import { storeIn } from '../helpers/store';
import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploySettings } from '../../src/config/deploy';
import { loadConfig, type ResolvedConfig } from '../../src/config/load';
import { withBase } from '../../src/render/base-path';
import { startServer, type RunningServer } from '../../src/serve/server';
import { outputRoot, repoRoot } from '../helpers/paths';
import { buildTarget, read } from '../targets/support';

const base = '/mendwise';
const origin = 'https://mendwise.example';
const root = `${origin}${base}`;

describe('withBase', () => {
  it('puts the base in front of root-relative URLs in attributes, srcset and island props', () => {
    const html = [
      '<a href="/hub/">Hub</a><a href="https://x.example/a">x</a><a href="//cdn.example/b">c</a><a href="#main">s</a><a href="mailto:a@b.c">m</a>',
      '<img src="/assets/a.webp" srcSet="/assets/a-480.webp 480w, /assets/a-960.webp 960w" alt="a &gt; b" />',
      '<form action="/api/contact" method="post"><button formaction="/api/x">Go</button></form>',
      '<script type="application/json" data-island-props="ContactForm">{"endpoint":"/api/contact","/key":"/hub/","label":"a/b","nested":{"url":"//x.example/"}}</script>',
    ].join('');
    expect(withBase(html, base)).toBe(
      [
        '<a href="/mendwise/hub/">Hub</a><a href="https://x.example/a">x</a><a href="//cdn.example/b">c</a><a href="#main">s</a><a href="mailto:a@b.c">m</a>',
        '<img src="/mendwise/assets/a.webp" srcSet="/mendwise/assets/a-480.webp 480w, /mendwise/assets/a-960.webp 960w" alt="a &gt; b" />',
        '<form action="/mendwise/api/contact" method="post"><button formaction="/mendwise/api/x">Go</button></form>',
        '<script type="application/json" data-island-props="ContactForm">{"endpoint":"/mendwise/api/contact","/key":"/mendwise/hub/","label":"a/b","nested":{"url":"//x.example/"}}</script>',
      ].join(''),
    );
  });

  it('leaves text, code, other attributes and other scripts alone, and everything when there is no base', () => {
    const html =
      '<pre><code>&lt;a href="/hub/"&gt;</code></pre><p title="/hub/">see href="/x"</p><script type="application/ld+json">{"url":"/hub/"}</script><a data-x="/y" href=\'/z\'>z</a>';
    expect(withBase(html, base)).toBe(
      '<pre><code>&lt;a href="/hub/"&gt;</code></pre><p title="/hub/">see href="/x"</p><script type="application/ld+json">{"url":"/hub/"}</script><a data-x="/y" href=\'/mendwise/z\'>z</a>',
    );
    expect(withBase(html, '')).toBe(html);
  });
});

describe('deploy settings', () => {
  it('takes the base from --base, else SITE_BASE, without its trailing slash; "/" is the root', () => {
    expect(deploySettings({ SITE_BASE: '/docs/' }).base).toBe('/docs');
    expect(deploySettings({ SITE_BASE: '/docs' }, undefined, '/mendwise/').base).toBe('/mendwise');
    expect(deploySettings({}, undefined, '/').base).toBe('');
    expect(deploySettings({}).base).toBeUndefined();
    expect(() => deploySettings({ SITE_BASE: 'mendwise' })).toThrow(/SITE_BASE/);
    expect(() => deploySettings({}, undefined, '/a/../b')).toThrow(/--base/);
  });
});

describe('the demo site under /mendwise', () => {
  let out: string;
  let config: ResolvedConfig;
  let server: RunningServer;
  let store: StoreSource | undefined;

  beforeAll(async () => {
    ({ out } = await buildTarget(['--target', 'github-pages', '--base', base]));
    config = await loadConfig(join(repoRoot, 'site.config.yaml'), { deploy: { base, preview: false } });
    // What the crawl's form posts store goes to a folder of this run, never the project's data/.
    config.dirs.data = await mkdtemp(join(outputRoot, 'data-'));
    store = await storeIn(config.dirs.data);
    server = await startServer({
      config,
      store,
      dir: out,
      port: 0,
      host: '127.0.0.1',
      limits: { shutdownGraceMs: 100 },
    });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await store?.close();
  });

  const host = () => server.url.slice(0, -base.length);

  it("links only to URLs under the base (the stylesheets' url()s too), every one served with 200, and hreflang is reciprocal (a crawl from the home pages)", async () => {
    const seen = new Set<string>();
    const queue = [`${base}/`, `${base}/no/`];
    const broken: string[] = [];
    const outside: string[] = [];
    let pages = 0;
    /** The hreflang alternates of each page crawled, by its canonical URL. */
    const alternates = new Map<string, string[]>();
    while (queue.length) {
      const path = queue.shift()!;
      if (seen.has(path)) continue;
      seen.add(path);
      const response = await fetch(host() + path, { redirect: 'manual' });
      if (response.status !== 200) {
        broken.push(`${path}: ${response.status}`);
        continue;
      }
      const type = response.headers.get('content-type') ?? '';
      if (type.startsWith('text/css')) {
        // The stylesheets' url()s (fonts, images) resolve against the stylesheet's own URL.
        for (const [, url] of (await response.text()).matchAll(/url\("?([^")]+)"?\)/g)) {
          if (url!.startsWith('data:')) continue;
          const local = new URL(url!, `http://site${path}`).pathname;
          if (local !== base && !local.startsWith(`${base}/`)) outside.push(`${path} → ${url}`);
          else queue.push(local);
        }
        continue;
      }
      if (!type.startsWith('text/html')) {
        await response.arrayBuffer();
        continue;
      }
      pages++;
      const html = await response.text();
      const canonical = /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1];
      if (canonical === `${origin}${path}`)
        alternates.set(
          canonical,
          [...html.matchAll(/<link rel="alternate" hreflang="[^"]+" href="([^"]+)"/g)].map((match) => match[1]!),
        );
      const urls = [
        ...[...html.matchAll(/\s(?:href|src|action)="([^"]*)"/g)].map((match) => match[1]!),
        ...[...html.matchAll(/\ssrcSet="([^"]*)"/gi)].flatMap((match) =>
          match[1]!.split(',').map((part) => part.trim().split(/\s+/)[0]!),
        ),
        ...[...html.matchAll(/data-island-props="[^"]*">([^<]*)</g)].flatMap((match) =>
          [...match[1]!.matchAll(/"(\/[^"]*)"/g)].map((found) => found[1]!),
        ),
      ].map((url) => url.replace(/&amp;/g, '&'));
      for (const url of urls) {
        const local = url.startsWith(origin) ? url.slice(origin.length) : url;
        if (!local.startsWith('/') || local.startsWith('//')) continue;
        if (local !== base && !local.startsWith(`${base}/`)) outside.push(`${path} → ${url}`);
        // The form endpoints answer POST only (and GitHub Pages none at all).
        else if (!local.startsWith(`${base}/api/`)) queue.push(local.split('#', 1)[0]!);
      }
    }
    expect(outside).toEqual([]);
    expect(broken).toEqual([]);
    expect(pages).toBeGreaterThan(150);
    // hreflang: every alternate is a page under the base that names this page back.
    const oneWay: string[] = [];
    for (const [page, links] of alternates) {
      for (const link of links)
        if (!link.startsWith(`${root}/`) || !alternates.get(link)?.includes(page)) oneWay.push(`${page} → ${link}`);
    }
    expect(alternates.size).toBeGreaterThan(50);
    expect(oneWay).toEqual([]);
  }, 120_000);

  it('names the base in canonical, hreflang, og:url, og:image, JSON-LD and the language redirect, and the alternates are reciprocal', async () => {
    const hub = await read(out, 'hub/index.html');
    expect(hub).toContain(`<link rel="canonical" href="${root}/hub/" />`);
    expect(hub).toContain(`<link rel="alternate" hreflang="no" href="${root}/no/hub/" />`);
    expect(hub).toContain(`<meta property="og:url" content="${root}/hub/" />`);
    expect(hub).toMatch(new RegExp(`<meta property="og:image" content="${root}/_social/[\\w-]+\\.png" />`));
    expect(hub).toContain(`"url":"${root}/"`);
    expect(hub).toContain(`data-redirect="nb=${base}/no/hub/ no=${base}/no/hub/"`);
    const alternatesOf = (html: string) =>
      [...html.matchAll(/<link rel="alternate" hreflang="[^"]+" href="([^"]+)"/g)].map((match) => match[1]!);
    const counterpart = await read(out, 'no/hub/index.html');
    expect(alternatesOf(counterpart)).toEqual(expect.arrayContaining([`${root}/hub/`, `${root}/no/hub/`]));
    expect(alternatesOf(hub)).toEqual(expect.arrayContaining([`${root}/hub/`, `${root}/no/hub/`]));
  });

  it('lists base URLs in the sitemap and robots.txt, and the feeds link to them', async () => {
    const sitemap = await read(out, 'sitemap.xml');
    const locs = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]!);
    expect(locs.length).toBeGreaterThan(50);
    expect(locs.filter((loc) => !loc.startsWith(`${root}/`))).toEqual([]);
    const robots = await read(out, 'robots.txt');
    expect(robots).toContain(`Disallow: ${base}/admin`);
    expect(robots).toContain(`Sitemap: ${root}/sitemap.xml`);
    const rss = await read(out, 'rss.xml');
    expect(
      [...rss.matchAll(/<link>([^<]+)<\/link>/g)]
        .map((match) => match[1]!)
        .filter((link) => !link.startsWith(`${root}/`)),
    ).toEqual([]);
    const feed = JSON.parse(await read(out, 'feed.json')) as {
      home_page_url: string;
      items: { url: string; content_html: string }[];
    };
    expect(feed.home_page_url.startsWith(`${root}/`)).toBe(true);
    expect(feed.items.every((item) => item.url.startsWith(`${root}/`))).toBe(true);
    expect(
      feed.items
        .flatMap((item) => [...item.content_html.matchAll(/href="(\/[^"]*)"/g)].map((match) => match[1]!))
        .filter((href) => !href.startsWith(`${base}/`)),
    ).toEqual([]);
  });

  it('sends a Norwegian path to the Norwegian 404 page under the base (GitHub Pages serves the root one for every miss)', async () => {
    const notFound = await read(out, '404.html');
    expect(notFound).toContain(`{"${base}/no":"${base}/no/404.html"}`);
  });

  it('is served under the base only: / and /mendwise go there, redirects keep it, paths outside it are 404', async () => {
    const get = (path: string) => fetch(host() + path, { redirect: 'manual' });
    expect(server.url.endsWith(base)).toBe(true);
    const home = await get('/');
    expect([home.status, home.headers.get('location')]).toEqual([302, `${base}/`]);
    const bare = await get(`${base}?x=1`);
    expect([bare.status, bare.headers.get('location')]).toEqual([301, `${base}/?x=1`]);
    const slash = await get(`${base}/no/hub`);
    expect([slash.status, slash.headers.get('location')]).toEqual([301, `${base}/no/hub/`]);
    expect((await get('/hub/')).status).toBe(404);
    const missing = await get(`${base}/no/nowhere/`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain(`href="${base}/no/"`);
    const sent = await fetch(`${host()}${base}/api/contact`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: host() },
      body: new URLSearchParams({
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.com',
        message: 'Hello',
        locale: 'no',
        page: `${base}/no/contactus/`,
      }).toString(),
    });
    expect(sent.status).toBe(303);
    expect(sent.headers.get('location')?.startsWith(`${base}/no/`)).toBe(true);
  });
});

describe('hosts that serve from the domain root', () => {
  it.each(['netlify', 'cloudflare', 'vercel'])('%s refuses a base, naming site.base and what to do', async (target) => {
    const failed = await buildTarget(['--target', target, '--base', base]).then(
      () => undefined,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain('site.base');
    expect(failed?.stderr).toContain(`${target} target`);
  });
});
