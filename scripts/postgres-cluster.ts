/**
 * A throwaway Postgres cluster: made by `initdb` in a temporary folder, started by `pg_ctl` on a
 * free port of 127.0.0.1 (password sign-in over TCP, its socket in that folder), stopped and
 * deleted by `stop()`, or when the process exits first. The binaries are found on PATH or in
 * /usr/lib/postgresql/<version>/bin (Debian's `postgresql` package). Postgres refuses to run as
 * root, so as root the cluster belongs to the `postgres` user (or `nobody`).
 *
 * The tests (tests/helpers/postgres.ts, which adds a PGlite fallback) and `npm run stress
 * -- --database postgres` (scripts/stress.ts) both start theirs here. The password is random,
 * reaches initdb in a file only its user can read, and is never in an argument list.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { appendFile, chmod, chown, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { findPostgresBinDir as binDirHolding } from '../src/store/postgres-backup.js';

/** A running cluster. */
export interface PostgresServer {
  /** postgres://site:<password>@127.0.0.1:<port>/postgres, the cluster's first database. */
  url: string;
  /** The folder of the binaries (initdb, pg_ctl, pg_dump …). */
  binDir: string;
  /** Creates a new empty database and returns its URL. */
  createDatabase(): Promise<string>;
  /** Stops the cluster at once and deletes its folder. */
  stop(): Promise<void>;
}

/** The folder holding initdb and pg_ctl: on PATH, else the newest /usr/lib/postgresql/<version>/bin. */
export function findPostgresBinDir(): string | undefined {
  return binDirHolding(['initdb', 'pg_ctl']);
}

function clusterUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    try {
      const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
      return { uid, gid };
    } catch {
      // No such user: try the next.
    }
  }
  throw new Error(
    'Postgres refuses to run as root, and neither a `postgres` nor a `nobody` user exists to run the test cluster',
  );
}

/** A port of 127.0.0.1 that was free a moment ago. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Runs a Postgres binary as the cluster's user; rejects with its output when it fails. */
function runAs(
  user: { uid: number; gid: number } | undefined,
  command: string,
  args: string[],
  cwd: string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(user ?? {}),
      env: { ...process.env, LC_ALL: 'C' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args[0]} exited with ${code}:\n${output}`)),
    );
  });
}

/** Options of `startPostgresServer`. */
export interface PostgresServerOptions {
  /**
   * Keep Postgres's own durability (fsync, full-page writes), for measurements to compare with
   * SQLite, which fsyncs every commit; without it the cluster skips them, as tests need no crash
   * safety and share the disk.
   */
  durable?: boolean;
}

/** Creates and starts a cluster in a new temporary folder. */
export async function startPostgresServer(
  binDir: string,
  options: PostgresServerOptions = {},
): Promise<PostgresServer> {
  const user = clusterUser();
  // Under the system's temporary folder, which every user can reach (a checkout under /root is not).
  const dir = await mkdtemp(join(tmpdir(), 'site-pg-'));
  await chmod(dir, 0o700);
  if (user) await chown(dir, user.uid, user.gid);
  const dataDir = join(dir, 'data');
  const password = randomBytes(18).toString('base64url');
  const passwordFile = join(dir, 'password');
  await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
  if (user) await chown(passwordFile, user.uid, user.gid);
  try {
    // Sign-in over TCP needs the password; the socket (in the folder only its owner can enter)
    // trusts, so pg_ctl can check that the server is up.
    await runAs(
      user,
      join(binDir, 'initdb'),
      [
        '-D',
        dataDir,
        '-U',
        'site',
        `--pwfile=${passwordFile}`,
        '--auth-host=scram-sha-256',
        '--auth-local=trust',
        '-E',
        'UTF8',
        '--locale=C',
        '--no-sync',
      ],
      dir,
    );
  } finally {
    await unlink(passwordFile).catch(() => {});
  }
  const stopNow = () =>
    spawnSync(join(binDir, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', 'stop'], {
      cwd: dir,
      stdio: 'ignore',
      ...(user ?? {}),
    });
  // A test file that dies before its afterAll, or a script ended by a signal it turns into an exit,
  // leaves no server running and no folder behind it (only synchronous work runs at 'exit').
  const stopAtExit = () => {
    stopNow();
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', stopAtExit);

  let port = 0;
  for (let attempt = 1; ; attempt += 1) {
    port = await freePort();
    await appendFile(
      join(dataDir, 'postgresql.conf'),
      [
        '',
        `port = ${port}`,
        "listen_addresses = '127.0.0.1'",
        `unix_socket_directories = '${dir}'`,
        // A throwaway cluster: nothing to keep after a crash, so no waiting for the disk (unless a
        // measurement asks for it), and small buffers on a machine the tests share.
        ...(options.durable ? [] : ['fsync = off', 'full_page_writes = off']),
        'shared_buffers = 16MB',
        '',
      ].join('\n'),
    );
    try {
      await runAs(
        user,
        join(binDir, 'pg_ctl'),
        ['-D', dataDir, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start'],
        dir,
      );
      break;
    } catch (error) {
      const log = await readFile(join(dir, 'server.log'), 'utf8').catch(() => '');
      // Another process may have taken the port between the probe and the start: try another.
      if (attempt < 3 && /could not bind|address already in use/i.test(log)) continue;
      process.removeListener('exit', stopAtExit);
      await rm(dir, { recursive: true, force: true });
      throw new Error(`${(error as Error).message}\nserver log:\n${log}`);
    }
  }

  const url = `postgres://site:${password}@127.0.0.1:${port}/postgres`;
  let databases = 0;
  return {
    url,
    binDir,
    async createDatabase() {
      const name = `test_${++databases}`;
      const admin = postgres(url, { max: 1, onnotice: () => {} });
      try {
        await admin.unsafe(`CREATE DATABASE ${name}`);
      } finally {
        await admin.end();
      }
      return `postgres://site:${password}@127.0.0.1:${port}/${name}`;
    },
    async stop() {
      process.removeListener('exit', stopAtExit);
      stopNow();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
