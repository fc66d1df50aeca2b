/**
 * Save-to-live time of `site serve --admin`: from the moment a blog save is sent until the
 * server serves the new page and, on a site with search, the new search index (its entry file
 * names other index files; that the index holds the saved word is checked once the saves are done). The site is built and written like `site build`, served with the
 * admin and its live pipeline in this process, and one post's title is edited through the API
 * (the median of several saves counts).
 */
import { readdir, readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createLiveSite } from '../src/admin/live-site.js';
import { createServeAdmin } from '../src/admin/mount.js';
import { addUser } from '../src/admin/users.js';
import { buildSite } from '../src/build.js';
import { loadConfig } from '../src/config/load.js';
import { listEntrySlugs } from '../src/content/collections.js';
import { writeSite } from '../src/emit/write.js';
import { startServer } from '../src/serve/server.js';
import { fixedStoreSource, openSiteStore } from '../src/store/source.js';

/** One answer, read whole. */
function send(
  url: string,
  method: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; text: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method, headers }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () =>
        resolve({
          status: incoming.statusCode!,
          text: Buffer.concat(chunks).toString('utf8'),
          headers: incoming.headers,
        }),
      );
      incoming.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** Whether a word is in one of the index chunks (gzipped) of a Pagefind bundle, its parts' (pagefind/<language>-<n>/index/) included. */
export async function searchIndexHolds(bundle: string, word: string): Promise<boolean> {
  for (const entry of await readdir(bundle, { recursive: true }))
    if (entry.endsWith('.pf_index') && gunzipSync(await readFile(join(bundle, entry))).includes(word)) return true;
  return false;
}

/** Median save-to-live milliseconds of `saves` edits of one post of the site in `siteDir` (the working directory is changed for the run). */
export async function measureSaveToLive(
  siteDir: string,
  saves: number,
): Promise<{ ms: number; pages: number; note: string }> {
  const previous = process.cwd();
  process.chdir(siteDir);
  const dist = join(siteDir, 'dist');
  const configPath = join(siteDir, 'site.config.yaml');
  const built = await buildSite({ config: configPath });
  await writeSite(dist, built.files);
  const live = createLiveSite({ config: configPath, dir: dist });
  await live.start();
  const config = await loadConfig(configPath);
  const email = 'bench@example.com';
  const password = 'bench password 123';
  const store = fixedStoreSource(await openSiteStore(config));
  await addUser(await store.get(), email, 'editor', password, { N: 1024, r: 8, p: 1 }).catch(() => undefined);
  const admin = createServeAdmin({ projectRoot: siteDir, store, origin: config.site.origin, site: live });
  const server = await startServer({
    config,
    dir: dist,
    port: 0,
    host: '127.0.0.1',
    admin,
    store,
    limits: { shutdownGraceMs: 100 },
  });
  try {
    const json = { origin: server.url, 'content-type': 'application/json' };
    const login = await send(`${server.url}/api/auth/login`, 'POST', json, JSON.stringify({ email, password }));
    const cookie = String(login.headers['set-cookie']).split(';', 1)[0]!;
    const csrf = (JSON.parse(login.text) as { csrfToken: string }).csrfToken;
    const slugs = await listEntrySlugs(config, 'blog');
    const slug = slugs[Math.floor(slugs.length / 2)]!;
    const times: number[] = [];
    let rendered = '';
    let word = '';
    const searchEntry = `${server.url}/pagefind/pagefind-entry.json`;
    for (let save = 1; save <= saves; save++) {
      const post = JSON.parse((await send(`${server.url}/api/admin/posts/${slug}/en`, 'GET', { cookie })).text) as {
        frontMatter: Record<string, unknown>;
        body: string;
        version: string;
      };
      const title = `Benchmark title ${save}`;
      word = `benchsaved${save}x${Date.now()}`;
      const entryBefore = config.search.enabled ? (await send(searchEntry, 'GET')).text : undefined;
      const started = performance.now();
      const saved = await send(
        `${server.url}/api/admin/posts/${slug}/en`,
        'PUT',
        { ...json, cookie, 'x-csrf-token': csrf, 'if-match': `"${post.version}"` },
        JSON.stringify({ frontMatter: { ...post.frontMatter, title }, body: `${post.body}\n\nSaved ${word}.\n` }),
      );
      if (saved.status !== 200) throw new Error(`save ${save} failed: ${saved.status} ${saved.text}`);
      for (;;) {
        const page = await send(`${server.url}/blog/${slug}/`, 'GET');
        if (page.text.includes(title)) break;
      }
      while (entryBefore !== undefined && (await send(searchEntry, 'GET')).text === entryBefore);
      times.push(performance.now() - started);
      rendered = `rebuild ${(JSON.parse(saved.text) as { ms?: number }).ms ?? '?'} ms`;
    }
    times.sort((a, b) => a - b);
    if (config.search.enabled && !(await searchIndexHolds(join(dist, 'pagefind'), word)))
      throw new Error(`the served search index does not hold the saved word ${word}`);
    return {
      ms: times[Math.floor(times.length / 2)]!,
      pages: built.pages.length,
      note: `median of ${saves} saves of one post, request to new page${config.search.enabled ? ' and new search index' : ''} served (the index holds the saved text); last ${rendered}`,
    };
  } finally {
    await server.close();
    await store.close();
    await live.dispose();
    process.chdir(previous);
  }
}
