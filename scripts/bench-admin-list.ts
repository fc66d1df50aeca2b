/**
 * `node scripts/run.js bench-admin-list [--posts 20000]`: the admin's post list of `site serve
 * --admin` on a copy of the real site whose blog is the bench's synthetic corpus (an English and,
 * for nine in ten, a Norwegian translation of each post): the home page right after the start
 * (the server reads the lists then, in the background), the first page after the start (it waits
 * for that reading), then warm (kept: the posts' watchers say what changed), a search, the whole
 * list as one answer, and the first page after a restart. Over HTTP, signed in, as the screen asks.
 */
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createServeAdmin } from '../src/admin/mount.js';
import { addUser } from '../src/admin/users.js';
import { loadConfig } from '../src/config/load.js';
import { startServer } from '../src/serve/server.js';
import { fixedStoreSource, openSiteStore } from '../src/store/source.js';
import { createCorpus, realSiteBlogFiles } from './bench-corpus.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const categories = ['circularity', 'saas', 'retail', 'repairer-stories'];

/** One GET, read whole: its status, milliseconds and size. */
function get(url: string, cookie: string): Promise<{ status: number; ms: number; bytes: number; text: string }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    request(url, { headers: { cookie } }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({
          status: incoming.statusCode!,
          ms: performance.now() - started,
          bytes: body.length,
          text: body.toString('utf8'),
        });
      });
      incoming.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { posts: { type: 'string', default: '20000' } } });
  const count = Number(values.posts);
  const work = await mkdtemp(join(tmpdir(), 'bench-admin-list-'));
  try {
    await cp(join(root, 'content'), join(work, 'content'), { recursive: true });
    await rm(join(work, 'content', 'blog'), { recursive: true, force: true });
    const config = (await readFile(join(root, 'site.config.yaml'), 'utf8')).replace(
      /^site:/m,
      `paths:\n  templates: ${JSON.stringify(join(root, 'templates'))}\n  public: ${JSON.stringify(join(root, 'public'))}\n\nsite:`,
    );
    await writeFile(join(work, 'site.config.yaml'), config);
    // The config names its fonts by package path: the copy finds them as bench.ts's copy does.
    await symlink(join(root, 'node_modules'), join(work, 'node_modules'), 'dir');
    const files = realSiteBlogFiles(
      createCorpus(count, { categories, seed: 1, bodySize: 1500 }),
      createCorpus(count, { categories, seed: 2, bodySize: 1500 }),
    );
    for (const folder of new Set([...files.keys()].map((path) => dirname(join(work, path)))))
      await mkdir(folder, { recursive: true });
    const entries = [...files.entries()];
    let next = 0;
    const writer = async () => {
      while (next < entries.length) {
        const [path, text] = entries[next++]!;
        await writeFile(join(work, path), text);
      }
    };
    await Promise.all(Array.from({ length: 16 }, writer));
    // The list needs no built pages: a folder with a home page is enough to serve.
    const dist = join(work, 'dist');
    await mkdir(dist, { recursive: true });
    await writeFile(join(dist, 'index.html'), '<!doctype html><title>bench</title>');

    const loaded = await loadConfig(join(work, 'site.config.yaml'));
    const store = fixedStoreSource(await openSiteStore(loaded));
    const email = 'bench@example.com';
    const password = 'bench password 123';
    await addUser(await store.get(), email, 'editor', password, { N: 1024, r: 8, p: 1 });
    /** `site serve --admin` on the copy: it begins reading the lists when it starts listening. */
    const start = async () => {
      const admin = createServeAdmin({
        projectRoot: work,
        store,
        origin: loaded.site.origin,
        posts: { config: () => loaded },
      });
      return startServer({ config: loaded, dir: dist, port: 0, host: '127.0.0.1', admin, store });
    };
    const signIn = (url: string) =>
      new Promise<{ cookie: string }>((resolve, reject) => {
        const outgoing = request(
          `${url}/api/auth/login`,
          { method: 'POST', headers: { origin: url, 'content-type': 'application/json' } },
          (incoming) => {
            incoming.resume();
            incoming.on('end', () => resolve({ cookie: String(incoming.headers['set-cookie']).split(';', 1)[0]! }));
          },
        );
        outgoing.on('error', reject);
        outgoing.end(JSON.stringify({ email, password }));
      });
    const line = (label: string, ms: number, bytes: number) =>
      process.stdout.write(
        `${label.padEnd(66)} ${ms.toFixed(0).padStart(6)} ms ${(bytes / 1024).toFixed(0).padStart(6)} KB\n`,
      );
    let server = await start();
    const started = performance.now();
    try {
      // The site's home page while the lists are read: the server keeps answering.
      const home = await get(`${server.url}/`, '');
      const login = await signIn(server.url);
      const list = (query: string) => get(`${server.url}/api/admin/posts${query}`, login.cookie);
      const cold = await list('?limit=50');
      const coldAfter = performance.now() - started;
      const warm: number[] = [];
      for (let run = 0; run < 5; run++) warm.push((await list('?limit=50&offset=100')).ms);
      warm.sort((a, b) => a - b);
      const search = await list('?q=repair&status=published&locale=no&limit=50');
      const whole = await list('');
      const page = JSON.parse(cold.text) as { total: number; posts: unknown[] };
      process.stdout.write(`admin post list, ${count} posts (${files.size} files), total ${page.total}\n`);
      line('the home page, right after the start (the lists being read)', home.ms, home.bytes);
      line(
        `first page after a start (waits for the reading begun then; answered ${(coldAfter / 1000).toFixed(1)} s after it)`,
        cold.ms,
        cold.bytes,
      );
      line('a page, warm (median of 5; what a watcher says is unchanged kept)', warm[2]!, cold.bytes);
      line(
        `search + status + locale, warm (${(JSON.parse(search.text) as { total: number }).total} match)`,
        search.ms,
        search.bytes,
      );
      line('the whole list as one answer, warm (no ?limit)', whole.ms, whole.bytes);
      // A restart on the same project: the files in the system's cache, the translations' baseline kept in .site/.
      await server.close();
      server = await start();
      const again = await signIn(server.url);
      const restarted = await get(`${server.url}/api/admin/posts?limit=50`, again.cookie);
      line('first page after a restart (waits for the reading begun at the start)', restarted.ms, restarted.bytes);
    } finally {
      await server.close();
      await store.close();
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

await main();
