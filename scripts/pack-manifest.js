// The package's manifest as its users get it. `npm pack` and `npm publish` pack package.json as it
// is on disk, and the repository's names what only the repository has: scripts that run files the
// package does not ship (scripts/build-lib.js), which npm also asks whoever installs a tarball to
// approve (`prepare` of a package from outside a registry), devDependencies and allowScripts.
// The prepack script runs `strip` last, and postpack runs `restore`: the repository's manifest is
// kept beside it for the length of the pack, as pinst does for husky.
//
//   node scripts/pack-manifest.js strip     package.json without them (the original kept aside)
//   node scripts/pack-manifest.js restore   the original back
//
// A pack that died between the two leaves the original aside: `strip` and `restore` both put it
// back first, and bin/site.js, the tests' set-up and `npm test` never read the fields stripped.
import { existsSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = join(root, 'package.json');
const original = join(root, '.package.json.repository');

/** The fields of the repository's manifest that mean nothing to a user of the package. */
const developmentFields = ['scripts', 'devDependencies', 'allowScripts'];

async function restore() {
  if (existsSync(original)) await rename(original, manifest);
}

async function strip() {
  await restore();
  const text = await readFile(manifest, 'utf8');
  const packed = JSON.parse(text);
  for (const field of developmentFields) delete packed[field];
  // The original aside first (a copy, then the swap by renames): at no moment is package.json missing.
  await writeFile(original, text);
  const temporary = `${manifest}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(packed, null, 2)}\n`);
  await rename(temporary, manifest);
}

const command = process.argv[2];
if (command === 'strip') await strip();
else if (command === 'restore') await restore();
else {
  process.stderr.write('usage: node scripts/pack-manifest.js strip|restore\n');
  process.exitCode = 2;
}
