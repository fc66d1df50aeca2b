/**
 * `npm run bench:dev -- [--runs 7] [--posts 1000] [--keep]`
 *
 * Edit-to-reload latency of `site dev`: the time from a file written (its `writeFile` resolved) to
 * the reload event sent to the open page, and to that page served again (what a browser waits
 * for), for a post edit, a message edit and a template edit. One page per edit is open (an event
 * stream that names it, as the dev client's does); other pages a change touches are deferred. Runs
 * the dev server in this process (port 0) on two temp copies of the site: the demo site as it
 * is, and the demo site plus `--posts` generated posts (content/blog/<slug>/en.md). Each edit
 * changes the file's size; after two warm-up edits, the median of `--runs` edits counts.
 *
 * The temp sites live under tests/.output/ (inside the repository) because the templates they
 * copy import `typed-site/template` and resolve it, and their packages, from the repository.
 */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { get, type ClientRequest } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startDevServer, type DevServer } from '../src/dev/server.js';
import type { DevEvent } from '../src/dev/events.js';
import type { RebuildOutcome } from '../src/dev/rebuild.js';
import { logInfo, logResult } from '../src/logger.js';

// Bundled to lib/scripts/bench-dev.js by scripts/build-lib.js, two folders below the repository.
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** One kind of edit: which file, the page open meanwhile, and how the n-th edit rewrites it (always changing its size). */
interface EditKind {
  label: string;
  file: string;
  /** The output file of the open page (it shows the edit). */
  page: string;
  rewrite(text: string, n: number): string;
}

/** What one site measured for one kind of edit. */
interface Row {
  site: string;
  edit: string;
  runs: number[];
  /** File written → the open page served again. */
  served: number[];
  /** The incremental build's own time in each run. */
  builds: number[];
  rendered: string;
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** A plain-text table with aligned columns. */
function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((cell, index) => Math.max(cell.length, ...rows.map((row) => row[index]!.length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, index) => (index === 0 || index === 1 ? cell.padEnd(widths[index]!) : cell.padStart(widths[index]!)))
      .join('  ');
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

/** Copies the real site (config, content, templates, public) into a fresh folder under tests/.output. */
async function copySite(label: string): Promise<{ dir: string; config: string }> {
  const parent = join(root, 'tests', '.output');
  await mkdir(parent, { recursive: true });
  const dir = await mkdtemp(join(parent, `bench-dev-${label}-`));
  await Promise.all(
    ['content', 'templates', 'public'].map((folder) => cp(join(root, folder), join(dir, folder), { recursive: true })),
  );
  await cp(join(root, 'site.config.yaml'), join(dir, 'site.config.yaml'));
  return { dir, config: join(dir, 'site.config.yaml') };
}

/** Adds `count` generated English posts with valid front matter. */
async function addPosts(dir: string, count: number): Promise<void> {
  const config = await readFile(join(dir, 'site.config.yaml'), 'utf8');
  const categories = /categories:\s*\[([^\]]*)\]/
    .exec(config)?.[1]
    ?.split(',')
    .map((name) => name.trim().replace(/^["']|["']$/g, ''))
    .filter(Boolean) ?? ['circularity'];
  const paragraph = 'Repair keeps garments in use for longer, and a good repair service keeps customers coming back. ';
  await Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const slug = `generated-post-${String(index + 1).padStart(4, '0')}`;
      const day = new Date(Date.UTC(2024, 0, 1) + index * 86_400_000).toISOString().slice(0, 10);
      const text = [
        '---',
        `title: "Generated post ${index + 1}"`,
        `description: "A generated post for the dev server benchmark, number ${index + 1}."`,
        `date: ${day}`,
        `category: ${categories[index % categories.length]}`,
        'author: Bench',
        '---',
        '',
        `## Section one\n\n${paragraph.repeat(4)}\n`,
        `- first point\n- second point\n- third point\n`,
        `## Section two\n\n${paragraph.repeat(6)}\n`,
      ].join('\n');
      await mkdir(join(dir, 'content', 'blog', slug), { recursive: true });
      await writeFile(join(dir, 'content', 'blog', slug, 'en.md'), text);
    }),
  );
}

/** Holds the event stream an open page holds, naming its file as the dev client does. */
function openPage(base: string, file: string): ClientRequest {
  const request = get(`${base}/__site/events?file=${encodeURIComponent(file)}`, { agent: false }, (response) =>
    response.resume(),
  );
  request.on('error', () => undefined);
  return request;
}

/** Starts the dev server and resolves the next reload (or stylesheet) event after a write. */
async function measureSite(label: string, site: { dir: string; config: string }, runs: number): Promise<Row[]> {
  let waiting: { resolve: (at: number) => void } | undefined;
  let lastBuilt: RebuildOutcome | undefined;
  const started = performance.now();
  const dev: DevServer = await startDevServer({
    config: site.config,
    port: 0,
    host: '127.0.0.1',
    reporter: {
      built: (_changes, outcome) => (lastBuilt = outcome),
      sent(event: DevEvent) {
        if (event.name === 'reload' || event.name === 'css') waiting?.resolve(performance.now());
        if (event.name === 'problem')
          throw new Error(`the benchmark's edit broke the build: ${JSON.stringify(lastBuilt)}`);
      },
    },
  });
  logInfo(
    `${label}: first build of ${lastBuilt?.ok ? lastBuilt.pages : '?'} pages and server ready in ${Math.round(performance.now() - started)} ms`,
  );
  const kinds: EditKind[] = [
    {
      label: 'post',
      file: join(site.dir, 'content', 'blog', 'why-repair-beats-recycling', 'en.md'),
      page: 'blog/why-repair-beats-recycling/index.html',
      rewrite: (text, n) =>
        text.replace(
          /^title: "Why repair beats recycling.*"$/m,
          `title: "Why repair beats recycling${'!'.repeat(n + 1)}"`,
        ),
    },
    {
      label: 'message',
      file: join(site.dir, 'content', 'messages', 'en.yaml'),
      page: 'index.html',
      rewrite: (text, n) => text.replace(/^skipToContent: .*$/m, `skipToContent: Skip to content${'!'.repeat(n + 1)}`),
    },
    {
      label: 'template',
      file: join(site.dir, 'templates', 'pages', 'NotFound.tsx'),
      page: '404.html',
      // A visible change: the 404 pages' HTML changes, and every page is rendered again.
      rewrite: (text, n) =>
        text.replace(/(<div className="[^"]*not-found")( data-bench="[^"]*")?/, `$1 data-bench="${'x'.repeat(n + 1)}"`),
    },
  ];
  const rows: Row[] = [];
  try {
    for (const kind of kinds) {
      const original = await readFile(kind.file, 'utf8');
      const stream = openPage(dev.url, kind.page);
      const times: number[] = [];
      const served: number[] = [];
      const builds: number[] = [];
      let rendered = '';
      for (let n = 0; n < runs + 2; n++) {
        const next = kind.rewrite(await readFile(kind.file, 'utf8'), n);
        if (next.length === (await readFile(kind.file, 'utf8')).length)
          throw new Error(`the ${kind.label} edit does not change ${kind.file}`);
        const event = new Promise<number>((resolve) => (waiting = { resolve }));
        const timeout = setTimeout(() => waiting?.resolve(Number.NaN), 30_000);
        await writeFile(kind.file, next);
        const written = performance.now();
        const at = await event;
        clearTimeout(timeout);
        waiting = undefined;
        if (Number.isNaN(at)) throw new Error(`no reload event within 30 s after the ${kind.label} edit`);
        const page = await fetch(`${dev.url}/${kind.page.replace(/index\.html$/, '')}`);
        if (!(await page.text()).length) throw new Error(`the open page ${kind.page} came back empty`);
        const pageAt = performance.now();
        if (n >= 2) {
          times.push(at - written);
          served.push(pageAt - written);
          builds.push(lastBuilt?.ms ?? Number.NaN);
          if (process.env.BENCH_DEBUG && lastBuilt?.ok) logInfo(`${kind.label} ${JSON.stringify(lastBuilt.timings)}`);
        }
        if (lastBuilt?.ok) rendered = `${lastBuilt.rendered}/${lastBuilt.rendered + lastBuilt.deferred}`;
        // Let the watcher's re-check of the file pass before the next edit.
        await new Promise((done) => setTimeout(done, 120));
      }
      await writeFile(kind.file, original);
      await new Promise((done) => setTimeout(done, 300));
      stream.destroy();
      rows.push({ site: label, edit: kind.label, runs: times, served, builds, rendered });
    }
  } finally {
    await dev.close();
  }
  return rows;
}

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '7' },
    posts: { type: 'string', default: '1000' },
    keep: { type: 'boolean', default: false },
  },
});
const runs = Math.max(1, Number(values.runs));
const postCount = Math.max(0, Number(values.posts));

const demo = await copySite('demo');
const large = await copySite(`${postCount}-posts`);
try {
  await addPosts(large.dir, postCount);
  const rows = [
    ...(await measureSite('demo site', demo, runs)),
    ...(await measureSite(`demo + ${postCount} posts`, large, runs)),
  ];
  const table = formatTable(
    ['site', 'edit', 'reload event ms', 'min ms', 'max ms', 'page served ms', 'rebuild ms (median)', 'pages rendered'],
    rows.map((row) => [
      row.site,
      row.edit,
      median(row.runs).toFixed(1),
      Math.min(...row.runs).toFixed(1),
      Math.max(...row.runs).toFixed(1),
      median(row.served).toFixed(1),
      median(row.builds).toFixed(1),
      row.rendered,
    ]),
  );
  logResult(
    `Edit-to-reload latency of site dev (file written → reload event sent to the open page → that page served), median of ${runs} runs after 2 warm-up edits; "pages rendered" counts the pages rendered before the event, of the pages a change touches\n\n${table}`,
  );
} finally {
  if (!values.keep)
    await Promise.all([
      rm(demo.dir, { recursive: true, force: true }),
      rm(large.dir, { recursive: true, force: true }),
    ]);
}
