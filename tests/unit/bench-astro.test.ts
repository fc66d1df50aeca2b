/**
 * The Astro project `npm run bench -- --peers` builds (scripts/bench-corpus.ts) writes what the
 * other peers write: a page per post and the index, each post with its title, date, author and
 * its code blocks as plain <pre><code> (Shiki off, as Eleventy and site write them). Skipped until
 * the bench has installed bench/peers.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { astroFiles, createCorpus } from '../../scripts/bench-corpus';
import { repoRoot } from '../helpers/paths';

const modules = join(repoRoot, 'bench', 'peers', 'node_modules');
const installed = existsSync(join(modules, 'astro', 'astro.js'));
let dir: string | undefined;

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

it.skipIf(!installed)(
  'builds every post of the corpus and the index, code unhighlighted',
  async () => {
    dir = await mkdtemp(join(tmpdir(), 'bench-astro-'));
    const posts = createCorpus(3, { categories: ['a', 'b'], seed: 3, bodySize: 1500 });
    for (const [path, text] of astroFiles(posts)) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), text);
    }
    await symlink(modules, join(dir, 'node_modules'), 'dir');
    const result = spawnSync(process.execPath, [join(modules, 'astro', 'astro.js'), 'build', '--silent'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, ASTRO_TELEMETRY_DISABLED: '1' },
    });
    expect(result.status, result.stderr).toBe(0);

    const pages = (await readdir(join(dir, 'dist'), { recursive: true }))
      .filter((path) => path.endsWith('.html'))
      .sort();
    expect(pages).toEqual(['index.html', ...posts.map((post) => `posts/${post.slug}/index.html`)].sort());
    const post = posts[0]!;
    const html = await readFile(join(dir, 'dist', 'posts', post.slug, 'index.html'), 'utf8');
    expect(html).toContain(`<h1>${post.title}</h1>`);
    expect(html).toContain(`<time datetime="${post.date}">${post.date}</time> · By ${post.author}`);
    expect(html).toContain(`<link rel="canonical" href="https://bench.example/posts/${post.slug}/">`);
    expect(html).toMatch(/<pre><code class="language-\w+">const /);
    expect(html).not.toContain('astro-code');
    const index = await readFile(join(dir, 'dist', 'index.html'), 'utf8');
    for (const each of posts) expect(index).toContain(`<a href="/posts/${each.slug}/">${each.title}</a>`);
  },
  120_000,
);
