/**
 * The programmatic entry (`import { build, check, dev, serve } from 'typed-site'`): each does what
 * its command does, files and servers included, and reports through the logger it is given.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, check, collectSiteErrors, dev, serve, type Logger } from 'typed-site';
import { outputRoot, repoRoot } from '../helpers/paths';

const config = join(repoRoot, 'tests', 'fixtures', 'engine-site', 'site.config.yaml');
let work: string;

/** A logger that keeps every line, by kind. */
function recorder() {
  const lines: { kind: string; text: string }[] = [];
  const logger: Logger = {
    result: (text) => lines.push({ kind: 'result', text }),
    info: (text) => lines.push({ kind: 'info', text }),
    warn: (text) => lines.push({ kind: 'warn', text }),
    diagnostics: (kind, diagnostics) =>
      diagnostics.forEach((diagnostic) => lines.push({ kind, text: `${diagnostic.code} ${diagnostic.format()}` })),
    failed: (errors, crash) =>
      lines.push({ kind: 'failed', text: `${errors?.map((error) => error.code).join(',')} ${String(crash ?? '')}` }),
  };
  return { logger, lines };
}

beforeAll(async () => {
  await mkdir(outputRoot, { recursive: true });
  work = await mkdtemp(join(outputRoot, 'api-'));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('the programmatic entry', () => {
  it('builds into the output folder and reports through the logger, printing nothing itself', async () => {
    const { logger, lines } = recorder();
    const out = join(work, 'dist');
    const report = await build({ config, out, logger, workers: 0 });
    expect(report.outDir).toBe(out);
    expect(report.pages.length).toBeGreaterThan(10);
    const home = report.pages.find((page) => page.path === '/' && page.locale === 'nb')!;
    expect(await readFile(join(out, home.file), 'utf8')).toContain('<html lang="nb"');
    expect(lines.filter((line) => line.kind === 'result').map((line) => line.text)).toEqual([
      expect.stringMatching(new RegExp(`^built ${report.pages.length} pages .* into .*dist in \\d+ ms$`)),
    ]);
  });

  it('checks without writing, and throws positioned errors for bad input', async () => {
    const { logger, lines } = recorder();
    const checked = await check({ config, logger });
    expect(checked.pages).toBeGreaterThan(10);
    expect(lines.at(-1)?.text).toMatch(/^ok: \d+ pages checked/);

    const broken = join(work, 'broken.yaml');
    await writeFile(
      broken,
      (await readFile(config, 'utf8'))
        .replace(/^routes:\n/m, 'routes:\n  - { path: /x, template: Nope }\n')
        .replace(/^(\s+)(label: Norsk)$/m, '$1$2\n$1unknown: 1'),
    );
    const error = await build({ config: broken, out: join(work, 'never'), logger }).catch((thrown: unknown) => thrown);
    const problems = collectSiteErrors(error)!;
    expect(problems.map((problem) => problem.code)).toContain('CONFIG_UNKNOWN_KEY');
    expect(problems[0]!.file).toContain('broken.yaml');
    expect(problems[0]!.line).toBeGreaterThan(1);
    expect(existsSync(join(work, 'never'))).toBe(false);
  });

  it('starts dev and serve, which answer until closed', async () => {
    const { logger } = recorder();
    const running = await dev({ config, port: 0, admin: false, logger });
    try {
      // The address the CLI prints, slash included.
      expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      expect((await fetch(running.url)).status).toBe(200);
    } finally {
      await running.close();
    }
    await expect(fetch(running.url)).rejects.toThrow();

    const served = await serve({ config, dir: join(work, 'dist'), port: 0, logger });
    try {
      expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      const answer = await fetch(served.url);
      expect(answer.status).toBe(200);
      expect(await answer.text()).toContain('<html lang="nb"');
    } finally {
      await served.close();
    }
  });
});
