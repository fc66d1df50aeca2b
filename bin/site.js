#!/usr/bin/env node
// Starts the CLI. The TypeScript sources are bundled once by esbuild into lib/cli.js and rebuilt
// whenever a file under src/ is newer than the bundle, so a fresh clone needs no compile step.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bundle = join(root, 'lib', 'cli.js');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const mtime = entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs;
    if (mtime > newest) newest = mtime;
  }
  return newest;
}

if (!existsSync(bundle) || statSync(bundle).mtimeMs < newestMtime(join(root, 'src'))) {
  const { buildCli } = await import('../scripts/build-cli.js');
  await buildCli();
}
const { main } = await import(pathToFileURL(bundle).href);
process.exitCode = await main(process.argv);
