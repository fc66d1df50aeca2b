/**
 * The package as a second team gets it: `npm pack` of this repository, installed into an empty
 * project outside it (so nothing resolves from the checkout), then every command run there.
 * Nothing of the Mendwise site may ship, and nothing may need src/ or a compile step.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/paths';

const run = promisify(execFile);
const own = JSON.parse(await readFile(join(repoRoot, 'package.json'), 'utf8')) as { name: string; version: string };

/** The environment of a user's shell: no test settings, no cache override. */
function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['NODE_ENV', 'SITE_CACHE_DIR', 'VITEST', 'VITEST_POOL_ID', 'VITEST_WORKER_ID', 'NODE_OPTIONS', 'SITE_TEST_KILL_AFTER_STEP']) delete env[name];
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

/** Runs the installed `site` in the starter's folder. */
function cli(args: string[], options: { input?: string; cwd?: string } = {}) {
  const child = run(join(project, 'node_modules', '.bin', 'site'), args, { cwd: options.cwd ?? site, env: userEnv(), maxBuffer: 16 * 1024 * 1024 });
  if (options.input !== undefined) {
    child.child.stdin!.end(options.input);
  }
  return child;
}

/** Starts a long-running command and resolves with its address once it prints "… at http://…/". */
async function startLong(args: string[]): Promise<{ url: string; child: ChildProcess; output: () => string }> {
  const child = spawn(join(project, 'node_modules', '.bin', 'site'), args, { cwd: site, env: userEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
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
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: repoRoot, maxBuffer: 16 * 1024 * 1024 });
  // The prepack script's own output comes before the JSON.
  packed = (JSON.parse(stdout.slice(stdout.indexOf('\n[') + 1)) as Packed[])[0]!;
  tarball = join(work, packed.filename);
  project = join(work, 'project');
  await mkdir(project);
  await writeFile(join(project, 'package.json'), `${JSON.stringify({ name: 'second-team', private: true, type: 'module' }, null, 2)}\n`);
  await run('npm', ['install', tarball, '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], { cwd: project, env: userEnv(), maxBuffer: 16 * 1024 * 1024 });
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
    // No sources to compile (the engine's own screens are templates, bundled with the site's), no
    // tests, no Mendwise content or templates, no source maps; npm adds every folder's README.
    expect(paths.filter((path) => !path.endsWith('README.md') && /^(src\/(?!admin\/ui\/)|tests\/|content\/|templates\/|public\/|scripts\/|bench\/|site\.config\.yaml$)/.test(path))).toEqual([]);
    expect(paths.filter((path) => path.endsWith('.map'))).toEqual([]);
    expect(paths.filter((path) => /mendwise/i.test(path))).toEqual([]);
  });

  it('prints its own version', async () => {
    const { stdout } = await cli(['--version'], { cwd: project });
    expect(stdout.trim()).toBe(own.version);
  });

  it('makes a starter with site init, and refuses a folder that is not empty', async () => {
    const { stdout } = await cli(['init', 'site'], { cwd: project });
    expect(stdout).toContain('made a site in site');
    const files = await readdir(site);
    expect(files.sort()).toEqual(['.gitignore', 'README.md', 'content', 'package.json', 'public', 'site.config.yaml', 'templates', 'tsconfig.json']);
    const starter = JSON.parse(await readFile(join(site, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(starter.dependencies[own.name]).toBe(`^${own.version}`);
    const again = await cli(['init', 'site'], { cwd: project }).catch((error: { code: number; stderr: string }) => error);
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
    expect(existsSync(join(site, 'dist-vercel', 'config.json')) || existsSync(join(site, 'dist-vercel', 'static'))).toBe(true);
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
    await cli(['admin', 'add-user', 'editor@second-team.test', '--role', 'admin'], { input: 'a long enough password 1\n' });
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
