import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileStamp } from '../../src/cache/render-state';
import { checkStampsAside } from '../../src/pipeline/stamp-check';

describe('the output files checked on another thread', () => {
  let dir: string;
  const stamps = new Map<string, FileStamp>();
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'stamp-check-'));
    for (const name of ['same.html', 'edited.html', 'gone.html', 'now-a-folder.html', 'deep/page/index.html']) {
      await mkdir(join(dir, name, '..'), { recursive: true });
      await writeFile(join(dir, name), `<p>${name}</p>`);
      const { size, mtimeMs } = await stat(join(dir, name));
      stamps.set(name, { size, mtimeMs });
    }
    await writeFile(join(dir, 'edited.html'), '<p>edited by hand</p>');
    await rm(join(dir, 'gone.html'));
    await rm(join(dir, 'now-a-folder.html'));
    await mkdir(join(dir, 'now-a-folder.html'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('finds the files that are on disk as recorded, and only those', async () => {
    expect(await checkStampsAside(dir, stamps, 0)).toEqual(new Set(['same.html', 'deep/page/index.html']));
  });

  it('leaves a small output to be checked as its pages are asked for', async () => {
    expect(await checkStampsAside(dir, stamps)).toBeUndefined();
  });
});
