/**
 * `site build --target …` on the demo site: the files each host reads, their contents, and the
 * form functions run with web `Request`s.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { HtmlValidate } from 'html-validate';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig, parseConfig, type ResolvedConfig } from '../../src/config/load';
import { copyValuesOf, fillPlaceholders } from '../../src/content/messages';
import { collectSiteErrors } from '../../src/errors';
import { languageScript, notFoundScript, scriptHash } from '../../src/render/head';
import { parse } from 'yaml';
import { builtSite, repoRoot } from '../helpers/paths';
import { buildTarget, checkContactFunction, listAll, read, startWebhook } from './support';

let config: ResolvedConfig;
/** Every locale with a URL prefix, and its 404 page. */
let prefixed: { prefix: string; url: string }[];
const pageHashes = [scriptHash(languageScript), scriptHash(notFoundScript)];
const siblings = (files: string[]) => files.filter((file) => file.endsWith('.br') || file.endsWith('.gz'));

beforeAll(async () => {
  config = await loadConfig(join(repoRoot, 'site.config.yaml'));
  prefixed = config.localeIds
    .filter((locale) => config.locales[locale]!.prefix)
    .map((locale) => ({ prefix: config.locales[locale]!.prefix, url: `${config.locales[locale]!.prefix}/404.html` }));
  expect(prefixed.length).toBeGreaterThan(0);
});

/** The host functions read the webhook URL from the environment of their process. */
let webhook: Awaited<ReturnType<typeof startWebhook>>;
beforeAll(async () => {
  webhook = await startWebhook();
  process.env.SITE_FORM_WEBHOOK = webhook.url;
});
afterAll(async () => {
  delete process.env.SITE_FORM_WEBHOOK;
  await webhook.close();
});

/** Runs `work` with the webhook variable unset (and its error message silenced). */
async function withoutWebhook(work: () => Promise<void>): Promise<void> {
  const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  delete process.env.SITE_FORM_WEBHOOK;
  try {
    await work();
    expect(error).toHaveBeenCalledWith(expect.stringContaining('SITE_FORM_WEBHOOK'));
  } finally {
    process.env.SITE_FORM_WEBHOOK = webhook.url;
    error.mockRestore();
  }
}

describe('node (the default)', () => {
  it('is the output of a build without --target, byte for byte, with its siblings and nothing of the other hosts', async () => {
    const [plain, node] = await Promise.all([buildTarget([]), buildTarget(['--target', 'node'])]);
    const files = await listAll(plain.out);
    expect(await listAll(node.out)).toEqual(files);
    for (const file of files)
      expect((await readFile(join(node.out, file))).equals(await readFile(join(plain.out, file))), file).toBe(true);
    expect(files).toContain('_headers');
    expect(files).toContain('index.html.br');
    expect(files).toContain('no/404.html.gz');
    expect(
      files.filter((file) =>
        /(^|\/)(_redirects|_routes\.json|_worker\.js|\.nojekyll|config\.json)$|^netlify\/|^functions\/|^static\//.test(
          file,
        ),
      ),
    ).toEqual([]);
    const headers = await read(plain.out, '_headers');
    for (const hash of pageHashes) expect(headers).toContain(hash);
  });
});

describe('netlify', () => {
  let out: string;
  let files: string[];
  beforeAll(async () => {
    ({ out } = await buildTarget(['--target', 'netlify']));
    files = await listAll(out);
  });

  it('writes _headers with the CSP hashes and no precompressed siblings', async () => {
    const headers = await read(out, '_headers');
    expect(headers).toMatch(/^\/\*\n {2}Content-Security-Policy: default-src 'self'; script-src 'self' /);
    for (const hash of pageHashes) expect(headers).toContain(hash);
    expect(headers).toContain('/assets/*\n  Cache-Control: public, max-age=31536000, immutable');
    expect(siblings(files)).toEqual([]);
  });

  it('writes _redirects: the API rewrite, the ASCII spelling of /no/arbeidsklær, and a 404 rule per locale last', async () => {
    const lines = (await read(out, '_redirects')).split('\n').filter((line) => line && !line.startsWith('#'));
    expect(lines).toContain('/api/contact  /.netlify/functions/contact  200');
    expect(lines).toContain('/no/arbeidsklaer  /no/arbeidskl%C3%A6r/  301');
    expect(lines).toContain('/no/arbeidsklaer/*  /no/arbeidskl%C3%A6r/:splat  301');
    expect(lines).toContain('/netlify/*  /404.html  404!');
    const notFound = lines.filter((line) => / 404$/.test(line));
    expect(notFound).toEqual([...prefixed.map(({ prefix, url }) => `${prefix}/*  ${url}  404`), '/*  /404.html  404']);
    expect(lines.slice(-notFound.length)).toEqual(notFound);
    for (const { url } of prefixed) expect(files).toContain(url.slice(1));
  });

  it('writes a self-contained contact function that passes the endpoint checks', async () => {
    expect(files.filter((file) => file.startsWith('netlify/'))).toEqual(['netlify/functions/contact.mjs']);
    const source = await read(out, 'netlify/functions/contact.mjs');
    expect(source).not.toMatch(/from\s*["'](?!\.)/);
    expect(source).not.toMatch(/\brequire\(/);
    const handler = (await import(pathToFileURL(join(out, 'netlify/functions/contact.mjs')).href)).default as (
      request: Request,
      context: { ip: string },
    ) => Promise<Response>;
    const before = webhook.received.length;
    await checkContactFunction({
      call: (request, client) => handler(request, { ip: client }),
      stored: () => webhook.received.slice(before),
      withoutStorage: withoutWebhook,
    });
  });

  it('books meetings through the contact form (its function), as no booking server runs there: the meeting is its subject', async () => {
    const [nodeBuild, netlify] = await Promise.all([
      read(builtSite, 'hub/book-meeting/index.html'),
      read(out, 'no/hub/book-meeting/index.html'),
    ]);
    expect(nodeBuild).toContain('class="booking-form');
    expect(netlify).not.toContain('class="booking-form');
    const form = /<form class="contact-form[^"]*"[^>]*action="([^"]*)"/.exec(netlify);
    expect(form?.[1]).toBe('/api/contact');
    const config = await loadConfig(join(repoRoot, 'site.config.yaml'));
    const subject = fillPlaceholders(
      parse(await read(repoRoot, 'content/messages/no.yaml')).contactForm.meetingSubject as string,
      copyValuesOf(config),
    );
    expect(netlify).toMatch(new RegExp(`name="subject"[^>]*value="${subject}"`));
  });
});

describe('github-pages', () => {
  let out: string;
  let files: string[];
  let stderr: string;
  beforeAll(async () => {
    ({ out, stderr } = await buildTarget(['--target', 'github-pages']));
    files = await listAll(out);
  });

  it('writes .nojekyll, no _headers, no functions, no siblings, and warns that the form needs a form service', () => {
    expect(files).toContain('.nojekyll');
    // Jekyll would hide folders that start with "_", but .nojekyll turns it off: the social images stay.
    expect(files.filter((file) => /^_(?!social\/)|\.(br|gz)$|^netlify\/|^functions\//.test(file))).toEqual([]);
    expect(stderr).toContain('contact.endpoint');
    expect(stderr).toContain('form service');
  });

  it('puts the CSP into every page, before any script, allowing exactly the inline scripts the pages carry', async () => {
    const pages = files.filter((file) => file.endsWith('.html'));
    expect(pages.length).toBeGreaterThan(100);
    let policy: string | undefined;
    for (const page of pages) {
      const html = await read(out, page);
      const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]+)" \/>/.exec(html);
      expect(meta, page).not.toBeNull();
      expect(meta!.index, page).toBeLessThan(html.indexOf('<script'));
      const content = meta![1]!.replaceAll('&#39;', "'");
      // The search pages alone also allow the search index's WebAssembly.
      const search = /^(no\/)?search\/index\.html$/.test(page);
      const common = search ? content.replace(" 'wasm-unsafe-eval'", '') : content;
      expect(content.includes('wasm-unsafe-eval'), page).toBe(search);
      policy ??= common;
      expect(common, page).toBe(policy);
      expect(content).not.toContain('frame-ancestors');
      for (const [, script] of html.matchAll(/<script>([^<]*)<\/script>/g)) {
        expect(content, page).toContain(`'sha256-${createHash('sha256').update(script!).digest('base64')}'`);
      }
    }
  });

  it('keeps the pages valid HTML with the meta policy and the 404 script', async () => {
    const validator = new HtmlValidate(JSON.parse(await readFile(join(repoRoot, '.htmlvalidate.json'), 'utf8')));
    const problems: string[] = [];
    for (const page of ['404.html', 'no/404.html', 'index.html', 'contactus/index.html', 'no/hub/pricing/index.html']) {
      const report = await validator.validateString(await read(out, page), page);
      for (const message of report.results.flatMap((result) => result.messages))
        problems.push(`${page}:${message.line}:${message.column}  ${message.ruleId}  ${message.message}`);
    }
    expect(problems).toEqual([]);
  });

  it("sends a path under a locale prefix from the root 404 page to that locale's 404 page; the language switch links there without script", async () => {
    const html = await read(out, '404.html');
    const scripts = [...html.matchAll(/<script>([^<]*)<\/script>/g)].map((match) => match[1]!);
    const redirect = scripts.find((script) => script.startsWith('(function(l,m)'));
    expect(redirect).toBeDefined();
    const visit = (pathname: string) => {
      const location = {
        pathname,
        replaced: undefined as string | undefined,
        replace(url: string) {
          this.replaced = url;
        },
      };
      new Function('location', redirect!)(location);
      return location.replaced;
    };
    for (const { prefix, url } of prefixed) {
      expect(visit(`${prefix}/no-such-page/`)).toBe(url);
      expect(visit(prefix)).toBe(url);
    }
    expect(visit('/no-such-page/')).toBeUndefined();
    expect(visit('/nothing-under-no/')).toBeUndefined();
    expect(await read(out, 'no/404.html')).not.toContain('(function(l,m)');
    expect(html).toMatch(/<a class="language" href="\/no\/" hrefLang="nb"/);
  });
});

describe('cloudflare', () => {
  let out: string;
  let files: string[];
  beforeAll(async () => {
    ({ out } = await buildTarget(['--target', 'cloudflare']));
    files = await listAll(out);
  });

  it('writes _headers, _redirects with the ASCII spellings, _routes.json for the endpoints only, and no siblings', async () => {
    const headers = await read(out, '_headers');
    for (const hash of pageHashes) expect(headers).toContain(hash);
    expect((await read(out, '_redirects')).split('\n')).toEqual([
      '/no/arbeidsklaer  /no/arbeidskl%C3%A6r/  301',
      '/no/arbeidsklaer/*  /no/arbeidskl%C3%A6r/:splat  301',
      '',
    ]);
    expect(JSON.parse(await read(out, '_routes.json'))).toEqual({ version: 1, include: ['/api/contact'], exclude: [] });
    expect(siblings(files)).toEqual([]);
    // Pages serves the nearest 404.html up the tree with status 404: each locale has its own.
    for (const { url } of prefixed) expect(files).toContain(url.slice(1));
    expect(files.filter((file) => file.startsWith('functions/'))).toEqual([]);
  });

  it('writes a worker that answers the endpoint (stored in the KV binding) and hands every other request to the static files', async () => {
    const worker = (await import(pathToFileURL(join(out, '_worker.js')).href)).default as {
      fetch(request: Request, env: Record<string, unknown>): Promise<Response>;
    };
    const kept: { key: string; value: string }[] = [];
    let env: Record<string, unknown> = {
      SUBMISSIONS: { put: async (key: string, value: string) => void kept.push({ key, value }) },
      ASSETS: { fetch: async (request: Request) => new Response(`asset ${new URL(request.url).pathname}`) },
    };
    await checkContactFunction({
      call: (request, client) => {
        request.headers.set('cf-connecting-ip', client);
        return worker.fetch(request, env);
      },
      stored: () => kept.map(({ value }) => JSON.parse(value) as unknown),
      async withoutStorage(work) {
        const saved = env;
        env = { ASSETS: saved.ASSETS };
        const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
        try {
          await work();
        } finally {
          env = saved;
          error.mockRestore();
        }
      },
    });
    expect(kept[0]!.key).toMatch(/^contact\/\d{4}-\d\d-\d\dT[\d:.]+Z\/[0-9a-f-]{36}$/);
    expect(await (await worker.fetch(new Request('https://mendwise.example/hub/'), env)).text()).toBe('asset /hub/');
  });
});

describe('vercel', () => {
  let out: string;
  let files: string[];
  let routes: Record<string, unknown>[];
  beforeAll(async () => {
    ({ out } = await buildTarget(['--target', 'vercel']));
    files = await listAll(out);
    routes = (JSON.parse(await read(out, 'config.json')) as { version: number; routes: Record<string, unknown>[] })
      .routes;
  });

  it('writes the Build Output API: the site under static/, config.json, and a function per endpoint', () => {
    expect(files).toContain('static/index.html');
    expect(files).toContain('static/no/404.html');
    expect(files).toContain('static/sitemap.xml');
    expect(files.filter((file) => !file.startsWith('static/') && file !== '.site-output').sort()).toEqual([
      'config.json',
      'functions/api/contact.func/.vc-config.json',
      'functions/api/contact.func/index.js',
    ]);
    expect(siblings(files)).toEqual([]);
  });

  it('routes: security headers with the CSP hashes, asset caching, trailing slashes, the ASCII spelling, then a 404 per locale with status 404', async () => {
    const headers = routes[0] as { src: string; headers: Record<string, string>; continue: boolean };
    expect(headers.src).toBe('^/(.*)$');
    for (const hash of pageHashes) expect(headers.headers['Content-Security-Policy']).toContain(hash);
    const match = (path: string, phase: 'before' | 'after') => {
      const at = routes.findIndex((route) => route.handle === 'filesystem');
      const list = phase === 'before' ? routes.slice(0, at) : routes.slice(at + 1);
      return list.find((route) => !route.continue && new RegExp(route.src as string).test(path));
    };
    expect(match('/hub', 'before')).toMatchObject({ status: 308, headers: { Location: '/$1/' } });
    expect(match('/hub/', 'before')).toBeUndefined();
    expect(match('/api/contact', 'before')).toBeUndefined();
    expect(match('/no/arbeidsklaer/product', 'before')).toMatchObject({ status: 301 });
    for (const { prefix, url } of prefixed)
      expect(match(`${prefix}/no-such-page/`, 'after')).toEqual({ src: expect.any(String), dest: url, status: 404 });
    expect(match('/no-such-page/', 'after')).toEqual({ src: '^/.*$', dest: '/404.html', status: 404 });
    expect(JSON.parse(await read(out, 'functions/api/contact.func/.vc-config.json'))).toEqual({
      runtime: 'edge',
      entrypoint: 'index.js',
    });
  });

  it('writes an Edge Function that passes the endpoint checks', async () => {
    const handler = (await import(pathToFileURL(join(out, 'functions/api/contact.func/index.js')).href)).default as (
      request: Request,
    ) => Promise<Response>;
    const before = webhook.received.length;
    await checkContactFunction({
      call: (request, client) => {
        request.headers.set('x-real-ip', client);
        return handler(request);
      },
      stored: () => webhook.received.slice(before),
      withoutStorage: withoutWebhook,
    });
  });
});

describe('a bad target', () => {
  it('in the config is an error naming the file, line, field and the choices', async () => {
    const text = (await readFile(join(repoRoot, 'site.config.yaml'), 'utf8')).replace(
      /^  target: node$/m,
      '  target: heroku',
    );
    expect(text).toContain('target: heroku');
    let error: unknown;
    try {
      parseConfig(text, 'site.config.yaml', repoRoot);
    } catch (caught) {
      error = caught;
    }
    const found = collectSiteErrors(error)!.find((problem) => problem.field === 'output.target');
    expect(found).toMatchObject({ code: 'CONFIG_INVALID', file: 'site.config.yaml', line: expect.any(Number) });
    expect(found!.format()).toMatch(/node.*netlify.*cloudflare.*vercel.*github-pages/);
  });

  it('on the command line is a usage error naming the choices', async () => {
    await expect(buildTarget(['--target', 'heroku'])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('node, netlify, cloudflare, vercel, github-pages'),
    });
  });
});
