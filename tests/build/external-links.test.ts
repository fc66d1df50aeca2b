/**
 * `site check --external` against a throw-away HTTP server on 127.0.0.1: a 404 and an address
 * that does not answer in time are LINK_EXTERNAL warnings at each place they are written (the
 * check still succeeds); a 200 passes; a HEAD answered 405 is asked again with GET; at most
 * `concurrency` requests are in flight; the answers are kept a day in the build cache, so a
 * second check that day asks nobody, and one a day later asks again.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, silentLogger } from '../../src/api';
import { openDiskCache } from '../../src/cache/disk-cache';
import { fixturesRoot, outputRoot, repoRoot } from '../helpers/paths';

const run = promisify(execFile);
const post = 'content/blog/first-post/en.md';

describe('site check --external', () => {
  let dir: string;
  let server: Server;
  let origin: string;
  /** The second line of web links added to the post (line 13). */
  let secondLine: string;
  const requests: string[] = [];
  let inFlight = 0;
  let mostInFlight = 0;

  beforeAll(async () => {
    server = createServer((request, response) => {
      requests.push(`${request.method} ${request.url}`);
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      const answer = (status: number) => {
        inFlight--;
        response.writeHead(status, { 'content-type': 'text/plain' }).end(request.method === 'GET' ? 'body' : undefined);
      };
      if (request.url === '/missing') answer(404);
      else if (request.url === '/no-head') answer(request.method === 'HEAD' ? 405 : 200);
      else if (request.url === '/slow') setTimeout(() => answer(200), 1_500);
      else setTimeout(() => answer(200), 50);
    });
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await mkdir(outputRoot, { recursive: true });
    dir = await mkdtemp(join(outputRoot, 'external-'));
    await cp(join(fixturesRoot, 'links-site'), dir, { recursive: true });
    const text = await readFile(join(dir, post), 'utf8');
    const pages = [1, 2, 3, 4, 5].map((n) => `[page ${n}](${origin}/pages/${n})`).join(', ');
    secondLine = `[slow](${origin}/slow), ${pages}, and [gone again](${origin}/missing).`;
    await writeFile(
      join(dir, post),
      `${text}\nOut there: [gone](${origin}/missing), [fine](${origin}/ok#part), [no HEAD](${origin}/no-head),\n${secondLine}\n`,
    );
  });
  afterAll(async () => {
    await new Promise((closed) => server?.close(closed));
    await rm(dir, { recursive: true, force: true });
  });

  it('warns at each place of an address that answers 404 or not in time, asks GET after a HEAD 405, a few at a time, and keeps the answers a day', async () => {
    const cache = openDiskCache('external-links', join(dir, 'cache'));
    let now = Date.UTC(2026, 10, 26, 12);
    const options = { concurrency: 2, timeoutMs: 500, cache, now: () => now };
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const first = await check({ logger: silentLogger, external: options });
      const external = first.warnings
        .filter((warning) => warning.code === 'LINK_EXTERNAL')
        .map((warning) => `${warning.severity} ${warning.file}:${warning.line}:${warning.column} ${warning.message}`);
      expect(external).toEqual([
        `warning ${post}:12:19 ${origin}/missing answered 404`,
        `warning ${post}:13:8 ${origin}/slow did not answer within 0.5 s`,
        `warning ${post}:13:${secondLine.indexOf(`(${origin}/missing`) + 2} ${origin}/missing answered 404`,
      ]);
      expect(requests).toContain('HEAD /no-head');
      expect(requests).toContain('GET /no-head');
      expect(requests.filter((line) => line.endsWith('/missing'))).toEqual(['HEAD /missing']);
      expect(mostInFlight).toBe(2);
      expect(first.external).toEqual({ asked: 9, cached: 0 });

      const asked = requests.length;
      now += 60 * 60 * 1000;
      const second = await check({ logger: silentLogger, external: options });
      expect(requests.length).toBe(asked);
      expect(second.external).toEqual({ asked: 0, cached: 9 });
      expect(second.warnings.filter((warning) => warning.code === 'LINK_EXTERNAL')).toHaveLength(3);

      now += 24 * 60 * 60 * 1000;
      expect((await check({ logger: silentLogger, external: options })).external).toEqual({ asked: 9, cached: 0 });
    } finally {
      process.chdir(cwd);
    }
  });

  it('is printed by `site check --external`, which exits 0, with the cache in the build cache folder', async () => {
    const env = { ...process.env, SITE_CACHE_DIR: join(dir, 'cli-cache') };
    const { stdout, stderr } = await run('node', [join(repoRoot, 'bin', 'site.js'), 'check', '--external'], {
      cwd: dir,
      env,
    });
    expect(stderr).toContain(`LINK_EXTERNAL  ${post}:12:19  ${origin}/missing answered 404`);
    expect(stdout).toMatch(/^ok: \d+ pages, 9 web addresses \(0 from the day's cache\) checked/);
    const again = await run('node', [join(repoRoot, 'bin', 'site.js'), 'check', '--external'], { cwd: dir, env });
    expect(again.stdout).toMatch(/^ok: \d+ pages, 9 web addresses \(9 from the day's cache\) checked/);
    // Without --external nobody is asked.
    const before = requests.length;
    await run('node', [join(repoRoot, 'bin', 'site.js'), 'check'], { cwd: dir, env });
    expect(requests.length).toBe(before);
  });
});
