/**
 * `site dev`.
 *
 * - In-process: after each kind of edit (post, message, page copy, post added and deleted, CSS,
 *   template, config, a broken file and its fix) the incremental builder's files are byte-identical
 *   to a fresh `buildSite` (without social images, which site dev does not draw), and it
 *   re-rendered only what the edit affects.
 * - As a child process (`node bin/site.js dev --port 0`) on a temp copy of the site: an edited post
 *   is served and a reload event sent; a broken YAML file shows the overlay while the last good
 *   pages still serve, and the overlay clears once fixed; a deleted post's page is a 404; the
 *   contact API answers; SIGINT exits with code 0 and leaves no process behind.
 *
 * Every wait polls for its condition with a bounded timeout (a loaded 2-core machine is slow, not
 * wrong), and every watched edit changes the file's size (polling watchers can miss same-size edits).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createServer, get, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../src/build';
import { classifyChange, staleOutputs } from '../../src/pipeline/changes';
import { injectDevClient, renderOverlay } from '../../src/dev/overlay';
import { createDevBuilder, type DevBuilder, type RebuildOutcome, type RebuildSuccess } from '../../src/dev/rebuild';
import { startDevServer } from '../../src/dev/server';
import { readTracked, trackedView } from '../../src/render/tracked-view';
import type { OutputFiles } from '../../src/output-files';
import { createEditableSite } from '../helpers/editable-site';
import { createTempSite, type TempSite } from '../helpers/fixture-site';
import { repoRoot } from '../helpers/paths';

const slug = 'why-repair-beats-recycling';

/** Polls `check` until it returns a value other than undefined/false, or fails after `timeoutMs`. */
async function until<T>(
  check: () => T | undefined | false | Promise<T | undefined | false>,
  label: string,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${label}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

/** Replaces text in a file, making sure the edit changes its size. */
async function edit(path: string, from: string | RegExp, to: string): Promise<void> {
  const before = await readFile(path, 'utf8');
  const after = before.replace(from, to);
  expect(after.length, `edit of ${path}`).not.toBe(before.length);
  await writeFile(path, after);
}

function bytesOf(data: string | Uint8Array): Buffer {
  return typeof data === 'string' ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

/** The paths whose contents differ between two file maps. */
function differences(a: OutputFiles, b: OutputFiles): string[] {
  return [...new Set([...a.keys(), ...b.keys()])].sort().filter((path) => {
    const x = a.get(path);
    const y = b.get(path);
    return x === undefined || y === undefined || !bytesOf(x).equals(bytesOf(y));
  });
}

function succeeded(outcome: RebuildOutcome): RebuildSuccess {
  if (!outcome.ok)
    throw new Error(
      `rebuild failed: ${outcome.errors.map((error) => error.format()).join('; ')} ${String(outcome.crash ?? '')}`,
    );
  return outcome;
}

describe('pure parts', () => {
  const watched = {
    configFile: '/site/site.config.yaml',
    dirs: { content: '/site/content', templates: '/site/templates', public: '/site/public' },
    messages: '/site/content/messages',
    copy: '/site/content/pages',
    collections: { blog: '/site/content/blog', cases: '/site/content/work/cases' },
  };

  it('classifies a changed path by the input it feeds', () => {
    expect(classifyChange('/site/site.config.yaml', watched)).toEqual({ kind: 'config' });
    expect(classifyChange('/site/content/blog/a-post/en.md', watched)).toEqual({
      kind: 'entry',
      collection: 'blog',
      slug: 'a-post',
    });
    expect(classifyChange('/site/content/blog/a-post', watched, true)).toEqual({
      kind: 'entry',
      collection: 'blog',
      slug: 'a-post',
    });
    expect(classifyChange('/site/content/work/cases/a-case/no.md', watched)).toEqual({
      kind: 'entry',
      collection: 'cases',
      slug: 'a-case',
    });
    expect(classifyChange('/site/content/work/cases', watched, true)).toEqual({
      kind: 'entry',
      collection: 'cases',
      slug: undefined,
    });
    expect(classifyChange('/site/content/messages/no.yaml', watched)).toEqual({ kind: 'messages' });
    // A whole folder deleted or restored: everything read from it.
    expect(classifyChange('/site/content', watched, true)).toEqual({ kind: 'content' });
    expect(classifyChange('/site/content/pages', watched, true)).toEqual({ kind: 'copy', id: '' });
    expect(classifyChange('/site/templates', watched, true)).toEqual({ kind: 'templates', withStyles: true });
    expect(classifyChange('/site/content/pages/hub/product/en.yaml', watched)).toEqual({
      kind: 'copy',
      id: 'hub/product',
    });
    expect(classifyChange('/site/content/pages/hub/en.yaml', watched)).toEqual({ kind: 'copy', id: 'hub' });
    expect(classifyChange('/site/templates/styles/main.css', watched)).toEqual({ kind: 'styles' });
    expect(classifyChange('/site/templates/pages/Landing.tsx', watched)).toEqual({ kind: 'templates' });
    expect(classifyChange('/site/public/logo.svg', watched)).toEqual({ kind: 'public' });
    expect(classifyChange('/elsewhere/file.txt', watched)).toEqual({ kind: 'none' });
  });

  it('forgets only the kept outputs a change feeds', () => {
    const names = [
      'config',
      'templates',
      'islands',
      'assets',
      'messages',
      'entries',
      'entry:blog/a-post',
      'entry:blog/b-post',
      'entry:cases/a-post',
      'copy:hub',
      'copy:hub/product',
      'copy:hubs',
      'pages',
      'feeds',
    ];
    const stale = (path: string, directory = false) =>
      names.filter(staleOutputs(classifyChange(path, watched, directory)));
    expect(stale('/site/site.config.yaml')).toEqual(['config']);
    expect(stale('/site/content/blog/a-post/en.md')).toEqual(['entries', 'entry:blog/a-post']);
    expect(stale('/site/content/work/cases/a-post/en.md')).toEqual(['entries', 'entry:cases/a-post']);
    expect(stale('/site/content/blog', true)).toEqual(['entries']);
    expect(stale('/site/content/pages/hub/product/en.yaml')).toEqual(['copy:hub/product']);
    expect(stale('/site/content/pages/hub', true)).toEqual(['copy:hub', 'copy:hub/product']);
    expect(stale('/site/content', true)).toEqual([
      'messages',
      'entries',
      'entry:blog/a-post',
      'entry:blog/b-post',
      'entry:cases/a-post',
      'copy:hub',
      'copy:hub/product',
      'copy:hubs',
    ]);
    expect(stale('/site/templates/pages/Landing.tsx')).toEqual(['config', 'templates', 'islands']);
    expect(stale('/site/templates', true)).toEqual(['config', 'templates', 'islands', 'assets']);
    expect(stale('/site/public/logo.svg')).toEqual(['assets']);
    expect(stale('/elsewhere/file.txt')).toEqual([]);
  });

  it('reports the fields read through a tracked view, and what each read sees in other data', () => {
    const reads = new Set<string>();
    const record = { url: '/blog/', blog: { pageNumber: 1, slugs: ['a', 'b'] }, alternates: [{ href: 'x' }] };
    const view = trackedView(record, 'page:/blog/', (read) => reads.add(read));
    expect(view.blog.pageNumber).toBe(1);
    expect(view.alternates.map((alternate) => alternate.href)).toEqual(['x']);
    expect([...reads].sort()).toEqual([
      'page:/blog/ ["alternates","0","href"]',
      'page:/blog/ ["alternates","length"]',
      'page:/blog/ ["blog","pageNumber"]',
      'page:/blog/ has:["alternates","0"]',
    ]);
    expect(readTracked('page:/blog/ has:["alternates","0"]', 'page:/blog/', record)).toBe('true');
    expect(readTracked('page:/blog/ has:["alternates","1"]', 'page:/blog/', record)).toBe('false');
    const moved = { ...record, blog: { pageNumber: 1, slugs: ['b', 'a'] } };
    for (const read of reads)
      expect(readTracked(read, 'page:/blog/', moved)).toBe(readTracked(read, 'page:/blog/', record));
    expect(readTracked('page:/blog/ ["blog","pageNumber"]', 'page:/blog/', { blog: { pageNumber: 2 } })).not.toBe(
      readTracked('page:/blog/ ["blog","pageNumber"]', 'page:/blog/', record),
    );
    expect(readTracked('page:/other/ ["url"]', 'page:/blog/', record)).toBeUndefined();
  });

  it('injects the client and the overlay into a served page only', () => {
    const overlay = renderOverlay([
      {
        code: 'YAML_SYNTAX',
        title: 'Invalid YAML',
        message: 'bad <thing>',
        location: 'content/x.yaml:3:5',
        hint: 'Fix it.',
        frame: '> 3 | a: [',
      },
    ]);
    expect(overlay).toContain('role="alertdialog"');
    expect(overlay).toContain('aria-labelledby="site-dev-overlay-title"');
    expect(overlay).toContain('tabindex="-1"');
    expect(overlay).toContain('bad &lt;thing&gt;');
    const html = injectDevClient('<!DOCTYPE html><html><head><title>x</title></head><body><p>x</p></body></html>', {
      build: 'b.1',
      file: 'index.html',
      overlay,
    });
    expect(html).toContain(
      '<script type="module" src="/__site/dev-client.js?build=b.1&amp;file=index.html"></script></head>',
    );
    expect(html).toContain(`<body>${overlay}<p>x</p>`);
  });
});

describe('incremental rebuild, in-process: the same files as buildSite', () => {
  let site: TempSite;
  let builder: DevBuilder;
  const expectSameAsBuild = async () => {
    const fresh = await buildSite({ config: site.config, socialImages: false });
    expect(differences(builder.files!, fresh.files)).toEqual([]);
  };

  beforeAll(async () => {
    site = await createEditableSite();
    builder = createDevBuilder({ config: site.config });
  });
  afterAll(async () => {
    await builder?.dispose();
    await site?.cleanup();
  });

  it('builds everything the first time', async () => {
    const first = succeeded(await builder.rebuild());
    expect(first.rendered).toBe(first.pages);
    await expectSameAsBuild();
  });

  it('re-renders only the pages, lists and feeds that show an edited post', async () => {
    const file = join(site.dir, 'content', 'blog', slug, 'en.md');
    await edit(file, 'title: "Why repair beats recycling"', 'title: "Why repair beats recycling, every time"');
    const outcome = succeeded(await builder.rebuild([{ path: file }]));
    expect(outcome.reloaded).toEqual(['entries']);
    expect(outcome.rendered).toBeGreaterThan(0);
    expect(outcome.rendered).toBeLessThan(outcome.pages / 4);
    expect(outcome.changed).toContain(`blog/${slug}/index.html`);
    expect(outcome.changed).toContain('rss.xml');
    expect(outcome.changed).not.toContain('hub/index.html');
    await expectSameAsBuild();
  });

  it('re-renders only the pages of a post whose body changed, though every post lists others', async () => {
    const file = join(site.dir, 'content', 'blog', slug, 'en.md');
    await edit(file, '## A problem on a huge scale', '## A problem on an enormous scale');
    const outcome = succeeded(await builder.rebuild([{ path: file }]));
    // The post in each audience's blog; the lists and the other posts' end blocks read titles only.
    expect(outcome.rendered).toBeGreaterThan(0);
    expect(outcome.rendered).toBeLessThan(outcome.pages / 20);
    expect(outcome.changed).toContain(`blog/${slug}/index.html`);
    expect(outcome.changed).not.toContain('blog/index.html');
    await expectSameAsBuild();
  });

  it('re-renders the lists and the posts, not the rest of the site, when a post moves to the top of the lists', async () => {
    const file = join(site.dir, 'content', 'blog', slug, 'en.md');
    await edit(file, /^date: .*$/m, 'date: 2026-11-01\nupdated: 2026-11-02');
    const outcome = succeeded(await builder.rebuild([{ path: file }]));
    // Each post's end block names the newest posts of its category, so the order is what the posts
    // read too: the lists and the posts, about half the site; pages that list no posts stay.
    expect(outcome.rendered).toBeLessThan(outcome.pages * 0.6);
    expect(outcome.changed).not.toContain('hub/index.html');
    expect(outcome.changed).not.toContain('about/index.html');
    expect(outcome.changed).toContain('blog/index.html');
    await expectSameAsBuild();
  });

  it('re-renders only the locale of an edited message file', async () => {
    const file = join(site.dir, 'content', 'messages', 'no.yaml');
    await edit(file, /^skipToContent: .*$/m, 'skipToContent: Hopp rett ned til innholdet');
    const outcome = succeeded(await builder.rebuild([{ path: file }]));
    expect(outcome.reloaded).toEqual(['messages']);
    const norwegian = new Set(
      (await buildSite({ config: site.config, socialImages: false })).pages
        .filter((page) => page.locale === 'no')
        .map((page) => page.file),
    );
    expect(outcome.rendered).toBeLessThanOrEqual(norwegian.size);
    expect(outcome.changed.filter((path) => path.endsWith('.html')).filter((path) => !norwegian.has(path))).toEqual([]);
    await expectSameAsBuild();
  });

  it('re-renders the page of edited copy', async () => {
    const file = join(site.dir, 'content', 'pages', 'hub', 'product', 'en.yaml');
    await edit(file, /^title: (.*)$/m, 'title: $1 (edited)');
    const outcome = succeeded(await builder.rebuild([{ path: file }]));
    expect(outcome.reloaded).toEqual(['copy']);
    expect(outcome.changed).toContain('hub/product/index.html');
    expect(outcome.rendered).toBeLessThan(10);
    await expectSameAsBuild();
  });

  it('adds and removes the pages of a new post', async () => {
    const folder = join(site.dir, 'content', 'blog', 'a-brand-new-post');
    await mkdir(folder);
    const file = join(folder, 'en.md');
    await writeFile(
      file,
      '---\ntitle: "A brand new post"\ndescription: "Written during the test."\ndate: 2026-03-01\ncategory: circularity\nauthor: Test\n---\n\nHello.\n',
    );
    const added = succeeded(await builder.rebuild([{ path: folder, directory: true }, { path: file }]));
    expect(added.changed).toContain('blog/a-brand-new-post/index.html');
    await expectSameAsBuild();
    await rm(folder, { recursive: true });
    const removed = succeeded(await builder.rebuild([{ path: file }, { path: folder, directory: true }]));
    expect(removed.removed).toContain('blog/a-brand-new-post/index.html');
    await expectSameAsBuild();
  });

  it('updates only the file of a changed public/ file', async () => {
    const file = join(site.dir, 'public', 'dev-test.txt');
    await writeFile(file, 'added during the test\n');
    const outcome = succeeded(await builder.rebuild([{ path: file }]));
    expect(outcome.reloaded).toEqual(['styles']);
    expect(outcome.rendered).toBe(0);
    expect(outcome.changed).toEqual(['dev-test.txt']);
    await expectSameAsBuild();
  });

  it('swaps the stylesheet when only CSS changed', async () => {
    const file = join(site.dir, 'templates', 'styles', 'main.css');
    await writeFile(file, `${await readFile(file, 'utf8')}\n.dev-test-rule { color: rebeccapurple; }\n`);
    const outcome = succeeded(await builder.rebuild([{ path: file }]));
    expect(outcome.reloaded).toEqual(['styles']);
    expect(outcome.stylesheet?.from).toMatch(/^\/assets\/main\.\w+\.css$/);
    expect(outcome.stylesheet?.to).not.toBe(outcome.stylesheet?.from);
    await expectSameAsBuild();
  });

  it('rebuilds every page through the esbuild contexts when a template changes', async () => {
    const file = join(site.dir, 'templates', 'pages', 'NotFound.tsx');
    const text = await readFile(file, 'utf8');
    await writeFile(
      file,
      text.replace(
        /(export default function NotFound\(.*\)[^\n]*\{)$/m,
        '$1\n  const devTestMarker = "dev-test-marker";\n  void devTestMarker;',
      ),
    );
    const outcome = succeeded(await builder.rebuild([{ path: file }]));
    expect(outcome.reloaded).toContain('templates');
    expect(outcome.rendered).toBe(outcome.pages);
    await expectSameAsBuild();
  });

  it('rebuilds everything when the config changes', async () => {
    await edit(site.config, 'name: Mendwise', 'name: Mendwise Dev');
    const outcome = succeeded(await builder.rebuild([{ path: site.config }]));
    expect(outcome.reloaded).toContain('config');
    expect(outcome.rendered).toBe(outcome.pages);
    await expectSameAsBuild();
  });

  it('keeps the last good files on a broken file, with its position, and recovers when fixed', async () => {
    const file = join(site.dir, 'content', 'messages', 'en.yaml');
    const good = await readFile(file, 'utf8');
    const before = builder.files;
    await writeFile(file, `${good}broken: [unclosed\n`);
    const failed = await builder.rebuild([{ path: file }]);
    expect(failed.ok).toBe(false);
    if (failed.ok) return;
    expect(failed.errors[0]?.code).toBe('YAML_SYNTAX');
    expect(failed.errors[0]?.file).toMatch(/content[/\\]messages[/\\]en\.yaml$/);
    expect(failed.errors[0]?.line).toBeGreaterThan(1);
    expect(builder.files).toBe(before);
    await writeFile(file, `${good}# fixed\n`);
    const fixed = succeeded(await builder.rebuild([{ path: file }]));
    expect(fixed.changed).toEqual([]);
    await expectSameAsBuild();
  });
});

describe('deferred rendering: the open pages first, the others on request or when idle', () => {
  let site: TempSite;
  let builder: DevBuilder;
  beforeAll(async () => {
    site = await createEditableSite();
    builder = createDevBuilder({ config: site.config });
    succeeded(await builder.rebuild());
  });
  afterAll(async () => {
    await builder?.dispose();
    await site?.cleanup();
  });

  it('renders the open page of a template edit now and every other page when asked, to the files buildSite makes', async () => {
    const template = join(site.dir, 'templates', 'pages', 'NotFound.tsx');
    await edit(
      template,
      '<div className="container narrow not-found">',
      '<div className="container narrow not-found" data-edited="yes">',
    );
    const outcome = succeeded(
      await builder.rebuild([{ path: template }], { first: new Set(['hub/index.html', 'no/404.html']) }),
    );
    expect(outcome.rendered).toBe(2);
    expect(outcome.deferred).toBe(outcome.pages - 2);
    expect(builder.pending).toBe(outcome.deferred);
    expect(outcome.changed).toContain('no/404.html');

    const fresh = await buildSite({ config: site.config, socialImages: false });
    expect(String(builder.file('no/404.html'))).toContain('data-edited="yes"');
    // A deferred page is rendered when it is asked for, and only then.
    expect(String(builder.file('404.html'))).toBe(fresh.files.get('404.html'));
    expect(builder.pending).toBe(outcome.deferred - 1);
    expect(builder.renderPending(10)).toEqual([]);
    expect(builder.pending).toBe(outcome.deferred - 11);

    // The next change, with pages still deferred, renders those too: nothing is left stale.
    await edit(template, ' data-edited="yes"', ' data-edited="twice over"');
    const again = succeeded(await builder.rebuild([{ path: template }], { first: new Set(['hub/index.html']) }));
    expect(again.rendered).toBe(1);
    const now = await buildSite({ config: site.config, socialImages: false });
    expect(differences(builder.files!, now.files)).toEqual([]);
    expect(builder.pending).toBe(0);
  });

  it('renders a change of a few pages whole, open or not', async () => {
    const file = join(site.dir, 'content', 'blog', slug, 'en.md');
    await edit(file, 'title: "Why repair beats recycling"', 'title: "Why repair beats recycling, really"');
    const outcome = succeeded(await builder.rebuild([{ path: file }], { first: new Set(['hub/index.html']) }));
    expect(outcome.deferred).toBe(0);
    expect(outcome.rendered).toBeGreaterThan(2);
    expect(builder.pending).toBe(0);
  });
});

describe('the dev server in-process', () => {
  it('renders the open page first after a template edit, then the others while idle', async () => {
    const site = await createEditableSite();
    const built: RebuildOutcome[] = [];
    const dev = await startDevServer({
      config: site.config,
      port: 0,
      host: '127.0.0.1',
      reporter: { built: (_changes, outcome) => built.push(outcome) },
    });
    const stream = listen(`${dev.url}/__site/events?file=${encodeURIComponent('no/404.html')}`);
    try {
      await stream.ready;
      const template = join(site.dir, 'templates', 'pages', 'NotFound.tsx');
      await edit(
        template,
        '<div className="container narrow not-found">',
        '<div className="container narrow not-found" data-edited="yes">',
      );
      const reload = await until(() => stream.events.find((event) => event.name === 'reload'), 'the reload event');
      const outcome = succeeded(built.at(-1)!);
      expect(outcome.rendered).toBe(1);
      expect(outcome.deferred).toBe(outcome.pages - 1);
      expect(reload.data.files).toEqual(['no/404.html']);
      // A deferred page is rendered when it is asked for.
      expect(await (await fetch(`${dev.url}/404.html`)).text()).toContain('data-edited="yes"');
      // And every other one soon after, while the server is idle.
      await until(() => dev.builder.pending === 0, 'the deferred pages');
      expect(
        differences(dev.builder.files!, (await buildSite({ config: site.config, socialImages: false })).files),
      ).toEqual([]);
    } finally {
      stream.close();
      await dev.close();
      await site.cleanup();
    }
  });

  it('says when the port is taken and takes the next free one', async () => {
    const site = await createTempSite();
    const blocker: Server = createServer();
    await new Promise<void>((done) => blocker.listen(0, '127.0.0.1', done));
    const taken = (blocker.address() as AddressInfo).port;
    const notices: [number, number][] = [];
    try {
      const dev = await startDevServer({
        config: site.config,
        port: taken,
        host: '127.0.0.1',
        reporter: { portInUse: (port, next) => notices.push([port, next]) },
      });
      try {
        expect(notices[0]).toEqual([taken, taken + 1]);
        expect(new URL(dev.url).port).not.toBe(String(taken));
        expect((await fetch(`${dev.url}/`)).status).toBe(200);
      } finally {
        await dev.close();
      }
    } finally {
      await new Promise<void>((done) => blocker.close(() => done()));
      await site.cleanup();
    }
  });
});

/** Reads a server-sent event stream and keeps every event. */
function listen(url: string): {
  events: { name: string; data: Record<string, unknown> }[];
  close(): void;
  ready: Promise<void>;
} {
  const events: { name: string; data: Record<string, unknown> }[] = [];
  let buffer = '';
  let response: IncomingMessage | undefined;
  const request = get(url, { agent: false });
  const ready = new Promise<void>((done, fail) => {
    request.on('response', (incoming) => {
      response = incoming;
      incoming.setEncoding('utf8');
      incoming.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const name = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (name && data) events.push({ name, data: JSON.parse(data) as Record<string, unknown> });
        }
      });
      done();
    });
    request.on('error', fail);
  });
  return { events, ready, close: () => (response ? response.destroy() : request.destroy()) };
}

/** Every process whose ancestor is `pid` (from /proc). */
function descendantsOf(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // The process ended while we looked.
    }
  }
  const found: number[] = [];
  const visit = (parent: number) => {
    for (const [child, ppid] of parents) {
      if (ppid === parent && !found.includes(child)) {
        found.push(child);
        visit(child);
      }
    }
  };
  visit(pid);
  return found;
}

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('site dev as a child process', () => {
  let site: TempSite;
  let child: ChildProcess;
  let base: string;
  let stdout = '';
  let stderr = '';
  let stream: ReturnType<typeof listen>;
  let exit: Promise<number | null>;

  beforeAll(async () => {
    site = await createTempSite();
    child = spawn(process.execPath, [join(repoRoot, 'bin', 'site.js'), 'dev', '--port', '0', '--config', site.config], {
      cwd: site.dir,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    exit = new Promise((done) => child.once('exit', (code) => done(code)));
    child.stdout!.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    base = await until(
      () => /site dev at (http:\/\/\S+?)\/?$/m.exec(stdout)?.[1],
      `the dev server's address (stderr: ${stderr})`,
      90_000,
    );
    stream = listen(`${base}/__site/events`);
    await stream.ready;
    await until(() => stream.events.find((event) => event.name === 'state'), 'the first state event');
  });
  // A failed test says what the server printed and sent: a watcher that missed an edit, a build
  // that failed on another file, a stream that closed.
  afterEach(({ task }) => {
    if (task.result?.state !== 'fail') return;
    const events = stream?.events
      .slice(-12)
      .map((event) => `${event.name} ${JSON.stringify(event.data).slice(0, 300)}`);
    console.error(`site dev's stderr, the end:\n${stderr.slice(-4_000)}\nits last events:\n${events?.join('\n')}`);
  });
  afterAll(async () => {
    stream?.close();
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await site?.cleanup();
  });

  const page = async (path: string) => {
    const response = await fetch(`${base}${path}`);
    return { status: response.status, html: await response.text() };
  };
  const eventAfter = (index: number, name: string, test: (data: Record<string, unknown>) => boolean = () => true) =>
    until(
      () => stream.events.slice(index).find((event) => event.name === name && test(event.data)),
      `a "${name}" event`,
    );

  /** Whether the server's last build is good (`/__site/status`). */
  const healthy = async () => ((await (await fetch(`${base}/__site/status`)).json()) as { ok: boolean }).ok;

  /**
   * Runs `test`; when it fails, puts `file` back as `good` and waits (bounded) for a good build
   * before rethrowing, so that a failure here does not fail the tests after it.
   */
  const restoringOnFailure = async (file: string, good: string, test: () => Promise<void>) => {
    try {
      await test();
    } catch (error) {
      await writeFile(file, good);
      await until(healthy, 'a good build after the failure', 40_000).catch(() => undefined);
      throw error;
    }
  };

  it('serves the built pages with the dev client', async () => {
    const { status, html } = await page(`/blog/${slug}/`);
    expect(status).toBe(200);
    expect(html).toContain('Why repair beats recycling');
    expect(html).toContain('/__site/dev-client.js?');
    expect((await fetch(`${base}/__site/dev-client.js`)).status).toBe(200);
    const redirect = await fetch(`${base}/hub`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('/hub/');
    expect((await fetch(`${base}/no/arbeidskl%C3%A6r/`)).status).toBe(200);
  });

  it('serves an edited post and sends a reload event', async () => {
    const mark = stream.events.length;
    await edit(
      join(site.dir, 'content', 'blog', slug, 'en.md'),
      'title: "Why repair beats recycling"',
      'title: "Why repair beats recycling, live"',
    );
    const reload = await eventAfter(
      mark,
      'reload',
      (data) => (data.files as string[] | null)?.includes(`blog/${slug}/index.html`) ?? true,
    );
    expect(reload.data.urls).toContain(`/blog/${slug}/`);
    expect((await page(`/blog/${slug}/`)).html).toContain('Why repair beats recycling, live');
    await until(
      () => stderr.includes(`content/blog/${slug}/en.md → reloaded entries · rendered`),
      'the rebuild line in the terminal',
    );
  });

  it('shows the overlay for broken YAML while the last good pages still serve, and clears it once fixed', async () => {
    const file = join(site.dir, 'content', 'messages', 'en.yaml');
    const good = await readFile(file, 'utf8');
    await restoringOnFailure(file, good, async () => {
      const mark = stream.events.length;
      await writeFile(file, `${good}broken: [unclosed\n`);
      // A read between the truncation and the write of the file may report another problem first.
      const problem = await eventAfter(mark, 'problem', (data) => String(data.overlay).includes('YAML_SYNTAX'));
      expect(String(problem.data.overlay)).toContain('YAML_SYNTAX');
      expect(String(problem.data.overlay)).toMatch(/content\/messages\/en\.yaml:\d+:\d+/);

      const broken = await page('/hub/');
      expect(broken.status).toBe(200);
      expect(broken.html).toContain('role="alertdialog"');
      expect(broken.html).toContain('YAML_SYNTAX');
      expect(broken.html).toContain('<h1');
      expect(await (await fetch(`${base}/__site/status`)).json()).toMatchObject({ ok: false });
      await until(() => /YAML_SYNTAX\s+content\/messages\/en\.yaml:\d+:\d+/.test(stderr), 'the error in the terminal');

      // On a busy machine the watcher may see the fix before its write is whole, or be armed again
      // late (see below): the fix is written again, a little longer each time, until it is seen.
      // A build of a part of the file that parses has other messages, so it ends the problem with a
      // reload of the pages it changed rather than a "fixed": either clears the overlay.
      const fixMark = stream.events.length;
      let fixes = 0;
      await until(
        async () => {
          if (stream.events.slice(fixMark).some((event) => event.name === 'fixed' || event.name === 'reload'))
            return true;
          await writeFile(file, `${good}# fixed${'.'.repeat(fixes++)}\n`);
          await new Promise((done) => setTimeout(done, 2_000));
          return false;
        },
        'a "fixed" or "reload" event',
        40_000,
      );
      // A fix written after the one that was seen may still be read half-written: the server is
      // well once the last one is built.
      await until(healthy, 'a good status');
      const fixed = await page('/hub/');
      expect(fixed.status).toBe(200);
      expect(fixed.html).not.toContain('role="alertdialog"');
    });
  }, 120_000);

  it('answers the contact API', async () => {
    const response = await fetch(`${base}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.com',
        message: 'Hello from site dev.',
        type: 'repairer',
        locale: 'en',
      }),
    });
    expect(response.status).toBe(201);
  });

  it('answers the booking API: free slots, and a booking of one of them', async () => {
    const slots = (await (await fetch(`${base}/api/booking/slots?days=14`)).json()) as {
      timeZone: string;
      slots: { start: string }[];
    };
    expect(slots.timeZone).toBe('Europe/Oslo');
    expect(slots.slots.length).toBeGreaterThan(0);
    const response = await fetch(`${base}/api/booking`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        start: slots.slots[0]!.start,
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: 'ada@example.com',
        locale: 'en',
      }),
    });
    expect(response.status).toBe(201);
  });

  it('answers only to host names of this machine, and sends pages no absolute paths', async () => {
    const { port } = new URL(base);
    const asHost = (host: string) =>
      new Promise<number>((done, fail) => {
        const outgoing = get({ host: '127.0.0.1', port, path: '/hub/', headers: { host } }, (response) => {
          response.resume();
          done(response.statusCode ?? 0);
        });
        outgoing.on('error', fail);
      });
    expect(await asHost('evil.example')).toBe(403);
    expect(await asHost(`evil.example:${port}`)).toBe(403);
    expect(await asHost(`localhost:${port}`)).toBe(200);
    expect(await asHost(`127.0.0.1:${port}`)).toBe(200);

    const file = join(site.dir, 'content', 'blog', 'repair-as-a-retail-service', 'en.md');
    const good = await readFile(file, 'utf8');
    const mark = stream.events.length;
    await writeFile(file, good.replace(/^category: .*$/m, 'category: not-a-category'));
    try {
      const problem = await eventAfter(mark, 'problem', (data) => String(data.overlay).includes('FRONT_MATTER'));
      const status = await (await fetch(`${base}/__site/status`)).text();
      expect(status).toContain('FRONT_MATTER');
      for (const text of [status, String(problem.data.overlay)]) {
        expect(text).not.toContain(site.dir);
        expect(text).not.toContain(repoRoot);
      }
    } finally {
      // Fixed whatever happened above, so that the tests after this one build.
      const fixMark = stream.events.length;
      await writeFile(file, `${good}\n`);
      await eventAfter(fixMark, 'fixed');
    }
  });

  it('keeps answering while a large post is parsed, off the event loop', async () => {
    const table = `| a | b | c |\n|---|---|---|\n${'| 1 | 2 | 3 |\n'.repeat(12_000)}`;
    const mark = stream.events.length;
    await mkdir(join(site.dir, 'content', 'blog', 'big-table'), { recursive: true });
    await writeFile(
      join(site.dir, 'content', 'blog', 'big-table', 'en.md'),
      `---\ntitle: Big table\ndescription: A big table.\ndate: 2026-01-01\ncategory: saas\nauthor: Test\n---\n\n${table}`,
    );
    await until(() => stderr.includes('content/blog/big-table'), 'the rebuild to start');
    let slowest = 0;
    const done = eventAfter(mark, 'reload', (data) => (data.urls as string[]).includes('/blog/big-table/'));
    let finished = false;
    // Ends the loop below when the event came, or when waiting for it failed (then rethrown).
    void done.then(
      () => (finished = true),
      () => (finished = true),
    );
    while (!finished) {
      const started = performance.now();
      expect((await fetch(`${base}/hub/`)).status).toBe(200);
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((wait) => setTimeout(wait, 20));
    }
    await done;
    expect(slowest).toBeLessThan(1_000);
    expect((await page('/blog/big-table/')).status).toBe(200);
  });

  it('rebuilds after the content folder is deleted and restored, and watches it again', async () => {
    const content = join(site.dir, 'content');
    const away = join(site.dir, 'content-away');
    const gone = stream.events.length;
    await rename(content, away);
    let back = 0;
    try {
      await eventAfter(gone, 'problem', (data) => String(data.overlay).includes('content/messages'));
    } finally {
      back = stream.events.length;
      await rename(away, content);
    }
    // "fixed" when the restored content builds what the last good build had, "reload" when it
    // differs from it (an earlier edit still settling): either way the server is healthy again.
    await until(
      () => stream.events.slice(back).find((event) => event.name === 'fixed' || event.name === 'reload'),
      'the build after the restore',
    );
    expect(await (await fetch(`${base}/__site/status`)).json()).toMatchObject({ ok: true });
    // The folder's watchers are armed again asynchronously (on a busy machine, seconds later): an
    // edit is repeated until one is seen, and the watcher must see one within 20 s.
    const post = join(content, 'blog', 'repair-as-a-retail-service', 'en.md');
    const mark = stream.events.length;
    let title = '';
    let edits = 0;
    const seen = (data: Record<string, unknown>) =>
      (data.urls as string[]).includes('/blog/repair-as-a-retail-service/');
    await until(async () => {
      if (stream.events.slice(mark).some((event) => event.name === 'reload' && seen(event.data))) return true;
      title = `Watched again after the restore${' again'.repeat(edits++)}`;
      await edit(post, /^title: .*$/m, `title: "${title}"`);
      await new Promise((done) => setTimeout(done, 2_000));
      return false;
    }, 'a reload after an edit following the restore');
    await until(
      async () => (await page('/blog/repair-as-a-retail-service/')).html.includes(title),
      `the page with the last title "${title}"`,
    );
  });

  it('answers 404 for a deleted post', async () => {
    const mark = stream.events.length;
    await rm(join(site.dir, 'content', 'blog', slug), { recursive: true });
    await eventAfter(
      mark,
      'reload',
      (data) => (data.files as string[] | null)?.includes(`blog/${slug}/index.html`) ?? true,
    );
    const gone = await page(`/blog/${slug}/`);
    expect(gone.status).toBe(404);
    expect(gone.html).toContain('/__site/dev-client.js?');
  });

  it('exits with code 0 on SIGINT and leaves no process behind', async () => {
    const pid = child.pid!;
    const descendants = descendantsOf(pid);
    stream.close();
    child.kill('SIGINT');
    const code = await Promise.race([
      exit,
      new Promise<'timeout'>((done) => setTimeout(() => done('timeout'), 10_000)),
    ]);
    expect(code).toBe(0);
    await until(
      () => [pid, ...descendants].every((process) => !isAlive(process)),
      'every process of site dev to end',
      5_000,
    );
  });
});
