/**
 * `site db backup` for a Postgres database: Postgres's own `pg_dump`, in its custom format (one
 * consistent snapshot while the servers go on writing; restored with `pg_restore`). The password
 * goes to pg_dump in its environment (PGPASSWORD), never on its command line, where any user of
 * the machine could read it in the process list.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync } from 'node:fs';
import { open, rm, stat } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { SiteError } from '../errors.js';
import { describePostgresUrl } from './postgres.js';

/** Options of `backupPostgres`. */
export interface PostgresBackupOptions {
  /** The pg_dump to run (default: the PG_DUMP environment variable, then PATH, then /usr/lib/postgresql/<newest>/bin). */
  pgDump?: string;
}

/** What was written. */
export interface PostgresBackup {
  file: string;
  bytes: number;
}

/**
 * Writes a dump of the database at `url` to `file`, a new file created private (0600) like the
 * SQLite database. A missing pg_dump, or one that fails (server down, older than the server), is a
 * SiteError that says what to do, and leaves no file behind.
 */
export async function backupPostgres(
  url: string,
  file: string,
  options: PostgresBackupOptions = {},
): Promise<PostgresBackup> {
  const database = describePostgresUrl(url);
  const pgDump = options.pgDump ?? process.env.PG_DUMP ?? findPgDump();
  const notInstalled = (where: string) =>
    new SiteError({
      code: 'STORE_UNAVAILABLE',
      message: `cannot back up ${database}: pg_dump is not ${where}`,
      hint: "Install the Postgres client tools, of the server's major version or newer (Debian: apt-get install postgresql-client), or set PG_DUMP to pg_dump's path.",
    });
  if (!pgDump) throw notInstalled('installed (not on PATH, nor in /usr/lib/postgresql/*/bin)');
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  // Created empty first, so the dump (pg_dump opens the file it is given) has the mode set here.
  await (await open(file, 'wx', 0o600)).close();
  try {
    await runPgDump(
      pgDump,
      ['--format=custom', '--no-owner', `--file=${file}`, `--dbname=${parsed.href}`],
      {
        ...process.env,
        ...(password ? { PGPASSWORD: password } : {}),
        PGCONNECT_TIMEOUT: process.env.PGCONNECT_TIMEOUT ?? '10',
      },
      password,
    );
  } catch (error) {
    await rm(file, { force: true });
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw notInstalled(`at ${pgDump}`);
    throw new SiteError({
      code: 'STORE_UNAVAILABLE',
      message: `cannot back up ${database}: ${(error as Error).message}`,
      hint: "Check that the server in DATABASE_URL is up and reachable, and that pg_dump is of the server's major version or newer (pg_dump --version).",
      cause: error,
    });
  }
  return { file, bytes: (await stat(file)).size };
}

/**
 * The folder holding all the Postgres programs named: on PATH, else the newest of Debian's
 * /usr/lib/postgresql/<version>/bin (where `apt-get install postgresql` puts them, off PATH).
 */
export function findPostgresBinDir(names: readonly string[]): string | undefined {
  const hasAll = (dir: string) => names.every((name) => isExecutable(join(dir, name)));
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && hasAll(dir)) return dir;
  }
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => /^\d+(\.\d+)?$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  return versions.map((version) => join(root, version, 'bin')).find(hasAll);
}

/** pg_dump on PATH, else the newest of Debian's /usr/lib/postgresql/<version>/bin. */
export function findPgDump(): string | undefined {
  const dir = findPostgresBinDir(['pg_dump']);
  return dir && join(dir, 'pg_dump');
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Runs pg_dump; rejects with its last lines of stderr (the password scrubbed, should it echo it). */
function runPgDump(command: string, args: string[], env: NodeJS.ProcessEnv, password: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) return resolve();
      let reason = stderr.trim().split('\n').slice(-3).join(' ') || `pg_dump exited with ${code}`;
      if (password) reason = reason.split(password).join('***');
      reject(new Error(reason));
    });
  });
}
