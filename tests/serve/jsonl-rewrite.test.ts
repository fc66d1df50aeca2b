/**
 * Rewrites of the JSON-lines stores (the inbox's deletions, prune-inbox) against appends: one lock
 * per file, in the process and across processes, so a line appended during a rewrite is never lost;
 * a lock left by a dead process is taken over, a live one is waited for.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockFileOf, withFileLock } from '../../src/serve/file-lock';
import { createJsonLinesStore, readJsonLines, rewriteJsonLines } from '../../src/serve/jsonl-store';

let dir: string;
let file: string;
const records = async () => (await readJsonLines(file)).map((line) => JSON.parse(line.toString('utf8')) as { n: number });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'site-jsonl-'));
  file = join(dir, 'records.jsonl');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('rewriteJsonLines', () => {
  it('keeps every line appended while rewrites run, by any store of the file', async () => {
    const first = createJsonLinesStore(file);
    const second = createJsonLinesStore(file);
    for (let n = 0; n < 10; n++) await first.append({ n });
    const work: Promise<unknown>[] = [];
    for (let n = 10; n < 40; n++) {
      work.push((n % 2 ? first : second).append({ n }));
      // Each rewrite drops the lowest even number it sees (the test's stand-in for one deletion).
      if (n % 5 === 0) {
        work.push(rewriteJsonLines(file, (lines) => {
          const index = lines.findIndex((line) => (JSON.parse(line.toString()) as { n: number }).n % 2 === 0);
          return { lines: lines.filter((_, at) => at !== index), result: index };
        }));
      }
    }
    await Promise.all(work);
    const left = (await records()).map((record) => record.n);
    expect(left.length).toBe(40 - 6);
    expect(left.filter((n) => n % 2 === 1).length).toBe(20);
    expect(new Set(left).size).toBe(left.length);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readdir(dir)).sort()).toEqual(['records.jsonl']);
  });

  it('leaves the file alone when the edit keeps it, and keeps unreadable lines it is given back', async () => {
    await writeFile(file, '{"n":1}\n{"n":2\n{"n":3}\n');
    const before = await stat(file);
    expect(await rewriteJsonLines(file, () => ({ lines: undefined, result: 'same' }))).toBe('same');
    expect((await stat(file)).ino).toBe(before.ino);
    await rewriteJsonLines(file, (lines) => ({ lines: lines.filter((line) => line.toString() !== '{"n":1}'), result: undefined }));
    expect(await readFile(file, 'utf8')).toBe('{"n":2\n{"n":3}\n');
  });

  it('reads a missing file as no lines, and the last line without its newline', async () => {
    expect(await readJsonLines(file)).toEqual([]);
    await writeFile(file, '{"n":1}\n{"n":');
    expect((await readJsonLines(file)).map(String)).toEqual(['{"n":1}', '{"n":']);
  });
});

describe('the file lock across processes', () => {
  it('takes over a lock whose process is gone, or that names this process without its holding it', async () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const store = createJsonLinesStore(file);
    await writeFile(lockFileOf(file), `${gone.stdout}\n`);
    await store.append({ n: 1 });
    await writeFile(lockFileOf(file), `${process.pid}\n`);
    await store.append({ n: 2 });
    expect((await records()).map((record) => record.n)).toEqual([1, 2]);
    expect((await readdir(dir)).sort()).toEqual(['records.jsonl']);
  });

  it('waits for a live process that holds the lock, and gives up after the wait', async () => {
    await writeFile(lockFileOf(file), `${process.ppid}\n`);
    const refused = withFileLock(file, async () => 'ran', { waitMs: 100 });
    await expect(refused).rejects.toMatchObject({ code: 'ELOCKED' });
    const waiting = withFileLock(file, async () => 'ran', { waitMs: 5_000 });
    setTimeout(() => void rm(lockFileOf(file)), 150);
    expect(await waiting).toBe('ran');
  });

  it('treats a lock older than the stale limit as left by a crash', async () => {
    await writeFile(lockFileOf(file), `${process.ppid}\n`);
    await new Promise((done) => setTimeout(done, 30));
    expect(await withFileLock(file, async () => 'ran', { waitMs: 0, staleMs: 10 })).toBe('ran');
  });
});
