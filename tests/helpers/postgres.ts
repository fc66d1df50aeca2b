/**
 * A throwaway Postgres for a test file: the cluster of scripts/postgres-cluster.ts (made by
 * `initdb` in a temporary folder, on a free port of 127.0.0.1, stopped and deleted by `stop()`),
 * which `npm run stress` starts too.
 *
 * Where no binaries exist, the dialect still gets tested: `startTestPostgres()` falls back to
 * PGlite in this process and says so on one line; `server` is then undefined, and a test that needs
 * a real server over TCP skips with `noServerReason` in its name, never passing silently.
 * SITE_TEST_POSTGRES=pglite forces the fallback, to test it on a machine that has the binaries.
 */
import { findPostgresBinDir, startPostgresServer, type PostgresServer } from '../../scripts/postgres-cluster';
import type { SqlDriver } from '../../src/store/driver';
import { openPostgres, type PostgresOptions } from '../../src/store/postgres';
import { openPglite } from './pglite-driver';

export { findPostgresBinDir, startPostgresServer, type PostgresServer };

/** Postgres for a test file: a real server, or PGlite when there is none. */
export interface TestPostgres {
  /** The real server, undefined under the PGlite fallback. */
  server: PostgresServer | undefined;
  /** Why there is no server ('' when there is one), for the names of skipped tests. */
  noServerReason: string;
  /** A driver on a new, empty database (a database of the server, or a new PGlite). */
  openDatabase(options?: PostgresOptions): Promise<SqlDriver>;
  /** Closes what openDatabase opened and stops the server. */
  stop(): Promise<void>;
}

/** Starts a cluster, or falls back to PGlite when no Postgres binaries exist (saying so on stderr). */
export async function startTestPostgres(): Promise<TestPostgres> {
  const binDir = process.env.SITE_TEST_POSTGRES === 'pglite' ? undefined : findPostgresBinDir();
  const opened: SqlDriver[] = [];
  if (!binDir) {
    const noServerReason =
      process.env.SITE_TEST_POSTGRES === 'pglite'
        ? 'SITE_TEST_POSTGRES=pglite'
        : 'no Postgres binaries (initdb, pg_ctl) on PATH or in /usr/lib/postgresql/*/bin';
    process.stderr.write(
      `postgres tests: ${noServerReason}; the Postgres dialect runs on PGlite, tests that need a server are skipped\n`,
    );
    return {
      server: undefined,
      noServerReason,
      async openDatabase() {
        const driver = await openPglite();
        opened.push(driver);
        return driver;
      },
      async stop() {
        await Promise.all(opened.map((driver) => driver.close()));
      },
    };
  }
  const server = await startPostgresServer(binDir);
  return {
    server,
    noServerReason: '',
    async openDatabase(options) {
      const driver = await openPostgres(await server.createDatabase(), options);
      opened.push(driver);
      return driver;
    },
    async stop() {
      await Promise.all(opened.map((driver) => driver.close().catch(() => {})));
      await server.stop();
    },
  };
}
