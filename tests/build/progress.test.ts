/**
 * Progress on a long build (issue 50, part 2): `site build` in a child process whose stderr is a
 * pipe, as in CI, prints plain lines with each stage's count ("render 120/302 pages"); the
 * threshold and the interval come from SITE_PROGRESS_AFTER_MS and SITE_PROGRESS_EVERY_MS, here 0
 * (a line at every count), so the test does not depend on how fast the machine is. `--quiet`
 * prints none. The timing of the lines (nothing before the threshold, one per interval) is
 * tests/unit/progress.test.ts.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCorpus, siteFixtureFiles } from '../../scripts/bench-corpus';
import { outputRoot, repoRoot } from '../helpers/paths';

const run = promisify(execFile);
const posts = 300;
// The posts and the index, and the bench fixture's 404 page.
const pages = posts + 2;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(outputRoot, 'progress-'));
  const fixture = join(repoRoot, 'bench', 'fixture');
  await cp(join(fixture, 'content'), join(dir, 'content'), { recursive: true });
  const config = await readFile(join(fixture, 'site.config.yaml'), 'utf8');
  const paths = `paths:\n  templates: ${JSON.stringify(join(fixture, 'templates'))}\n  public: ${JSON.stringify(join(fixture, 'public'))}\n\n`;
  await writeFile(join(dir, 'site.config.yaml'), config.replace(/^site:/m, `${paths}site:`));
  const corpus = createCorpus(posts, {
    categories: ['circularity', 'saas', 'retail', 'repairer-stories'],
    seed: 5,
    bodySize: 800,
  });
  for (const [path, text] of siteFixtureFiles(corpus)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A cold `site build` (own cache, a new output folder) with stdout and stderr piped. */
async function buildCold(out: string, args: readonly string[]): Promise<{ stdout: string; stderr: string }> {
  const cache = join(dir, `cache-${out}`);
  return run(process.execPath, [join(repoRoot, 'bin', 'site.js'), 'build', '--out', out, ...args], {
    cwd: dir,
    env: { ...process.env, SITE_CACHE_DIR: cache, SITE_PROGRESS_AFTER_MS: '0', SITE_PROGRESS_EVERY_MS: '0' },
  });
}

/** The counts printed for `stage`, in order, and the totals they were printed with. */
function countsOf(stderr: string, stage: string, unit: string): { done: number[]; totals: Set<number> } {
  const line = new RegExp(`^${stage} ([\\d,]+)/([\\d,]+) ${unit}$`);
  const number = (text: string) => Number(text.replaceAll(',', ''));
  const matches = stderr.split('\n').flatMap((text) => {
    const match = line.exec(text);
    return match ? [[number(match[1]!), number(match[2]!)] as const] : [];
  });
  return { done: matches.map(([done]) => done), totals: new Set(matches.map(([, total]) => total)) };
}

const increasing = (numbers: readonly number[]) => numbers.every((value, at) => at === 0 || value >= numbers[at - 1]!);

describe(`a cold build of ${posts} posts in a child process without a terminal`, () => {
  it('prints plain lines with the entries loaded, the pages rendered and the files written, counting up to their totals', async () => {
    const { stdout, stderr } = await buildCold('dist', ['--workers', '1']);
    const load = countsOf(stderr, 'load', 'entries');
    expect(load.totals).toEqual(new Set([posts]));
    expect(increasing(load.done)).toBe(true);
    expect(load.done.at(-1)).toBe(posts);

    const render = countsOf(stderr, 'render', 'pages');
    expect(render.totals).toEqual(new Set([pages]));
    expect(render.done.length).toBeGreaterThan(1);
    expect(increasing(render.done)).toBe(true);
    expect(render.done.at(-1)).toBe(pages);
    expect(stderr).not.toContain('\r');
    // The summary keeps its form, on stdout.
    expect(stdout).toMatch(
      new RegExp(`^built ${pages} pages \\(${pages} en\\) and \\d+ other files into dist in \\d+ ms$`, 'm'),
    );

    const files = await readdir(join(dir, 'dist'), { recursive: true, withFileTypes: true });
    const written = files.filter((entry) => entry.isFile()).length;
    const write = countsOf(stderr, 'write', 'files');
    expect(write.totals).toEqual(new Set([written]));
    expect(increasing(write.done)).toBe(true);
    expect(write.done.at(-1)).toBe(written);
  });

  it('prints none with --quiet, and the same summary', async () => {
    const { stdout, stderr } = await buildCold('dist-quiet', ['--quiet']);
    expect(stderr).not.toMatch(/^(load|render|write|compress|search index|social images) [\d,]+\/[\d,]+ /m);
    expect(stdout).toMatch(
      new RegExp(`^built ${pages} pages \\(${pages} en\\) and \\d+ other files into dist-quiet in \\d+ ms$`, 'm'),
    );
  });
});
