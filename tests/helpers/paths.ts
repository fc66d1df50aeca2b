/** Folders the tests share. */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const outputRoot = join(repoRoot, 'tests', '.output');
/** The real site, built once by the global setup. */
export const builtSite = join(outputRoot, 'site');
export const fixturesRoot = join(repoRoot, 'tests', 'fixtures');
