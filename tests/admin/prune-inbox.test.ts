/**
 * `site admin prune-inbox --older-than <age>` on the store: the first start imports the JSON-lines
 * files of an earlier version (keeping ids, renaming the files aside), then the command deletes
 * what visitors sent before the age (messages by when they came, meetings by their end or booking),
 * keeps newer and undated items and every other file of the data folder, logs the count in the
 * audit log, never loses what arrives meanwhile, and refuses a malformed age (exit 1).
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createInbox } from '../../src/admin/inbox-store';
import { main } from '../../src/cli';
import { loadConfig } from '../../src/config/load';
import { fixedStoreSource, openSiteStore, type StoreSource } from '../../src/store/source';
import { createTempSite, type TempSite } from '../helpers/fixture-site';

const day = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe('prune-inbox', () => {
  let site: TempSite;
  let dataDir: string;
  const now = Date.now();
  const contactFile = () => join(dataDir, 'contact-submissions.jsonl');
  const bookingFile = () => join(dataDir, 'booking-requests.jsonl');
  const contactLine = (ageDays: number, name: string) =>
    JSON.stringify({
      receivedAt: iso(now - ageDays * day),
      firstName: name,
      lastName: 'X',
      email: `${name}@visitor.example`,
      message: 'Hi',
    });
  const bookingLine = (ageDays: number, id: string) =>
    JSON.stringify({
      id,
      start: iso(now - ageDays * day + day),
      end: iso(now - ageDays * day + day + 1_800_000),
      locale: 'en',
      bookedAt: iso(now - ageDays * day),
      firstName: 'B',
      lastName: 'Y',
      email: 'b@visitor.example',
    });
  const storeOf = async (): Promise<StoreSource> =>
    fixedStoreSource(await openSiteStore(await loadConfig(site.config)));
  const names = async (source: StoreSource) =>
    (await (await source.get()).listInbox()).map((item) => (item.kind === 'booking' ? item.id : item.firstName)).sort();

  beforeEach(async () => {
    site = await createTempSite();
    dataDir = join(site.dir, 'data');
    await mkdir(dataDir, { recursive: true });
    // The files of an earlier version, with a line a crash cut short and one that tells no time.
    await writeFile(
      contactFile(),
      [
        contactLine(800, 'ancient'),
        contactLine(400, 'old'),
        '{"receivedAt":"20',
        contactLine(100, 'recent'),
        JSON.stringify({ firstName: 'undated' }),
        contactLine(1, 'new'),
      ].join('\n') + '\n',
      { mode: 0o600 },
    );
    await writeFile(
      bookingFile(),
      [
        bookingLine(500, '00000000-0000-4000-8000-000000000001'),
        bookingLine(10, '00000000-0000-4000-8000-000000000002'),
      ].join('\n') + '\n',
      { mode: 0o600 },
    );
    await writeFile(join(dataDir, 'notes.txt'), 'not the inbox\n');
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await site.cleanup();
  });

  it('removes the older items of both kinds, keeps the newer and the undated, and the handled state of what it keeps', async () => {
    const source = await storeOf();
    try {
      const inbox = createInbox(source);
      const items = await inbox.list();
      expect(items).toHaveLength(7);
      const old = items.find((item) => item.firstName === 'old')!;
      const recent = items.find((item) => item.firstName === 'recent')!;
      await inbox.setHandled(old.id, true, 'admin@example.com');
      await inbox.setHandled(recent.id, true, 'admin@example.com');

      expect(await inbox.prune(now - 365 * day)).toEqual([
        { kind: 'contact', removed: 2, kept: 3, undated: 1 },
        { kind: 'booking', removed: 1, kept: 1, undated: 0 },
      ]);
      expect(await names(source)).toEqual(['booking-00000000-0000-4000-8000-000000000002', 'new', 'recent', 'undated']);
      expect((await inbox.list()).find((item) => item.id === recent.id)!.handled).toBe(true);
      expect(await inbox.prune(now - 365 * day)).toEqual([
        { kind: 'contact', removed: 0, kept: 3, undated: 1 },
        { kind: 'booking', removed: 0, kept: 1, undated: 0 },
      ]);
      expect(await readFile(join(dataDir, 'notes.txt'), 'utf8')).toBe('not the inbox\n');
    } finally {
      await source.close();
    }
  });

  it('keeps every message added while it prunes', async () => {
    const [pruning, adding] = [await storeOf(), await storeOf()];
    try {
      const store = await adding.get();
      const added = Array.from({ length: 20 }, (_, n) =>
        store.addContactMessage({
          receivedAt: iso(now),
          firstName: `during${n}`,
          lastName: 'X',
          email: 'x@visitor.example',
          message: 'Hi',
        }),
      );
      await Promise.all([createInbox(pruning).prune(now - 365 * day), ...added]);
      const left = await names(pruning);
      expect(left.filter((name) => String(name).startsWith('during'))).toHaveLength(20);
      expect(left).not.toContain('old');
    } finally {
      await pruning.close();
      await adding.close();
    }
  });

  it('runs as `site admin prune-inbox --older-than 12m`, importing the old files first, prints the counts and logs them', async () => {
    const out: string[] = [];
    const err: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out.push(String(chunk));
      return true;
    });
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      err.push(String(chunk));
      return true;
    });
    const code = await main(['node', 'site', 'admin', 'prune-inbox', '--older-than', '12m', '--config', site.config]);
    expect(code, err.join('')).toBe(0);
    expect(out.join('')).toContain(
      'contact messages: removed 2, kept 3 (1 without a readable date kept)\nbooking requests: removed 1, kept 1\n',
    );
    expect(err.join('')).toContain('imported into');
    const stamp = new Date().toISOString().slice(0, 10);
    const files = (await readdir(dataDir)).filter((name) => !name.startsWith('site.db')).sort();
    expect(files).toEqual([
      `booking-requests.jsonl.imported-${stamp}`,
      `contact-submissions.jsonl.imported-${stamp}`,
      'notes.txt',
    ]);
    const source = await storeOf();
    try {
      expect(await names(source)).toEqual(['booking-00000000-0000-4000-8000-000000000002', 'new', 'recent', 'undated']);
      const { entries } = await (await source.get()).listAudit(1);
      expect(entries[0]).toMatchObject({
        action: 'inbox-prune',
        count: 3,
        olderThan: '12m',
        user: expect.stringMatching(/^cli/),
      });
    } finally {
      await source.close();
    }
  });

  it('refuses a malformed age with a clear error and exit code 2 (a usage error), and touches nothing', async () => {
    const errors: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      errors.push(String(chunk));
      return true;
    });
    const before = await readFile(contactFile(), 'utf8');
    for (const age of ['12', '12y', '-3d', 'soon']) {
      errors.length = 0;
      expect(
        await main(['node', 'site', 'admin', 'prune-inbox', '--older-than', age, '--config', site.config]),
        age,
      ).toBe(2);
      expect(errors.join(''), age).toContain(
        `INBOX_AGE  --older-than  "${age}" is not an age  (Give a whole number of days, weeks or months: 30d, 8w or 12m.)`,
      );
    }
    expect(await readFile(contactFile(), 'utf8')).toBe(before);
  });
});
