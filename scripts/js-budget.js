// Prints the JavaScript (gzip) each page of a built site loads, and fails over the budget.
// Usage: node scripts/js-budget.js [dist] [--budget 20480]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** The default budget: 20 KB of gzip JavaScript per page. */
export const defaultBudget = 20 * 1024;

function htmlFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return htmlFiles(path);
    return name.endsWith('.html') ? [path] : [];
  });
}

/** Every JS file a module loads statically, itself included. */
function moduleClosure(dir, url, seen = new Set()) {
  if (seen.has(url)) return seen;
  seen.add(url);
  const code = readFileSync(join(dir, url), 'utf8');
  for (const match of code.matchAll(/(?:import|export)\s*(?:[^'"]*?from\s*)?["'](\.\/[^"']+)["']/g)) {
    moduleClosure(dir, new URL(match[1], `http://x${url}`).pathname, seen);
  }
  return seen;
}

/** For each page: its URL, the JS files it loads, their gzip size, and the inline script size. */
export function measureJavaScript(dir) {
  return htmlFiles(dir)
    .map((file) => {
      const html = readFileSync(file, 'utf8');
      // Island modules, and the site's own classic scripts (such as the consent banner's); another origin's are not ours to measure.
      const entries = [...html.matchAll(/<script(?= )[^>]* src="(\/(?!\/)[^"]+)"/g)].map((match) => match[1]);
      const files = [...new Set(entries.flatMap((entry) => [...moduleClosure(dir, entry)]))].sort();
      const gzip = files.reduce((sum, path) => sum + gzipSync(readFileSync(join(dir, path)), { level: 9 }).length, 0);
      const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].reduce(
        (sum, match) => sum + Buffer.byteLength(match[1]),
        0,
      );
      const page = `/${relative(dir, file).split(sep).join('/')}`.replace(/index\.html$/, '');
      return { page, files, gzip, inline };
    })
    .sort((a, b) => (a.page < b.page ? -1 : 1));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const budgetIndex = args.indexOf('--budget');
  const budget = budgetIndex >= 0 ? Number(args[budgetIndex + 1]) : defaultBudget;
  const dir = args.find((arg, index) => !arg.startsWith('--') && args[index - 1] !== '--budget') ?? 'dist';
  const rows = measureJavaScript(dir);
  const withJs = rows.filter((row) => row.gzip > 0);
  const lines = ['page | JS files | JS gzip bytes | inline script bytes', '--- | --- | ---: | ---:'];
  for (const row of withJs) lines.push(`${row.page} | ${row.files.join(', ')} | ${row.gzip} | ${row.inline}`);
  lines.push(
    `(${rows.length - withJs.length} other pages load no JavaScript file; their inline script is ${Math.max(...rows.map((row) => row.inline))} bytes at most)`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
  const over = rows.filter((row) => row.gzip > budget);
  if (over.length) {
    process.stderr.write(
      `over the budget of ${budget} bytes: ${over.map((row) => `${row.page} (${row.gzip})`).join(', ')}\n`,
    );
    process.exitCode = 1;
  }
}
