import { mkdir, mkdtemp, realpath, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serialiseWrites } from '../../src/admin/write-queue';

/** A task that records when it starts and ends, and ends when `finish` is called. */
function recorded(log: string[], name: string) {
  let finish!: () => void;
  const ended = new Promise<void>((resolve) => (finish = resolve));
  const task = async () => {
    log.push(`${name} start`);
    await ended;
    log.push(`${name} end`);
    return name;
  };
  return { task, finish };
}

/** Lets every pending promise run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe("the admin's one write queue (write-queue.ts)", () => {
  let root: string;
  beforeEach(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'site-writes-')));
    await mkdir(join(root, 'content', 'blog', 'a-post'), { recursive: true });
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('runs two tasks on one file one after the other, in the order asked, whatever path names it', async () => {
    // The blog's alias and a collection's address, or a link: one real file.
    await symlink(join(root, 'content'), join(root, 'linked'));
    const log: string[] = [];
    const first = recorded(log, 'first');
    const second = recorded(log, 'second');
    const running = [
      serialiseWrites(join(root, 'content', 'blog', 'a-post', 'en.md'), first.task),
      serialiseWrites([join(root, 'linked', 'blog', 'a-post', 'en.md')], second.task),
    ];
    await settle();
    expect(log).toEqual(['first start']);
    first.finish();
    second.finish();
    expect(await Promise.all(running)).toEqual(['first', 'second']);
    expect(log).toEqual(['first start', 'first end', 'second start', 'second end']);
  });

  it('runs tasks on other files at once', async () => {
    const log: string[] = [];
    const en = recorded(log, 'en');
    const no = recorded(log, 'no');
    const running = [
      serialiseWrites(join(root, 'content', 'blog', 'a-post', 'en.md'), en.task),
      serialiseWrites(join(root, 'content', 'blog', 'a-post', 'no.md'), no.task),
    ];
    await settle();
    // Both started before either ended; which first is the file system's.
    expect([...log].sort()).toEqual(['en start', 'no start']);
    en.finish();
    no.finish();
    await Promise.all(running);
  });

  it('holds a file while a task holds its folder (a rename), and the folder while a task holds a file in it', async () => {
    const log: string[] = [];
    const save = recorded(log, 'save');
    const rename = recorded(log, 'rename');
    const later = recorded(log, 'later save');
    const folder = join(root, 'content', 'blog', 'a-post');
    const running = [
      serialiseWrites([join(folder, 'en.md'), join(folder, '.translations.json')], save.task),
      serialiseWrites([join(root, 'site.config.yaml'), folder, join(root, 'content', 'blog', 'new-name')], rename.task),
      serialiseWrites(join(folder, 'no.md'), later.task),
    ];
    await settle();
    expect(log).toEqual(['save start']);
    save.finish();
    await settle();
    expect(log).toEqual(['save start', 'save end', 'rename start']);
    rename.finish();
    later.finish();
    await Promise.all(running);
    expect(log.slice(3)).toEqual(['rename end', 'later save start', 'later save end']);
  });

  it('lets the next task run when one fails', async () => {
    const file = join(root, 'site.config.yaml');
    const failed = serialiseWrites(file, async () => {
      throw new Error('no space left');
    });
    const next = serialiseWrites(file, async () => 'written');
    await expect(failed).rejects.toThrow('no space left');
    expect(await next).toBe('written');
  });
});
