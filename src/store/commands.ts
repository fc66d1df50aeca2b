/**
 * `site db …`: the site's store (src/store/) from the command line. `migrate` applies the pending
 * migrations and names them; `status` names the database (never with its password), its schema
 * version, what is pending and the rows per table, without changing anything; `backup <file>`
 * writes a consistent copy while the server runs (SQLite's `VACUUM INTO`: one read transaction,
 * so writers go on; Postgres has pg_dump for that).
 */
import { existsSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Command } from 'commander';
import { loadConfig } from '../config/load.js';
import { SiteError } from '../errors.js';
import { logInfo, logResult } from '../logger.js';
import { latestVersion } from './migrations.js';
import { databaseOf, describeDatabase, openDriver } from './open.js';
import { createStore, migrate, schemaStatus } from './store.js';
import type { SqlDriver } from './driver.js';

type Action = (options: { config: string } & Record<string, unknown>, command: Command) => Promise<void>;
type Run = (action: Action) => (...args: unknown[]) => Promise<void>;

/** Opens the driver of the site whose config is `configPath`, runs `work`, closes it. */
async function withDriver<T>(configPath: string, work: (driver: SqlDriver, database: string) => Promise<T>): Promise<T> {
  const config = await loadConfig(configPath);
  const location = databaseOf(config);
  const database = describeDatabase(location);
  let driver: SqlDriver;
  try {
    driver = await openDriver(location);
  } catch (error) {
    if (error instanceof SiteError) throw error;
    throw new SiteError({ code: 'STORE_UNAVAILABLE', message: `cannot open the database ${database}: ${(error as Error).message}`, cause: error });
  }
  try {
    return await work(driver, database);
  } finally {
    await driver.close();
  }
}

/** Adds the `db` command and its subcommands to `program`; `run` is the CLI's wrapper that reports errors and sets the exit code. */
export function addDbCommand(program: Command, run: Run): Command {
  const db = program.command('db').description('the database of messages, bookings, accounts, sessions and the audit log (the SQLite file contact.dataDir/site.db, or DATABASE_URL)');
  db.command('migrate')
    .description('apply the pending schema migrations (site serve also does at start)')
    .action(run(async (options) => {
      await withDriver(options.config, async (driver, database) => {
        const applied = await migrate(driver);
        logResult(applied.length
          ? applied.map((migration) => `applied ${migration.version}: ${migration.name}`).join('\n')
          : `${database} is at schema version ${latestVersion}: nothing to apply`);
      });
    }));
  db.command('status')
    .description('the database, its schema version, pending migrations and rows per table')
    .action(run(async (options) => {
      await withDriver(options.config, async (driver, database) => {
        const status = await schemaStatus(driver);
        const lines = [`database  ${database} (${driver.dialect})`, `schema    version ${status.version} of ${latestVersion}`];
        lines.push(status.pending.length ? `pending   ${status.pending.map((migration) => `${migration.version} (${migration.name})`).join(', ')}: run \`site db migrate\`` : 'pending   none');
        if (!status.pending.length) {
          const counts = await (await createStore(driver, { migrate: false })).counts();
          for (const [table, count] of Object.entries(counts)) lines.push(`${table.padEnd(18)}${count}`);
        }
        logResult(lines.join('\n'));
      });
    }));
  db.command('backup <file>')
    .description('write a consistent copy of the database to a new file, also while site serve runs')
    .action(run(async (options, command) => {
      const file = resolve(String(command.args[0]));
      if (existsSync(file)) throw new SiteError({ code: 'ADMIN_USAGE', message: `${file} exists already`, hint: 'Name a new file: a backup never overwrites one.' });
      const location = databaseOf(await loadConfig(options.config));
      if (location.kind === 'postgres') {
        // pg_dump's custom format (restored with pg_restore), the password in its environment only.
        const { backupPostgres } = await import('./postgres-backup.js');
        const backup = await backupPostgres(location.url, file);
        logInfo(`dumped ${describeDatabase(location)} with pg_dump (${backup.bytes} bytes; restore with pg_restore)`);
        logResult(`backup written to ${file}`);
        return;
      }
      await withDriver(options.config, async (driver, database) => {
        // Created empty first, private (0600) like the database: VACUUM INTO fills an empty file and
        // would otherwise make it with the umask's mode. One read transaction: a consistent copy,
        // while the server goes on writing (WAL).
        await (await open(file, 'wx', 0o600)).close();
        try {
          await driver.execute('VACUUM INTO ?', [file]);
        } catch (error) {
          await rm(file, { force: true });
          throw error;
        }
        logInfo(`copied ${database}`);
        logResult(`backup written to ${file}`);
      });
    }));
  return db;
}
