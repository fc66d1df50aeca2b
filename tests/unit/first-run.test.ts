/** What a newcomer meets first: a Node that is too old, and a machine without a browser for the tests. */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { findChromium, systemBrowsers } from '../helpers/browser';
import { repoRoot } from '../helpers/paths';

const run = promisify(execFile);

describe('the Node.js version', () => {
  const required = (
    JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { engines: { node: string } }
  ).engines.node.replace(/^>=\s*/, '');

  it('is stated once, in package.json, and the README says the same', () => {
    expect(required).toMatch(/^\d+\.\d+$/);
    expect(readFileSync(join(repoRoot, 'README.md'), 'utf8')).toContain(`Node.js ${required} or newer`);
  });

  it('is checked by bin/site.js before anything else, with one line that says what to do', async () => {
    const fake = 'data:text/javascript,Object.defineProperty(process.versions,"node",{value:"18.19.0"})';
    const result = await run(process.execPath, ['--import', fake, join(repoRoot, 'bin', 'site.js'), 'build']).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `site needs Node.js ${required} or newer, and this is Node.js 18.19.0: install a newer Node.js (https://nodejs.org/) and run the command again.\n`,
    );
  });
});

describe('the browser of the tests', () => {
  it('says in one line what is missing and the command that installs it', () => {
    const found = findChromium({
      env: {},
      exists: () => false,
      playwrightPath: '/root/.cache/ms-playwright/chromium-1/chrome',
    });
    expect(found).toEqual({ problem: expect.stringContaining('install it with `sudo apt-get install -y chromium`') });
    expect('problem' in found && found.problem.includes('\n')).toBe(false);
  });

  it('takes CHROMIUM_PATH first, then Playwright’s own, then the system’s', () => {
    const everything = () => true;
    expect(
      findChromium({ env: { CHROMIUM_PATH: '/opt/chrome' }, exists: everything, playwrightPath: '/pw/chrome' }),
    ).toEqual({ path: '/opt/chrome' });
    expect(findChromium({ env: {}, exists: everything, playwrightPath: '/pw/chrome' })).toEqual({ path: '/pw/chrome' });
    expect(
      findChromium({ env: {}, exists: (path) => path === systemBrowsers[1], playwrightPath: '/pw/chrome' }),
    ).toEqual({ path: systemBrowsers[1] });
    expect(findChromium({ env: { CHROMIUM_PATH: '/nope' }, exists: () => false })).toEqual({
      problem: expect.stringContaining('CHROMIUM_PATH is set to /nope, which does not exist'),
    });
  });
});
