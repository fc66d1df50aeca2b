/**
 * `site init`: the starter in a new folder, in the languages asked for, and never over anything.
 * (tests/package/packed-install.test.ts runs it from the installed package and builds the result.)
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { outputRoot, repoRoot } from '../helpers/paths';

const run = promisify(execFile);
let work: string;

/** Runs the CLI of this checkout in `work`; resolves with its exit code and output. */
async function site(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [join(repoRoot, 'bin', 'site.js'), ...args], { cwd: work });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

beforeAll(async () => {
  await mkdir(outputRoot, { recursive: true });
  work = await mkdtemp(join(outputRoot, 'init-'));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('site init', () => {
  it('writes the starter in the languages asked for, the first the default', async () => {
    const made = await site(['init', 'two', '--locales', 'en,no']);
    expect(made.code).toBe(0);
    expect(made.stdout).toContain('made a site in two');
    const config = parse(await readFile(join(work, 'two', 'site.config.yaml'), 'utf8')) as { site: { defaultLocale: string }; locales: Record<string, { prefix: string; label: string; intl: string }>; routes: { path: string | Record<string, string> }[] };
    expect(config.site.defaultLocale).toBe('en');
    expect(Object.keys(config.locales)).toEqual(['en', 'no']);
    expect(config.locales.no).toMatchObject({ prefix: '/no', label: 'Norsk', intl: 'no-NO' });
    // The about page shows localized paths: its path per language, /no/om-oss in Norwegian.
    expect(config.routes.map((route) => route.path)).toContainEqual({ en: '/about', no: '/om-oss' });
    for (const file of ['content/messages/no.yaml', 'content/pages/home/no.yaml', 'content/pages/about/no.md', 'content/blog/hello-world/no.md']) {
      expect(existsSync(join(work, 'two', file)), file).toBe(true);
    }
    expect(made.stderr).toContain('the copy of no is the English text, to translate');
    // Run from a checkout, the project installs the generator from it: a version range would
    // name a package no registry may hold (npm install: E404).
    const manifest = JSON.parse(await readFile(join(work, 'two', 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(manifest.dependencies['typed-site']).toBe(`file:${relative(join(work, 'two'), repoRoot).split(sep).join('/')}`);
    expect(made.stdout).toContain(`npm install      (installs typed-site from ${manifest.dependencies['typed-site']}, the folder this ran from)`);
    // Nothing of the staging folder is left beside it.
    expect((await readdir(work)).filter((name) => name.includes('site-init'))).toEqual([]);
  });

  it('refuses a folder that holds anything, or a file, and a language code that is not one (exit 2)', async () => {
    await mkdir(join(work, 'taken'));
    await writeFile(join(work, 'taken', 'notes.txt'), 'mine');
    const taken = await site(['init', 'taken']);
    expect(taken.code).toBe(2);
    expect(taken.stderr).toContain('INIT_NOT_EMPTY');
    expect(await readdir(join(work, 'taken'))).toEqual(['notes.txt']);

    await writeFile(join(work, 'a-file'), 'mine');
    const file = await site(['init', 'a-file']);
    expect(file.code).toBe(2);
    expect(await readFile(join(work, 'a-file'), 'utf8')).toBe('mine');

    const wrong = await site(['init', 'wrong', '--locales', 'english']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('INIT_LOCALE');
    expect(existsSync(join(work, 'wrong'))).toBe(false);
  });

  it('takes a folder that holds only .git', async () => {
    await mkdir(join(work, 'repo', '.git'), { recursive: true });
    const made = await site(['init', 'repo']);
    expect(made.code).toBe(0);
    expect((await readdir(join(work, 'repo'))).sort()).toContain('site.config.yaml');
  });
});
