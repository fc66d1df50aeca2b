/**
 * `npm run stress -- [--submissions 1000] [--requests 5000] [--concurrency 50] [--slow 200]
 *   [--database sqlite|postgres|both] [--slots 200] [--kill-rounds 5] [--burst 100]
 *   [--sign-ins 40,200,400] [--parts 1,2,3,4,5,6,7]`
 *
 * Loads `site serve` the way a busy day and a careless attacker would, on loopback only, and
 * prints counts and times. It builds the site into a temp folder, starts `node bin/site.js serve`
 * there as separate processes (with --trust-proxy, each request from its own X-Forwarded-For
 * address, so the per-client rate limits do not hide the store), then:
 *
 * 1. submissions: N contact posts, `concurrency` at a time; sent, acknowledged (201) and stored
 *    (rows in the store's database, each marker found exactly once, every message whole);
 *    submissions per second and p50/p95;
 * 2. static: M GET requests over a mix of pages, assets and a 404, `concurrency` at a time on
 *    kept-alive connections; requests per second and p50/p95/p99 latency;
 * 3. slow clients: S connections that send half a request and stall; GET latency while they hang,
 *    and how many the server closed (header timeout, 10 s) and when;
 * 4. hostile single requests: a 64 KB path and a 100 MB body, time to the answer;
 * 5. a sign-in flood against `site serve --admin` (a second server), on each database: 40, 200,
 *    then 400 sign-ins at once (`--sign-ins`) with unknown e-mails, each from its own address,
 *    while pages never requested before are fetched one after another: their p50, p95 and max next
 *    to the same with no flood, how the attempts were answered, and the most password hashes that
 *    ever ran at once (the server says, on --verbose);
 * 6. two servers, one store: two `site serve` processes on one database, each asked for the same
 *    `slots` free slots (of the site's booking.days) at the same moment; 201s per slot across
 *    both (exactly one each), what the database holds (exactly `slots` bookings, none twice),
 *    bookings per second and p50/p95;
 * 7. kill -9 bursts: `kill-rounds` times, a burst of contact posts in flight, the server killed
 *    (SIGKILL) once a third of them were answered, and started again on the same store; then every
 *    message answered 201 before a kill must be in the database whole (acknowledged vs found).
 *
 * The store's parts (1, 6 and 7) run once per database: `sqlite` (the default, the data folder's
 * site.db), `postgres` (a throwaway cluster from scripts/postgres-cluster.ts, fsync on, reached by
 * the servers through DATABASE_URL in their environment, never their arguments, stopped and
 * deleted at the end, on failure too) or `both`, printed side by side, and so does part 5 (whose
 * attempts are counted in the store). Parts 2 to 4 run once, on the first database. `--parts`
 * runs only the parts named (`--parts 5`: the sign-in flood alone). The exit code is 1 when a
 * store part loses, duplicates or tears anything.
 *
 * Every loop is bounded; nothing leaves 127.0.0.1.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { logInfo, logResult } from '../src/logger.js';
import { redactUrl } from '../src/store/open.js';
import { openPostgres } from '../src/store/postgres.js';
import { openSqlite } from '../src/store/sqlite.js';
import { createStore, type Store } from '../src/store/store.js';
import { findPostgresBinDir, startPostgresServer, type PostgresServer } from './postgres-cluster.js';

// This file runs bundled as lib/scripts/stress.js (built by scripts/build-lib.js).
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const site = join(root, 'bin', 'site.js');

const { values } = parseArgs({
  options: {
    submissions: { type: 'string', default: '1000' },
    requests: { type: 'string', default: '5000' },
    concurrency: { type: 'string', default: '50' },
    slow: { type: 'string', default: '200' },
    database: { type: 'string', default: 'sqlite' },
    slots: { type: 'string', default: '200' },
    'kill-rounds': { type: 'string', default: '5' },
    burst: { type: 'string', default: '100' },
    'sign-ins': { type: 'string', default: '40,200,400' },
    parts: { type: 'string', default: '1,2,3,4,5,6,7' },
  },
});
const submissions = Number(values.submissions);
const requests = Number(values.requests);
const concurrency = Number(values.concurrency);
const slowClients = Number(values.slow);
const slotCount = Number(values.slots);
const killRounds = Number(values['kill-rounds']);
const burst = Number(values.burst);
const floods = values['sign-ins'].split(',').map(Number);
const parts = new Set(values.parts.split(',').map(Number));
const databaseKinds = ({ sqlite: ['sqlite'], postgres: ['postgres'], both: ['sqlite', 'postgres'] } as const)[
  values.database as 'sqlite' | 'postgres' | 'both'
];
if (
  !databaseKinds ||
  !(slotCount >= 1) ||
  !(killRounds >= 1) ||
  !(burst >= 3) ||
  !floods.every((count) => Number.isInteger(count) && count >= 1) ||
  ![...parts].every((part) => Number.isInteger(part) && part >= 1 && part <= 7)
) {
  logInfo(
    'usage: npm run stress -- [--submissions 1000] [--requests 5000] [--concurrency 50] [--slow 200] [--database sqlite|postgres|both] [--slots 200] [--kill-rounds 5] [--burst 100 (at least 3)] [--sign-ins 40,200,400] [--parts 1,2,3,4,5,6,7]',
  );
  process.exit(2);
}

/** A database the store's parts run on: what the servers get in their environment, and a connection of the script's own. */
interface Database {
  kind: 'sqlite' | 'postgres';
  /** The servers' environment: DATABASE_URL, empty for SQLite so an inherited one does not win. */
  env: Record<string, string>;
  open(): Promise<Store>;
}

/** The `site serve` processes alive, killed at once if the script exits before it stops them. */
const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});
// A signal becomes an exit, so the exit hooks (these children, the Postgres cluster) run.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

/** Runs `task(i)` for i < count, `limit` at a time. */
async function pool(count: number, limit: number, task: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, count) }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

/** One HTTP request; resolves with its status and how long it took. */
function send(
  base: URL,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string; agent?: Agent },
): Promise<{ status: number; ms: number; text: string }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const outgoing = request(
      {
        host: base.hostname,
        port: base.port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: options.headers,
        agent: options.agent ?? false,
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - started, text }));
        response.on('error', () => resolve({ status: 0, ms: performance.now() - started, text }));
      },
    );
    outgoing.on('error', () => resolve({ status: 0, ms: performance.now() - started, text: '' }));
    outgoing.end(options.body);
  });
}

/** The text of stress submission `marker`, which the store must give back unchanged. */
const contactMessage = (marker: string) => `Message ${marker} ${'x'.repeat(200)}`;

/** Posts contact submission `marker` from its own address; resolves with the answer. */
function postContact(base: URL, marker: string, index: number) {
  const body = JSON.stringify({
    firstName: 'Load',
    lastName: 'Test',
    email: 'load@example.com',
    message: contactMessage(marker),
    locale: 'en',
  });
  return send(base, {
    method: 'POST',
    path: '/api/contact',
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`,
    },
    body,
  });
}

/** How often each marker is in the store as a whole message, and how many stress messages are not whole. */
async function storedMarkers(database: Database): Promise<{ counts: Map<string, number>; rows: number; torn: number }> {
  const store = await database.open();
  try {
    const messages = (await store.listInbox({ kind: 'contact' })).map((item) => ({
      message: String(item.message),
      email: String(item.email),
      name: `${item.firstName} ${item.lastName}`,
    }));
    const counts = new Map<string, number>();
    let torn = 0;
    for (const { message, email, name } of messages) {
      const marker = /^Message (stress-\S+|killed-\S+) /.exec(message)?.[1];
      if (marker && message === contactMessage(marker) && email === 'load@example.com' && name === 'Load Test')
        counts.set(marker, (counts.get(marker) ?? 0) + 1);
      else torn++;
    }
    return { counts, rows: messages.length, torn };
  } finally {
    await store.close();
  }
}

type Rows = [string, string][];

/** What a store part measured: its rows, and whether it found a loss, a duplicate or a torn record. */
interface PartResult {
  rows: Rows;
  failed: boolean;
}

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'site-stress-'));
  // Only synchronous work runs at exit: the folder goes even when a signal ends the script.
  const removeWork = () => rmSync(work, { recursive: true, force: true });
  process.once('exit', removeWork);
  let cluster: PostgresServer | undefined;
  try {
    // A config beside the temp output whose stored data goes to the temp folder too. The booking
    // keeps the site's days: a 409 lists the next free slots over them, and its cost is part of
    // what part 6 measures (21 days hold at least 224 slots).
    const config = (await readFile(join(root, 'site.config.yaml'), 'utf8'))
      .replace(
        /^site:/m,
        `paths:\n  content: ${JSON.stringify(join(root, 'content'))}\n  templates: ${JSON.stringify(join(root, 'templates'))}\n  public: ${JSON.stringify(join(root, 'public'))}\n\nsite:`,
      )
      .replace(/^ {2}dataDir: .*$/m, '  dataDir: data');
    await writeFile(join(work, 'site.config.yaml'), config);
    // The config names package files (output.preloadFonts), found from its folder as from the site's.
    await symlink(join(root, 'node_modules'), join(work, 'node_modules'), 'dir');
    await mkdir(join(work, 'data'));
    logInfo('building the site…');
    await run(['build', '-c', join(work, 'site.config.yaml'), '--out', join(work, 'dist')], work);

    const databases: Database[] = [];
    for (const kind of databaseKinds) {
      if (kind === 'sqlite') {
        const file = join(work, 'data', 'site.db');
        databases.push({ kind, env: { DATABASE_URL: '' }, open: async () => createStore(await openSqlite(file)) });
        continue;
      }
      const binDir = findPostgresBinDir();
      if (!binDir)
        throw new Error(
          'no Postgres binaries (initdb, pg_ctl) on PATH or in /usr/lib/postgresql/*/bin: install them (Debian: apt-get install postgresql) or run with --database sqlite',
        );
      logInfo('starting a throwaway Postgres cluster…');
      cluster = await startPostgresServer(binDir, { durable: true });
      const url = cluster.url;
      logInfo(`postgres at ${redactUrl(url)}`);
      databases.push({ kind, env: { DATABASE_URL: url }, open: async () => createStore(await openPostgres(url)) });
    }

    const storeRows: { label: string; values: string[] }[] = [];
    const addStoreRows = (column: number, rows: Rows) => {
      for (const [label, value] of rows) {
        let row = storeRows.find((candidate) => candidate.label === label);
        if (!row) storeRows.push((row = { label, values: databases.map(() => '-') }));
        row.values[column] = value;
      }
    };
    let otherRows: Rows = [];
    let failed = false;
    const skipped: PartResult = { rows: [], failed: false };
    for (const [column, database] of databases.entries()) {
      logInfo(`the store's parts on ${database.kind}…`);
      let part1 = skipped;
      if (parts.has(1) || (column === 0 && [2, 3, 4].some((part) => parts.has(part)))) {
        const server = await startServe(work, [], database.env);
        logInfo(`site serve at ${server.base.href} (pid ${server.child.pid})`);
        if (parts.has(1)) part1 = await submissionsPart(server.base, database);
        // Parts 2 to 4 do not touch the store: once, on the first database.
        if (column === 0) otherRows = await requestParts(server.base);
        await server.stop();
        if (part1.failed) await keepEvidence(work, database);
      }
      const part6 = parts.has(6)
        ? await orFailure('6. two servers, one store', () => bookingRace(work, database))
        : skipped;
      const part7 = parts.has(7) ? await orFailure('7. kill -9 bursts', () => killBursts(work, database)) : skipped;
      for (const part of [part1, part6, part7]) {
        addStoreRows(column, part.rows);
        failed ||= part.failed;
      }
      if (!part1.failed && (part6.failed || part7.failed)) await keepEvidence(work, database);
      // 5. A sign-in flood against the admin: its attempts are counted in the store, so on each database.
      if (parts.has(5)) addStoreRows(column, await signInFlood(work, database));
    }

    const table = [{ label: '', values: databases.map((database) => database.kind) }, ...storeRows];
    const labelWidth = Math.max(...table.map((row) => row.label.length), ...otherRows.map(([label]) => label.length));
    const columnWidths = databases.map((_, column) => Math.max(...table.map((row) => row.values[column]!.length)));
    const storeLines = table.map((row) =>
      [row.label.padEnd(labelWidth), ...row.values.map((value, column) => value.padEnd(columnWidths[column]!))]
        .join('  ')
        .trimEnd(),
    );
    logResult(
      [...storeLines, '', ...otherRows.map(([label, value]) => `${label.padEnd(labelWidth)}  ${value}`)].join('\n'),
    );
    if (failed) process.exitCode = 1;
  } finally {
    for (const child of children) child.kill('SIGKILL');
    await cluster?.stop();
    process.removeListener('exit', removeWork);
    await rm(work, { recursive: true, force: true });
  }
}

/** A part's result, or its error as its one row (a failure), so the other parts still run and print. */
async function orFailure(label: string, part: () => Promise<PartResult>): Promise<PartResult> {
  try {
    return await part();
  } catch (error) {
    return { rows: [[label, `failed: ${(error as Error).message.split('\n', 1)[0]}`]], failed: true };
  }
}

/** Copies a SQLite data folder that failed a part out of the temp folder (deleted at the end), to look into. */
async function keepEvidence(work: string, database: Database): Promise<void> {
  if (database.kind !== 'sqlite') return;
  const kept = await mkdtemp(join(tmpdir(), 'site-stress-failed-'));
  await cp(join(work, 'data'), kept, { recursive: true });
  logInfo(`the SQLite data folder of the failed run is kept in ${kept}`);
}

/** Part 1: `submissions` contact posts, `concurrency` at a time, then what the store holds. */
async function submissionsPart(base: URL, database: Database): Promise<PartResult> {
  const markers = Array.from(
    { length: submissions },
    (_, index) => `stress-${index}-${Math.random().toString(36).slice(2, 10)}`,
  );
  let acknowledged = 0;
  const started = performance.now();
  const times: number[] = [];
  await pool(submissions, concurrency, async (index) => {
    const result = await postContact(base, markers[index]!, index);
    times.push(result.ms);
    if (result.status === 201) acknowledged++;
  });
  const seconds = (performance.now() - started) / 1000;
  // Read through a connection of the script's own while the server runs (WAL on SQLite).
  const { counts, rows, torn } = await storedMarkers(database);
  const once = markers.filter((marker) => counts.get(marker) === 1).length;
  times.sort((a, b) => a - b);
  return {
    rows: [
      ['1. submissions sent / 201 / stored once', `${submissions} / ${acknowledged} / ${once}`],
      ['   rows in the store / incomplete', `${rows} / ${torn}`],
      ['   submissions per second', (submissions / seconds).toFixed(0)],
      ['   submission latency p50 / p95', `${ms(percentile(times, 50))} / ${ms(percentile(times, 95))}`],
    ],
    failed: acknowledged !== once || torn > 0,
  };
}

/** Parts 2 to 4 (those `--parts` names): static requests, slow clients and hostile single requests. */
async function requestParts(base: URL): Promise<Rows> {
  const rows: Rows = [];
  if (parts.has(2)) await staticPart(base, rows);
  if (parts.has(3)) await slowClientsPart(base, rows);
  if (parts.has(4)) await hostilePart(base, rows);
  return rows;
}

/** Part 2: static requests on kept-alive connections. */
async function staticPart(base: URL, rows: Rows): Promise<void> {
  // 2. Static requests on kept-alive connections.
  const paths = ['/', '/hub/', '/no/hub/pricing/', '/blog/', '/favicon.svg', '/sitemap.xml', '/no-such-page/'];
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const staticTimes: number[] = [];
  let failed = 0;
  const staticStarted = performance.now();
  await pool(requests, concurrency, async (index) => {
    const result = await send(base, {
      path: paths[index % paths.length]!,
      headers: { 'accept-encoding': 'br, gzip' },
      agent,
    });
    staticTimes.push(result.ms);
    if (result.status !== 200 && result.status !== 404) failed++;
  });
  const staticSeconds = (performance.now() - staticStarted) / 1000;
  agent.destroy();
  staticTimes.sort((a, b) => a - b);
  rows.push(
    ['2. static requests (failed)', `${requests} (${failed})`],
    ['   static requests per second', (requests / staticSeconds).toFixed(0)],
    [
      '   static latency p50 / p95 / p99',
      `${ms(percentile(staticTimes, 50))} / ${ms(percentile(staticTimes, 95))} / ${ms(percentile(staticTimes, 99))}`,
    ],
  );
}

/** Part 3: slow clients, half a request each, then silence. */
async function slowClientsPart(base: URL, rows: Rows): Promise<void> {
  const slowStarted = performance.now();
  const closedAt: number[] = [];
  const sockets: Socket[] = [];
  await Promise.all(
    Array.from(
      { length: slowClients },
      () =>
        new Promise<void>((resolve) => {
          const socket = connect(Number(base.port), base.hostname, () => {
            socket.write('GET /hub/ HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
            resolve();
          });
          socket.on('close', () => closedAt.push(performance.now() - slowStarted));
          socket.on('error', () => undefined);
          socket.on('data', () => undefined);
          sockets.push(socket);
        }),
    ),
  );
  const duringSlow: number[] = [];
  for (let index = 0; index < 50; index++) duringSlow.push((await send(base, { path: '/hub/' })).ms);
  duringSlow.sort((a, b) => a - b);
  const deadline = performance.now() + 15_000;
  while (closedAt.length < slowClients && performance.now() < deadline)
    await new Promise((done) => setTimeout(done, 100));
  for (const socket of sockets) socket.destroy();
  closedAt.sort((a, b) => a - b);
  rows.push(
    [
      `3. GET /hub/ while ${slowClients} clients stall, p50 / p95`,
      `${ms(percentile(duringSlow, 50))} / ${ms(percentile(duringSlow, 95))}`,
    ],
    [
      '   stalled connections closed by the server',
      `${closedAt.length} of ${slowClients}, the last after ${(closedAt.at(-1) ?? 0) / 1000 > 0 ? ((closedAt.at(-1) ?? 0) / 1000).toFixed(1) : '-'} s`,
    ],
  );
}

/** Part 4: hostile single requests. */
async function hostilePart(base: URL, rows: Rows): Promise<void> {
  const longPath = await send(base, { path: `/${'/'.repeat(64 * 1024)}x` });
  rows.push(['4. 64 KB request path', `${longPath.status || 'connection closed by the server'} in ${ms(longPath.ms)}`]);
  const bigBody = await new Promise<{ status: number; ms: number; sentMb: number }>((resolve) => {
    const started = performance.now();
    let sent = 0;
    let status = 0;
    const outgoing = request(
      {
        host: base.hostname,
        port: base.port,
        method: 'POST',
        path: '/api/contact',
        agent: false,
        headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      },
      (response) => {
        status = response.statusCode ?? 0;
        response.resume();
      },
    );
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
  rows.push([
    '   100 MB body',
    `${bigBody.status || 'closed'} in ${ms(bigBody.ms)}, ${bigBody.sentMb.toFixed(1)} MB written before the server closed`,
  ]);
}

/**
 * Part 6: two servers on one store, each asked for the same `slotCount` slots at the same moment
 * (the two requests of a slot sent one after the other, `concurrency` in flight); then the 201s
 * per slot and what the database holds.
 */
async function bookingRace(work: string, database: Database): Promise<PartResult> {
  const servers = await Promise.all([startServe(work, [], database.env), startServe(work, [], database.env)]);
  try {
    const [a] = servers;
    const offered = await send(a.base, { path: '/api/booking/slots' });
    const slots = (JSON.parse(offered.text) as { slots: { start: string }[] }).slots
      .slice(0, slotCount)
      .map((slot) => slot.start);
    if (slots.length < slotCount)
      throw new Error(
        `the site's booking offers ${slots.length} free slots (booking.days), fewer than --slots ${slotCount}`,
      );
    const visitor = {
      firstName: 'Kari',
      lastName: 'Nordmann',
      email: 'kari@example.no',
      company: 'Skredderiet AS',
      note: '',
      locale: 'en',
    };
    const wins = new Array<number>(slotCount).fill(0);
    const statuses = new Map<number, number>();
    const times: number[] = [];
    const timesOf = new Map<number, number[]>([
      [201, []],
      [409, []],
    ]);
    const started = performance.now();
    await pool(slotCount * 2, concurrency, async (index) => {
      const server = servers[index & 1]!;
      const body = JSON.stringify({ ...visitor, start: slots[index >> 1] });
      const result = await send(server.base, {
        method: 'POST',
        path: '/api/booking',
        headers: {
          'content-type': 'application/json',
          origin: server.base.origin,
          'x-forwarded-for': `10.200.${index >> 8}.${index & 255}`,
        },
        body,
      });
      times.push(result.ms);
      timesOf.get(result.status)?.push(result.ms);
      statuses.set(result.status, (statuses.get(result.status) ?? 0) + 1);
      if (result.status === 201) wins[index >> 1]!++;
    });
    const seconds = (performance.now() - started) / 1000;
    const store = await database.open();
    const booked = await store.listInbox({ kind: 'booking' }).finally(() => store.close());
    const perSlot = new Map<string, number>();
    for (const item of booked) perSlot.set(String(item.start), (perSlot.get(String(item.start)) ?? 0) + 1);
    const stored = slots.filter((slot) => perSlot.has(slot)).length;
    const storedTwice = slots.filter((slot) => (perSlot.get(slot) ?? 0) > 1).length;
    const doubleWins = wins.filter((count) => count > 1).length;
    const noWin = wins.filter((count) => count === 0).length;
    for (const list of [times, ...timesOf.values()]) list.sort((a, b) => a - b);
    const latency = (list: number[]) => `${ms(percentile(list, 50))} / ${ms(percentile(list, 95))}`;
    const answered = [...statuses]
      .sort(([x], [y]) => x - y)
      .map(([status, count]) => `${count} × ${status || 'no answer'}`)
      .join(', ');
    return {
      rows: [
        [`6. ${slotCount} slots × 2 servers: answers`, answered],
        ['   slots with one 201 / two / none', `${slotCount - doubleWins - noWin} / ${doubleWins} / ${noWin}`],
        ['   bookings in the store / a slot twice', `${stored} / ${storedTwice}`],
        ['   bookings per second', (slotCount / seconds).toFixed(0)],
        ['   booking latency p50 / p95: all', latency(times)],
        // A 409 also reads the taken slots to offer the next free ones: its own figures.
        ['   booking latency p50 / p95: of the 201s', latency(timesOf.get(201)!)],
        ['   booking latency p50 / p95: of the 409s', latency(timesOf.get(409)!)],
      ],
      failed: doubleWins > 0 || noWin > 0 || stored !== slotCount || storedTwice > 0 || booked.length !== slotCount,
    };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

/**
 * Part 7: `killRounds` bursts of `burst` contact posts, the server killed with SIGKILL once a third
 * were answered 201 and started again on the same store; then each message answered 201 must be in
 * the database, whole, once.
 */
async function killBursts(work: string, database: Database): Promise<PartResult> {
  const acknowledged: string[] = [];
  const restarts: number[] = [];
  let sent = 0;
  let server = await startServe(work, [], database.env);
  for (let round = 0; round < killRounds; round++) {
    const current = server;
    let answered = 0;
    let killed = false;
    const kill = () => {
      if (killed) return;
      killed = true;
      current.child.kill('SIGKILL');
    };
    // A burst that ends before a third is answered (a very fast machine) is still killed, just after it.
    await pool(burst, Math.min(concurrency, burst), async (index) => {
      if (killed) return;
      const marker = `killed-${round}-${index}-${Math.random().toString(36).slice(2, 10)}`;
      sent++;
      const result = await postContact(current.base, marker, 60_000 + round * burst + index);
      if (result.status === 201 && !killed) {
        acknowledged.push(marker);
        if (++answered >= burst / 3) kill();
      }
    });
    kill();
    await current.exited;
    const restarted = performance.now();
    server = await startServe(work, [], database.env);
    restarts.push(performance.now() - restarted);
  }
  await server.stop();
  const { counts } = await storedMarkers(database);
  const found = acknowledged.filter((marker) => counts.get(marker) === 1).length;
  const unanswered = [...counts.keys()].filter(
    (marker) => marker.startsWith('killed-') && !acknowledged.includes(marker),
  ).length;
  restarts.sort((a, b) => a - b);
  return {
    rows: [
      [`7. kill -9 bursts: rounds, posts sent`, `${killRounds}, ${sent}`],
      ['   201 before the kill / in the store whole', `${acknowledged.length} / ${found}`],
      ['   stored but unanswered (cut off mid-reply)', String(unanswered)],
      ['   start after kill -9, p50 / max', `${ms(percentile(restarts, 50))} / ${ms(restarts.at(-1) ?? 0)}`],
    ],
    failed: found !== acknowledged.length,
  };
}

/** A `site serve` child: its address, its output, and how to stop it. */
interface Served {
  child: ChildProcess;
  base: URL;
  output(): string;
  /** Resolves when the process has ended. */
  exited: Promise<unknown>;
  /** SIGTERM, then waits for the end. */
  stop(): Promise<void>;
}

/** Starts `site serve` with `args` in `work` (`env` added to this process's); resolves once it listens. */
async function startServe(work: string, args: string[], env: Record<string, string>): Promise<Served> {
  const child = spawn(
    'node',
    [site, 'serve', '-c', join(work, 'site.config.yaml'), '--port', '0', '--trust-proxy', ...args],
    { cwd: work, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.add(child);
  const exited = new Promise((resolve) => child.once('exit', resolve)).finally(() => children.delete(child));
  let out = '';
  child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const base = new URL(
    await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const found = / at (http:\/\/127\.0\.0\.1:\d+)\//.exec(out)?.[1];
        if (found) resolve(found);
      });
      child.once('exit', (code) => reject(new Error(`site serve exited with ${code}: ${out}`)));
    }),
  );
  return {
    child,
    base,
    output: () => out,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Part 5: sign-in floods of `floods` attempts (40, 200 and 400), and the pages served meanwhile: p50, p95 and max. */
async function signInFlood(work: string, database: Database): Promise<Rows> {
  const rows: Rows = [];
  const sitemap = await readFile(join(work, 'dist', 'sitemap.xml'), 'utf8');
  // Pages in the sitemap's order: the first ones (and, with 400 attempts, most) never requested before.
  const pages = [...sitemap.matchAll(/<loc>https?:\/\/[^/]+(\/[^<]*)<\/loc>/g)].map((match) => match[1]!);
  let nextPage = 0;
  const fresh = () => pages[nextPage++ % pages.length]!;
  logInfo('starting site serve --admin for the sign-in flood…');
  const { base, output, stop } = await startServe(work, ['--admin', '--verbose'], database.env);
  try {
    const quiet: number[] = [];
    for (let index = 0; index < 20; index++) quiet.push((await send(base, { path: fresh() })).ms);
    quiet.sort((a, b) => a - b);
    rows.push([
      '5. pages never requested before, no flood (20): p50 / p95 / max',
      `${ms(percentile(quiet, 50))} / ${ms(percentile(quiet, 95))} / ${ms(quiet.at(-1) ?? 0)}`,
    ]);
    let round = 0;
    for (const attempts of floods) {
      round++;
      const statuses = new Map<number, number>();
      const started = performance.now();
      const flood = Promise.all(
        Array.from({ length: attempts }, async (_, index) => {
          const body = JSON.stringify({ email: `flood-${round}-${index}@example.com`, password: 'a guess' });
          const result = await send(base, {
            method: 'POST',
            path: '/api/auth/login',
            headers: {
              'content-type': 'application/json',
              origin: base.origin,
              'x-forwarded-for': `10.${round}.${index >> 8}.${index & 255}`,
            },
            body,
          });
          statuses.set(result.status, (statuses.get(result.status) ?? 0) + 1);
        }),
      );
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
      const answered = [...statuses]
        .sort(([a], [b]) => a - b)
        .map(([status, count]) => `${count} × ${status || 'no answer'}`)
        .join(', ');
      rows.push(
        [`   ${attempts} sign-ins at once: answers`, `${answered} in ${seconds.toFixed(1)} s`],
        [
          `   ${attempts} sign-ins at once: pages during it, p50 / p95 / max`,
          `${ms(percentile(during, 50))} / ${ms(percentile(during, 95))} / ${ms(during.at(-1) ?? 0)} (${during.length} pages)`,
        ],
      );
    }
  } finally {
    await stop();
  }
  const peak = /at most (\d+) password checks? ran at once/.exec(output())?.[1];
  rows.push(['   password hashes in flight at most', peak ?? 'not reported by this server']);
  return rows;
}

function run(args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('node', [site, ...args], { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`site ${args[0]} exited with ${code}`))));
  });
}

await main();
