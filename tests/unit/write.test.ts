import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeSite, type OutputFiles } from '../../src/emit/write';

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
    expect(listFiles(out)).toEqual(['blog/a/index.html', 'blog/a/index.html.br', 'blog/a/index.html.gz', 'blog/b/index.html', 'blog/b/index.html.br', 'blog/b/index.html.gz', 'index.html', 'index.html.br', 'index.html.gz', 'robots.txt']);
    expect(report).toEqual({ files: 10, written: 10, removed: 0 });
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
    expect(report).toEqual({ files: 4, written: 2, removed: 2 });
    expect(listFiles(out)).toEqual(['blog/a/index.html', 'blog/c/index.html', 'index.html', 'robots.txt']);
    expect(existsSync(join(out, 'blog/b'))).toBe(false);
    expect(readFileSync(join(out, 'index.html'), 'utf8')).toBe(page('home, edited'));
    const after = statSync(join(out, 'blog/a/index.html'));
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
  });

  it('rewrites a file whose bytes were changed by hand, even at the same size', async () => {
    await writeSite(out, first, { cache: false, compress: false });
    await writeFile(join(out, 'robots.txt'), 'User-agent: X\n');
    const report = await writeSite(out, first, { cache: false, compress: false });
    expect(report.written).toBe(1);
    expect(readFileSync(join(out, 'robots.txt'), 'utf8')).toBe('User-agent: *\n');
  });

  it('replaces the folder whole when a file must become a folder', async () => {
    await writeSite(out, new Map([['about', 'a file'], ['index.html', page('home')]]), { cache: false, compress: false });
    await writeSite(out, new Map([['about/index.html', page('about')], ['index.html', page('home')]]), { cache: false, compress: false });
    expect(listFiles(out)).toEqual(['about/index.html', 'index.html']);
    expect(readdirSync(root)).toEqual(['dist']);
  });

  it('leaves the earlier output exactly as it was when a write fails, with no temporary files', async () => {
    await writeSite(out, first, { cache: false, compress: false });
    const before = listFiles(out).map((path) => [path, readFileSync(join(out, path), 'utf8')]);
    const failing: OutputFiles = new Map([...first, ['index.html', page('new home')], [`${'x'.repeat(300)}.html`, page('name too long')]]);
    await expect(writeSite(out, failing, { cache: false, compress: false })).rejects.toThrow(/ENAMETOOLONG/);
    expect(listFiles(out).map((path) => [path, readFileSync(join(out, path), 'utf8')])).toEqual(before);
  });
});
