/**
 * Review before publishing in Chromium (`site serve --admin`, `admin.review: true`): an editor
 * changes a published post's title and saves; the editor says the change waits for review, the
 * post list badges it, and the live page keeps the old title until an admin approves the change
 * on the content screen's "Waiting for review" (the diff, a note, Approve and publish), when it
 * shows the new one; an editor's page text approved from the one queue on /admin/changes, in words;
 * an editor's settings sent for review from the settings screen, and in that queue.
 * axe finds nothing in each state.
 */
import { readFile, writeFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../helpers/axe';
import { launchBrowser } from '../helpers/browser';
import { startLiveAdminServer } from '../helpers/admin-server';
import { signInWithPassword } from './support';

describe('review before publishing with site serve --admin, in the browser', () => {
  const admin = { email: 'admin@example.com', role: 'admin' as const, password: 'admin password 1' };
  const editor = { email: 'editor@example.com', role: 'editor' as const, password: 'editor password 1' };
  const slug = 'a-day-in-a-tailor-shop';
  let running: Awaited<ReturnType<typeof startLiveAdminServer>>;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    [running, browser] = await Promise.all([
      startLiveAdminServer([admin, editor], {
        async prepare(site) {
          await writeFile(
            site.config,
            (await readFile(site.config, 'utf8')).replace(/^admin:\n/m, 'admin:\n  review: true\n'),
          );
        },
      }),
      launchBrowser(),
    ]);
    page = await (await browser.newContext({ locale: 'en-US', bypassCSP: true })).newPage();
    page.setDefaultTimeout(15_000);
    page.on('console', (message) => {
      if (message.type() === 'error' && !/status of (401|404)/.test(message.text())) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await running?.close();
  });

  /** The changes page as the admin sees it, in a browser context of its own, and its queue. */
  async function openQueueAsAdmin() {
    const adminContext = await browser.newContext({ locale: 'en-US', bypassCSP: true });
    const adminPage = await adminContext.newPage();
    adminPage.setDefaultTimeout(15_000);
    await signInWithPassword(adminPage, `${running.server.url}/admin/changes/`, admin);
    await adminPage.goto(`${running.server.url}/admin/changes/`);
    return { adminContext, adminPage, queue: adminPage.getByRole('region', { name: 'Waiting for review' }) };
  }

  it("holds an editor's new title until an admin approves it, then the live page shows it", async () => {
    const { server } = running;
    await signInWithPassword(page, `${server.url}/admin/blog/`, editor);
    await page.goto(`${server.url}/admin/blog/?post=${slug}&locale=en`);
    const title = page.getByLabel('Title *');
    await expect.poll(() => title.inputValue()).toBe('A day in a tailor shop');
    await title.fill('A day in a quiet tailor shop');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved for review.').first().waitFor();
    await page.getByText('Waiting for review').first().waitFor();
    await page.getByText(`Changes by ${editor.email}`).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect((await server.send('GET', `/blog/${slug}/`)).text).not.toContain('A day in a quiet tailor shop');

    await page.goto(`${server.url}/admin/blog/`);
    await page.locator('.badge', { hasText: 'Waiting for review' }).first().waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // The editor sees their change waiting above the list, without the admin's buttons.
    const queue = page.getByRole('region', { name: 'Waiting for review' });
    await queue.getByText(`${slug} (English): changes by ${editor.email}`).waitFor();
    expect(await queue.getByRole('button', { name: 'Approve and publish' }).count()).toBe(0);

    // An admin approves it on the content screen, with a note.
    const adminContext = await browser.newContext({ locale: 'en-US', bypassCSP: true });
    const adminPage = await adminContext.newPage();
    adminPage.setDefaultTimeout(15_000);
    await signInWithPassword(adminPage, `${server.url}/admin/blog/`, admin);
    const adminQueue = adminPage.getByRole('region', { name: 'Waiting for review' });
    await adminQueue.getByText(`${slug} (English): changes by ${editor.email}`).waitFor();
    await adminQueue.getByText('Show what changes').click();
    expect(await adminQueue.locator('pre').innerText()).toContain('+title: "A day in a quiet tailor shop"');
    await adminQueue.getByLabel('Note to the author (optional)').fill('Looks good');
    expect(await axeViolations(adminPage)).toEqual([]);
    await adminQueue.getByRole('button', { name: 'Approve and publish' }).click();
    await adminPage
      .getByRole('status')
      .filter({ hasText: `Approved: the changes to ${slug} are published.` })
      .waitFor();
    // The queue is asked for again once the status says so (ReviewQueue.tsx `decide`): it goes then.
    await adminQueue.waitFor({ state: 'hidden' });
    expect(await adminPage.getByRole('region', { name: 'Waiting for review' }).count()).toBe(0);
    expect(await axeViolations(adminPage)).toEqual([]);
    await adminContext.close();
    expect((await server.send('GET', `/blog/${slug}/`)).text).toContain('A day in a quiet tailor shop');
    const audit = (
      await server.send('GET', '/api/admin/changes', {
        headers: { cookie: (await server.signIn(admin.email, admin.password)).cookie },
      })
    ).json() as { items: { action: string; note?: string }[] };
    expect(audit.items.find((item) => item.action === 'review-approve')).toMatchObject({ note: 'Looks good' });
    await page.reload();
    await page.getByRole('table').waitFor();
    expect(await page.locator('.badge', { hasText: 'Waiting for review' }).count()).toBe(0);
    expect(problems).toEqual([]);
  }, 120_000);

  it("approves an editor's page-text change from the one queue on the changes page, said in words", async () => {
    const { server } = running;
    await page.goto(`${server.url}/admin/pages/?page=landing&locale=no`);
    const heading = page.getByLabel('Hero › Heading hero.heading', { exact: true });
    await expect.poll(() => heading.inputValue()).toBe('Gjør reparasjon til det enkle valget');
    await heading.fill('Reparasjon, rett og slett');
    await page.getByRole('button', { name: 'Save texts' }).click();
    await page.getByText('Saved for review.').first().waitFor();
    expect((await server.send('GET', '/no/')).text).not.toContain('Reparasjon, rett og slett');

    const { adminContext, adminPage, queue } = await openQueueAsAdmin();
    await queue.getByText(`Landing (Norsk): changes by ${editor.email}`).waitFor();
    await queue.getByText('Show what changes').click();
    expect(
      await queue
        .getByRole('row', { name: /^Hero › Heading/ })
        .locator('td')
        .allInnerTexts(),
    ).toEqual(['Gjør reparasjon til det enkle valget', 'Reparasjon, rett og slett']);
    await queue.getByText('Show the file').click();
    expect(await queue.locator('pre').innerText()).toContain('+  heading: Reparasjon, rett og slett');
    await queue.getByLabel('Note to the author (optional)').fill('Godt');
    expect(await axeViolations(adminPage)).toEqual([]);
    await queue.getByRole('button', { name: 'Approve and publish' }).click();
    await adminPage
      .getByRole('status')
      .filter({ hasText: 'Approved: the changes to Landing are published.' })
      .waitFor();
    expect((await server.send('GET', '/no/')).text).toContain('Reparasjon, rett og slett');
    // The log below says it, with the note.
    await expect.poll(() => adminPage.getByRole('table', { name: /Changes/ }).innerText()).toContain('Godt');
    expect(await axeViolations(adminPage)).toEqual([]);
    await adminContext.close();
    expect(problems).toEqual([]);
  }, 120_000);

  it('lets an editor send settings for review from the settings screen, and the queue has them', async () => {
    const { server } = running;
    await page.goto(`${server.url}/admin/settings/`);
    // The menu shows the settings to an editor when review is on.
    expect(
      await page
        .getByRole('navigation', { name: 'Admin pages' })
        .getByRole('link', { name: 'Site settings' })
        .isVisible(),
    ).toBe(true);
    const legalName = page.getByLabel('Legal name');
    await expect.poll(() => legalName.inputValue()).toBe('Mendwise AS');
    await legalName.fill('Mendwise Norge AS');
    await page.getByRole('button', { name: 'Review changes' }).click();
    await page
      .getByRole('heading', { name: /changes/i })
      .first()
      .waitFor();
    // No history (its restore is an administrator's), and the button says what happens.
    expect(await page.getByText('Earlier versions, newest first').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Send for review' }).click();
    await page.getByText('Sent for review. An administrator approves or rejects your changes').waitFor();
    // The form shows the settings as they are: the change waits.
    await expect.poll(() => legalName.inputValue()).toBe('Mendwise AS');
    expect(await axeViolations(page)).toEqual([]);

    const { adminContext, queue } = await openQueueAsAdmin();
    // The queue names the item by its id ("settings"), as its API does.
    await queue.getByText(`settings: changes by ${editor.email}`).waitFor();
    await queue.getByText('Show what changes').last().click();
    expect(await queue.getByRole('row', { name: /Mendwise Norge AS/ }).count()).toBe(1);
    await adminContext.close();
    expect(problems).toEqual([]);
  }, 120_000);
});
