/**
 * `site admin …`: the accounts of `site serve --admin`, kept in .site/admins.json beside the
 * config, and `prune-inbox`, which deletes what visitors sent once it is older than a given age.
 */
import { userInfo } from 'node:os';
import { dirname, resolve } from 'node:path';
import { Command } from 'commander';
import { loadConfig } from '../config/load.js';
import { SiteError } from '../errors.js';
import { logResult } from '../logger.js';
import { accountsFile, readAccounts } from './accounts.js';
import { auditLogFile, createAuditLog } from './audit-log.js';
import { cutoffOf, parseAge } from './inbox-records.js';
import { createInbox } from './inbox-store.js';
import { readNewPassword } from './password-input.js';
import { addUser, checkEmail, checkRole, removeUser, setPassword } from './users.js';

type Action = (options: { config: string } & Record<string, unknown>, command: Command) => Promise<void>;
type Run = (action: Action) => (...args: unknown[]) => Promise<void>;

/** The accounts file of the project whose config is `configPath` (the config need not be valid). */
function fileOf(configPath: string): string {
  return accountsFile(dirname(resolve(configPath)));
}

async function password(): Promise<string> {
  try {
    return await readNewPassword();
  } catch (error) {
    throw new SiteError({ code: 'ADMIN_USAGE', message: (error as Error).message, hint: 'Type the password at the prompt, or pipe it in on standard input; it is never taken from the command line.' });
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
  const admin = program.command('admin').description('manage the accounts that may sign in to `site serve --admin`, and the stored inbox');
  const email = (command: Command) => checkEmail(String(command.args[0]));
  admin
    .command('add-user <email>')
    .description('add an account; the password is read from a prompt, or from standard input when piped')
    .option('--role <role>', 'editor (the blog) or admin (the blog, settings and accounts)', 'editor')
    .action(run(async (options, command) => {
      const address = email(command);
      const role = checkRole(String(options.role));
      const file = fileOf(options.config);
      const pass = await password();
      await addUser(file, address, role, pass);
      logResult(`added ${address} (${role})`);
    }));
  admin
    .command('list-users')
    .description('list the accounts')
    .action(run(async (options) => {
      const accounts = await readAccounts(fileOf(options.config));
      logResult(accounts.length ? accounts.map((account) => `${account.email}  ${account.role}  since ${account.created.slice(0, 10)}`).join('\n') : 'no accounts yet: add one with `site admin add-user <email>`');
    }));
  admin
    .command('remove-user <email>')
    .description('remove an account (its sessions end at their next request)')
    .action(run(async (options, command) => {
      const address = email(command);
      await removeUser(fileOf(options.config), address);
      logResult(`removed ${address}`);
    }));
  admin
    .command('set-password <email>')
    .description('set the password of an account (its sessions end at their next request)')
    .action(run(async (options, command) => {
      const address = email(command);
      const file = fileOf(options.config);
      const pass = await password();
      await setPassword(file, address, pass);
      logResult(`set the password of ${address}`);
    }));
  admin
    .command('prune-inbox')
    .description('delete the contact submissions and booking requests older than an age (30d, 8w, 12m) from contact.dataDir: messages by when they came, meeting requests by the meeting')
    .requiredOption('--older-than <age>', 'a whole number of days (d), weeks (w) or months (m), such as 12m')
    .action(run(async (options) => {
      const text = String(options.olderThan);
      const age = parseAge(text);
      if (!age) throw new SiteError({ code: 'INBOX_AGE', message: `"${text}" is not an age`, field: '--older-than' });
      const config = await loadConfig(options.config);
      const before = cutoffOf(age, Date.now());
      const counts = await createInbox(config.dirs.data).prune(before);
      const removed = counts.reduce((sum, count) => sum + count.removed, 0);
      if (removed > 0) await createAuditLog(auditLogFile(config.root)).append({ user: cliUser(), action: 'inbox-prune', count: removed, olderThan: text });
      logResult(counts.map((count) => {
        const undated = count.undated ? ` (${count.undated} without a readable date kept)` : '';
        return `${count.file}: removed ${count.removed}, kept ${count.kept}${undated}`;
      }).join('\n'));
      logResult(`removed what is older than ${new Date(before).toISOString()}`);
    }));
  return admin;
}
