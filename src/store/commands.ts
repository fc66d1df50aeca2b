/**
 * `site db …`: the site's store (src/store/) from the command line. `migrate` applies the pending
 * migrations and names them; `status` names the database (never with its password), its schema
 * version, what is pending and the rows per table, without changing anything; `backup <file>`
 * writes a consistent copy while the server runs (SQLite's `VACUUM INTO`: one read transaction,
 * so writers go on; Postgres has pg_dump for that), into a folder that exists and that no server
 * publishes (`backupRefusal`).
 */
import { existsSync, statSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Command } from 'commander';
import { loadConfig, type ResolvedConfig } from '../config/load.js';
import { isMarked } from '../emit/output-folder.js';
import { SiteError } from '../errors.js';
import { isWithin, realPath } from '../file-paths.js';
import { logInfo, logResult } from '../logger.js';
import { latestVersion } from './migrations.js';
import {
  checkStore,
  damaged,
  databaseOf,
  describeDatabase,
  openDriver,
  refuseEmptyFile,
  type DatabaseLocation,
} from './open.js';
import { createStore, migrate, schemaStatus } from './store.js';
import { StoreUnavailable, type SqlDriver } from './driver.js';

type Action = (options: { config: string } & Record<string, unknown>, command: Command) => Promise<void>;
type Run = (action: Action) => (...args: unknown[]) => Promise<void>;

/** Opens the driver of the site whose config is `configPath`, runs `work`, closes it. */
async function withDriver<T>(
  configPath: string,
  work: (driver: SqlDriver, database: string, location: DatabaseLocation) => Promise<T>,
): Promise<T> {
  const config = await loadConfig(configPath);
  const location = databaseOf(config);
  const database = describeDatabase(location);
  refuseEmptyFile(location);
  let driver: SqlDriver;
  try {
    driver = await openDriver(location);
  } catch (error) {
    if (error instanceof SiteError) throw error;
    throw new SiteError({
      code: 'STORE_UNAVAILABLE',
      message: `cannot open the database ${database}: ${(error as Error).message}`,
      cause: error,
    });
  }
  try {
    return await work(driver, database, location);
  } catch (error) {
    // A database that fails under the command is named with what to do, not an internal error.
    if (!(error instanceof StoreUnavailable)) throw error;
    if (error.fault === 'corrupt') throw damaged(database, `is damaged: ${error.message}`);
    throw new SiteError({
      code: 'STORE_UNAVAILABLE',
      message: `the database ${database} cannot answer: ${error.message}`,
      cause: error,
    });
  } finally {
    await driver.close();
  }
}

/**
 * Why a backup may not be written to `file` (absolute), or undefined when it may. A copy of the
 * database holds every account's e-mail and password hash: it must never land where a server
 * hands files to whoever asks, which is the output folder, public/ (the build publishes it), and
 * any folder inside a built site or a web root (a folder above it holds `index.html`, or the
 * marker of `site build`). A folder that is not there is named, rather than failing deep inside
 * SQLite.
 */
export function backupRefusal(file: string, config: ResolvedConfig): SiteError | undefined {
  // A command-line value: positioned by the argument it is, the path in the message.
  const refuse = (message: string, hint?: string) =>
    new SiteError({ code: 'BACKUP_REFUSED', field: 'db backup <file>', message, hint });
  if (existsSync(file)) return refuse(`${file} exists already`, 'Name a new file: a backup never overwrites one.');
  const folder = dirname(file);
  let info;
  try {
    info = statSync(folder);
  } catch {
    return refuse(
      `the folder ${folder} does not exist`,
      `Create it first (mkdir -p ${folder}), or name a file in a folder that exists.`,
    );
  }
  if (!info.isDirectory()) return refuse(`${folder} is not a folder`, 'Name a file in a folder that exists.');
  const real = realPath(folder);
  const published = [
    { path: config.dirs.output, what: 'the output folder (output.dir), which site serve and every host publish' },
    { path: config.dirs.public, what: 'the public folder, which every build publishes' },
  ];
  for (const place of published) {
    if (isWithin(real, realPath(place.path)))
      return refuse(
        `refusing to write ${file} into ${place.what} (${place.path}): anyone could download the accounts' e-mails and password hashes`,
      );
  }
  for (let at = real; ; at = dirname(at)) {
    if (isMarked(at) || existsSync(join(at, 'index.html'))) {
      return refuse(
        `refusing to write ${file} into ${at}, which holds a built site (${isMarked(at) ? 'written by site build' : 'an index.html'}) that a web server may publish: anyone could download the accounts' e-mails and password hashes`,
      );
    }
    if (dirname(at) === at) return undefined;
  }
}

/** Adds the `db` command and its subcommands to `program`; `run` is the CLI's wrapper that reports errors and sets the exit code. */
export function addDbCommand(program: Command, run: Run): Command {
  const db = program
    .command('db')
    .description(
      'the database of messages, bookings, accounts, sessions and the audit log (the SQLite file contact.dataDir/site.db, or DATABASE_URL)',
    );
  db.command('migrate')
    .description('apply the pending schema migrations (site serve also does at start)')
    .action(
      run(async (options) => {
        await withDriver(options.config, async (driver, database) => {
          const applied = await migrate(driver);
          logResult(
            applied.length
              ? applied.map((migration) => `applied ${migration.version}: ${migration.name}`).join('\n')
              : `${database} is at schema version ${latestVersion}: nothing to apply`,
          );
        });
      }),
    );
  db.command('status')
    .description('the database, its schema version, pending migrations and rows per table')
    .action(
      run(async (options) => {
        await withDriver(options.config, async (driver, database, location) => {
          const status = await schemaStatus(driver);
          const lines = [
            `database  ${database} (${driver.dialect})`,
            `schema    version ${status.version} of ${latestVersion}`,
          ];
          lines.push(
            status.pending.length
              ? `pending   ${status.pending.map((migration) => `${migration.version} (${migration.name})`).join(', ')}: run \`site db migrate\``
              : 'pending   none',
          );
          // What site serve checks at start: the pages whole (SQLite), the schema's tables there.
          const whole = await checkStore(driver, location, { tables: !status.pending.length }).then(
            () => undefined,
            (error: unknown) => {
              if (error instanceof SiteError && error.code === 'STORE_DAMAGED') return error.message;
              throw error;
            },
          );
          lines.push(whole ? `integrity ${whole}` : 'integrity ok');
          if (!status.pending.length && !whole) {
            const counts = await (await createStore(driver, { migrate: false })).counts();
            for (const [table, count] of Object.entries(counts)) lines.push(`${table.padEnd(18)}${count}`);
          }
          logResult(lines.join('\n'));
        });
      }),
    );
  db.command('backup <file>')
    .description('write a consistent copy of the database to a new file, also while site serve runs')
    .action(
      run(async (options, command) => {
        const file = resolve(String(command.args[0]));
        const config = await loadConfig(options.config);
        const refusal = backupRefusal(file, config);
        if (refusal) throw refusal;
        const location = databaseOf(config);
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
      }),
    );
  return db;
}
