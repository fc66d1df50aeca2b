/** Builds the real site once for the tests that read or serve it. */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { buildInto } from './build';
import { builtSite, outputRoot, repoRoot } from './paths';

export default async function setup() {
  await rm(outputRoot, { recursive: true, force: true });
  await buildInto(join(repoRoot, 'site.config.yaml'), builtSite);
}
