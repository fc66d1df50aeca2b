import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compressAhead, compressFiles, compressFilesShared, compressItem } from '../../src/emit/compress';
import { writeSite } from '../../src/emit/write';
import { copyFiles, mergeFiles, type OutputFiles } from '../../src/output-files';
import { openSpill, spilledHtmlOf, SpilledFiles, spillHtml } from '../../src/spill';

const folders: string[] = [];
const folder = () => {
  const made = mkdtempSync(join(tmpdir(), 'site-spill-'));
  folders.push(made);
  return made;
};
afterEach(() => {
  for (const made of folders.splice(0)) rmSync(made, { recursive: true, force: true });
});

/** Pages that differ, about `size` characters in all, some of them not ASCII. */
function pages(count: number, size = 6000): OutputFiles {
  const files: OutputFiles = new Map();
  for (let index = 0; index < count; index++)
    files.set(
      `blog/post-${index}/index.html`,
      `<!DOCTYPE html><p>Reparasjon nr. ${index} – «sko» og søm.</p>${`<p>Repair ${index * 7} beats recycling.</p>`.repeat(size / 40)}\n`,
    );
  return files;
}

describe('the spill: output kept on disk until it is asked for', () => {
  it('reads back what it was given, text as text and bytes as bytes, before and after its buffer is written', () => {
    const spill = openSpill(folder());
    const text = 'Blåbær – «repair» ✓'.repeat(100);
    const bytes = new Uint8Array([0, 1, 2, 255, 254]);
    const first = spill.put(text);
    const second = spill.put(bytes);
    // Read from the buffer, then past a value larger than the buffer (4 MB), from the file.
    expect(spill.read(first)).toBe(text);
    expect([...(spill.read(second) as Uint8Array)]).toEqual([...bytes]);
    const large = 'x'.repeat(5 * 1024 * 1024);
    const third = spill.put(large);
    expect(spill.read(first)).toBe(text);
    expect(spill.read(third)).toBe(large);
    expect([...(spill.read(second) as Uint8Array)]).toEqual([...bytes]);
    expect(spill.size).toBe(Buffer.byteLength(text) + 5 + large.length);
    spill.close();
    expect(() => spill.read(first)).toThrow(/closed/);
  });

  it('leaves no file in its folder, open or closed', () => {
    const where = folder();
    const spill = openSpill(where);
    spill.put('x'.repeat(10_000));
    expect(readdirSync(where)).toEqual([]);
    spill.close();
    expect(readdirSync(where)).toEqual([]);
  });

  it('goes to the system temporary folder when the folder given is missing', () => {
    const spill = openSpill(join(folder(), 'missing', 'parent'));
    const ref = spill.put('y'.repeat(2000));
    expect(spill.read(ref)).toBe('y'.repeat(2000));
    spill.close();
  });

  it('holds a map of output files whose contents read back as given, small ones in memory', () => {
    const spill = openSpill(folder());
    const files = pages(20);
    files.set('robots.txt', 'User-agent: *\n');
    files.set('photo.png', Buffer.alloc(3000, 7));
    const spilled = new SpilledFiles(spill, files);
    expect(spilled.size).toBe(files.size);
    expect(typeof spilled.stored('robots.txt')).toBe('string');
    expect(spilled.stored('blog/post-3/index.html')).not.toBe(files.get('blog/post-3/index.html'));
    expect(new Map(spilled)).toEqual(files);
    expect(new Map(spilled.entries())).toEqual(files);
    expect([...spilled.values()]).toEqual([...files.values()]);
    const seen = new Map<string, string | Uint8Array>();
    spilled.forEach((data, path) => seen.set(path, data));
    expect(seen).toEqual(files);
    expect(Buffer.from(spilled.bytesOf('blog/post-3/index.html')!).toString()).toBe(
      files.get('blog/post-3/index.html'),
    );

    // A copy names the same places: adding to it leaves the first as it was.
    const copy = copyFiles(spilled);
    expect(copy).toBeInstanceOf(SpilledFiles);
    copy.set('extra.html', 'z'.repeat(3000));
    expect(spilled.has('extra.html')).toBe(false);
    expect(copy.get('blog/post-0/index.html')).toBe(files.get('blog/post-0/index.html'));
    const moved = copyFiles(spilled, (path) => `static/${path}`);
    expect(moved.get('static/blog/post-1/index.html')).toBe(files.get('blog/post-1/index.html'));
    const merged = mergeFiles(spilled, new SpilledFiles(spill, [['more.html', 'm'.repeat(2000)]]));
    expect(merged.get('more.html')).toBe('m'.repeat(2000));
    expect(merged.size).toBe(files.size + 1);
    spill.close();
  });

  it('keeps a page render with its HTML in the spill, read when asked for', () => {
    const spill = openSpill(folder());
    const render = spillHtml(spill, { html: '<p>page</p>'.repeat(300), scripts: ['/a.js'] });
    expect(render.html).toBe('<p>page</p>'.repeat(300));
    expect(render.scripts).toEqual(['/a.js']);
    expect(spilledHtmlOf(render)).toBeDefined();
    expect(spilledHtmlOf({ html: 'x' })).toBeUndefined();
    const files = new SpilledFiles(spill);
    files.setRef('index.html', spilledHtmlOf(render)!);
    expect(files.get('index.html')).toBe(render.html);
    spill.close();
  });

  it('compresses spilled files to the same siblings, read from the spill by this thread or a worker', async () => {
    const spill = openSpill(folder());
    const files = pages(60);
    const spilled = new SpilledFiles(spill, files);
    const alone = compressFiles(files);
    const ref = spilled.stored('blog/post-2/index.html');
    const page = compressItem({ at: spill.locate(ref as never), quality: 8, level: 9 });
    expect(Buffer.from(page.br).equals(Buffer.from(alone.get('blog/post-2/index.html.br')!))).toBe(true);
    for (const workers of [0, 1]) {
      const shared = await compressFilesShared(spilled, { workers, poolFrom: 1 });
      expect(shared.workers).toBe(workers);
      expect(shared.siblings).toBeInstanceOf(SpilledFiles);
      expect([...shared.siblings.keys()]).toEqual([...alone.keys()]);
      for (const [path, data] of alone)
        expect(Buffer.from(shared.siblings.get(path)!).equals(Buffer.from(data)), path).toBe(true);
    }
    // Made ahead from the spilled pages (by their references), then taken by the write.
    const ahead = compressAhead({ spill });
    ahead.add([...spilled.keys()].map((path) => [path, spilled.stored(path)!] as const));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const taken = await compressFilesShared(spilled, { ahead, workers: 0 });
    expect(new Map(taken.siblings)).toEqual(new Map(alone));
    spill.close();
  });

  it('writes spilled files to the output folder byte for byte', async () => {
    const where = folder();
    const spill = openSpill(where);
    const files = pages(30);
    files.set('photo.png', new Uint8Array(5000).fill(9));
    const report = await writeSite(join(where, 'dist'), new SpilledFiles(spill, files), { cache: false });
    expect(report.written).toBe(files.size * 3 - 2 + 1);
    for (const [path, data] of files) expect(readFileSync(join(where, 'dist', path))).toEqual(Buffer.from(data));
    // Again, in place: nothing differs, nothing is written.
    const again = await writeSite(join(where, 'dist'), new SpilledFiles(spill, files), { cache: false });
    expect(again.written).toBe(0);
    files.set('blog/post-4/index.html', '<p>changed</p>'.repeat(100));
    const changed = await writeSite(join(where, 'dist'), new SpilledFiles(spill, files), { cache: false });
    expect(changed.written).toBe(3);
    expect(readFileSync(join(where, 'dist', 'blog/post-4/index.html'), 'utf8')).toBe(
      files.get('blog/post-4/index.html'),
    );
    spill.close();
  });
});
