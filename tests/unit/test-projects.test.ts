/**
 * The split of the suite into projects (vitest.config.ts) holds: a test that drives Chromium is in
 * the browser project (tests/e2e, tests/visual or a `*.browser.test.ts`), so `npm run test:build`
 * runs without one; and a unit test neither starts a browser nor reads the real site's build, so
 * `npm run test:unit` needs neither the browser nor the minute the global setup takes.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/paths';

const testsRoot = join(repoRoot, 'tests');

/** Every test file, relative to the repository, with its text. */
async function testFiles(): Promise<{ file: string; text: string }[]> {
  // Not tests/.output, whose folders other tests make and remove meanwhile, nor the fixtures.
  const folders = (await readdir(testsRoot, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory() && entry.name !== '.output' && entry.name !== 'fixtures')
    .map((entry) => join(testsRoot, entry.name));
  const entries = (
    await Promise.all(folders.map((folder) => readdir(folder, { recursive: true, withFileTypes: true })))
  ).flat();
  // This file names the patterns it looks for.
  const files = entries
    .filter((entry) => entry.isFile() && /\.test\.tsx?$/.test(entry.name) && entry.name !== 'test-projects.test.ts')
    .map((entry) => relative(repoRoot, join(entry.parentPath, entry.name)));
  return Promise.all(files.sort().map(async (file) => ({ file, text: await readFile(join(repoRoot, file), 'utf8') })));
}

const isBrowserProject = (file: string) => /^tests\/(e2e|visual)\//.test(file) || file.endsWith('.browser.test.ts');
/** What starting a browser looks like in a test: the launcher, or a helper module of the browser tests. */
const startsBrowser = /\blaunchBrowser\b|chromium\.launch|from '\.\.\/(e2e|visual)\//;
const readsRealSite = /\bbuiltSite\b|SITE_TEST_BUILT_SITE/;

describe('the projects of the suite', () => {
  it('keep every test that starts a browser in the browser project', async () => {
    const misplaced = (await testFiles())
      .filter(({ file, text }) => !isBrowserProject(file) && startsBrowser.test(text))
      .map(({ file }) => file);
    expect(misplaced, 'name them *.browser.test.ts or move them to tests/e2e').toEqual([]);
  });

  it('keep the unit project free of the real site and of browsers', async () => {
    const units = (await testFiles()).filter(({ file }) => /^tests\/(unit|config)\//.test(file));
    expect(units.length).toBeGreaterThan(20);
    const heavy = units
      .filter(({ text }) => readsRealSite.test(text) || startsBrowser.test(text))
      .map(({ file }) => file);
    expect(heavy).toEqual([]);
  });

  it('recognises a browser test and a read of the real site', () => {
    expect(startsBrowser.test('const browser = await launchBrowser();')).toBe(true);
    expect(startsBrowser.test("import { startE2e } from '../e2e/support';")).toBe(true);
    expect(readsRealSite.test("readFile(join(builtSite, 'index.html'))")).toBe(true);
    expect(startsBrowser.test("import { findChromium } from '../helpers/browser';")).toBe(false);
  });
});
