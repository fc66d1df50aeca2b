/**
 * `site build` never destroys what it did not make: output folders that hold the project or
 * anything else are refused with exit 2, and a build killed (SIGKILL) at any step of switching
 * to the new output leaves a folder that recovers to the old or the new site, never a mix.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load';
import { recoverOutput } from '../../src/emit/write';
import { startServer, type RunningServer } from '../../src/serve/server';
import { createTempSite, type TempSite } from '../helpers/fixture-site';
import { outputRoot, repoRoot } from '../helpers/paths';
import { listFiles } from '../helpers/site-files';
import { storeIn } from '../helpers/store';

const run = promisify(execFile);
const siteBin = join(repoRoot, 'bin', 'site.js');

/** Runs the CLI in `cwd`; resolves with the exit code (or signal) and the output. */
function site(
  cwd: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('node', [siteBin, ...args], { cwd, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Every file of a folder with its bytes, as one comparable list. */
async function contents(dir: string): Promise<[string, string][]> {
  const files = await listFiles(dir);
  return Promise.all(
    files.map(async (file): Promise<[string, string]> => [file, (await readFile(join(dir, file))).toString('base64')]),
  );
}

describe('output folders site build refuses', () => {
  let temp: TempSite;
  beforeAll(async () => {
    temp = await createTempSite();
    await run('git', ['init', '-q'], { cwd: temp.dir });
    await writeFile(join(temp.dir, 'notes.txt'), 'my own notes');
  });
  afterAll(() => temp.cleanup());

  it('refuses the project folder, a folder above it and a source folder with exit 2, deleting nothing', async () => {
    const before = await contents(temp.dir);
    for (const [out, reason] of [
      ['.', 'it is the project'],
      ['..', 'it holds the project'],
      ['content', 'it is the content folder'],
      ['content/pages', 'it is inside the content folder'],
    ] as const) {
      const result = await site(temp.dir, ['build', '--out', out]);
      expect(result.code, out).toBe(2);
      expect(result.stderr, out).toContain(`OUTPUT_UNSAFE  refusing to write the site into ${out}: ${reason}`);
    }
    expect(await contents(temp.dir)).toEqual(before);
  });

  it('refuses a folder that holds files it did not write, and a file, with exit 2', async () => {
    await mkdir(join(temp.dir, 'photos'));
    await writeFile(join(temp.dir, 'photos', 'cat.jpg'), 'not really a cat');
    const folder = await site(temp.dir, ['build', '--out', 'photos']);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toContain('it holds 1 entry that site build did not write (no .site-output file in it)');
    expect(await readFile(join(temp.dir, 'photos', 'cat.jpg'), 'utf8')).toBe('not really a cat');
    const file = await site(temp.dir, ['build', '--out', 'notes.txt']);
    expect(file.code).toBe(2);
    expect(file.stderr).toContain('it is a file, not a folder');
    expect(await readFile(join(temp.dir, 'notes.txt'), 'utf8')).toBe('my own notes');
  });

  it("refuses the admin's state folder (.site: accounts, audit log) as the output, and site serve refuses a folder holding them", async () => {
    for (const [out, reason] of [
      ['.site', "it is the admin's accounts and audit log"],
      ['.site/public', "it is inside the admin's accounts and audit log"],
    ] as const) {
      const result = await site(temp.dir, ['build', '--out', out]);
      expect(result.code, out).toBe(2);
      expect(result.stderr, out).toContain(`OUTPUT_UNSAFE  refusing to write the site into ${out}: ${reason}`);
    }
    expect(existsSync(join(temp.dir, '.site', '.site-output'))).toBe(false);
    // A folder that holds an accounts file (copied there, or an admin pointed at it) is never served.
    expect((await site(temp.dir, ['build', '--out', 'served'])).code).toBe(0);
    await writeFile(join(temp.dir, 'served', 'admins.json'), '[]');
    const serve = await site(temp.dir, ['serve', '--dir', 'served', '--port', '0']);
    expect(serve.code).toBe(2);
    expect(serve.stderr).toContain('OUTPUT_UNSAFE  refusing to serve');
    expect(serve.stderr).toContain('admins.json');
    await rm(join(temp.dir, 'served'), { recursive: true });
  });

  it('builds into a new folder, marks it, and rebuilds into it', async () => {
    const first = await site(temp.dir, ['build', '--out', 'public-site']);
    expect(first.code).toBe(0);
    expect(await readFile(join(temp.dir, 'public-site', '.site-output'), 'utf8')).toContain('written by `site build`');
    const again = await site(temp.dir, ['build', '--out', 'public-site']);
    expect(again.code).toBe(0);
  });

  it('refuses a config whose contact.dataDir is inside the output folder, at its line', async () => {
    const config = await readFile(temp.config, 'utf8');
    await writeFile(temp.config, config.replace('dataDir: data', 'dataDir: dist/submissions'));
    const result = await site(temp.dir, ['check']);
    await writeFile(temp.config, config);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /CONFIG_INVALID  site\.config\.yaml:\d+:\d+  contact\.dataDir  contact\.dataDir overlaps the output folder \(output\.dir\)/,
    );
  });
});

describe('a build killed at any step of the switch', () => {
  let dir: string;
  const out = () => join(dir, 'dist');
  const post = (title: string, body: string) =>
    `---\ntitle: ${title}\ndescription: A post.\ndate: 2026-01-01\ncategory: saas\nauthor: Test\n---\n\n${body}\n`;
  const writePosts = async (posts: Record<string, string>) => {
    await rm(join(dir, 'content', 'blog'), { recursive: true, force: true });
    for (const [slug, text] of Object.entries(posts)) {
      await mkdir(join(dir, 'content', 'blog', slug), { recursive: true });
      await writeFile(join(dir, 'content', 'blog', slug, 'en.md'), text);
    }
  };
  const oldPosts = {
    alpha: post('Alpha', 'First.'),
    bravo: post('Bravo', 'Second.'),
    charlie: post('Charlie', 'Third.'),
  };
  const newPosts = {
    alpha: post('Alpha', 'First, edited.'),
    bravo: post('Bravo', 'Second.'),
    delta: post('Delta', 'Fourth.'),
  };

  beforeAll(async () => {
    await mkdir(outputRoot, { recursive: true });
    dir = await mkdtemp(join(outputRoot, 'killed-'));
    const fixture = join(repoRoot, 'bench', 'fixture');
    await cp(join(fixture, 'content'), join(dir, 'content'), { recursive: true });
    const config = (await readFile(join(fixture, 'site.config.yaml'), 'utf8')).replace(
      /^site:/m,
      `paths:\n  templates: ${JSON.stringify(join(fixture, 'templates'))}\n  public: ${JSON.stringify(join(fixture, 'public'))}\n\nsite:`,
    );
    await writeFile(join(dir, 'site.config.yaml'), config);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('recovers to the old or the new site, whatever step the SIGKILL hit', async () => {
    await writePosts(newPosts);
    expect((await site(dir, ['build', '--out', 'expected', '--no-precompress'])).code).toBe(0);
    const wanted = await contents(join(dir, 'expected'));
    await writePosts(oldPosts);
    expect((await site(dir, ['build', '--out', 'previous', '--no-precompress'])).code).toBe(0);
    const old = await contents(join(dir, 'previous'));

    const outcomes: string[] = [];
    for (let step = 1; step < 30; step++) {
      await rm(out(), { recursive: true, force: true });
      await cp(join(dir, 'previous'), out(), { recursive: true });
      await writePosts(newPosts);
      const result = await site(dir, ['build', '--no-precompress'], { SITE_TEST_KILL_AFTER_STEP: String(step) });
      if (result.signal === null) {
        expect(result.code, result.stderr).toBe(0);
        break;
      }
      expect(result.signal).toBe('SIGKILL');
      recoverOutput(out());
      const now = await contents(out());
      if (JSON.stringify(now) === JSON.stringify(old)) outcomes.push('old');
      else {
        expect(now, `killed after step ${step}: a mix of the two sites`).toEqual(wanted);
        outcomes.push('new');
      }
      // Nothing is left beside the output: no lock, no journal, no staging folder.
      expect(
        (await listFiles(dir)).filter((file) => file.startsWith('.')),
        `after step ${step}`,
      ).toEqual([]);
    }
    // The journal, the renames of the changed pages and the removal of the old post's page:
    // each was hit once, and each recovered to the new site.
    expect(outcomes.length).toBeGreaterThanOrEqual(4);
    expect(new Set(outcomes)).toEqual(new Set(['new']));
    // And the next build after a kill simply finishes the job.
    await rm(out(), { recursive: true, force: true });
    await cp(join(dir, 'previous'), out(), { recursive: true });
    expect((await site(dir, ['build', '--no-precompress'], { SITE_TEST_KILL_AFTER_STEP: '2' })).signal).toBe('SIGKILL');
    expect((await site(dir, ['build', '--no-precompress'])).code).toBe(0);
    expect(await contents(out())).toEqual(wanted);
  });

  it('a running site serve repairs the folder before its next answer: pages are all old or all new, never a mix', async () => {
    const config = await loadConfig(join(dir, 'site.config.yaml'));
    const store = await storeIn(await mkdtemp(join(outputRoot, 'data-')));
    const page = async (server: RunningServer, path: string) => {
      const answer = await fetch(`${server.url}${path}`);
      const html = await answer.text();
      return answer.status !== 200 ? 'gone' : html.includes('First, edited.') ? 'edited' : 'there';
    };
    const seen: string[] = [];
    for (let step = 1; step < 30; step++) {
      await rm(out(), { recursive: true, force: true });
      await writePosts(oldPosts);
      expect((await site(dir, ['build', '--no-precompress'])).code).toBe(0);
      const server = await startServer({
        config,
        store,
        dir: out(),
        port: 0,
        host: '127.0.0.1',
        limits: { shutdownGraceMs: 100 },
      });
      try {
        await writePosts(newPosts);
        const result = await site(dir, ['build', '--no-precompress'], { SITE_TEST_KILL_AFTER_STEP: String(step) });
        if (result.signal === null) break;
        // alpha changed, charlie went, delta came: one site's answers, whichever it is.
        const answers = [
          await page(server, '/posts/alpha/'),
          await page(server, '/posts/charlie/'),
          await page(server, '/posts/delta/'),
        ];
        const served = JSON.stringify(answers);
        expect(
          [JSON.stringify(['there', 'there', 'gone']), JSON.stringify(['edited', 'gone', 'there'])],
          `killed after step ${step}: ${served}`,
        ).toContain(served);
        seen.push(answers[0]!);
        expect(
          (await listFiles(dir)).filter((file) => file.startsWith('.')),
          `after step ${step}`,
        ).toEqual([]);
      } finally {
        await server.close();
      }
    }
    await store.close();
    expect(seen.length).toBeGreaterThanOrEqual(4);
  });
});

describe('site build --origin', () => {
  it('refuses an origin that is not a scheme and host as a usage error (OPTION_INVALID, exit code 2), before writing anything', async () => {
    const temp = await createTempSite();
    try {
      const result = await site(temp.dir, ['build', '--out', 'out', '--origin', 'https://example.com/preview']);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('OPTION_INVALID  site.origin  the origin from --origin is not a scheme and host');
      expect(result.stderr).toContain('https://example.com, without a path');
      await expect(readFile(join(temp.dir, 'out', 'index.html'))).rejects.toThrow();
      const fromEnv = await site(temp.dir, ['build', '--out', 'out'], { SITE_ORIGIN: 'preview.example' });
      expect(fromEnv.code).toBe(2);
      expect(fromEnv.stderr).toContain('SITE_ORIGIN');
    } finally {
      await temp.cleanup();
    }
  });
});
