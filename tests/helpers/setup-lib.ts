/**
 * The setup of the unit project (see vitest.config.ts), and the first step of the others: lib/ is
 * built again when a source is newer (`npm run prepare`), for the tests that start the CLI or load
 * lib/markdown-stack.js; no browser, no site build.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from './paths';

/** Runs the one compile step, which does nothing when lib/ is newer than every source. */
export async function buildLib(): Promise<void> {
  await promisify(execFile)(process.execPath, [join(repoRoot, 'scripts', 'build-lib.js')]);
}

export default buildLib;
