/** Builds the real site once for the tests that read or serve it, into a folder of this run. */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { buildInto } from './build';
import { outputRoot, repoRoot } from './paths';

export default async function setup() {
  await mkdir(outputRoot, { recursive: true });
  const runDir = await mkdtemp(join(outputRoot, 'run-'));
  const site = join(runDir, 'site');
  process.env.SITE_TEST_BUILT_SITE = site;
  await buildInto(join(repoRoot, 'site.config.yaml'), site);
  return async () => {
    await rm(runDir, { recursive: true, force: true });
  };
}
