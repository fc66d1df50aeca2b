// The patches of patches/, applied by the compile step (scripts/build-lib.js) to the files of
// installed packages as esbuild bundles them. Each is a unified diff named after the package and
// the version it was written for (`mdast-util-from-markdown@2.1.0.patch`; a scope's slash as `+`),
// with paths relative to the package's folder. Before anything is bundled, each patch is checked
// against the installed package (its version, then every hunk, applied exactly, without fuzz), so
// an update of the lockfile stops the compile step with what to do rather than bundling a package
// the patch was not written for.
import { readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** A patch that cannot be applied as it is; the message says what to do. */
export class PatchError extends Error {
  name = 'PatchError';
}

/**
 * The package and version a patch file's name says: `name@1.2.3.patch`, `@scope+name@1.2.3.patch`.
 * Undefined for a file that is not a patch (a README).
 */
export function parsePatchFileName(fileName) {
  const match = /^((?:@[^+@/]+\+)?[^@/+]+)@([^@/]+)\.patch$/.exec(fileName);
  return match ? { packageName: match[1].replace('+', '/'), version: match[2] } : undefined;
}

/**
 * The folder of an installed package (the hoisted copy) under `nodeModules`, symbolic links
 * resolved as esbuild resolves them (pnpm links its packages; a node_modules may be a link).
 */
function packageFolder(nodeModules, packageName) {
  const folder = join(nodeModules, ...packageName.split('/'));
  try {
    return realpathSync(folder);
  } catch {
    return folder;
  }
}

/**
 * Reads every patch of `patchesDir`, checks it against the package installed in `nodeModules`
 * and applies it: the patched text of each file, by its absolute path. Throws a PatchError when
 * a package is missing, has another version, or a hunk no longer applies.
 */
export async function preparePatches({ patchesDir, nodeModules }) {
  const { parsePatch, applyPatch } = await import('diff');
  let names;
  try {
    names = readdirSync(patchesDir).sort();
  } catch {
    return [];
  }
  const prepared = [];
  for (const fileName of names) {
    const named = parsePatchFileName(fileName);
    if (!named) continue;
    const { packageName, version } = named;
    const patchPath = `patches/${fileName}`;
    const folder = packageFolder(nodeModules, packageName);
    let installed;
    try {
      installed = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')).version;
    } catch {
      throw new PatchError(
        `${patchPath} patches ${packageName}, which is not installed (no ${join(folder, 'package.json')}). Run npm ci, or delete the patch if nothing uses ${packageName} any more.`,
      );
    }
    if (installed !== version) {
      throw new PatchError(
        `${patchPath} is written for ${packageName} ${version}, but ${installed} is installed. ` +
          `Install ${version} (npm ci installs what package-lock.json pins), or port the patch: apply it to ${packageName} ${installed} by hand ` +
          `(or delete it if ${installed} no longer needs it), write the diff again as patches/${fileName.replace(`@${version}.patch`, `@${installed}.patch`)}, and run the test the patch's text names.`,
      );
    }
    const filePatches = parsePatch(readFileSync(join(patchesDir, fileName), 'utf8'));
    if (filePatches.length === 0 || filePatches.some((filePatch) => filePatch.hunks.length === 0)) {
      throw new PatchError(`${patchPath} holds no unified diff (--- a/<file>, +++ b/<file>, @@ hunks).`);
    }
    for (const filePatch of filePatches) {
      const file = String(filePatch.newFileName ?? filePatch.oldFileName).replace(/^b\//, '');
      const path = join(folder, file);
      let source;
      try {
        source = readFileSync(path, 'utf8');
      } catch {
        throw new PatchError(
          `${patchPath} changes ${file}, which ${packageName} ${installed} does not have (${path}). The patch is no longer right for this install: run npm ci, or write it again.`,
        );
      }
      const patched = applyPatch(source, filePatch);
      if (patched === false) {
        const at = filePatch.hunks.map((hunk) => hunk.oldStart).join(', ');
        throw new PatchError(
          `${patchPath} no longer applies to ${file} of ${packageName} ${installed} (a hunk at line ${at} does not match the file). ` +
            `The installed file differs from the one the patch was written against: run npm ci to reinstall it, or write the diff again against this file.`,
        );
      }
      prepared.push({ patchPath, packageName, version, file, path, contents: patched });
    }
  }
  return prepared;
}

/**
 * An esbuild plugin that loads the patched text of each prepared file, and refuses a file of a
 * patched package that the patch was not prepared for (another copy of the package, nested
 * deeper in node_modules). `loaded` collects the paths it served.
 */
export function patchPlugin(prepared, loaded) {
  const byPath = new Map(prepared.map((entry) => [entry.path, entry]));
  const packageNames = [...new Set(prepared.map((entry) => entry.packageName))];
  const escaped = packageNames.map((name) =>
    name
      .split('/')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[\\\\/]'),
  );
  const filter = new RegExp(`[\\\\/]node_modules[\\\\/](?:${escaped.join('|')})[\\\\/]`);
  return {
    name: 'package-patches',
    setup(build) {
      if (packageNames.length === 0) return;
      build.onLoad({ filter }, (args) => {
        const entry = byPath.get(args.path);
        if (entry) {
          loaded.add(entry.path);
          return { contents: entry.contents, loader: 'js' };
        }
        const patched = prepared.find((candidate) =>
          args.path.split(sep).join('/').includes(`/node_modules/${candidate.packageName}/${candidate.file}`),
        );
        if (patched) {
          return {
            errors: [
              {
                text: `${args.path} is another copy of ${patched.packageName} than the one ${patched.patchPath} was checked against (${patched.path}): dedupe the install (npm dedupe) so the bundle loads the patched copy.`,
              },
            ],
          };
        }
        return undefined;
      });
    },
  };
}

/** Throws when a prepared file was not loaded by any bundle: the patch would change nothing. */
export function assertPatchesLoaded(prepared, loaded, root) {
  for (const entry of prepared) {
    if (!loaded.has(entry.path)) {
      throw new PatchError(
        `${entry.patchPath} changes ${entry.file} of ${entry.packageName}, but no bundle of the compile step loaded ${relative(root, entry.path)}: the patch does nothing. See whether the bundle still needs it, and delete it or point it at the file the bundle loads.`,
      );
    }
  }
}
