#!/usr/bin/env node
// Starts the CLI: lib/index.js, built from src/ by the one compile step (scripts/build-lib.js), which
// `npm install` and `npm pack` run, and this file runs again in a checkout when a source is newer.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

// Before anything that needs a newer Node: the one required version is package.json's engines.node.
const required = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines.node.replace(/^>=\s*/, '');
const [major, minor] = process.versions.node.split('.').map(Number);
const [needMajor, needMinor] = required.split('.').map(Number);
if (major < needMajor || (major === needMajor && minor < (needMinor ?? 0))) {
  process.stderr.write(
    `site needs Node.js ${required} or newer, and this is Node.js ${process.versions.node}: install a newer Node.js (https://nodejs.org/) and run the command again.\n`,
  );
  process.exit(1);
}

// Less inlining by V8's optimising compiler. A build is a short process that spends much of its
// time compiling: the Markdown stack has hundreds of small functions that TurboFan optimises in
// the main thread's isolate and again in each worker's, on the same two cores that parse. With
// inlining capped at 200 bytes of bytecode per function (V8's default is 920), a cold build of
// 1000 posts took 5.5 s of CPU instead of 6.4 s and 3.5 s instead of 3.9 s, and rendering was no
// slower (npm run bench; see docs/performance.md). A V8 flag given to node wins.
if (!process.execArgv.some((flag) => flag.replaceAll('_', '-').startsWith('--max-inlined-bytecode-size-cumulative'))) {
  (await import('node:v8')).setFlagsFromString('--max-inlined-bytecode-size-cumulative=200');
}

// A smaller heap for the one-shot commands. What a build keeps alive is small (about 75 MB in the
// main thread and 25 MB in the worker for 1000 posts), but V8 lets a heap grow to up to four times
// what the last full collection kept before collecting again, so the Markdown stages' garbage piled
// up to 477 MB of resident memory (1000 posts, cold). Growing by half each time (V8 chooses a factor
// of 1.1 to 4 after each collection) held it at 309 MB for 6% more wall time (docs/performance.md, "Memory").
// Long-running commands (dev, serve) keep V8's own sizing. A flag given to node wins.
// A build that finds the cache of an earlier one (`warm`, called by the pipeline once it has read
// the config) holds that build's records alive from the start (the real site with 1,000 posts:
// 40,000 file stamps, 156,000 inputs) and renders little; collecting them again at every half
// cost a one-post edit of that site 0.3-0.4 s of its 2.5 s, so it grows by twice instead (0.2 s).
const oneShot = ['build', 'check'].includes(process.argv[2] ?? '');
if (oneShot) {
  const { setFlagsFromString } = await import('node:v8');
  const { runInNewContext } = await import('node:vm');
  const sized = !process.execArgv.some((flag) => flag.replaceAll('_', '-').startsWith('--heap-growing-percent'));
  if (sized) setFlagsFromString('--heap-growing-percent=50');
  // `collect`: one full collection when a stage's working set has just become garbage (the pipeline
  // calls it once the pages are rendered: they are in the spill). V8 collects only when the heap
  // reaches its next limit, and keeps the pages it grew by until then: a cold build of 10,000 posts
  // peaked at 345-348 MB without it and 324-328 MB with it, for 50-70 ms (docs/performance.md).
  // `gc` is reached as Jest's --logHeapUsage reaches it: exposed to one new context.
  // A runtime where the flag does not take gives no function, and the build goes on without it.
  let gc;
  globalThis[Symbol.for('typed-site.heap')] = {
    warm: () => sized && setFlagsFromString('--heap-growing-percent=200'),
    collect: () => {
      if (gc === undefined) {
        setFlagsFromString('--expose-gc');
        const exposed = runInNewContext('typeof gc === "function" ? gc : null');
        setFlagsFromString('--no-expose-gc');
        gc = exposed ?? (() => {});
      }
      gc();
    },
  };
}

// A checkout of the repository compiles its sources into lib/ when they are newer (loaded after
// the check: a static import would be evaluated before it); an installed package ships lib/ built
// and compiles nothing. SITE_LIB_FRESH=1 says lib/ was just brought up to date by the caller (the
// benchmark, which runs the CLI as an installed package runs: the check stats every source, 6 ms).
const libDir = join(root, 'lib');
if (existsSync(join(root, 'src', 'cli.ts')) && process.env.SITE_LIB_FRESH !== '1') {
  const { ensureLib, PatchError } = await import('../scripts/build-lib.js');
  try {
    await ensureLib();
  } catch (error) {
    // A patch of patches/ that does not fit the installed package: its message says what to do.
    if (!(error instanceof PatchError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}
// React reads NODE_ENV when the bundle first imports it, before the command is parsed, so every
// command renders with React's production build: several times faster than the development
// build, and `site dev` serves the same bytes as `site build`. An explicit NODE_ENV wins.
process.env.NODE_ENV ??= 'production';
const { main } = await import(pathToFileURL(join(libDir, 'index.js')).href);
process.exitCode = await main(process.argv);
