/**
 * `npm run stress -- [--submissions 1000] [--requests 5000] [--concurrency 50] [--slow 200]`
 *
 * Loads `site serve` the way a busy day and a careless attacker would, on loopback only, and
 * prints counts and times. It builds the site into a temp folder, starts `node bin/site.js serve`
 * there as a separate process (with --trust-proxy, each submission from its own X-Forwarded-For
 * address, so the per-client rate limit does not hide the store), then:
 *
 * 1. submissions: N contact posts, `concurrency` at a time; sent, acknowledged (201) and stored
 *    (rows in the store's database, each marker found exactly once, every message whole);
 * 2. static: M GET requests over a mix of pages, assets and a 404, `concurrency` at a time on
 *    kept-alive connections; requests per second and p50/p95/p99 latency;
 * 3. slow clients: S connections that send half a request and stall; GET latency while they hang,
 *    and how many the server closed (header timeout, 10 s) and when;
 * 4. hostile single requests: a 64 KB path and a 100 MB body, time to the answer;
 * 5. a sign-in flood against `site serve --admin` (a second server): 40, then 400 sign-ins at once
 *    with unknown e-mails, each from its own address, while pages never requested before are
 *    fetched one after another: their p95 next to the same with no flood, how the attempts were
 *    answered, and the most password hashes that ever ran at once (the server says, on --verbose).
 *
 * Every loop is bounded; nothing leaves 127.0.0.1.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { logInfo, logResult } from '../src/logger.js';
import { openSqlite } from '../src/store/sqlite.js';
import { createStore } from '../src/store/store.js';

// This file runs bundled as lib/scripts/stress.js (built by scripts/build-lib.js).
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const site = join(root, 'bin', 'site.js');

const { values } = parseArgs({
  options: {
    submissions: { type: 'string', default: '1000' },
    requests: { type: 'string', default: '5000' },
    concurrency: { type: 'string', default: '50' },
    slow: { type: 'string', default: '200' },
  },
});
const submissions = Number(values.submissions);
const requests = Number(values.requests);
const concurrency = Number(values.concurrency);
const slowClients = Number(values.slow);

/** Runs `task(i)` for i < count, `limit` at a time. */
async function pool(count: number, limit: number, task: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, count) }, async () => {
    while (next < count) await task(next++);
  }));
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

/** One HTTP request; resolves with its status and how long it took. */
function send(base: URL, options: { method?: string; path: string; headers?: Record<string, string>; body?: string; agent?: Agent }): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const outgoing = request({ host: base.hostname, port: base.port, method: options.method ?? 'GET', path: options.path, headers: options.headers, agent: options.agent ?? false }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }));
    });
    outgoing.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    outgoing.end(options.body);
  });
}

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'site-stress-'));
  let server: ChildProcess | undefined;
  try {
    // A config beside the temp output whose stored data goes to the temp folder too.
    const config = (await readFile(join(root, 'site.config.yaml'), 'utf8'))
      .replace(/^site:/m, `paths:\n  content: ${JSON.stringify(join(root, 'content'))}\n  templates: ${JSON.stringify(join(root, 'templates'))}\n  public: ${JSON.stringify(join(root, 'public'))}\n\nsite:`)
      .replace(/^ {2}dataDir: .*$/m, '  dataDir: data');
    await writeFile(join(work, 'site.config.yaml'), config);
    await mkdir(join(work, 'data'));
    logInfo('building the site…');
    await run(['build', '-c', join(work, 'site.config.yaml'), '--out', join(work, 'dist')], work);

    server = spawn('node', [site, 'serve', '-c', join(work, 'site.config.yaml'), '--port', '0', '--trust-proxy'], { cwd: work, stdio: ['ignore', 'pipe', 'inherit'] });
    const base = new URL(await new Promise<string>((resolve, reject) => {
      let out = '';
      server!.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const found = / at (http:\/\/127\.0\.0\.1:\d+)\//.exec(out)?.[1];
        if (found) resolve(found);
      });
      server!.once('exit', (code) => reject(new Error(`site serve exited with ${code}`)));
    }));
    logInfo(`site serve at ${base.href} (pid ${server.pid})`);
    const rows: [string, string][] = [];

    // 1. Submissions.
    const markers = Array.from({ length: submissions }, (_, index) => `stress-${index}-${Math.random().toString(36).slice(2, 10)}`);
    let acknowledged = 0;
    const submitStarted = performance.now();
    const submitTimes: number[] = [];
    await pool(submissions, concurrency, async (index) => {
      const body = JSON.stringify({ firstName: 'Load', lastName: 'Test', email: 'load@example.com', message: `Message ${markers[index]} ${'x'.repeat(200)}`, locale: 'en' });
      const forwarded = `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`;
      const result = await send(base, { method: 'POST', path: '/api/contact', headers: { 'content-type': 'application/json', 'x-forwarded-for': forwarded }, body });
      submitTimes.push(result.ms);
      if (result.status === 201) acknowledged++;
    });
    const submitSeconds = (performance.now() - submitStarted) / 1000;
    // What the store holds, read through a second connection while the server runs (WAL).
    const store = await createStore(await openSqlite(join(work, 'data', 'site.db')));
    const messages = (await store.listInbox({ kind: 'contact' })).map((item) => String(item.message));
    await store.close();
    const seen = new Map<string, number>();
    let torn = 0;
    for (const message of messages) {
      const marker = /Message (stress-\S+)/.exec(message)?.[1];
      if (marker && message.endsWith('x'.repeat(200))) seen.set(marker, (seen.get(marker) ?? 0) + 1);
      else torn++;
    }
    const once = markers.filter((marker) => seen.get(marker) === 1).length;
    submitTimes.sort((a, b) => a - b);
    rows.push(
      ['submissions sent / acknowledged 201 / stored once', `${submissions} / ${acknowledged} / ${once} (rows ${messages.length}, incomplete ${torn})`],
      ['submissions per second', (submissions / submitSeconds).toFixed(0)],
      ['submission latency p50 / p95', `${ms(percentile(submitTimes, 50))} / ${ms(percentile(submitTimes, 95))}`],
    );

    // 2. Static requests on kept-alive connections.
    const paths = ['/', '/hub/', '/no/hub/pricing/', '/blog/', '/favicon.svg', '/sitemap.xml', '/no-such-page/'];
    const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
    const staticTimes: number[] = [];
    let failed = 0;
    const staticStarted = performance.now();
    await pool(requests, concurrency, async (index) => {
      const result = await send(base, { path: paths[index % paths.length]!, headers: { 'accept-encoding': 'br, gzip' }, agent });
      staticTimes.push(result.ms);
      if (result.status !== 200 && result.status !== 404) failed++;
    });
    const staticSeconds = (performance.now() - staticStarted) / 1000;
    agent.destroy();
    staticTimes.sort((a, b) => a - b);
    rows.push(
      ['static requests (failed)', `${requests} (${failed})`],
      ['static requests per second', (requests / staticSeconds).toFixed(0)],
      ['static latency p50 / p95 / p99', `${ms(percentile(staticTimes, 50))} / ${ms(percentile(staticTimes, 95))} / ${ms(percentile(staticTimes, 99))}`],
    );

    // 3. Slow clients: half a request each, then silence.
    const slowStarted = performance.now();
    const closedAt: number[] = [];
    const sockets: Socket[] = [];
    await Promise.all(Array.from({ length: slowClients }, () => new Promise<void>((resolve) => {
      const socket = connect(Number(base.port), base.hostname, () => {
        socket.write('GET /hub/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
        resolve();
      });
      socket.on('close', () => closedAt.push(performance.now() - slowStarted));
      socket.on('error', () => undefined);
      socket.on('data', () => undefined);
      sockets.push(socket);
    })));
    const duringSlow: number[] = [];
    for (let index = 0; index < 50; index++) duringSlow.push((await send(base, { path: '/hub/' })).ms);
    duringSlow.sort((a, b) => a - b);
    const deadline = performance.now() + 15_000;
    while (closedAt.length < slowClients && performance.now() < deadline) await new Promise((done) => setTimeout(done, 100));
    for (const socket of sockets) socket.destroy();
    closedAt.sort((a, b) => a - b);
    rows.push(
      [`GET /hub/ while ${slowClients} clients stall, p50 / p95`, `${ms(percentile(duringSlow, 50))} / ${ms(percentile(duringSlow, 95))}`],
      ['stalled connections closed by the server', `${closedAt.length} of ${slowClients}, the last after ${(closedAt.at(-1) ?? 0) / 1000 > 0 ? ((closedAt.at(-1) ?? 0) / 1000).toFixed(1) : '-'} s`],
    );

    // 4. Hostile single requests.
    const longPath = await send(base, { path: `/${'/'.repeat(64 * 1024)}x` });
    rows.push(['64 KB request path', `${longPath.status || 'connection closed by the server'} in ${ms(longPath.ms)}`]);
    const bigBody = await new Promise<{ status: number; ms: number; sentMb: number }>((resolve) => {
      const started = performance.now();
      let sent = 0;
      let status = 0;
      const outgoing = request({ host: base.hostname, port: base.port, method: 'POST', path: '/api/contact', agent: false, headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (response) => {
        status = response.statusCode ?? 0;
        response.resume();
      });
      const finish = () => resolve({ status, ms: performance.now() - started, sentMb: sent / 1024 / 1024 });
      outgoing.on('error', finish);
      outgoing.on('close', finish);
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      const pump = () => {
        while (sent < 100 * 1024 * 1024) {
          sent += chunk.length;
          if (!outgoing.write(chunk)) return void outgoing.once('drain', pump);
        }
        outgoing.end();
      };
      pump();
    });
    rows.push(['100 MB body', `${bigBody.status || 'closed'} in ${ms(bigBody.ms)}, ${bigBody.sentMb.toFixed(1)} MB written before the server closed`]);

    // 5. A sign-in flood against the admin.
    server.kill('SIGTERM');
    rows.push(...(await signInFlood(work)));

    const width = Math.max(...rows.map(([label]) => label.length));
    logResult(rows.map(([label, value]) => `${label.padEnd(width)}  ${value}`).join('\n'));
    if (acknowledged !== once || torn > 0) process.exitCode = 1;
  } finally {
    server?.kill('SIGTERM');
    await rm(work, { recursive: true, force: true });
  }
}

/** Starts `site serve` with `args` in `work`; resolves with the process and its address once it listens. */
async function startServe(work: string, args: string[]): Promise<{ child: ChildProcess; base: URL; output: () => string }> {
  const child = spawn('node', [site, 'serve', '-c', join(work, 'site.config.yaml'), '--port', '0', '--trust-proxy', ...args], { cwd: work, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const base = new URL(await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = / at (http:\/\/127\.0\.0\.1:\d+)\//.exec(out)?.[1];
      if (found) resolve(found);
    });
    child.once('exit', (code) => reject(new Error(`site serve exited with ${code}: ${out}`)));
  }));
  return { child, base, output: () => out };
}

/** Part 5: sign-in floods of 40 and 400 attempts, and the pages served meanwhile. */
async function signInFlood(work: string): Promise<[string, string][]> {
  const rows: [string, string][] = [];
  const sitemap = await readFile(join(work, 'dist', 'sitemap.xml'), 'utf8');
  // Pages in the sitemap's order: the first ones (and, with 400 attempts, most) never requested before.
  const pages = [...sitemap.matchAll(/<loc>https?:\/\/[^/]+(\/[^<]*)<\/loc>/g)].map((match) => match[1]!);
  let nextPage = 0;
  const fresh = () => pages[nextPage++ % pages.length]!;
  logInfo('starting site serve --admin for the sign-in flood…');
  const { child, base, output } = await startServe(work, ['--admin', '--verbose']);
  try {
    const quiet: number[] = [];
    for (let index = 0; index < 20; index++) quiet.push((await send(base, { path: fresh() })).ms);
    quiet.sort((a, b) => a - b);
    rows.push(['pages never requested before, no flood (20): p50 / p95', `${ms(percentile(quiet, 50))} / ${ms(percentile(quiet, 95))}`]);
    let round = 0;
    for (const attempts of [40, 400]) {
      round++;
      const statuses = new Map<number, number>();
      const started = performance.now();
      const flood = Promise.all(Array.from({ length: attempts }, async (_, index) => {
        const body = JSON.stringify({ email: `flood-${round}-${index}@example.com`, password: 'a guess' });
        const result = await send(base, { method: 'POST', path: '/api/auth/login', headers: { 'content-type': 'application/json', origin: base.origin, 'x-forwarded-for': `10.${round}.${index >> 8}.${index & 255}` }, body });
        statuses.set(result.status, (statuses.get(result.status) ?? 0) + 1);
      }));
      let flooding = true;
      const during: number[] = [];
      const pagesWhile = (async () => {
        while (flooding) during.push((await send(base, { path: fresh() })).ms);
      })();
      await flood;
      const seconds = (performance.now() - started) / 1000;
      flooding = false;
      await pagesWhile;
      during.sort((a, b) => a - b);
      const answered = [...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${count} × ${status || 'no answer'}`).join(', ');
      rows.push(
        [`${attempts} sign-ins at once: answered in ${seconds.toFixed(1)} s`, answered],
        [`pages during it (${during.length}, the sitemap's in turn): p50 / p95 / max`, `${ms(percentile(during, 50))} / ${ms(percentile(during, 95))} / ${ms(during.at(-1) ?? 0)}`],
      );
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
  const peak = /at most (\d+) password checks? ran at once/.exec(output())?.[1];
  rows.push(['password hashes in flight at most', peak ?? 'not reported by this server']);
  return rows;
}

function run(args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('node', [site, ...args], { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`site ${args[0]} exited with ${code}`))));
  });
}

await main();
