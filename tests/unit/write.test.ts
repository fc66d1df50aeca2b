import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recoverOutput, writeSite } from '../../src/emit/write';
import { outputRecordOf, readRenderState } from '../../src/cache/render-state';
import { realPath } from '../../src/file-paths';
import { pageReadsOf } from '../../src/cache/page-reads';
import type { OutputFiles } from '../../src/output-files';

const page = (text: string) => `<!DOCTYPE html><html><body>${`<p>${text}</p>`.repeat(40)}</body></html>\n`;

function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();
}

describe('writeSite', () => {
  let root: string;
  let out: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'site-write-'));
    out = join(root, 'dist');
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  const first: OutputFiles = new Map<string, string | Uint8Array>([
    ['index.html', page('home')],
    ['blog/a/index.html', page('a')],
    ['blog/b/index.html', page('b')],
    ['robots.txt', 'User-agent: *\n'],
  ]);

  it('writes a new folder whole, with siblings, and nothing beside it', async () => {
    const report = await writeSite(`${out}/`, first, { cache: false });
    expect(listFiles(out)).toEqual([
      '.site-output',
      'blog/a/index.html',
      'blog/a/index.html.br',
      'blog/a/index.html.gz',
      'blog/b/index.html',
      'blog/b/index.html.br',
      'blog/b/index.html.gz',
      'index.html',
      'index.html.br',
      'index.html.gz',
      'robots.txt',
    ]);
    expect(report).toEqual({ files: 11, written: 11, removed: 0, compressWorkers: 0 });
    expect(readdirSync(root)).toEqual(['dist']);
  });

  it('rewrites only changed files, removes what the build no longer makes, and keeps unchanged files as they were', async () => {
    await writeSite(out, first, { cache: false, compress: false });
    await writeFile(join(out, 'stray.txt'), 'left by hand');
    const before = statSync(join(out, 'blog/a/index.html'));
    await new Promise((done) => setTimeout(done, 20));
    const second: OutputFiles = new Map<string, string | Uint8Array>([
      ['index.html', page('home, edited')],
      ['blog/a/index.html', page('a')],
      ['blog/c/index.html', page('c')],
      ['robots.txt', 'User-agent: *\n'],
    ]);
    const report = await writeSite(`${out}/`, second, { cache: false, compress: false });
    expect(report).toEqual({ files: 5, written: 2, removed: 2, compressWorkers: 0 });
    expect(listFiles(out)).toEqual([
      '.site-output',
      'blog/a/index.html',
      'blog/c/index.html',
      'index.html',
      'robots.txt',
    ]);
    expect(existsSync(join(out, 'blog/b'))).toBe(false);
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toBe(page('home, edited'));
    const after = statSync(join(out, 'blog/a/index.html'));
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
  });

  it('leaves kept files and their siblings as they are, and writes nothing when one is gone', async () => {
    await writeSite(out, first, { cache: false });
    const stamp = (path: string) => {
      const { size, mtimeMs } = statSync(join(out, path));
      return { size, mtimeMs };
    };
    const kept = new Map(
      ['blog/a/index.html', 'blog/a/index.html.br', 'blog/a/index.html.gz'].map((path) => [path, stamp(path)]),
    );
    const rest = new Map([...first].filter(([path]) => path !== 'blog/a/index.html'));
    rest.set('index.html', page('home, edited'));
    const report = await writeSite(out, rest, { cache: false, kept });
    expect(report).toEqual({ files: 11, written: 3, removed: 0, compressWorkers: 0 });
    expect(readFileSync(join(out, 'blog/a/index.html'), 'utf8')).toBe(page('a'));
    expect(stamp('blog/a/index.html.br')).toEqual(kept.get('blog/a/index.html.br'));

    await rm(join(out, 'blog/a/index.html.gz'));
    rest.set('index.html', page('home, edited again'));
    await expect(writeSite(out, rest, { cache: false, kept })).rejects.toMatchObject({ code: 'EMIT_FAILED' });
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toBe(page('home, edited'));
  });

  it("records each folder's modification time after an update in place, stating again only the folders it touched", async () => {
    const previous = process.env.SITE_CACHE_DIR;
    process.env.SITE_CACHE_DIR = join(root, 'cache');
    try {
      const renderState = { global: 'g', routes: 'r', keys: [], prints: [], pages: pageReadsOf(new Map()) };
      const folderTimes = (dir: string) =>
        new Map(
          [
            '',
            ...readdirSync(dir, { recursive: true, withFileTypes: true })
              .filter((entry) => entry.isDirectory())
              .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1)),
          ].map((folder) => [folder, statSync(join(dir, folder)).mtimeMs]),
        );
      await writeSite(out, first, { compress: false, renderState });
      const written = readRenderState(realPath(out));
      expect(written?.folders).toEqual(folderTimes(out));
      await new Promise((done) => setTimeout(done, 20));
      const second: OutputFiles = new Map<string, string | Uint8Array>([
        ...first,
        ['blog/a/index.html', page('a, edited')],
        ['blog/c/index.html', page('c')],
      ]);
      second.delete('blog/b/index.html');
      await writeSite(out, second, { compress: false, renderState, recorded: outputRecordOf(written) });
      const updated = readRenderState(realPath(out));
      // blog/ gained c and lost b, blog/a had its page replaced: the record holds the times they have now.
      expect(updated?.folders).toEqual(folderTimes(out));
      expect(updated?.folders?.get('blog/a')).not.toBe(written?.folders?.get('blog/a'));
    } finally {
      if (previous === undefined) delete process.env.SITE_CACHE_DIR;
      else process.env.SITE_CACHE_DIR = previous;
    }
  });

  it('rewrites a file whose bytes were changed by hand, even at the same size', async () => {
    await writeSite(out, first, { cache: false, compress: false });
    await writeFile(join(out, 'robots.txt'), 'User-agent: X\n');
    const report = await writeSite(out, first, { cache: false, compress: false });
    expect(report.written).toBe(1);
    expect(readFileSync(join(out, 'robots.txt'), 'utf8')).toBe('User-agent: *\n');
  });

  it('replaces the folder whole when a file must become a folder', async () => {
    await writeSite(
      out,
      new Map([
        ['about', 'a file'],
        ['index.html', page('home')],
      ]),
      { cache: false, compress: false },
    );
    await writeSite(
      out,
      new Map([
        ['about/index.html', page('about')],
        ['index.html', page('home')],
      ]),
      { cache: false, compress: false },
    );
    expect(listFiles(out)).toEqual(['.site-output', 'about/index.html', 'index.html']);
    expect(readdirSync(root)).toEqual(['dist']);
  });

  it('leaves the earlier output exactly as it was when a write fails, with no temporary files', async () => {
    await writeSite(out, first, { cache: false, compress: false });
    const before = listFiles(out).map((path) => [path, readFileSync(join(out, path), 'utf8')]);
    const failing: OutputFiles = new Map([
      ...first,
      ['index.html', page('new home')],
      [`${'x'.repeat(300)}.html`, page('name too long')],
    ]);
    await expect(writeSite(out, failing, { cache: false, compress: false })).rejects.toThrow(/ENAMETOOLONG/);
    expect(listFiles(out).map((path) => [path, readFileSync(join(out, path), 'utf8')])).toEqual(before);
  });

  it('refuses a folder it did not write, and a file, leaving both exactly as they were', async () => {
    mkdirSync(out);
    writeFileSync(join(out, 'thesis.tex'), 'years of work');
    await expect(writeSite(out, first, { cache: false })).rejects.toMatchObject({
      code: 'OUTPUT_UNSAFE',
      message: expect.stringContaining('1 entry that site build did not write'),
    });
    expect(listFiles(out)).toEqual(['thesis.tex']);
    const file = join(root, 'notes.txt');
    writeFileSync(file, 'keep me');
    await expect(writeSite(file, first, { cache: false })).rejects.toMatchObject({
      code: 'OUTPUT_UNSAFE',
      message: expect.stringContaining('it is a file, not a folder'),
    });
    expect(readFileSync(file, 'utf8')).toBe('keep me');
    expect(readdirSync(root).sort()).toEqual(['dist', 'notes.txt']);
  });

  it('names the path and what to do when the file system refuses a write', async () => {
    writeFileSync(join(root, 'blocker'), 'a file where a folder should be');
    const failure = await writeSite(join(root, 'blocker', 'dist'), first, { cache: false }).catch(
      (error: unknown) => error,
    );
    expect(failure).toMatchObject({
      code: 'EMIT_FAILED',
      message: expect.stringMatching(
        /cannot write .*blocker.*: a file is where a folder should go \((ENOTDIR|EEXIST)\)/,
      ),
    });
    expect(readFileSync(join(root, 'blocker'), 'utf8')).toBe('a file where a folder should be');
  });

  it('takes over the lock of a build that was killed, and refuses one held by a running process', async () => {
    await writeSite(out, first, { cache: false, compress: false });
    writeFileSync(join(root, '.dist.site-lock'), '2147483646\n');
    await writeSite(out, new Map([...first, ['index.html', page('after a killed build')]]), {
      cache: false,
      compress: false,
    });
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toBe(page('after a killed build'));
    writeFileSync(join(root, '.dist.site-lock'), `${process.ppid}\n`);
    await expect(writeSite(out, first, { cache: false, compress: false })).rejects.toMatchObject({
      code: 'OUTPUT_BUSY',
    });
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toBe(page('after a killed build'));
  });
});

/** Every file of a folder with its contents, the marker included. */
function snapshot(dir: string): [string, string][] {
  return listFiles(dir).map((path) => [path, readFileSync(join(dir, path), 'utf8')]);
}

class Interrupted extends Error {}

describe('a write interrupted at any step', () => {
  let root: string;
  let out: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'site-interrupt-'));
    out = join(root, 'dist');
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  const before: OutputFiles = new Map([
    ['index.html', page('home')],
    ['blog/a/index.html', page('a')],
    ['blog/b/index.html', page('b')],
    ['old/only/index.html', page('removed later')],
  ]);
  const after: OutputFiles = new Map([
    ['index.html', page('home, new')],
    ['blog/a/index.html', page('a')],
    ['blog/b/index.html', page('b, new')],
    ['blog/c/index.html', page('c')],
    ['new/deep/folder/index.html', page('new')],
  ]);

  /**
   * Writes `next` over `previous`, stopping at step `at` the way a kill does (nothing after it
   * runs, the journal stays), then recovers as the next build or `site serve` would. Returns
   * which site the folder then is, or "done" when the write has fewer steps.
   */
  async function interruptAt(previous: OutputFiles, next: OutputFiles, at: number): Promise<'old' | 'new' | 'done'> {
    await rm(root, { recursive: true, force: true });
    mkdirSync(root);
    await writeSite(out, previous, { cache: false, compress: false });
    const old = snapshot(out);
    await writeSite(join(root, 'expected'), next, { cache: false, compress: false });
    const wanted = snapshot(join(root, 'expected'));
    await rm(join(root, 'expected'), { recursive: true });
    const stop = (step: number) => {
      if (step === at) throw new Interrupted();
    };
    const outcome = await writeSite(out, next, { cache: false, compress: false, afterStep: stop }).then(
      () => 'done' as const,
      (error: unknown) => {
        if (!(error instanceof Interrupted)) throw error;
        return 'interrupted' as const;
      },
    );
    if (outcome === 'done') return 'done';
    recoverOutput(out);
    const now = snapshot(out);
    expect(readdirSync(root), `step ${at}: leftovers beside the output`).toEqual(['dist']);
    if (JSON.stringify(now) === JSON.stringify(old)) return 'old';
    expect(now, `step ${at}: a mix of the two sites`).toEqual(wanted);
    return 'new';
  }

  it('updating in place: the folder is always the old or the new site once recovered', async () => {
    const seen: string[] = [];
    for (let step = 1; step < 50; step++) {
      const state = await interruptAt(before, after, step);
      if (state === 'done') break;
      seen.push(state);
    }
    // Journal written, 4 files renamed, 1 removed: every one of those steps was interrupted once.
    expect(seen).toEqual(['new', 'new', 'new', 'new', 'new', 'new']);
  });

  it('replacing the folder whole: never missing, never two copies beside it', async () => {
    const fileThenFolder: OutputFiles = new Map([
      ['index.html', page('home')],
      ['about', 'a file'],
    ]);
    const folderNow: OutputFiles = new Map([
      ['index.html', page('home')],
      ['about/index.html', page('about')],
    ]);
    const seen: string[] = [];
    for (let step = 1; step < 10; step++) {
      const state = await interruptAt(fileThenFolder, folderNow, step);
      if (state === 'done') break;
      seen.push(state);
    }
    expect(seen).toEqual(['new', 'new', 'new']);
  });

  it('clears what a build killed before its journal left: temporary files and staging folders', async () => {
    await writeSite(out, before, { cache: false, compress: false });
    const old = snapshot(out);
    mkdirSync(join(root, '.dist.staging-123-abcd1234'));
    writeFileSync(join(root, '.dist.staging-123-abcd1234', 'index.html'), 'half');
    writeFileSync(
      join(root, '.dist.site-journal'),
      JSON.stringify({
        version: 1,
        kind: 'update',
        phase: 'write',
        suffix: '.site-1-deadbeef.tmp',
        changed: ['index.html'],
        created: [],
        removals: [],
        emptied: [],
      }),
    );
    writeFileSync(join(out, 'index.html.site-1-deadbeef.tmp'), 'half a page');
    expect(recoverOutput(out)).toBe('back');
    expect(snapshot(out)).toEqual(old);
    expect(readdirSync(root)).toEqual(['dist']);
  });

  it('serves through a symlinked output folder by writing into the folder it leads to', async () => {
    const real = join(root, 'real-dist');
    await writeSite(real, before, { cache: false, compress: false });
    symlinkSync(real, out);
    await writeSite(out, after, { cache: false, compress: false });
    expect(statSync(out).isDirectory()).toBe(true);
    expect(readFileSync(join(real, 'blog/c/index.html'), 'utf8')).toBe(page('c'));
  });
});
