import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic, writeFileAtomicSync } from '../../src/atomic-write';

describe('the one atomic write (atomic-write.ts)', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'site-atomic-'));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  for (const [name, write] of [
    ['writeFileAtomic', writeFileAtomic],
    ['writeFileAtomicSync', async (...args: Parameters<typeof writeFileAtomicSync>) => writeFileAtomicSync(...args)],
  ] as const) {
    describe(name, () => {
      it('writes text, bytes and bytes in parts, making the folder, and leaves no temporary file', async () => {
        const file = join(root, 'a', 'b', 'file.txt');
        await write(file, 'first');
        expect(await readFile(file, 'utf8')).toBe('first');
        await write(file, Buffer.from('second'));
        expect(await readFile(file, 'utf8')).toBe('second');
        const parts = Array.from({ length: 2500 }, (_, index) => Buffer.from(String(index % 10)));
        await write(file, parts, { durable: false });
        expect(await readFile(file, 'utf8')).toBe(parts.map(String).join(''));
        expect(await readdir(join(root, 'a', 'b'))).toEqual(['file.txt']);
      });

      it('keeps the mode of the file it replaces', async () => {
        const file = join(root, 'secret.yaml');
        await writeFile(file, 'old');
        await chmod(file, 0o600);
        await write(file, 'new');
        expect((await stat(file)).mode & 0o777).toBe(0o600);
        await chmod(file, 0o755);
        await write(file, 'newer', { durable: false });
        expect((await stat(file)).mode & 0o777).toBe(0o755);
      });

      it('leaves the old bytes and no temporary file when the rename fails', async () => {
        // A folder where the file should be: the rename over it fails after the bytes are written.
        const file = join(root, 'taken');
        await writeFile(join(root, 'other'), 'kept');
        await mkdir(file);
        await expect(write(file, 'text')).rejects.toThrow();
        expect(await readdir(root)).toEqual(['other', 'taken']);
      });
    });
  }

  it('lets writes of one file at once each land whole', async () => {
    const file = join(root, 'race.txt');
    const texts = Array.from({ length: 20 }, (_, index) => String(index).repeat(10_000));
    await Promise.all(texts.map((text) => writeFileAtomic(file, text)));
    expect(texts).toContain(await readFile(file, 'utf8'));
    expect(await readdir(root)).toEqual(['race.txt']);
  });
});
