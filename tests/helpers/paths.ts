/** Folders the tests share. */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const outputRoot = join(repoRoot, 'tests', '.output');
/** The real site, built once per test run by the global setup (each run gets its own folder). */
export const builtSite = process.env.SITE_TEST_BUILT_SITE ?? join(outputRoot, 'site');
export const fixturesRoot = join(repoRoot, 'tests', 'fixtures');
