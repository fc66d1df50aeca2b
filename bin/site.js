#!/usr/bin/env node
// Starts the CLI: lib/cli.js, built from src/ by the one compile step (scripts/build-lib.js),
// which `npm install` runs and this file runs again when a source is newer than lib/.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// Before anything that needs a newer Node: the one required version is package.json's engines.node.
const required = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node.replace(/^>=\s*/, '');
const [major, minor] = process.versions.node.split('.').map(Number);
const [needMajor, needMinor] = required.split('.').map(Number);
if (major < needMajor || (major === needMajor && minor < (needMinor ?? 0))) {
  process.stderr.write(`site needs Node.js ${required} or newer, and this is Node.js ${process.versions.node}: install a newer Node.js (https://nodejs.org/) and run the command again.\n`);
  process.exit(1);
}

// Loaded after the check (a static import would be evaluated before it).
const { ensureLib, libDir } = await import('../scripts/build-lib.js');
await ensureLib();
// React reads NODE_ENV when the bundle first imports it, before the command is parsed, so every
// command renders with React's production build: several times faster than the development
// build, and `site dev` serves the same bytes as `site build`. An explicit NODE_ENV wins.
process.env.NODE_ENV ??= 'production';
const { main } = await import(pathToFileURL(join(libDir, 'cli.js')).href);
process.exitCode = await main(process.argv);
