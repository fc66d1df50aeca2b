#!/usr/bin/env node
// Starts the CLI. The TypeScript sources are bundled once by esbuild into lib/cli.js and rebuilt
// whenever a file under src/ is newer than the bundle, so a fresh clone needs no compile step.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bundle = join(root, 'lib', 'cli.js');

// Before anything that needs a newer Node: the one required version is package.json's engines.node.
const required = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node.replace(/^>=\s*/, '');
const [major, minor] = process.versions.node.split('.').map(Number);
const [needMajor, needMinor] = required.split('.').map(Number);
if (major < needMajor || (major === needMajor && minor < (needMinor ?? 0))) {
  process.stderr.write(`site needs Node.js ${required} or newer, and this is Node.js ${process.versions.node}: install a newer Node.js (https://nodejs.org/) and run the command again.\n`);
  process.exit(1);
}

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const mtime = entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs;
    if (mtime > newest) newest = mtime;
  }
  return newest;
}

// lib/worker.js (the build's worker threads) and lib/markdown-stack.js (the unified packages in one
// file) are built with lib/cli.js; the stack is rebuilt after an install, which may change them.
const others = ['worker.js', 'markdown-stack.js'].map((name) => join(root, 'lib', name));
const lockfile = join(root, 'node_modules', '.package-lock.json');
const installed = existsSync(lockfile) ? statSync(lockfile).mtimeMs : 0;
if (!existsSync(bundle) || !others.every(existsSync) || statSync(bundle).mtimeMs < Math.max(newestMtime(join(root, 'src')), installed)) {
  const { buildCli } = await import('../scripts/build-cli.js');
  await buildCli();
}
// React reads NODE_ENV when the bundle first imports it, before the command is parsed, so every
// command renders with React's production build: several times faster than the development
// build, and `site dev` serves the same bytes as `site build`. An explicit NODE_ENV wins.
process.env.NODE_ENV ??= 'production';
const { main } = await import(pathToFileURL(bundle).href);
process.exitCode = await main(process.argv);
