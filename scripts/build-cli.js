// Bundles src/ into lib/cli.js with esbuild. Dependencies stay external (loaded from node_modules).
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Builds lib/cli.js (and the worker entry) from the TypeScript sources. */
export async function buildCli() {
  await build({
    entryPoints: { cli: join(root, 'src/cli.ts') },
    outdir: join(root, 'lib'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    jsx: 'automatic',
    sourcemap: 'linked',
    logLevel: 'error',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildCli();
