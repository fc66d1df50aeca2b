/**
 * `site admin …`: the accounts of `site serve --admin`, kept in the site's store (src/store/: the
 * SQLite file in contact.dataDir, or DATABASE_URL), and `prune-inbox`, which deletes what visitors
 * sent once it is older than a given age. Each command opens the store (migrations applied, old
 * JSON-lines files imported on the first start), does its one job and closes it; a running server
 * on the same database sees the change at its next request.
 */
import { userInfo } from 'node:os';
import { Command } from 'commander';
import { loadConfig } from '../config/load.js';
import { SiteError } from '../errors.js';
import { logInfo, logResult } from '../logger.js';
import { fixedStoreSource, openSiteStore } from '../store/source.js';
import type { Store } from '../store/store.js';
import { createAuditLog } from './audit-log.js';
import { cutoffOf, parseAge } from '../store/inbox-records.js';
import { createInbox } from './inbox-store.js';
import { readNewPassword } from './password-input.js';
import { addUser, checkEmail, checkRole, removeUser, setPassword } from './users.js';

type Action = (options: { config: string } & Record<string, unknown>, command: Command) => Promise<void>;
type Run = (action: Action) => (...args: unknown[]) => Promise<void>;

/** Runs `work` on the store of the site whose config is `configPath`, closing it after. */
async function withStore<T>(configPath: string, work: (store: Store) => Promise<T>): Promise<T> {
  const config = await loadConfig(configPath);
  const store = await openSiteStore(config, {
    imported: (report, database) =>
      logInfo(
        `imported into ${database}: ${report.counts.contacts} contact messages, ${report.counts.bookings} bookings, ${report.counts.accounts} accounts, ${report.counts.audit} audit entries; the old files were renamed aside (${report.renamed.map(([, to]) => to).join(', ')})`,
      ),
  });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

async function password(): Promise<string> {
  try {
    return await readNewPassword();
  } catch (error) {
    throw new SiteError({
      code: 'ADMIN_USAGE',
      message: (error as Error).message,
      hint: 'Type the password at the prompt, or pipe it in on standard input; it is never taken from the command line.',
    });
  }
}

/** Who ran a command, as the audit log names them. */
function cliUser(): string {
  try {
    return `cli:${userInfo().username}`;
  } catch {
    return 'cli';
  }
}

/** Adds the `admin` command and its subcommands to `program`; `run` is the CLI's wrapper that reports errors and sets the exit code. */
export function addAdminCommand(program: Command, run: Run): Command {
  const admin = program
    .command('admin')
    .description('manage the accounts that may sign in to `site serve --admin`, and the stored inbox');
  const email = (command: Command) => checkEmail(String(command.args[0]));
  admin
    .command('add-user <email>')
    .description('add an account; the password is read from a prompt, or from standard input when piped')
    .option('--role <role>', 'editor (the blog) or admin (the blog, settings and accounts)', 'editor')
    .action(
      run(async (options, command) => {
        const address = email(command);
        const role = checkRole(String(options.role));
        const pass = await password();
        await withStore(options.config, (store) => addUser(store, address, role, pass));
        logResult(`added ${address} (${role})`);
      }),
    );
  admin
    .command('list-users')
    .description('list the accounts')
    .action(
      run(async (options) => {
        const accounts = await withStore(options.config, (store) => store.listAccounts());
        logResult(
          accounts.length
            ? accounts
                .map((account) => `${account.email}  ${account.role}  since ${account.created.slice(0, 10)}`)
                .join('\n')
            : 'no accounts yet: add one with `site admin add-user <email>`',
        );
      }),
    );
  admin
    .command('remove-user <email>')
    .description('remove an account (its sessions end at once)')
    .action(
      run(async (options, command) => {
        const address = email(command);
        await withStore(options.config, (store) => removeUser(store, address));
        logResult(`removed ${address}`);
      }),
    );
  admin
    .command('set-password <email>')
    .description('set the password of an account (its sessions end at once)')
    .action(
      run(async (options, command) => {
        const address = email(command);
        const pass = await password();
        await withStore(options.config, (store) => setPassword(store, address, pass));
        logResult(`set the password of ${address}`);
      }),
    );
  admin
    .command('prune-inbox')
    .description(
      'delete the contact submissions and booking requests older than an age (30d, 8w, 12m) from contact.dataDir: messages by when they came, meeting requests by the meeting',
    )
    .requiredOption('--older-than <age>', 'a whole number of days (d), weeks (w) or months (m), such as 12m')
    .action(
      run(async (options) => {
        const text = String(options.olderThan);
        const age = parseAge(text);
        if (!age) throw new SiteError({ code: 'INBOX_AGE', message: `"${text}" is not an age`, field: '--older-than' });
        const before = cutoffOf(age, Date.now());
        const counts = await withStore(options.config, async (store) => {
          const source = fixedStoreSource(store);
          const result = await createInbox(source).prune(before);
          const removed = result.reduce((sum, count) => sum + count.removed, 0);
          if (removed > 0)
            await createAuditLog(source).append({
              user: cliUser(),
              action: 'inbox-prune',
              count: removed,
              olderThan: text,
            });
          return result;
        });
        const names = { contact: 'contact messages', booking: 'booking requests' } as const;
        logResult(
          counts
            .map((count) => {
              const undated = count.undated ? ` (${count.undated} without a readable date kept)` : '';
              return `${names[count.kind]}: removed ${count.removed}, kept ${count.kept}${undated}`;
            })
            .join('\n'),
        );
        logResult(`removed what is older than ${new Date(before).toISOString()}`);
      }),
    );
  return admin;
}
