/**
 * `site build` with nothing changed since the build before takes every entry folder as that build
 * loaded it (by the stat of its files), renders nothing and checks no link, and leaves the output
 * byte for byte as it was; a social image gone or changed on disk, a file added to the output, a new
 * logo and a same-size edit with its modification time put back are each still found, and the
 * folder ends up what a cold build with no cache writes.
 */
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listFiles } from '../helpers/site-files';
import { editableSite, putBack, settle, slug } from '../helpers/incremental';

describe('site build with nothing changed', () => {
  const { temp, build, expectSameAsCold, edit, entries, outputOf } = editableSite();

  it('keeps every entry and renders nothing, leaving the output byte for byte as it was', async () => {
    await settle();
    // The first build records the entries' stamps and the pages expanded from them; the next one
    // takes every entry from them, and the pages, and renders none.
    const recorded = await build('--out', 'out');
    expect(recorded).toMatchObject({ rendered: recorded.pages, kept: 0, pageSet: 'expanded' });
    const before = await outputOf();
    const again = await build('--out', 'out');
    // The pages too are taken as the build before expanded them, with the warnings it gave
    // (a post not translated into Norwegian): the same, at the same places.
    expect(again).toMatchObject({ rendered: 0, written: 0, kept: entries, pageSet: 'kept' });
    expect(again.warnings.some((line) => line.includes('ENTRY_UNTRANSLATED'))).toBe(true);
    expect(again.warnings).toEqual(recorded.warnings);
    expect(await outputOf()).toEqual(before);
    await expectSameAsCold();
  }, 180_000);

  it('writes a social image again when its file is gone or changed, and leaves the others as they are', async () => {
    await settle();
    await build('--out', 'out');
    const social = (await listFiles(join(temp.dir, 'out'))).filter((file) => file.startsWith('_social/'));
    expect(social.length).toBeGreaterThan(2);
    await rm(join(temp.dir, 'out', social[0]!));
    await writeFile(join(temp.dir, 'out', social[1]!), 'not a png');
    const rebuilt = await build('--out', 'out');
    expect(rebuilt).toMatchObject({ rendered: 0, written: 2 });
    await expectSameAsCold();
  });

  it('finds files added to the output since its last write, in any folder, without listing the unchanged ones', async () => {
    // Two builds: the second records what each page reads, and the stamps of the output's files and folders.
    await build('--out', 'out');
    await settle();
    await build('--out', 'out');
    const out = join(temp.dir, 'out');
    await writeFile(join(out, 'stray.txt'), 'added by hand');
    await writeFile(join(out, 'blog', slug, 'stray.txt'), 'added by hand');
    await mkdir(join(out, 'new-folder', 'inner'), { recursive: true });
    await writeFile(join(out, 'new-folder', 'inner', 'stray.txt'), 'added by hand');
    const rebuilt = await build('--out', 'out');
    expect(rebuilt.rendered).toBe(0);
    // The output is the build's own (its marker says so): what the build does not make goes.
    await expectSameAsCold();
  });

  it('draws every social image again with a new logo', async () => {
    await settle();
    await build('--out', 'out');
    const before = await outputOf();
    await edit(join(temp.dir, 'public', 'logo.svg'), '</svg>', '<circle cx="4" cy="4" r="3"/></svg>');
    await build('--out', 'out');
    const after = await outputOf();
    const social = [...after.keys()].filter((file) => file.startsWith('_social/') && file.endsWith('.png'));
    expect(social.length).toBeGreaterThan(2);
    expect(social.filter((file) => !after.get(file)!.equals(before.get(file)!))).toEqual(social);
    await expectSameAsCold();
  });

  it('renders an edit of the same size whose modification time was put back', async () => {
    const file = join(temp.dir, 'content', 'blog', slug, 'en.md');
    const { mtimeNs, size } = await stat(file, { bigint: true });
    await edit(file, 'title: "Why repair beats recycling"', 'title: "Why fixing beats recycling"');
    // Put back to the nanosecond, as `touch -d` does: only the change time tells the edit now.
    await putBack(file, mtimeNs);
    expect(await stat(file, { bigint: true })).toMatchObject({ mtimeNs, size });
    const rebuilt = await build('--out', 'out');
    expect(rebuilt.kept).toBe(entries - 1);
    expect(rebuilt.rendered).toBeGreaterThan(0);
    expect(await readFile(join(temp.dir, 'out', 'blog', slug, 'index.html'), 'utf8')).toContain(
      'Why fixing beats recycling',
    );
    await expectSameAsCold();
  });
});
