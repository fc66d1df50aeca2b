/** `site admin …`: the accounts of `site serve --admin`, kept in .site/admins.json beside the config. */
import { dirname, resolve } from 'node:path';
import { Command } from 'commander';
import { SiteError } from '../errors.js';
import { logResult } from '../logger.js';
import { accountsFile, readAccounts } from './accounts.js';
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

/** Adds the `admin` command and its subcommands to `program`; `run` is the CLI's wrapper that reports errors and sets the exit code. */
export function addAdminCommand(program: Command, run: Run): Command {
  const admin = program.command('admin').description('manage the accounts that may sign in to `site serve --admin`');
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
  return admin;
}
