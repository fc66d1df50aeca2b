/**
 * Before the tests of the build and browser projects: for the browser project a browser must be
 * there (or the run stops at once, with one line that says how to get one); lib/ is built by the
 * one compile step (setup-lib.ts), so the worker threads and the CLI the tests start are what users
 * run; then the real site is built once for the tests
 * that read or serve it, into a folder of this run. At the end, the project's own data/ and .site/
 * must be as they were: a test that stored a visitor's message or an account there fails the run.
 */
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { findChromium } from './browser';
import { buildInto } from './build';
import { buildLib } from './setup-lib';
import { outputRoot, repoRoot } from './paths';

/** Every file of the project's data/ and .site/ folders with the hash of its bytes. */
export async function projectState(root = repoRoot): Promise<Map<string, string>> {
  const state = new Map<string, string>();
  for (const folder of ['data', '.site']) {
    const entries = await readdir(join(root, folder), { recursive: true, withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const path = join(entry.parentPath, entry.name);
      state.set(
        relative(root, path),
        createHash('sha256')
          .update(await readFile(path))
          .digest('hex'),
      );
    }
  }
  return state;
}

/** What differs between two states: files added, changed and removed. */
export function describeChanges(before: Map<string, string>, after: Map<string, string>): string[] {
  const changes: string[] = [];
  for (const [path, hash] of after)
    if (!before.has(path)) changes.push(`added ${path}`);
    else if (before.get(path) !== hash) changes.push(`changed ${path}`);
  for (const path of before.keys()) if (!after.has(path)) changes.push(`removed ${path}`);
  return changes.sort();
}

/** What the run's first setup made: the real site's build and the teardown, shared by the projects that set up after it. */
interface SharedRun {
  ready: Promise<void>;
  users: number;
  teardown(): Promise<void>;
}
const runKey = Symbol.for('typed-site.tests.run');
const shared = globalThis as typeof globalThis & { [runKey]?: SharedRun };

/**
 * The setup of the build and browser projects (see vitest.config.ts): the browser project checks for
 * Chromium first; the real site is built once per run, whichever project asks first, and removed
 * when the last of them ends.
 */
export default async function setup(project?: { name: string }) {
  if (project?.name === 'browser') {
    const browser = findChromium();
    if ('problem' in browser) {
      process.stderr.write(`\n${browser.problem}\n\n`);
      process.exit(1);
    }
  }
  let run = shared[runKey];
  if (!run) {
    let runDir = '';
    let before = new Map<string, string>();
    const ready = (async () => {
      await buildLib();
      await mkdir(outputRoot, { recursive: true });
      runDir = await mkdtemp(join(outputRoot, 'run-'));
      const site = join(runDir, 'site');
      process.env.SITE_TEST_BUILT_SITE = site;
      await buildInto(join(repoRoot, 'site.config.yaml'), site);
      before = await projectState();
    })();
    run = shared[runKey] = {
      ready,
      users: 0,
      async teardown() {
        if (runDir) await rm(runDir, { recursive: true, force: true });
        // No test may store into the project's own data/ (its inbox) or .site/ (accounts, audit log):
        // every server a test starts stores into a folder of its own.
        const changes = describeChanges(before, await projectState());
        if (changes.length) {
          // A teardown's exception is only printed by vitest: the exit code is what fails the run.
          process.stderr.write(
            `\nnpm test changed the project's own stored data (tests must use a temporary data folder):\n  ${changes.join('\n  ')}\n\n`,
          );
          process.exitCode = 1;
        }
      },
    };
  }
  run.users++;
  await run.ready;
  const current = run;
  return async () => {
    if (--current.users > 0) return;
    delete shared[runKey];
    await current.teardown();
  };
}
