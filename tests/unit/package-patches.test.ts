/**
 * The patches of patches/ (scripts/patches.js): named after the package and version they were
 * written for, checked against the installed package before the compile step bundles anything,
 * and refused with what to do when the version differs or a hunk no longer applies.
 */
import { mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a JavaScript module of the compile step, without types.
import { assertPatchesLoaded, parsePatchFileName, PatchError, preparePatches } from '../../scripts/patches.js';
import { repoRoot } from '../helpers/paths';

const patch = `Why: a test.

--- a/lib/index.js
+++ b/lib/index.js
@@ -1,3 +1,3 @@
 const a = 1;
-const b = 2;
+const b = 3;
 export { a, b };
`;

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A project folder with patches/ and one installed package `name` at `version`. */
function project(name: string, version: string, source: string, patchFile = `${name.replace('/', '+')}@1.0.0.patch`) {
  const folder = mkdtempSync(join(tmpdir(), 'site-patches-'));
  folders.push(folder);
  const packageDir = join(folder, 'node_modules', ...name.split('/'));
  mkdirSync(join(packageDir, 'lib'), { recursive: true });
  writeFileSync(join(packageDir, 'package.json'), JSON.stringify({ name, version }));
  writeFileSync(join(packageDir, 'lib', 'index.js'), source);
  mkdirSync(join(folder, 'patches'));
  writeFileSync(join(folder, 'patches', patchFile), patch);
  writeFileSync(join(folder, 'patches', 'README.md'), '# patches/\n');
  return { patchesDir: join(folder, 'patches'), nodeModules: join(folder, 'node_modules'), packageDir };
}

const original = 'const a = 1;\nconst b = 2;\nexport { a, b };\n';

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a PatchError');
}

describe('package patches', () => {
  it('reads the package and version from the file name, a scope written with +', () => {
    expect(parsePatchFileName('mdast-util-from-markdown@2.1.0.patch')).toEqual({
      packageName: 'mdast-util-from-markdown',
      version: '2.1.0',
    });
    expect(parsePatchFileName('@scope+name@1.2.3-beta.1.patch')).toEqual({
      packageName: '@scope/name',
      version: '1.2.3-beta.1',
    });
    expect(parsePatchFileName('README.md')).toBeUndefined();
    expect(parsePatchFileName('no-version.patch')).toBeUndefined();
  });

  it('applies a patch to the installed version it names', async () => {
    const paths = project('some-package', '1.0.0', original);
    const prepared = await preparePatches(paths);
    expect(prepared).toHaveLength(1);
    expect(prepared[0]).toMatchObject({
      packageName: 'some-package',
      version: '1.0.0',
      file: 'lib/index.js',
      path: join(paths.packageDir, 'lib', 'index.js'),
    });
    expect(prepared[0].contents).toBe('const a = 1;\nconst b = 3;\nexport { a, b };\n');
  });

  it('refuses another installed version, naming the package, both versions and what to do', async () => {
    const paths = project('@scope/thing', '1.1.0', original);
    const error = await failure(preparePatches(paths));
    expect(error).toBeInstanceOf(PatchError);
    expect(error.message).toBe(
      'patches/@scope+thing@1.0.0.patch is written for @scope/thing 1.0.0, but 1.1.0 is installed. Install 1.0.0 (npm ci installs what package-lock.json pins), ' +
        'or port the patch: apply it to @scope/thing 1.1.0 by hand (or delete it if 1.1.0 no longer needs it), write the diff again as patches/@scope+thing@1.1.0.patch, ' +
        "and run the test the patch's text names.",
    );
  });

  it('refuses a patch whose hunk no longer matches the installed file', async () => {
    const paths = project('some-package', '1.0.0', original.replace('const b = 2;', 'const b = 2; // changed'));
    const error = await failure(preparePatches(paths));
    expect(error).toBeInstanceOf(PatchError);
    expect(error.message).toContain(
      'patches/some-package@1.0.0.patch no longer applies to lib/index.js of some-package 1.0.0 (a hunk at line 1 does not match the file)',
    );
    expect(error.message).toContain('run npm ci to reinstall it, or write the diff again');
  });

  it('refuses a package that is not installed', async () => {
    const paths = project('some-package', '1.0.0', original, 'other-package@1.0.0.patch');
    const error = await failure(preparePatches(paths));
    expect(error.message).toMatch(
      /^patches\/other-package@1\.0\.0\.patch patches other-package, which is not installed/,
    );
  });

  it('refuses a patch no bundle loaded', async () => {
    const paths = project('some-package', '1.0.0', original);
    const prepared = await preparePatches(paths);
    expect(() => assertPatchesLoaded(prepared, new Set(), paths.nodeModules)).toThrow(
      /changes lib\/index\.js of some-package, but no bundle of the compile step loaded/,
    );
    expect(() => assertPatchesLoaded(prepared, new Set([prepared[0].path]), paths.nodeModules)).not.toThrow();
  });

  it("fits this repository's install: each patch of patches/ names the installed version and applies", async () => {
    const patchFiles = readdirSync(join(repoRoot, 'patches')).filter((name) => name.endsWith('.patch'));
    expect(patchFiles).toContain(
      `mdast-util-from-markdown@${JSON.parse(readFileSync(join(repoRoot, 'node_modules', 'mdast-util-from-markdown', 'package.json'), 'utf8')).version}.patch`,
    );
    const prepared = await preparePatches({
      patchesDir: join(repoRoot, 'patches'),
      nodeModules: join(repoRoot, 'node_modules'),
    });
    expect(prepared.map((entry: { file: string }) => entry.file)).toEqual(['lib/index.js']);
    expect(prepared[0].contents).toContain('context.sliceSerialize = events[index][2].sliceSerialize;');
  });
});
