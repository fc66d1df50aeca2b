/**
 * The store's behaviour, as one suite any driver runs: `describeStore('sqlite', open)` here, and
 * the same suite against Postgres (store-postgres) — the store is written once, so it must behave
 * the same on each database.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SqlDriver } from '../../src/store/driver';
import { latestVersion } from '../../src/store/migrations';
import { createStore, migrate, schemaStatus, type NewBooking, type Store } from '../../src/store/store';

const at = (text: string) => new Date(text).toISOString();

/** A booking of the slot starting at `start` (UTC), 30 minutes long. */
export function bookingAt(start: string, extra: Partial<NewBooking> = {}): NewBooking {
  const slotStart = at(start);
  const slotEnd = new Date(Date.parse(slotStart) + 30 * 60_000).toISOString();
  return {
    slotStart,
    slotEnd,
    start: slotStart.replace('.000Z', '+00:00'),
    end: slotEnd.replace('.000Z', '+00:00'),
    bookedAt: at('2030-01-01T08:00:00Z'),
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    company: 'Engines',
    note: 'hello',
    locale: 'en',
    ...extra,
  };
}

const contact = (receivedAt: string, extra: Record<string, string> = {}) => ({
  receivedAt: at(receivedAt),
  firstName: 'Grace',
  lastName: 'Hopper',
  email: 'grace@example.com',
  message: 'About the repair network',
  company: '',
  subject: '',
  locale: 'en',
  page: '/contactus/',
  ...extra,
});

/** Runs the store's suite against the driver `open` makes (a fresh, empty database each time). */
export function describeStore(name: string, open: () => Promise<SqlDriver>): void {
  describe(`the store on ${name}`, () => {
    let driver: SqlDriver;
    let store: Store;
    beforeEach(async () => {
      driver = await open();
      store = await createStore(driver);
    });
    afterEach(async () => {
      await store.close();
    });

    it('applies its migrations once, recorded in schema_migrations', async () => {
      const status = await schemaStatus(driver);
      expect(status.version).toBe(latestVersion);
      expect(status.pending).toEqual([]);
      expect(await migrate(driver)).toEqual([]);
      expect(await store.isEmpty()).toBe(true);
    });

    it('books a slot once: a second booking of it, or of an overlapping meeting, is taken, even sent at the same moment', async () => {
      const results = await Promise.all(Array.from({ length: 8 }, () => store.book(bookingAt('2030-01-02T10:00:00Z'))));
      expect(results.filter((result) => result.booked)).toHaveLength(1);
      // A meeting of another length that overlaps the booked one.
      const overlapping = bookingAt('2030-01-02T10:15:00Z');
      expect(await store.book(overlapping)).toEqual({ booked: false });
      expect(await store.book(bookingAt('2030-01-02T10:30:00Z'))).toMatchObject({ booked: true });
      const taken = await store.takenSlots(at('2030-01-02T00:00:00Z'), at('2030-01-03T00:00:00Z'));
      expect(taken.map((slot) => slot.slotStart)).toEqual([at('2030-01-02T10:00:00Z'), at('2030-01-02T10:30:00Z')]);
      expect(await store.takenSlots(at('2030-01-03T00:00:00Z'), at('2030-01-04T00:00:00Z'))).toEqual([]);
    });

    it('frees a slot at once when its booking is deleted', async () => {
      const booked = await store.book(bookingAt('2030-01-02T11:00:00Z'));
      if (!booked.booked) throw new Error('not booked');
      expect(await store.findBooking(booked.id)).toMatchObject({
        id: booked.id,
        slotStart: at('2030-01-02T11:00:00Z'),
        locale: 'en',
      });
      expect(await store.deleteInboxItem(`booking-${booked.id}`)).toMatchObject({
        id: `booking-${booked.id}`,
        kind: 'booking',
      });
      expect(await store.takenSlots(at('2030-01-02T00:00:00Z'), at('2030-01-03T00:00:00Z'))).toEqual([]);
      expect(await store.book(bookingAt('2030-01-02T11:00:00Z'))).toMatchObject({ booked: true });
    });

    it('lists the inbox newest first with both kinds, marks items handled, deletes them', async () => {
      const first = await store.addContactMessage(contact('2030-01-01T09:00:00Z', { type: 'repairer' }));
      await store.addContactMessage(contact('2030-01-01T12:00:00Z', { message: 'Later' }));
      await store.book(bookingAt('2030-01-05T10:00:00Z', { bookedAt: at('2030-01-01T10:00:00Z') }));
      const items = await store.listInbox();
      expect(items.map((item) => [item.kind, item.receivedAt])).toEqual([
        ['contact', at('2030-01-01T12:00:00Z')],
        ['booking', at('2030-01-01T10:00:00Z')],
        ['contact', at('2030-01-01T09:00:00Z')],
      ]);
      expect(items[2]).toEqual({
        id: `contact-${first.id}`,
        kind: 'contact',
        receivedAt: at('2030-01-01T09:00:00Z'),
        handled: false,
        firstName: 'Grace',
        lastName: 'Hopper',
        email: 'grace@example.com',
        company: '',
        type: 'repairer',
        subject: '',
        message: 'About the repair network',
        locale: 'en',
        page: '/contactus/',
      });
      expect(items[1]).toMatchObject({
        kind: 'booking',
        start: '2030-01-05T10:00:00+00:00',
        end: '2030-01-05T10:30:00+00:00',
        note: 'hello',
      });
      const handled = await store.setHandled(
        `contact-${first.id}`,
        true,
        'anna@example.com',
        at('2030-01-02T00:00:00Z'),
      );
      expect(handled).toMatchObject({ handled: true, handledAt: at('2030-01-02T00:00:00Z') });
      expect((await store.listInbox({ handled: 'handled' })).map((item) => item.id)).toEqual([`contact-${first.id}`]);
      expect(await store.listInbox({ kind: 'booking', handled: 'unhandled' })).toHaveLength(1);
      expect(
        await store.setHandled(`contact-${first.id}`, false, 'anna@example.com', at('2030-01-03T00:00:00Z')),
      ).toMatchObject({ handled: false });
      expect(await store.setHandled('contact-nope', true, 'x', at('2030-01-03T00:00:00Z'))).toBeUndefined();
      expect(await store.deleteInboxItem(`contact-${first.id}`)).toMatchObject({ message: 'About the repair network' });
      expect(await store.deleteInboxItem(`contact-${first.id}`)).toBeUndefined();
      expect(await store.findInboxItem('not-an-id')).toBeUndefined();
      expect(await store.listInbox()).toHaveLength(2);
    });

    it("records what an item's notifications did, shown on the item, and reads it back", async () => {
      const message = await store.addContactMessage(contact('2030-01-01T09:00:00Z'));
      const booked = await store.book(bookingAt('2030-01-05T10:00:00Z'));
      const id = `contact-${message.id}`;
      expect(await store.findDelivery(id)).toBeUndefined();
      expect((await store.findInboxItem(id))!.delivery).toBeUndefined();
      const failed = {
        status: 'failed' as const,
        at: at('2030-01-01T09:00:01Z'),
        channels: {
          'webhook-1': { ok: true, attempts: 1 },
          team: { ok: false, attempts: 2, error: 'the SMTP server mail.example could not be reached' },
        },
      };
      expect(await store.setDelivery(id, failed)).toBe(true);
      expect(await store.findDelivery(id)).toEqual(failed);
      expect(await store.findInboxItem(id)).toMatchObject({
        delivery: 'failed',
        deliveryAt: at('2030-01-01T09:00:01Z'),
        deliveryError: 'the SMTP server mail.example could not be reached',
      });
      const bookingId = `booking-${booked.booked ? booked.id : ''}`;
      expect(await store.setDelivery(bookingId, { status: 'sent', at: at('2030-01-01T09:00:02Z'), channels: {} })).toBe(
        true,
      );
      expect((await store.listInbox()).find((item) => item.id === bookingId)).toMatchObject({ delivery: 'sent' });
      expect(await store.setDelivery('contact-nope', failed)).toBe(false);
    });

    it('prunes messages by when they came and meetings by their end or booking, whichever is later', async () => {
      await store.addContactMessage(contact('2029-01-01T00:00:00Z'));
      await store.addContactMessage(contact('2030-06-01T00:00:00Z'));
      await store.book(bookingAt('2029-02-01T10:00:00Z', { bookedAt: at('2029-01-15T00:00:00Z') }));
      // Requested long ago for a meeting still ahead of the cutoff: kept.
      await store.book(bookingAt('2030-07-01T10:00:00Z', { bookedAt: at('2029-01-15T00:00:00Z') }));
      const counts = await store.pruneInbox(at('2030-01-01T00:00:00Z'));
      expect(counts).toEqual([
        { kind: 'contact', removed: 1, kept: 1, undated: 0 },
        { kind: 'booking', removed: 1, kept: 1, undated: 0 },
      ]);
    });

    it('keeps accounts: adds once, changes a password only if unchanged meanwhile, removes with its sessions', async () => {
      const account = {
        email: 'anna@example.com',
        role: 'admin' as const,
        passwordHash: 'scrypt$1',
        created: at('2030-01-01T00:00:00Z'),
      };
      expect(await store.addAccount(account)).toBe(true);
      expect(await store.addAccount({ ...account, role: 'editor' })).toBe(false);
      expect(await store.listAccounts()).toEqual([account]);
      expect(await store.setPasswordHash(account.email, 'scrypt$2', 'scrypt$other')).toBe(false);
      expect(await store.setPasswordHash(account.email, 'scrypt$2', 'scrypt$1')).toBe(true);
      expect(await store.findAccount(account.email)).toMatchObject({ passwordHash: 'scrypt$2' });
      const cutoffs = { idleBefore: at('2000-01-01T00:00:00Z'), createdBefore: at('2000-01-01T00:00:00Z') };
      await store.createSession(
        {
          tokenHash: 'h1',
          email: account.email,
          role: 'admin',
          csrfToken: 'c',
          accountStamp: 's',
          createdAt: at('2030-01-01T00:00:00Z'),
          lastSeenAt: at('2030-01-01T00:00:00Z'),
        },
        cutoffs,
      );
      expect(await store.removeAccount(account.email)).toBe(true);
      expect(await store.removeAccount(account.email)).toBe(false);
      expect(await store.peekSession('h1', cutoffs)).toBeUndefined();
    });

    it('keeps sessions by token hash: touched, expired by idle time or age, rotated, deleted', async () => {
      const row = {
        tokenHash: 'hash-a',
        email: 'anna@example.com',
        role: 'editor' as const,
        csrfToken: 'csrf',
        accountStamp: null,
        createdAt: at('2030-01-01T10:00:00Z'),
        lastSeenAt: at('2030-01-01T10:00:00Z'),
      };
      const live = { idleBefore: at('2030-01-01T09:50:00Z'), createdBefore: at('2029-12-31T22:00:00Z') };
      await store.createSession(row, live);
      expect(await store.touchSession('hash-a', at('2030-01-01T10:20:00Z'), live)).toMatchObject({
        email: 'anna@example.com',
        lastSeenAt: at('2030-01-01T10:20:00Z'),
        accountStamp: null,
      });
      // Idle: last seen before the cutoff.
      expect(
        await store.touchSession('hash-a', at('2030-01-01T11:00:00Z'), {
          ...live,
          idleBefore: at('2030-01-01T10:30:00Z'),
        }),
      ).toBeUndefined();
      // Too old, however recently seen.
      expect(await store.peekSession('hash-a', { ...live, createdBefore: at('2030-01-01T10:00:00Z') })).toBeUndefined();
      await store.createSession({ ...row, tokenHash: 'hash-b' }, live, 'hash-a');
      expect(await store.peekSession('hash-a', live)).toBeUndefined();
      expect(await store.peekSession('hash-b', live)).toMatchObject({ csrfToken: 'csrf' });
      await store.deleteSessionsOf('anna@example.com');
      expect(await store.peekSession('hash-b', live)).toBeUndefined();
    });

    it('counts sign-in attempts in windows, all budgets or none, and gives places back', async () => {
      const since = at('2030-01-01T09:45:00Z');
      const now = at('2030-01-01T10:00:00Z');
      const claims = [
        { key: 'address:a', limit: 3 },
        { key: 'account:a', limit: 2 },
      ];
      const first = await Promise.all([1, 2, 3].map(() => store.claimAttempts(claims, now, since)));
      // Sent at once, the budget of 2 still lets only 2 through.
      expect(first.filter(Boolean)).toHaveLength(2);
      expect(await store.nthNewestAttempt('account:a', 2, since)).toBe(now);
      await store.releaseAttempts(first.find(Boolean)!);
      expect(await store.claimAttempts(claims, now, since)).toHaveLength(2);
      await store.clearAttempts('account:a');
      expect(await store.claimAttempts(claims, now, since)).toHaveLength(2);
      // The address's budget (3) is full now, whatever the account's says.
      expect(await store.claimAttempts(claims, now, since)).toBeUndefined();
      // A window later, everything counted before has left it.
      expect(await store.claimAttempts(claims, at('2030-01-01T10:20:00Z'), at('2030-01-01T10:05:00Z'))).toHaveLength(2);
    });

    it('appends the audit log in order and lists it newest first', async () => {
      for (let index = 0; index < 5; index++)
        await store.appendAudit({
          time: at('2030-01-01T10:00:00Z'),
          user: 'anna@example.com',
          action: `save-${index}`,
          slug: 'post',
        });
      const { entries, more } = await store.listAudit(3);
      expect(entries.map((entry) => entry.action)).toEqual(['save-4', 'save-3', 'save-2']);
      expect(entries[0]).toEqual({
        time: at('2030-01-01T10:00:00Z'),
        user: 'anna@example.com',
        action: 'save-4',
        slug: 'post',
      });
      expect(more).toBe(true);
    });

    it('keeps versions of saved files per item, newest first, the oldest beyond the cap dropped', async () => {
      const version = (n: number, item = 'blog/a-post/en') => ({
        kind: 'entry' as const,
        item,
        at: at(`2030-01-01T00:00:0${n}Z`),
        by: 'anna@example.com',
        summary: `title ${n}`,
        files: { [`content/blog/a-post/en.md`]: `---\ntitle: ${n}\n---\nbody é\n` },
      });
      const ids = [];
      for (const n of [1, 2, 3, 4]) ids.push(await store.addVersion(version(n), 3));
      await store.addVersion(version(9, 'blog/other/en'), 3);
      const listed = await store.listVersions('entry', 'blog/a-post/en');
      expect(listed.map((entry) => entry.summary)).toEqual(['title 4', 'title 3', 'title 2']);
      expect(listed[0]).toEqual({
        id: ids[3],
        at: at('2030-01-01T00:00:04Z'),
        by: 'anna@example.com',
        summary: 'title 4',
      });
      expect(await store.findVersion('entry', 'blog/a-post/en', ids[1]!)).toEqual({
        id: ids[1],
        ...version(2),
        kind: undefined,
        item: undefined,
      });
      expect(await store.findVersion('entry', 'blog/a-post/en', ids[0]!)).toBeUndefined();
      expect(await store.findVersion('page', 'blog/a-post/en', ids[3]!)).toBeUndefined();
      expect(await store.findVersion('entry', 'blog/a-post/en', 'x; drop')).toBeUndefined();
    });

    it('holds one pending change per entry and author, lists the pending ones, and decides each once', async () => {
      const change = (by: string, title: string, slug = 'a-post') => ({
        collection: 'blog',
        slug,
        locale: 'en',
        base: 'v1',
        text: `---\ntitle: ${title}\n---\nbody é\n`,
        by,
        at: at('2030-01-01T00:00:01Z'),
      });
      const first = await store.holdChange(change('anna@example.com', 'one'));
      const second = await store.holdChange(change('anna@example.com', 'two'));
      const other = await store.holdChange(change('bo@example.com', 'three', 'b-post'));
      expect((await store.listPendingChanges()).map((each) => [each.id, each.text.split('\n')[1]])).toEqual([
        [second, 'title: two'],
        [other, 'title: three'],
      ]);
      expect((await store.listPendingChanges('bo@example.com')).map((each) => each.id)).toEqual([other]);
      expect(await store.findChange(first)).toBeUndefined();
      expect(
        await store.decideChange(second, 'approved', 'admin@example.com', at('2030-01-01T00:00:02Z'), 'fine'),
      ).toBe(true);
      expect(await store.decideChange(second, 'rejected', 'admin@example.com', at('2030-01-01T00:00:03Z'), null)).toBe(
        false,
      );
      expect(await store.findChange(second)).toEqual({
        id: second,
        ...change('anna@example.com', 'two'),
        status: 'approved',
        decidedBy: 'admin@example.com',
        decidedAt: at('2030-01-01T00:00:02Z'),
        note: 'fine',
      });
      expect((await store.listPendingChanges()).map((each) => each.id)).toEqual([other]);
      expect(await store.findChange('x; drop')).toBeUndefined();
    });

    it('imports the old files once, keeping their ids, and a double booking of the old store as it was', async () => {
      const data = {
        contacts: [
          {
            id: 'abc123',
            ...contact('2029-05-01T00:00:00Z'),
            handledAt: at('2029-05-02T00:00:00Z'),
            handledBy: 'anna@example.com',
          },
          { id: 'undated', message: 'no time' },
        ],
        bookings: [
          { id: 'b-0000001', ...bookingAt('2030-01-02T10:00:00Z') },
          { id: 'b-0000002', ...bookingAt('2030-01-02T10:00:00Z') },
        ],
        accounts: [
          {
            email: 'anna@example.com',
            role: 'admin' as const,
            passwordHash: 'scrypt$x',
            created: at('2029-01-01T00:00:00Z'),
          },
        ],
        audit: [{ time: at('2029-01-01T00:00:00Z'), user: 'anna@example.com', action: 'sign-in' }],
      };
      expect(await store.importLegacy(data)).toEqual({ contacts: 2, bookings: 2, accounts: 1, audit: 1 });
      expect(await store.importLegacy(data)).toBeUndefined();
      const items = await store.listInbox();
      expect(items.map((item) => item.id).sort()).toEqual([
        'booking-b-0000001',
        'booking-b-0000002',
        'contact-abc123',
        'contact-undated',
      ]);
      expect(items.find((item) => item.id === 'contact-abc123')).toMatchObject({ handled: true });
      // The rule holds again for new bookings.
      expect(await store.book(bookingAt('2030-01-02T10:00:00Z'))).toEqual({ booked: false });
      expect((await store.pruneInbox(at('2031-01-01T00:00:00Z')))[0]).toMatchObject({
        kind: 'contact',
        removed: 1,
        kept: 1,
        undated: 1,
      });
    });
  });
}
