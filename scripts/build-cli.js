// Bundles src/ into lib/cli.js with esbuild. Dependencies stay external (loaded from node_modules).
// Each output file is written to a temporary name and renamed, so CLIs started at the same moment
// never read a half-written bundle.
import { build } from 'esbuild';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Builds lib/cli.js from the TypeScript sources. */
export async function buildCli() {
  const result = await build({
    entryPoints: { cli: join(root, 'src/cli.ts') },
    outdir: join(root, 'lib'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    jsx: 'automatic',
    sourcemap: 'linked',
    write: false,
    logLevel: 'error',
  });
  await mkdir(join(root, 'lib'), { recursive: true });
  // The source map first, so a bundle is never newer than its map.
  const files = [...result.outputFiles].sort((a, b) => Number(a.path.endsWith('.map')) - Number(b.path.endsWith('.map'))).reverse();
  for (const file of files) {
    const temporary = `${file.path}.${process.pid}.tmp`;
    await writeFile(temporary, file.contents);
    await rename(temporary, file.path);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildCli();
