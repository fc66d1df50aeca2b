/**
 * Before any test: a browser must be there (or the run stops at once, with one line that says how
 * to get one); lib/ is built by the one compile step (`npm run prepare`), so the worker threads
 * and the CLI the tests start are what users run; then the real site is built once for the tests
 * that read or serve it, into a folder of this run.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { findChromium } from './browser';
import { buildInto } from './build';
import { outputRoot, repoRoot } from './paths';

export default async function setup() {
  const browser = findChromium();
  if ('problem' in browser) {
    process.stderr.write(`\n${browser.problem}\n\n`);
    process.exit(1);
  }
  await promisify(execFile)(process.execPath, [join(repoRoot, 'scripts', 'build-lib.js')]);
  await mkdir(outputRoot, { recursive: true });
  const runDir = await mkdtemp(join(outputRoot, 'run-'));
  const site = join(runDir, 'site');
  process.env.SITE_TEST_BUILT_SITE = site;
  await buildInto(join(repoRoot, 'site.config.yaml'), site);
  return async () => {
    await rm(runDir, { recursive: true, force: true });
  };
}
