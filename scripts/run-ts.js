// Runs a TypeScript script of this folder: bundles it with esbuild into lib/scripts/ (dependencies
// stay external, as for lib/cli.js) and imports it. Usage: node scripts/run-ts.js scripts/audit.ts [args]
import { build } from 'esbuild';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  process.stderr.write('usage: node scripts/run-ts.js <script.ts> [args]\n');
  process.exit(2);
}
const outfile = join(root, 'lib', 'scripts', basename(entry).replace(/\.ts$/, '.js'));
await build({
  entryPoints: [resolve(entry)],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  jsx: 'automatic',
  sourcemap: 'linked',
  logLevel: 'error',
});
process.argv = [process.argv[0], outfile, ...args];
await import(pathToFileURL(outfile).href);
