// Profiles one `site build` and prints where each thread spent its CPU time.
//
//   node scripts/profile.js [build options]       e.g. -c /tmp/site-bench-x/site/site.config.yaml --out /tmp/out
//
// Runs `node --cpu-prof bin/site.js build --verbose …` (the main thread and each worker thread
// write a V8 CPU profile), then sums the self time of every sample by module (a package under
// node_modules, lib/markdown-stack.js for the bundled unified packages, a Node built-in) and by
// function. Set SITE_CACHE_DIR to an empty folder to profile a cold build.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = mkdtempSync(join(tmpdir(), 'site-profile-'));
try {
  const run = spawnSync(
    process.execPath,
    [
      '--cpu-prof',
      `--cpu-prof-dir=${dir}`,
      join(root, 'bin', 'site.js'),
      'build',
      '--verbose',
      ...process.argv.slice(2),
    ],
    { stdio: 'inherit' },
  );
  if (run.status !== 0) process.exit(run.status ?? 1);
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.cpuprofile'))
    .sort();
  files.forEach((name, index) =>
    summarize(
      JSON.parse(readFileSync(join(dir, name), 'utf8')),
      index === 0 ? 'main thread' : `worker thread ${index}`,
    ),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}

function moduleOf(url, functionName) {
  if (!url) return functionName.startsWith('(') ? functionName : `(native) ${functionName}`;
  if (url.endsWith('/lib/markdown-stack.js')) return 'unified stack (micromark, mdast, hast; lib/markdown-stack.js)';
  const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (packageMatch) return packageMatch[1];
  if (url.startsWith('node:')) return 'node built-ins';
  return url.replace(`file://${root}/`, '');
}

function summarize(profile, title) {
  const selfMs = new Map();
  profile.samples.forEach((id, index) =>
    selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0) / 1000),
  );
  const byModule = new Map();
  const byFunction = new Map();
  let total = 0;
  for (const node of profile.nodes) {
    const ms = selfMs.get(node.id) ?? 0;
    if (!ms) continue;
    total += ms;
    const { url, functionName, lineNumber } = node.callFrame;
    const module = moduleOf(url, functionName);
    byModule.set(module, (byModule.get(module) ?? 0) + ms);
    const name = `${functionName || '(anonymous)'}  ${module}${url ? `:${lineNumber + 1}` : ''}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
  }
  const idle = byModule.get('(idle)') ?? 0;
  const top = (map, count) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(
        ([name, ms]) => `  ${ms.toFixed(0).padStart(7)} ms ${((ms / total) * 100).toFixed(1).padStart(5)}%  ${name}`,
      );
  process.stdout.write(
    [
      `\n${title}: ${total.toFixed(0)} ms sampled, ${(total - idle).toFixed(0)} ms busy`,
      ...top(byModule, 12),
      '  top functions:',
      ...top(byFunction, 12),
      '',
    ].join('\n'),
  );
}
