/**
 * `site admin prune-inbox --older-than <age>`: deletes what visitors sent before the age from both
 * stores by atomic rewrite, keeps newer and undated lines and every other file of the data folder,
 * drops the handled state of what it deleted, logs the count, and refuses a malformed age (exit 1).
 */
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createInbox } from '../../src/admin/inbox-store';
import { main } from '../../src/cli';
import { createTempSite, type TempSite } from '../helpers/fixture-site';

const day = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe('prune-inbox', () => {
  let site: TempSite;
  let dataDir: string;
  const now = Date.now();
  const contactFile = () => join(dataDir, 'contact-submissions.jsonl');
  const bookingFile = () => join(dataDir, 'booking-requests.jsonl');
  const contactLine = (ageDays: number, name: string) => JSON.stringify({ receivedAt: iso(now - ageDays * day), firstName: name, lastName: 'X', email: `${name}@visitor.example`, message: 'Hi' });
  const bookingLine = (ageDays: number, id: string) => JSON.stringify({ id, start: iso(now - ageDays * day + day), end: iso(now - ageDays * day + day + 1_800_000), locale: 'en', bookedAt: iso(now - ageDays * day), firstName: 'B', lastName: 'Y', email: 'b@visitor.example' });
  const names = async (file: string) => (await readFile(file, 'utf8')).split('\n').filter(Boolean).map((line) => {
    try {
      const record = JSON.parse(line) as { firstName?: string; id?: string };
      return record.id ?? record.firstName;
    } catch {
      return line;
    }
  });

  beforeEach(async () => {
    site = await createTempSite();
    dataDir = join(site.dir, 'data');
    await mkdir(dataDir, { recursive: true });
    await writeFile(contactFile(), [contactLine(800, 'ancient'), contactLine(400, 'old'), '{"receivedAt":"20', contactLine(100, 'recent'), JSON.stringify({ firstName: 'undated' }), contactLine(1, 'new')].join('\n') + '\n', { mode: 0o600 });
    await writeFile(bookingFile(), [bookingLine(500, '00000000-0000-4000-8000-000000000001'), bookingLine(10, '00000000-0000-4000-8000-000000000002')].join('\n') + '\n', { mode: 0o600 });
    await writeFile(join(dataDir, 'notes.txt'), 'not the inbox\n');
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await site.cleanup();
  });

  it('removes the older records of both stores, keeps the newer and the undated, atomically', async () => {
    const inbox = createInbox(dataDir);
    const old = (await inbox.list()).find((item) => item.firstName === 'old')!;
    const recent = (await inbox.list()).find((item) => item.firstName === 'recent')!;
    await inbox.setHandled(old.id, true, 'admin@example.com');
    await inbox.setHandled(recent.id, true, 'admin@example.com');
    const before = await stat(contactFile());

    const counts = await inbox.prune(now - 365 * day);
    expect(counts).toEqual([
      { file: 'contact-submissions.jsonl', removed: 2, kept: 4, undated: 2 },
      { file: 'booking-requests.jsonl', removed: 1, kept: 1, undated: 0 },
    ]);
    expect(await names(contactFile())).toEqual(['{"receivedAt":"20', 'recent', 'undated', 'new']);
    expect(await names(bookingFile())).toEqual(['00000000-0000-4000-8000-000000000002']);
    // A new file renamed into place, private, with nothing left behind.
    expect((await stat(contactFile())).ino).not.toBe(before.ino);
    expect((await stat(contactFile())).mode & 0o777).toBe(0o600);
    expect((await readdir(dataDir)).sort()).toEqual(['booking-requests.jsonl', 'contact-submissions.jsonl', 'inbox-state.json', 'notes.txt']);
    expect(await readFile(join(dataDir, 'notes.txt'), 'utf8')).toBe('not the inbox\n');
    const state = JSON.parse(await readFile(join(dataDir, 'inbox-state.json'), 'utf8')) as { handled: Record<string, unknown> };
    expect(Object.keys(state.handled)).toEqual([recent.id]);
    expect((await inbox.list()).find((item) => item.id === recent.id)!.handled).toBe(true);

    const untouched = await stat(contactFile());
    expect(await inbox.prune(now - 365 * day)).toEqual([
      { file: 'contact-submissions.jsonl', removed: 0, kept: 4, undated: 2 },
      { file: 'booking-requests.jsonl', removed: 0, kept: 1, undated: 0 },
    ]);
    expect((await stat(contactFile())).ino).toBe(untouched.ino);
  });

  it('keeps every record appended while it prunes', async () => {
    const inbox = createInbox(dataDir);
    const { createJsonLinesStore } = await import('../../src/serve/jsonl-store');
    const store = createJsonLinesStore(contactFile());
    const appended = Array.from({ length: 20 }, (_, n) => store.append({ receivedAt: iso(now), firstName: `during${n}` }));
    await Promise.all([inbox.prune(now - 365 * day), ...appended]);
    const left = await names(contactFile());
    expect(left.filter((name) => String(name).startsWith('during')).length).toBe(20);
    expect(left).not.toContain('old');
  });

  it('runs as `site admin prune-inbox --older-than 12m`, prints the count per file and logs it', async () => {
    const out: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => { out.push(String(chunk)); return true; });
    const code = await main(['node', 'site', 'admin', 'prune-inbox', '--older-than', '12m', '--config', site.config]);
    expect(code).toBe(0);
    expect(out.join('')).toContain('contact-submissions.jsonl: removed 2, kept 4 (2 without a readable date kept)\nbooking-requests.jsonl: removed 1, kept 1\n');
    expect(await names(contactFile())).toEqual(['{"receivedAt":"20', 'recent', 'undated', 'new']);
    // No handled state before, none written.
    expect((await readdir(dataDir)).sort()).toEqual(['booking-requests.jsonl', 'contact-submissions.jsonl', 'notes.txt']);
    const log = (await readFile(join(site.dir, '.site', 'audit.jsonl'), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(log.at(-1)).toMatchObject({ action: 'inbox-prune', count: 3, olderThan: '12m', user: expect.stringMatching(/^cli/) });
  });

  it('refuses a malformed age with a clear error and exit code 1, and touches nothing', async () => {
    const errors: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => { errors.push(String(chunk)); return true; });
    const before = await readFile(contactFile(), 'utf8');
    for (const age of ['12', '12y', '-3d', 'soon']) {
      errors.length = 0;
      expect(await main(['node', 'site', 'admin', 'prune-inbox', '--older-than', age, '--config', site.config]), age).toBe(1);
      expect(errors.join(''), age).toContain(`INBOX_AGE  --older-than  "${age}" is not an age  (Give a whole number of days, weeks or months: 30d, 8w or 12m.)`);
    }
    expect(await readFile(contactFile(), 'utf8')).toBe(before);
  });
});
