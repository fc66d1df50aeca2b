/**
 * The inbox and the changes view with `site serve --admin` in Chromium, on a temp data folder with
 * a few submissions: an admin signs in, goes to the inbox by the admin navigation, searches, marks
 * one handled (by keyboard), deletes one after the confirmation, exports what is shown as CSV and
 * sees it all on the changes page; an editor is told the inbox is for admins. axe finds nothing in
 * any state.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../helpers/axe';
import { launchBrowser } from '../helpers/browser';
import { createTempSite, type TempSite } from '../helpers/fixture-site';
import { startAdminServer } from '../helpers/admin-server';
import { signInWithPassword } from './support';
import { storedRows } from '../helpers/store';

const admin = { email: 'admin@example.com', role: 'admin' as const, password: 'admin password 1' };
const editor = { email: 'editor@example.com', role: 'editor' as const, password: 'editor password 1' };

const submissions = [
  {
    receivedAt: '2026-09-01T08:00:00.000Z',
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@visitor.example',
    company: 'Analytical Repairs',
    type: 'repairer',
    subject: 'Pricing',
    message: 'How much is Plus for two shops?',
    locale: 'en',
    page: '/contactus/',
  },
  {
    receivedAt: '2026-10-15T12:30:00.000Z',
    firstName: 'Grace',
    lastName: 'Hopper',
    email: 'grace@visitor.example',
    company: '',
    type: 'retailer',
    subject: '',
    message: '=cmd|"/c calc"!A1',
    locale: 'en',
    page: '/contactus/',
  },
  {
    receivedAt: '2026-11-02T09:15:00.000Z',
    firstName: 'Kari',
    lastName: 'Nordmann',
    email: 'kari@visitor.example',
    company: 'Sy og Fiks',
    type: 'other',
    subject: 'Spørsmål',
    message: 'Hei! Kan dere ringe meg?',
    locale: 'no',
    page: '/no/kontakt/',
  },
];
const bookingRequest = {
  id: '9b2d6a52-0f3e-4c55-8d1e-3f9c2b7a6e11',
  start: '2026-12-03T10:00:00+01:00',
  end: '2026-12-03T10:30:00+01:00',
  locale: 'en',
  bookedAt: '2026-11-10T14:00:00.000Z',
  firstName: 'Ola',
  lastName: 'Berg',
  email: 'ola@visitor.example',
  company: 'Berg Sko',
  note: 'Demo of the claims portal',
  page: '/no/shop/book-meeting/',
};

describe('the inbox and the changes with site serve --admin, in the browser', () => {
  let site: TempSite;
  let server: Awaited<ReturnType<typeof startAdminServer>>;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const problems: string[] = [];
  const contactFile = () => join(site.dir, 'data', 'contact-submissions.jsonl');
  const rows = () => page.locator('tbody tr');

  const signIn = (into: Page, who: { email: string; password: string }) =>
    signInWithPassword(into, `${server.url}/admin/inbox/`, who);

  beforeAll(async () => {
    site = await createTempSite();
    await mkdir(join(site.dir, 'data'), { recursive: true });
    await writeFile(contactFile(), submissions.map((record) => `${JSON.stringify(record)}\n`).join(''), {
      mode: 0o600,
    });
    await writeFile(join(site.dir, 'data', 'booking-requests.jsonl'), `${JSON.stringify(bookingRequest)}\n`, {
      mode: 0o600,
    });
    [server, browser] = await Promise.all([
      startAdminServer({
        users: [admin, editor],
        configPath: site.config,
        projectRoot: site.dir,
        inbox: true,
        posts: true,
      }),
      launchBrowser(),
    ]);
    context = await browser.newContext({
      locale: 'en-US',
      timezoneId: 'Europe/Oslo',
      bypassCSP: true,
      acceptDownloads: true,
    });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error' && !/status of 401/.test(message.text())) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await site?.cleanup();
  });

  it('signs in and reaches the inbox by the admin navigation: everything sent, newest first', async () => {
    await signIn(page, admin);
    const nav = page.getByRole('navigation', { name: 'Admin pages' });
    await nav.getByRole('link', { name: 'Inbox' }).click();
    await page.waitForURL(/\/admin\/inbox\/$/);
    await page.getByRole('table', { name: 'Messages and meeting requests, newest first' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Inbox' }).getAttribute('aria-current')).toBe('page');
    expect(await rows().count()).toBe(4);
    expect(await rows().locator('th').allTextContents()).toEqual([
      expect.stringContaining('Ola Berg'),
      expect.stringContaining('Kari Nordmann'),
      expect.stringContaining('Grace Hopper'),
      expect.stringContaining('Ada Lovelace'),
    ]);
    expect(await rows().first().textContent()).toContain('Meeting request');
    expect(await rows().first().textContent()).toContain('Demo of the claims portal');
    // The meeting's time in the booking's zone, saying which; the page it was booked from and that page's audience.
    const meeting = await rows().first().innerText();
    expect(meeting).toContain('Meeting on 3 Dec 2026, 10:00 (Europe/Oslo)');
    expect(meeting).toContain('Sent from the page: /no/shop/book-meeting/');
    expect(meeting).toContain('Audience: Retailers');
    expect(await rows().first().getByRole('link', { name: '/no/shop/book-meeting/' }).getAttribute('href')).toBe(
      '/no/shop/book-meeting/',
    );
    expect(await page.getByRole('status').filter({ hasText: '4 of 4 shown' }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('searches names, companies and messages, and filters by kind', async () => {
    await page.getByLabel('Search names, e-mail addresses, companies and messages').fill('lovelace');
    await expect.poll(() => rows().count()).toBe(1);
    expect(await rows().first().textContent()).toContain('How much is Plus for two shops?');
    expect(await page.getByRole('status').filter({ hasText: '1 of 4 shown' }).count()).toBe(1);
    await page.getByLabel('Search names, e-mail addresses, companies and messages').fill('sko');
    await expect.poll(() => rows().count()).toBe(1);
    expect(await rows().first().textContent()).toContain('Ola Berg');
    await page.getByLabel('Search names, e-mail addresses, companies and messages').fill('');
    await page.getByLabel('Kind').selectOption('contact');
    await expect.poll(() => rows().count()).toBe(3);
    await page.getByLabel('Kind').selectOption('');
    await page.getByLabel('Search names, e-mail addresses, companies and messages').fill('xyzzy');
    await page.getByText('Nothing matches these filters.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel('Search names, e-mail addresses, companies and messages').fill('');
    await expect.poll(() => rows().count()).toBe(4);
  });

  it('marks one handled with the keyboard, and the not-handled filter leaves it out', async () => {
    const button = page.getByRole('button', { name: 'Mark handled: Kari Nordmann' });
    await button.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Marked as handled.' }).waitFor();
    await page.getByRole('button', { name: 'Mark not handled: Kari Nordmann' }).waitFor();
    // Focus moves to the toggled button in the next frame.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Mark not handled');
    expect(await rows().nth(1).textContent()).toContain('Handled');
    await page.getByLabel('Status').selectOption('unhandled');
    await expect.poll(() => rows().count()).toBe(3);
    expect(await rows().allTextContents()).not.toContainEqual(expect.stringContaining('Kari'));
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel('Status').selectOption('');

    const reloaded = await page.request.get(`${server.url}/api/admin/inbox`);
    expect((await reloaded.json()).items.find((item: { firstName: string }) => item.firstName === 'Kari').handled).toBe(
      true,
    );
  });

  it('deletes one after the confirmation, and moves focus to the announcement', async () => {
    let question = '';
    page.once('dialog', (dialog) => {
      question = dialog.message();
      void dialog.accept();
    });
    await page.getByRole('button', { name: 'Delete: Grace Hopper' }).click();
    await page.getByRole('status').filter({ hasText: 'Deleted what Grace Hopper sent.' }).waitFor();
    expect(question).toMatch(/^Delete what Grace Hopper sent on .+\? This cannot be undone\.$/);
    await expect.poll(() => rows().count()).toBe(3);
    // Focus moves once the announcement is drawn (the next frame).
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe('Deleted what Grace Hopper sent.');
    const stored = JSON.stringify(await storedRows(join(site.dir, 'data'), 'contact_messages'));
    expect(stored).not.toContain('Grace');
    expect(await storedRows(join(site.dir, 'data'), 'contact_messages')).toHaveLength(2);

    page.once('dialog', (dialog) => void dialog.dismiss());
    await page.getByRole('button', { name: 'Delete: Ada Lovelace' }).click();
    expect(await rows().count()).toBe(3);
    expect(JSON.stringify(await storedRows(join(site.dir, 'data'), 'contact_messages'))).toBe(stored);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('exports what is shown as CSV', async () => {
    await page.getByLabel('Kind').selectOption('contact');
    await expect.poll(() => rows().count()).toBe(2);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export what is shown (CSV)' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^inbox-\d{4}-\d\d-\d\d\.csv$/);
    const csv = await readFile((await download.path())!, 'utf8');
    const lines = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines.length).toBe(3);
    expect(lines[1]).toContain('Kari,Nordmann');
    expect(lines[2]).toContain('Ada,Lovelace');
    await page.getByLabel('Kind').selectOption('');
  });

  it('shows every change on the changes page, newest first', async () => {
    await page.getByRole('navigation', { name: 'Admin pages' }).getByRole('link', { name: 'Changes' }).click();
    await page.waitForURL(/\/admin\/changes\/$/);
    await page.getByRole('table', { name: 'Changes, newest first' }).waitFor();
    const what = await rows().locator('th').allTextContents();
    expect(what.slice(0, 3)).toEqual([
      'Exported 2 inbox items',
      'Deleted an inbox item',
      'Marked an inbox item handled',
    ]);
    expect(what).toContain('Signed in');
    expect(await rows().first().textContent()).toContain(admin.email);
    // The item in words, linked to the inbox, not its id.
    const deleted = rows().nth(1).getByRole('link');
    expect(await deleted.textContent()).toMatch(/^(?:Contact message|Meeting request)$/);
    expect(await deleted.getAttribute('href')).toBe('/admin/inbox/');
    expect(await page.locator('table').innerText()).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}|contact-[0-9a-f]/);
    expect(await axeViolations(page)).toEqual([]);
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('tells an editor that the inbox and the changes are for admins', async () => {
    const other = await browser.newContext({ locale: 'en-US', bypassCSP: true });
    try {
      const editorPage = await other.newPage();
      await signIn(editorPage, editor);
      for (const [path, text] of [
        ['/admin/inbox/', 'only administrators may open it'],
        ['/admin/changes/', 'Only administrators may see the list of changes'],
      ]) {
        await editorPage.goto(`${server.url}${path}`);
        await expect.poll(() => editorPage.getByRole('status').textContent()).toContain(text);
        expect(await editorPage.locator('table').count()).toBe(0);
        expect(await axeViolations(editorPage)).toEqual([]);
      }
    } finally {
      await other.close();
    }
  });
});
