/**
 * The dev watcher when a watched folder goes and comes back: chokidar arms the folder's own
 * watchers a little after it reports the folder, and a file changed in between sends no event,
 * so the folder is reported again once they are, and the rebuild then reads that change.
 */
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { watchInputs, type InputWatcher } from '../../src/dev/watch';
import { outputRoot } from '../helpers/paths';

let dir: string;
let watcher: InputWatcher;
const reports: { at: number; paths: string[] }[] = [];

beforeAll(async () => {
  await mkdir(outputRoot, { recursive: true });
  dir = await mkdtemp(join(outputRoot, 'watch-'));
  await mkdir(join(dir, 'content'));
  await writeFile(join(dir, 'content', 'a.md'), 'one');
  watcher = watchInputs([join(dir, 'content')], {
    onChanges: (batch) => reports.push({ at: Date.now(), paths: batch.map((change) => change.path) }),
  });
  await watcher.ready;
});
afterAll(async () => {
  await watcher?.close();
  await rm(dir, { recursive: true, force: true });
});

it('reports a change made right after a watched folder came back', async () => {
  const content = join(dir, 'content');
  await rename(content, join(dir, 'away'));
  await expect.poll(() => reports.some((report) => report.paths.includes(content)), { timeout: 5_000 }).toBe(true);
  const gone = reports.length;
  await rename(join(dir, 'away'), content);
  await expect.poll(() => reports.length > gone, { timeout: 5_000 }).toBe(true);
  // At once after the restore was reported: the folder's watchers may not be armed yet.
  const edited = reports.length;
  await writeFile(join(content, 'a.md'), 'two');
  await expect
    .poll(
      () =>
        reports
          .slice(edited)
          .some((report) => report.paths.includes(content) || report.paths.includes(join(content, 'a.md'))),
      { timeout: 5_000 },
    )
    .toBe(true);
});

it('reports a file again when it was still being written as its change was reported', async () => {
  const file = join(dir, 'content', 'b.md');
  const mark = reports.length;
  // A writer that truncates the file, then is held up before writing its bytes.
  await writeFile(file, '');
  await expect
    .poll(() => reports.slice(mark).some((report) => report.paths.includes(file)), { timeout: 5_000 })
    .toBe(true);
  const first = reports.length;
  await writeFile(file, 'the bytes, written late');
  await expect
    .poll(() => reports.slice(first).some((report) => report.paths.includes(file)), { timeout: 5_000 })
    .toBe(true);
});
