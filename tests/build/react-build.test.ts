/**
 * Which build of React renders the pages: production, whatever the words of the command line (an
 * output folder named "dev" once switched `site build` to React's development build).
 */
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEditableSite } from '../helpers/editable-site';
import type { TempSite } from '../helpers/fixture-site';
import { repoRoot } from '../helpers/paths';

const run = promisify(execFile);

describe('the build of React that renders the pages', () => {
  let site: TempSite;
  beforeAll(async () => {
    site = await createEditableSite();
    // React's development build exports jsxDEV from react/jsx-dev-runtime; the production build exports undefined.
    const notFound = join(site.dir, 'templates', 'pages', 'NotFound.tsx');
    const text = await readFile(notFound, 'utf8');
    await writeFile(
      notFound,
      `import { jsxDEV } from 'react/jsx-dev-runtime';\n${text.replace(
        '<p className="not-found-code"',
        '<p data-react-build={typeof jsxDEV === "function" ? "development" : "production"} className="not-found-code"',
      )}`,
    );
  });
  afterAll(() => site.cleanup());

  /** Builds the copy into `out` as a user would (no NODE_ENV unless given) and says which build rendered its 404 page. */
  const reactBuildOf = async (out: string, env: NodeJS.ProcessEnv = {}) => {
    const { NODE_ENV: _vitest, ...inherited } = process.env;
    await run(process.execPath, [join(repoRoot, 'bin', 'site.js'), 'build', '--out', out, '--no-precompress'], {
      cwd: site.dir,
      env: { ...inherited, ...env },
    });
    return /data-react-build="(\w+)"/.exec(await readFile(join(site.dir, out, '404.html'), 'utf8'))?.[1];
  };

  it('is the production build for `site build --out dev`', async () => {
    expect(await reactBuildOf('dev')).toBe('production');
  });

  it('is the one NODE_ENV names when it is set', async () => {
    expect(await reactBuildOf('explicit', { NODE_ENV: 'development' })).toBe('development');
  });
});
