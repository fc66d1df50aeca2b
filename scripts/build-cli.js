// Bundles src/ into lib/cli.js (and lib/worker.js) with esbuild. Dependencies stay external (loaded from node_modules).
// Each output file is written to a temporary name and renamed, so CLIs started at the same moment
// never read a half-written bundle.
import { build } from 'esbuild';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Builds lib/cli.js and lib/worker.js (the worker threads of the build's pool) from the TypeScript
 * sources, and lib/markdown-stack.js: the unified packages with their dependencies in one file,
 * which loads several times faster than their 150-odd modules (see src/content/markdown-stack.ts).
 */
export async function buildCli() {
  const stack = build({
    entryPoints: { 'markdown-stack': join(root, 'src/content/markdown-stack.ts') },
    outdir: join(root, 'lib'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    write: false,
    logLevel: 'error',
  });
  const result = await build({
    entryPoints: { cli: join(root, 'src/cli.ts'), worker: join(root, 'src/parallel/worker.ts') },
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
  const files = [...(await stack).outputFiles, ...result.outputFiles].sort((a, b) => Number(a.path.endsWith('.map')) - Number(b.path.endsWith('.map'))).reverse();
  for (const file of files) {
    const temporary = `${file.path}.${process.pid}.tmp`;
    await writeFile(temporary, file.contents);
    await rename(temporary, file.path);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildCli();
