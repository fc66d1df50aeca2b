/**
 * Mistakes in templates named at their line: an island name with no templates/islands/<Name>.tsx
 * (it used to build and ship `<script src="undefined">`), a template that throws (it used to name
 * only the template, and `--verbose` pointed into the compiled cache file), and a build that can
 * never finish (it used to end with exit 13, or 0, and no word). Each on a copy of the starter.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outputRoot, repoRoot } from '../helpers/paths';
import { listFiles } from '../helpers/site-files';
import { startDevServer } from '../../src/dev/server';

const run = promisify(execFile);

let dir: string;
let home: string;
let original: string;

/** `site <args>` in the starter's folder: the exit code and both streams. */
function site(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return run('node', [join(repoRoot, 'bin', 'site.js'), ...args], {
    cwd: dir,
    env: { ...process.env, SITE_CACHE_DIR: join(dir, '.cache') },
  }).then(
    (result) => ({ code: 0, ...result }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      stdout: error.stdout,
      stderr: error.stderr,
    }),
  );
}

/** The starter's home template with `edit` applied. */
async function editHome(edit: (text: string) => string): Promise<void> {
  await writeFile(home, edit(original));
}

/** The line (from 1) of the first line of `text` that holds `needle`. */
const lineOf = (text: string, needle: string) => text.split('\n').findIndex((line) => line.includes(needle)) + 1;

beforeAll(async () => {
  await mkdir(outputRoot, { recursive: true });
  dir = await mkdtemp(join(outputRoot, 'template-positions-'));
  await cp(join(repoRoot, 'starters', 'default'), dir, { recursive: true });
  await mkdir(join(dir, 'templates', 'islands'), { recursive: true });
  await writeFile(
    join(dir, 'templates', 'islands', 'Counter.tsx'),
    [
      "import { useState } from 'react';",
      'export default function Counter({ start }: { start: number }) {',
      '  const [count, setCount] = useState(start);',
      '  return <button type="button" onClick={() => setCount(count + 1)}>{count}</button>;',
      '}',
      '',
    ].join('\n'),
  );
  home = join(dir, 'templates', 'pages', 'Home.tsx');
  original = await readFile(home, 'utf8');
  const first = await site('build', '--no-social-images');
  expect(first.code, first.stderr).toBe(0);
}, 120_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Home.tsx rendering an island called `name`, imported from templates/islands/Counter.tsx. */
const withIsland = (name: string) => (text: string) =>
  text
    .replace(
      "from 'typed-site/template';",
      "from 'typed-site/template';\nimport { Island } from 'typed-site/template';\nimport Counter from '../islands/Counter';",
    )
    .replace(
      '<h1>{content.heading}</h1>',
      `<h1>{content.heading}</h1>\n        <Island name="${name}" component={Counter} props={{ start: 1 }} />`,
    );

describe('template mistakes at their line', () => {
  it('an island name with no file is UNKNOWN_ISLAND at the line that names it, with the nearest name; dist/ stays', async () => {
    const before = await listFiles(join(dir, 'dist'));
    const homeHtml = await readFile(join(dir, 'dist', 'index.html'), 'utf8');
    await editHome(withIsland('Countr'));
    const text = await readFile(home, 'utf8');
    const line = lineOf(text, 'name="Countr"');
    const column = text.split('\n')[line - 1]!.indexOf('name=') + 1;
    for (const command of [['check'], ['build', '--no-social-images']]) {
      const result = await site(...command);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toContain(
        `UNKNOWN_ISLAND  templates/pages/Home.tsx:${line}:${column}  / marks an island "Countr", and there is no templates/islands/Countr.tsx: did you mean "Counter"?`,
      );
      expect(result.stderr).toContain(`> ${line} |`);
    }
    expect(await listFiles(join(dir, 'dist'))).toEqual(before);
    expect(await readFile(join(dir, 'dist', 'index.html'), 'utf8')).toBe(homeHtml);

    // The right name builds, and the page loads the island's script by its real address.
    await editHome(withIsland('Counter'));
    const fixed = await site('build', '--no-social-images');
    expect(fixed.code, fixed.stderr).toBe(0);
    const page = await readFile(join(dir, 'dist', 'index.html'), 'utf8');
    expect(page).toMatch(/<script type="module" src="\/assets\/Counter\.[\w-]+\.js"><\/script>/);
    expect(page).not.toContain('src="undefined"');
  }, 120_000);

  it('a template that throws is RENDER_FAILED at its .tsx line and column, and --verbose shows the stack at the source', async () => {
    await editHome((text) =>
      text.replace(
        'export default function Home({ content, site }: PageProps<Content>) {',
        "export default function Home({ content, site }: PageProps<Content>) {\n  if (content.heading) throw new Error('the heading may not be set');",
      ),
    );
    const text = await readFile(home, 'utf8');
    const line = lineOf(text, "throw new Error('the heading");
    const column = text.split('\n')[line - 1]!.indexOf('new Error') + 1;
    const result = await site('build', '--no-social-images', '--verbose');
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toContain(
      `RENDER_FAILED  templates/pages/Home.tsx:${line}:${column}  / (template Home): the heading may not be set`,
    );
    // The stack names the template's source, not the bundle in the cache.
    expect(result.stderr).toContain(`${join(dir, 'templates', 'pages', 'Home.tsx')}:${line}:${column}`);
    expect(result.stderr).not.toMatch(/templates-[0-9a-f]{16}\.mjs/);
  }, 120_000);

  it('site dev shows a template that throws at the same line, in its overlay and status', async () => {
    await editHome((text) =>
      text.replace(
        'export default function Home({ content, site }: PageProps<Content>) {',
        "export default function Home({ content, site }: PageProps<Content>) {\n  if (content.heading) throw new Error('the heading may not be set');",
      ),
    );
    const text = await readFile(home, 'utf8');
    const line = lineOf(text, "throw new Error('the heading");
    const column = text.split('\n')[line - 1]!.indexOf('new Error') + 1;
    const dev = await startDevServer({ config: join(dir, 'site.config.yaml'), port: 0, host: '127.0.0.1' });
    try {
      const status = (await (await fetch(`${dev.url}/__site/status`)).json()) as {
        ok: boolean;
        problems: { code: string; location?: string }[];
      };
      expect(status.ok).toBe(false);
      expect(status.problems).toContainEqual(
        expect.objectContaining({
          code: 'RENDER_FAILED',
          location: expect.stringMatching(new RegExp(`(^|/)templates/pages/Home\\.tsx:${line}:${column}$`)),
        }),
      );
      const overlay = await (await fetch(`${dev.url}/`)).text();
      expect(overlay).toMatch(new RegExp(`templates/pages/Home\\.tsx:${line}:${column}</code>`));
    } finally {
      await dev.close();
    }
  }, 120_000);

  it('a build whose Markdown plugin never settles ends with UNFINISHED and exit 1, not in silence', async () => {
    await writeFile(home, original);
    await mkdir(join(dir, 'plugins'), { recursive: true });
    await writeFile(
      join(dir, 'plugins', 'never.js'),
      'export default function never() {\n  return () => new Promise(() => {});\n}\n',
    );
    const config = join(dir, 'site.config.yaml');
    const text = await readFile(config, 'utf8');
    await writeFile(config, `${text}\nmarkdown:\n  remarkPlugins: [./plugins/never.js]\n`);
    try {
      const result = await site('build', '--no-social-images', '--no-cache');
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('UNFINISHED  site build ended before it finished');
    } finally {
      await writeFile(config, text);
    }
  }, 120_000);
});
