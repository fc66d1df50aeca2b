/**
 * How a site plugin's hook is run: within a time budget (`build.pluginTimeout`), and with
 * `process.exit` caught while it runs. A hook that never settles used to end `site build` with
 * Node's exit code 13 and no word (or hold `site dev` for good), and one that called
 * `process.exit(0)` ended the build with success having published nothing. Both are now errors
 * naming the plugin and the hook (PLUGIN_TIMEOUT, PLUGIN_EXIT), the build fails with exit code 1,
 * and the caller's clean-up (the staging copy of `buildEnd`) runs.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { relative } from 'node:path';
import { SiteError, type ErrorCode } from '../errors.js';
import type { SitePlugin } from './plugin-api.js';
import type { PluginRef } from './plugin-resolve.js';

/** A site plugin, imported, with the config entry it came from: what each hook runs on. */
export interface LoadedSitePlugin {
  ref: PluginRef;
  plugin: SitePlugin;
}

/** The budget of a hook when the config gives none (`build.pluginTimeout`, seconds). */
export const defaultPluginTimeoutSeconds = 60;

/** What a hook's run is told of a `process.exit` inside it. */
interface HookRun {
  exited(code: number | string | null | undefined): void;
}

/** The run of the hook whose code is executing, followed through its awaits and timers. */
const runningHook = new AsyncLocalStorage<HookRun>();

/** Thrown from `process.exit` inside a hook, so that the hook's code stops there as it would have. */
class ExitInHook extends Error {
  constructor(readonly code: number | string | null | undefined) {
    super(`process.exit(${code ?? ''}) in a plugin hook`);
  }
}

let exitGuarded = false;
/** Hooks given up (over their budget) that may still hold the process open: the CLI ends it after reporting. */
let abandoned = 0;

/**
 * Replaces `process.exit` once with a version that, called from a hook's code (its async context),
 * tells the hook's run and throws instead of ending the process; from anywhere else it is the
 * real one. It stays in place: a hook given up after its budget may still call it later, and must
 * not end a `site dev` that went on.
 */
function guardExit(): void {
  if (exitGuarded) return;
  exitGuarded = true;
  const realExit = process.exit.bind(process);
  process.exit = ((code?: number | string | null) => {
    const run = runningHook.getStore();
    if (!run) return realExit(code);
    run.exited(code);
    throw new ExitInHook(code);
  }) as typeof process.exit;
}

/** Whether a hook was given up while it still ran (its promise, and what it holds open, live on). */
export function hooksAbandoned(): boolean {
  return abandoned > 0;
}

/** A site plugin's hook failed: PLUGIN_FAILED naming the plugin, the hook and (for headTags) the page. */
export function pluginFailure(
  loadedPlugin: LoadedSitePlugin,
  hook: string,
  cause: unknown,
  configFile: string,
  page?: string,
): SiteError {
  const why = cause instanceof Error ? cause.message : String(cause);
  return new SiteError({
    code: 'PLUGIN_FAILED',
    message: `plugin "${loadedPlugin.plugin.name}" (${loadedPlugin.ref.specifier}) failed in ${hook}${page ? ` for the page ${page}` : ''}: ${why}`,
    file: relative(process.cwd(), loadedPlugin.ref.file) || loadedPlugin.ref.file,
    field: `${loadedPlugin.ref.field} (named in ${configFile})`,
    cause,
  });
}

function hookError(code: ErrorCode, entry: LoadedSitePlugin, message: string, configFile: string): SiteError {
  return new SiteError({
    code,
    message: `plugin "${entry.plugin.name}" (${entry.ref.specifier}) ${message}`,
    file: relative(process.cwd(), entry.ref.file) || entry.ref.file,
    field: `${entry.ref.field} (named in ${configFile})`,
  });
}

/**
 * Runs `call`, the hook `hook` ("buildEnd()") of `entry`, and gives its result. Throws a SiteError:
 * PLUGIN_TIMEOUT when it has not settled after `budgetSeconds`, PLUGIN_EXIT when it called
 * `process.exit`, PLUGIN_FAILED when it threw.
 */
export async function runPluginHook<T>(
  entry: LoadedSitePlugin,
  hook: string,
  budgetSeconds: number,
  configFile: string,
  call: () => T | Promise<T>,
): Promise<T> {
  guardExit();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let exitedWith: { code: number | string | null | undefined } | undefined;
  let exited!: (error: SiteError) => void;
  const exit = new Promise<never>((_, reject) => (exited = reject));
  const run: HookRun = {
    exited(code) {
      exitedWith ??= { code };
      exited(
        hookError(
          'PLUGIN_EXIT',
          entry,
          `called process.exit(${code ?? ''}) in ${hook}: the build stopped there, and nothing of it is published`,
          configFile,
        ),
      );
    },
  };
  // Not unref'd: while the hook is pending, this timer is what keeps the process alive to say so.
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      abandoned++;
      reject(hookError('PLUGIN_TIMEOUT', entry, `did not finish ${hook} within ${budgetSeconds} s`, configFile));
    }, budgetSeconds * 1000);
  });
  const work = runningHook.run(run, async () => call());
  // A rejection that comes after the race is decided is the hook's own business.
  work.catch(() => undefined);
  try {
    return await Promise.race([work, exit, timeout]);
  } catch (error) {
    if (error instanceof SiteError) throw error;
    if (exitedWith || error instanceof ExitInHook)
      throw hookError(
        'PLUGIN_EXIT',
        entry,
        `called process.exit(${exitedWith?.code ?? ''}) in ${hook}: the build stopped there, and nothing of it is published`,
        configFile,
      );
    throw pluginFailure(entry, hook, error, configFile);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs a synchronous hook (`headTags`, per page): no budget can stop a loop on this thread, but a
 * `process.exit` inside it is PLUGIN_EXIT; any other throw goes to the caller as it was.
 */
export function runPluginHookSync<T>(
  entry: LoadedSitePlugin,
  hook: string,
  configFile: string,
  call: () => T,
  page?: string,
): T {
  guardExit();
  let exitedWith: { code: number | string | null | undefined } | undefined;
  const run: HookRun = { exited: (code) => (exitedWith ??= { code }) };
  const exitError = () =>
    hookError(
      'PLUGIN_EXIT',
      entry,
      `called process.exit(${exitedWith?.code ?? ''}) in ${hook}${page ? ` for the page ${page}` : ''}: the build stopped there`,
      configFile,
    );
  let result: T;
  try {
    result = runningHook.run(run, call);
  } catch (error) {
    if (!exitedWith && !(error instanceof ExitInHook)) throw error;
    throw exitError();
  }
  // A hook that caught the exit's throw and went on still asked to end the process.
  if (exitedWith) throw exitError();
  return result;
}
