/**
 * The package as a second team gets it: `npm pack` of this repository into a folder outside it
 * (so nothing resolves from the checkout), then used there as its README says: `npx <tarball> init`,
 * `npm install` with no registry entry for the package, every optional feature turned on, every
 * target built, the project copied and moved with its cache and built again, and served. Also
 * installed one folder up (project/node_modules beside project/site), as a workspace would.
 * Nothing of the Mendwise site may ship, and nothing may need src/ or a compile step.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/paths';

const run = promisify(execFile);
const ownManifestText = await readFile(join(repoRoot, 'package.json'), 'utf8');
const own = JSON.parse(ownManifestText) as { name: string; version: string };

/** The environment of a user's shell: no test settings, no cache override. */
function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of [
    'NODE_ENV',
    'SITE_CACHE_DIR',
    'VITEST',
    'VITEST_POOL_ID',
    'VITEST_WORKER_ID',
    'NODE_OPTIONS',
    'SITE_TEST_KILL_AFTER_STEP',
  ])
    delete env[name];
  return env;
}

let work: string;
let project: string;
let site: string;
let tarball: string;
/** What `npm pack --json` says of the tarball. */
interface Packed {
  filename: string;
  files: { path: string; size: number }[];
  size: number;
  unpackedSize: number;
  entryCount: number;
}
let packed: Packed;

/** Runs the installed `site` (the project's, or `bin`) in the starter's folder (or `cwd`). */
function cli(args: string[], options: { input?: string; cwd?: string; bin?: string } = {}) {
  const child = run(options.bin ?? join(project, 'node_modules', '.bin', 'site'), args, {
    cwd: options.cwd ?? site,
    env: userEnv(),
    maxBuffer: 16 * 1024 * 1024,
  });
  if (options.input !== undefined) {
    child.child.stdin!.end(options.input);
  }
  return child;
}

/** Starts a long-running command and resolves with its address once it prints "… at http://…/". */
async function startLong(
  args: string[],
  options: { cwd?: string; bin?: string } = {},
): Promise<{ url: string; child: ChildProcess; output: () => string }> {
  const child = spawn(options.bin ?? join(project, 'node_modules', '.bin', 'site'), args, {
    cwd: options.cwd ?? site,
    env: userEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no address within 60 s:\n${output}`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = / at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code}:\n${output}`)));
  });
  return { url, child, output: () => output };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  await exited;
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'site-packed-'));
  // npm pack runs the prepack script: lib/ and its type declarations, built from the sources.
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], {
    cwd: repoRoot,
    maxBuffer: 16 * 1024 * 1024,
  });
  // The prepack script's own output comes before the JSON.
  packed = (JSON.parse(stdout.slice(stdout.indexOf('\n[') + 1)) as Packed[])[0]!;
  tarball = join(work, packed.filename);
  project = join(work, 'project');
  await mkdir(project);
  await writeFile(
    join(project, 'package.json'),
    `${JSON.stringify({ name: 'second-team', private: true, type: 'module' }, null, 2)}\n`,
  );
  await run('npm', ['install', tarball, '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], {
    cwd: project,
    env: userEnv(),
    maxBuffer: 16 * 1024 * 1024,
  });
  site = join(project, 'site');
}, 600_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the packed package', () => {
  it('holds what runs and nothing of the Mendwise site', () => {
    const paths = packed.files.map((file) => file.path);
    expect(paths).toContain('bin/site.js');
    expect(paths).toContain('lib/index.js');
    expect(paths).toContain('lib/template.js');
    expect(paths).toContain('lib/types/index.d.ts');
    expect(paths).toContain('schema/site.config.schema.json');
    expect(paths).toContain('starters/default/site.config.yaml');
    // No sources to compile (the engine's own screens, islands and Markdown components are templates, bundled with the site's), no
    // tests, no Mendwise content or templates, no source maps; npm adds every folder's README.
    expect(
      paths.filter(
        (path) =>
          !path.endsWith('README.md') &&
          /^(src\/(?!admin\/ui\/|content\/components\/|islands\/forms\/|islands\/SiteSearch\.tsx$)|tests\/|content\/|templates\/|public\/|scripts\/|bench\/|site\.config\.yaml$)/.test(
            path,
          ),
      ),
    ).toEqual([]);
    expect(paths.filter((path) => path.endsWith('.map'))).toEqual([]);
    expect(paths.filter((path) => /mendwise/i.test(path))).toEqual([]);
    // Every module the engine loads at run time: its islands (search, the forms) are bundled from their sources.
    expect(paths).toContain('src/islands/SiteSearch.tsx');
    expect(paths).toContain('src/islands/forms/ContactForm.tsx');
    expect(paths).toContain('lib/islands.js');
  });

  it("has a manifest without the repository's scripts, and depends on what the engine imports", async () => {
    const { stdout } = await run('tar', ['-xOzf', tarball, 'package/package.json']);
    const manifest = JSON.parse(stdout) as Record<string, unknown> & { dependencies: Record<string, string> };
    // No prepare/prepack naming files it does not ship (npm asked to approve them), no devDependencies.
    expect(manifest.scripts).toBeUndefined();
    expect(manifest.devDependencies).toBeUndefined();
    expect(manifest.allowScripts).toBeUndefined();
    expect(manifest.bin).toEqual({ site: 'bin/site.js' });
    // The Mendwise templates' own libraries are not every user's.
    expect(Object.keys(manifest.dependencies)).not.toContain('lucide-static');
    expect(Object.keys(manifest.dependencies)).not.toContain('qrcode');
    // The repository's manifest is back as it was.
    expect(await readFile(join(repoRoot, 'package.json'), 'utf8')).toBe(ownManifestText);
    expect(existsSync(join(repoRoot, '.package.json.repository'))).toBe(false);
  });

  it('prints its own version', async () => {
    const { stdout } = await cli(['--version'], { cwd: project });
    expect(stdout.trim()).toBe(own.version);
  });

  it('makes a starter with site init, and refuses a folder that is not empty', async () => {
    const { stdout } = await cli(['init', 'site'], { cwd: project });
    expect(stdout).toContain('made a site in site');
    const files = await readdir(site);
    expect(files.sort()).toEqual([
      '.gitignore',
      'README.md',
      'content',
      'package.json',
      'public',
      'site.config.yaml',
      'templates',
      'tsconfig.json',
    ]);
    // Installed from a tarball, the starter installs the package from that tarball too.
    const starter = JSON.parse(await readFile(join(site, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(starter.dependencies[own.name]).toBe(`file:../../${packed.filename}`);
    const again = await cli(['init', 'site'], { cwd: project }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect((again as { code: number }).code).toBe(2);
    expect((again as { stderr: string }).stderr).toContain('INIT_NOT_EMPTY');
  });

  it('checks and builds the starter: with workers, with one, and for every host', async () => {
    const check = await cli(['check']);
    expect(check.stdout).toMatch(/^ok: \d+ pages checked/m);
    const built = await cli(['build']);
    expect(built.stdout).toMatch(/built \d+ pages/);
    const home = await readFile(join(site, 'dist', 'index.html'), 'utf8');
    expect(home).toContain('<h1>Hello, world</h1>');
    expect(home).not.toMatch(/mendwise/i);
    expect(existsSync(join(site, 'dist', 'blog', 'hello-world', 'index.html'))).toBe(true);
    expect(existsSync(join(site, 'dist', 'rss.xml'))).toBe(true);
    await cli(['build', '--workers', '1', '--no-cache', '--out', 'dist-one-worker']);
    expect(await readFile(join(site, 'dist-one-worker', 'index.html'), 'utf8')).toBe(home);
    for (const target of ['netlify', 'cloudflare', 'vercel', 'github-pages']) {
      const { stdout } = await cli(['build', '--target', target, '--out', `dist-${target}`]);
      expect(stdout, target).toMatch(/built \d+ pages/);
    }
    expect(existsSync(join(site, 'dist-netlify', 'netlify', 'functions'))).toBe(true);
    expect(
      existsSync(join(site, 'dist-vercel', 'config.json')) || existsSync(join(site, 'dist-vercel', 'static')),
    ).toBe(true);
  }, 300_000);

  it('serves the starter with site dev', async () => {
    const dev = await startLong(['dev', '--port', '0', '--no-admin']);
    try {
      for (const path of ['/', '/about/', '/blog/', '/blog/hello-world/']) {
        const answer = await fetch(`${dev.url}${path}`);
        expect(answer.status, path).toBe(200);
        expect(await answer.text(), path).toContain('<main');
      }
      expect((await fetch(`${dev.url}/no-such-page/`)).status).toBe(404);
    } finally {
      await stop(dev.child);
    }
  }, 120_000);

  it('runs the admin with site serve --admin and an account from site admin add-user', async () => {
    await cli(['admin', 'add-user', 'editor@second-team.test', '--role', 'admin'], {
      input: 'a long enough password 1\n',
    });
    const serve = await startLong(['serve', '--admin', '--port', '0']);
    try {
      const signIn = await fetch(`${serve.url}/auth/`);
      expect(signIn.status).toBe(200);
      const login = await fetch(`${serve.url}/api/auth/login`, {
        method: 'POST',
        headers: { origin: serve.url, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'editor@second-team.test', password: 'a long enough password 1' }),
      });
      expect(login.status, await login.clone().text()).toBe(200);
      const cookie = String(login.headers.get('set-cookie')).split(';', 1)[0]!;
      const editor = await fetch(`${serve.url}/admin/blog/`, { headers: { cookie } });
      expect(editor.status).toBe(200);
      const posts = await fetch(`${serve.url}/api/admin/posts`, { headers: { cookie } });
      expect(posts.status).toBe(200);
      expect(JSON.stringify(await posts.json())).toContain('hello-world');
    } finally {
      await stop(serve.child);
    }
  }, 120_000);
});

/** `cp -a`: the copy keeps modification times, as a CI cache restore or a copied folder does. */
async function copyKeepingTimes(from: string, to: string): Promise<void> {
  await run('cp', ['-a', from, to]);
}

/** Every file of a folder with the SHA-256 of its bytes, for byte-for-byte comparison. */
async function snapshot(dir: string): Promise<Map<string, string>> {
  const files = (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
  const out = new Map<string, string>();
  for (const file of files.sort())
    out.set(
      file.slice(dir.length + 1),
      createHash('sha256')
        .update(await readFile(file))
        .digest('hex'),
    );
  return out;
}

/** The counts `site build --verbose` prints of what it took from the cache. */
function cacheUse(stderr: string): { esbuildCached: number; rendered: number; parsed: number } {
  return {
    esbuildCached: Number(/esbuild steps cached (\d+)/.exec(stderr)?.[1]),
    rendered: Number(/(\d+) pages rendered/.exec(stderr)?.[1]),
    parsed: Number(/markdown (\d+) parsed/.exec(stderr)?.[1]),
  };
}

describe('a site started as the README says, from the tarball', () => {
  let mySite: string;
  let bin: string;
  const built: Record<string, Map<string, string>> = {};

  it('npx <tarball> init writes a starter that npm install installs with no registry entry for the package', async () => {
    // As the README's "Start a new site": npx runs the package's CLI from the tarball.
    const made = await run(
      'npx',
      ['--yes', `./${packed.filename}`, 'init', 'my-site', '--locales', 'en,no', '--booking'],
      { cwd: work, env: userEnv(), maxBuffer: 16 * 1024 * 1024 },
    );
    mySite = join(work, 'my-site');
    bin = join(mySite, 'node_modules', '.bin', 'site');
    expect(made.stdout).toContain('made a site in my-site');
    expect(made.stdout).toContain(
      `npm install      (installs ${own.name} from file:../${packed.filename}, the tarball this ran from)`,
    );
    const manifest = JSON.parse(await readFile(join(mySite, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(manifest.dependencies[own.name]).toBe(`file:../${packed.filename}`);
    // No registry holds the package: npm install takes it from the tarball.
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], {
      cwd: mySite,
      env: userEnv(),
      maxBuffer: 16 * 1024 * 1024,
    });
    expect((await cli(['--version'], { cwd: mySite, bin })).stdout.trim()).toBe(own.version);
  }, 600_000);

  it('builds with every optional feature on, for every target', async () => {
    // Besides the contact and booking forms (init --booking) and localized paths (--locales en,no):
    // search, a counter, a redirect, an image in a post's Markdown, and a remark and a rehype
    // plugin from npm.
    await run(
      'npm',
      [
        'install',
        'remark-breaks',
        'rehype-autolink-headings',
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
        '--loglevel=error',
      ],
      { cwd: mySite, env: userEnv(), maxBuffer: 16 * 1024 * 1024 },
    );
    const configFile = join(mySite, 'site.config.yaml');
    const config = (await readFile(configFile, 'utf8')).replace(
      /^routes:\n/m,
      'routes:\n  - { path: /search, template: Search, content: search }\n',
    );
    await writeFile(
      configFile,
      `${config}
search: { enabled: true, path: /search }
analytics: { provider: plausible, domain: my-site.test }
redirects:
  - { from: /old-about, to: /about/ }
markdown:
  remarkPlugins: [remark-breaks]
  rehypePlugins: [[rehype-autolink-headings, { behavior: wrap }]]
`,
    );
    await writeFile(
      join(mySite, 'templates', 'pages', 'Search.tsx'),
      [
        "import { Island, SiteSearch, searchScriptUrl, z, type PageProps } from 'typed-site/template';",
        'const text = z.string().min(1);',
        'export const content = z.strictObject({ title: text, description: text, search: z.strictObject({ label: text, submit: text, noScript: text, searching: text, none: text, one: text, many: text, failed: text }) });',
        'export default function Search({ content }: PageProps<z.infer<typeof content>>) {',
        '  return <section><h1>{content.title}</h1><Island name="SiteSearch" component={SiteSearch} props={{ script: searchScriptUrl, text: content.search }} /></section>;',
        '}',
        '',
      ].join('\n'),
    );
    for (const locale of ['en', 'no']) {
      await mkdir(join(mySite, 'content', 'pages', 'search'), { recursive: true });
      await writeFile(
        join(mySite, 'content', 'pages', 'search', `${locale}.yaml`),
        [
          'title: Search',
          'description: Search the site.',
          'search: { label: Search, submit: Search, noScript: Search needs JavaScript., searching: Searching…, none: "Nothing for {query}.", one: "One page for {query}.", many: "{count} pages for {query}.", failed: Search failed. }',
          '',
        ].join('\n'),
      );
    }
    const post = join(mySite, 'content', 'blog', 'hello-world', 'en.md');
    await writeFile(
      post,
      `${await readFile(post, 'utf8')}\n## A heading to link\n\nOne line\nand the next.\n\n![A blue square](square.png)\n`,
    );
    const sharp = (await import('sharp')).default;
    await sharp({ create: { width: 640, height: 480, channels: 3, background: '#3b5bdb' } })
      .png()
      .toFile(join(mySite, 'content', 'blog', 'hello-world', 'square.png'));

    const check = await cli(['check'], { cwd: mySite, bin });
    expect(check.stdout).toMatch(/^ok: \d+ pages checked/m);
    // The edited post changed just now, as the build sees it (a slow check would let it settle):
    // its folder is then not kept by its stamps, and the build records what each page reads. A
    // build that found every entry settled would record each page as reading every input, and a
    // copy, which cannot keep this post (its image names the project's folder), would render
    // every page again (entry-snapshots.ts, written-output.ts).
    const now = new Date();
    for (const file of ['en.md', 'square.png'])
      await utimes(join(mySite, 'content', 'blog', 'hello-world', file), now, now);
    const first = await cli(['build', '--verbose'], { cwd: mySite, bin });
    expect(first.stdout).toMatch(/built \d+ pages/);
    const dist = join(mySite, 'dist');
    const html = await readFile(join(dist, 'blog', 'hello-world', 'index.html'), 'utf8');
    expect(html).toMatch(/<h2 id="a-heading-to-link"><a href="#a-heading-to-link">A heading to link<\/a><\/h2>/);
    expect(html).toContain('One line<br />');
    expect(html).toContain('https://plausible.io/js/script.js');
    expect(existsSync(join(dist, 'pagefind', 'pagefind.js'))).toBe(true);
    expect(await readFile(join(dist, 'search', 'index.html'), 'utf8')).toMatch(
      /<script type="module" src="\/assets\/SiteSearch\.[\w-]+\.js">/,
    );
    expect(existsSync(join(dist, 'no', 'om-oss', 'index.html'))).toBe(true);
    // The image of the post's Markdown, published in sizes with its dimensions.
    const picture = /<picture>.*?<\/picture>/s.exec(html)?.[0] ?? '';
    expect(picture).toMatch(/<img [^>]*alt="A blue square"/);
    expect(picture).toMatch(/width="640" height="480"/);
    expect(picture).toContain('loading="lazy"');
    for (const [, file] of picture.matchAll(/(\/assets\/images\/[^\s"]+\.(?:avif|webp|png))/g))
      expect(existsSync(join(dist, file!)), file).toBe(true);
    // The forms of typed-site/islands: the contact page's posts to /api/contact, the booking page's to the booking API.
    const contact = await readFile(join(dist, 'contact', 'index.html'), 'utf8');
    expect(contact).toMatch(/<form [^>]*action="\/api\/contact"/);
    expect(contact).toMatch(/<script type="module" src="\/assets\/ContactForm\.[\w-]+\.js">/);
    expect(await readFile(join(dist, 'no', 'book', 'index.html'), 'utf8')).toMatch(
      /<script type="module" src="\/assets\/BookingForm\.[\w-]+\.js">/,
    );
    built.node = await snapshot(dist);

    // The same site from one worker and no cache gives the same bytes.
    await cli(['build', '--workers', '1', '--no-cache', '--out', 'dist-one-worker'], { cwd: mySite, bin });
    expect(await snapshot(join(mySite, 'dist-one-worker'))).toEqual(built.node);
    for (const target of ['netlify', 'cloudflare', 'vercel', 'github-pages']) {
      const { stdout } = await cli(['build', '--target', target, '--out', `dist-${target}`], { cwd: mySite, bin });
      expect(stdout, target).toMatch(/built \d+ pages/);
    }
    expect(await readFile(join(mySite, 'dist-netlify', '_redirects'), 'utf8')).toContain('/old-about');
  }, 600_000);

  it('a copy, and the project moved once its first folder is gone, build from the cache into the same bytes', async () => {
    const copy = join(work, 'my-site-copy');
    await copyKeepingTimes(mySite, copy);
    const copied = await cli(['build', '--verbose'], { cwd: copy, bin: join(copy, 'node_modules', '.bin', 'site') });
    // Nothing bundled, parsed or rendered again (the templates, the stylesheet, the islands: search's and the admin's).
    expect(cacheUse(copied.stderr)).toEqual({ esbuildCached: 4, rendered: 0, parsed: 0 });
    expect(await snapshot(join(copy, 'dist'))).toEqual(built.node);

    // The first folder moved away (no file of it left at its path), then an edit: rendered with the moved project's React.
    const moved = join(work, 'moved', 'my-site');
    await mkdir(join(work, 'moved'));
    await run('mv', [mySite, moved]);
    const again = await cli(['build', '--verbose'], { cwd: moved, bin: join(moved, 'node_modules', '.bin', 'site') });
    expect(cacheUse(again.stderr)).toEqual({ esbuildCached: 4, rendered: 0, parsed: 0 });
    expect(await snapshot(join(moved, 'dist'))).toEqual(built.node);
    const home = join(moved, 'content', 'pages', 'home', 'en.yaml');
    await writeFile(home, (await readFile(home, 'utf8')).replace('Hello, world', 'Hello again'));
    const edited = await cli(['build', '--verbose'], { cwd: moved, bin: join(moved, 'node_modules', '.bin', 'site') });
    expect(cacheUse(edited.stderr).rendered).toBeGreaterThan(0);
    expect(await readFile(join(moved, 'dist', 'index.html'), 'utf8')).toContain('<h1>Hello again</h1>');
    mySite = moved;
    bin = join(moved, 'node_modules', '.bin', 'site');
  }, 300_000);

  it('serves it with site serve --admin right after a build, publishing nothing, and says how to sign in', async () => {
    await cli(['build'], { cwd: mySite, bin });
    const before = await snapshot(join(mySite, 'dist'));
    const serve = await startLong(['serve', '--admin', '--port', '0', '--verbose'], { cwd: mySite, bin });
    try {
      // The admin's line follows the address.
      for (let waited = 0; !serve.output().includes('admin: sign in') && waited < 10_000; waited += 50)
        await new Promise((done) => setTimeout(done, 50));
      expect(serve.output()).toMatch(
        /admin: sign in at http:\/\/127\.0\.0\.1:\d+\/auth\/ \(no account yet: add the first with `npx site admin add-user <email> --role admin`/,
      );
      expect(serve.output()).not.toContain('published');
      for (const path of ['/', '/about/', '/no/om-oss/', '/search/', '/blog/hello-world/', '/contact/', '/book/'])
        expect((await fetch(new URL(path.slice(1), serve.url))).status, path).toBe(200);
      const old = await fetch(new URL('old-about', serve.url), { redirect: 'manual' });
      expect(old.status).toBe(301);
      // The contact form's endpoint takes a message; the booking API offers slots.
      const sent = await fetch(new URL('api/contact', serve.url), {
        method: 'POST',
        headers: {
          origin: serve.url.replace(/\/$/, ''),
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body: JSON.stringify({
          firstName: 'Kari',
          lastName: 'Nordmann',
          email: 'kari@example.com',
          message: 'Hello',
          locale: 'en',
          page: '/contact/',
        }),
      });
      expect(sent.status, await sent.clone().text()).toBeLessThan(300);
      expect((await fetch(new URL('api/booking/slots?days=14', serve.url))).status).toBe(200);
    } finally {
      await stop(serve.child);
    }
    expect(await snapshot(join(mySite, 'dist'))).toEqual(before);
  }, 180_000);
});
