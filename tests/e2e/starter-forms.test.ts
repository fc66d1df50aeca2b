/**
 * The engine's forms (typed-site/islands) as a new site gets them: the starter of `site init
 * --booking --locales en,no`, built and served by `site serve`, in Chromium. The contact form sends
 * with script (sending, then success, the message stored) and without (a plain POST that lands on
 * the thank-you page), and marks a required field left empty; the booking form offers the free
 * slots and books one, and books without script too; axe finds nothing on either page.
 */
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactFormText, bookingFormText } from '../../src/islands/forms/form-copy';
import { axeViolations } from '../helpers/axe';
import { launchBrowser } from '../helpers/browser';
import { serveSite, type TestServer } from '../helpers/server';
import { createStarterSite, type StarterSite } from '../helpers/starter-site';
import { storedRows } from '../helpers/store';
import { buildTarget } from '../targets/support';

let site: StarterSite;
let server: TestServer;
let browser: Browser;
let dataDir: string;
let out: string;

beforeAll(async () => {
  site = await createStarterSite({ locales: ['en', 'no'], booking: true });
  ({ out } = await buildTarget(['--no-social-images', '--no-precompress'], site.config));
  dataDir = `${site.dir}-data`;
  [server, browser] = await Promise.all([serveSite({ dir: out, configPath: site.config, dataDir }), launchBrowser()]);
});

afterAll(async () => {
  await Promise.allSettled([browser?.close(), server?.close()]);
  await site?.cleanup();
  if (out) await rm(dirname(out), { recursive: true, force: true });
});

const contact = contactFormText('en');
const booking = bookingFormText('en');

/**
 * Opens `path` in a fresh context (closed afterwards); fails on a page error or a console error
 * (a refused inline style among them) other than those `expected` matches. `axe` lets axe's script
 * past the page's policy (and so only there, the policy is not what is tested).
 */
async function visit(
  path: string,
  body: (page: Page) => Promise<void>,
  options: { javaScriptEnabled?: boolean; expected?: RegExp; axe?: boolean } = {},
) {
  const javaScriptEnabled = options.javaScriptEnabled ?? true;
  const context: BrowserContext = await browser.newContext({
    locale: 'en-GB',
    timezoneId: 'Europe/Oslo',
    viewport: { width: 1280, height: 900 },
    javaScriptEnabled,
    bypassCSP: options.axe === true,
  });
  context.setDefaultTimeout(10_000);
  const problems: string[] = [];
  try {
    const page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error' && !options.expected?.test(message.text())) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(new URL(path, server.url).href);
    await body(page);
    expect(problems).toEqual([]);
  } finally {
    await context.close();
  }
}

const contactIsland = '[data-island="ContactForm"]';
const bookingIsland = '[data-island="BookingForm"]';
const field = (page: Page, island: string, name: string) => page.locator(`${island} [name="${name}"]`);
const status = (page: Page, island: string) => page.locator(`${island} [role="status"]`);
/** Focus moves once the island has drawn what it says (an effect after the render): waited for, not sampled. */
const expectFocused = (element: Locator) =>
  expect.poll(() => element.evaluate((node) => node === document.activeElement), { timeout: 5_000 }).toBe(true);

/** Hydrated once the form checks the fields itself instead of the browser. */
const hydrated = (page: Page, island: string) =>
  page.waitForFunction(
    (selector) => document.querySelector<HTMLFormElement>(`${selector} form`)?.noValidate === true,
    island,
  );

async function fill(page: Page, island: string, values: Record<string, string>) {
  for (const [name, value] of Object.entries(values)) await field(page, island, name).fill(value);
}

async function storedMessages(): Promise<Record<string, string>[]> {
  return (await storedRows(dataDir, 'contact_messages')) as Record<string, string>[];
}

async function storedBookings(): Promise<Record<string, string>[]> {
  return (await storedRows(dataDir, 'bookings')) as Record<string, string>[];
}

describe('the contact form of the starter', () => {
  it('sends with script: the sending state, then success in the live region with focus on it; the message is stored', async () => {
    await visit('/contact/', async (page) => {
      await hydrated(page, contactIsland);
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/contact', async (route) => {
        await released;
        await route.continue();
      });
      await fill(page, contactIsland, {
        firstName: 'Kari',
        lastName: 'Nordmann',
        email: 'kari@example.com',
        subject: 'With script',
        message: 'Hello from the starter.',
      });
      await page.getByRole('button', { name: contact.submit }).click();
      const button = page.locator(`${contactIsland} button[type="submit"]`);
      await page.waitForFunction(
        (selector) => document.querySelector<HTMLButtonElement>(`${selector} button[type="submit"]`)?.disabled === true,
        contactIsland,
      );
      expect(await button.textContent()).toBe(contact.sending);
      expect(await status(page, contactIsland).textContent()).toBe(contact.sendingText);
      expect(await page.locator(`${contactIsland} .site-form`).getAttribute('data-state')).toBe('sending');
      release();

      await page.locator(`${contactIsland} .site-form-message-success`).waitFor();
      const region = status(page, contactIsland);
      expect(await region.getAttribute('aria-live')).toBe('polite');
      expect(await region.textContent()).toBe(`${contact.successTitle}${contact.successText}`);
      await expectFocused(region);
      expect(await page.locator(`${contactIsland} form`).count()).toBe(0);

      const stored = (await storedMessages()).filter((row) => row.subject === 'With script');
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatchObject({
        firstName: 'Kari',
        lastName: 'Nordmann',
        email: 'kari@example.com',
        message: 'Hello from the starter.',
        locale: 'en',
        page: '/contact/',
      });

      // "Send another message" brings back an empty form.
      await page.getByRole('button', { name: contact.sendAnother }).click();
      expect(await field(page, contactIsland, 'firstName').inputValue()).toBe('');
    });
  });

  it('marks a required field left empty: aria-invalid, its message through aria-describedby, the banner, focus on it', async () => {
    await visit('/contact/', async (page) => {
      await hydrated(page, contactIsland);
      await fill(page, contactIsland, { firstName: 'Kari', lastName: 'Nordmann', email: 'kari@example.com' });
      await page.getByRole('button', { name: contact.submit }).click();
      const message = field(page, contactIsland, 'message');
      await page.locator(`${contactIsland} .site-form-error`).waitFor();
      expect(await message.getAttribute('aria-invalid')).toBe('true');
      const describedBy = await message.getAttribute('aria-describedby');
      expect(await page.locator(`[id="${describedBy}"]`).textContent()).toBe(contact.fieldRequired);
      for (const name of ['firstName', 'lastName', 'email', 'company', 'subject'])
        expect(await field(page, contactIsland, name).getAttribute('aria-invalid'), name).toBeNull();
      expect(await status(page, contactIsland).textContent()).toBe(
        `${contact.invalidTitle}${contact.invalidText.replace('{fields}', contact.message)}`,
      );
      await expectFocused(message);
      expect((await storedMessages()).some((row) => row.firstName === 'Kari' && !row.message)).toBe(false);
    });
  });

  it('a failed send says so, keeps what was typed, and moves focus to the message', async () => {
    await visit(
      '/contact/',
      async (page) => {
        await hydrated(page, contactIsland);
        await page.route('**/api/contact', (route) =>
          route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"storage_failed"}' }),
        );
        await fill(page, contactIsland, {
          firstName: 'Ola',
          lastName: 'Nordmann',
          email: 'ola@example.com',
          message: 'Will fail.',
        });
        await page.getByRole('button', { name: contact.submit }).click();
        await page.locator(`${contactIsland} .site-form-message-error`).waitFor();
        expect(await status(page, contactIsland).textContent()).toBe(`${contact.errorTitle}${contact.errorText}`);
        await expectFocused(status(page, contactIsland));
        expect(await field(page, contactIsland, 'message').inputValue()).toBe('Will fail.');
      },
      { expected: /status of 503/ },
    );
  });

  it('sends without script: a plain POST to /api/contact that lands on the thank-you page of its language', async () => {
    await visit(
      '/no/contact/',
      async (page) => {
        const form = page.locator(`${contactIsland} form`);
        expect(await form.getAttribute('action')).toBe('/api/contact');
        expect(await form.getAttribute('method')).toBe('post');
        // The Norwegian page has the engine's Norwegian words.
        expect(await page.locator(`${contactIsland} button[type="submit"]`).textContent()).toBe(
          contactFormText('no').submit,
        );
        await fill(page, contactIsland, {
          firstName: 'Kari',
          lastName: 'Nordmann',
          email: 'kari@example.no',
          subject: 'Without script',
          message: 'Hei uten skript.',
        });
        await Promise.all([
          page.waitForURL('**/no/contact/sent/'),
          page.locator(`${contactIsland} button[type="submit"]`).click(),
        ]);
        expect(new URL(page.url()).pathname).toBe('/no/contact/sent/');
        const stored = (await storedMessages()).filter((row) => row.subject === 'Without script');
        expect(stored).toHaveLength(1);
        expect(stored[0]).toMatchObject({ locale: 'no', page: '/no/contact/', message: 'Hei uten skript.' });
      },
      { javaScriptEnabled: false },
    );
  });

  it('without script, the browser keeps a form with an empty required field from being sent', async () => {
    await visit(
      '/contact/',
      async (page) => {
        await fill(page, contactIsland, { firstName: 'Kari' });
        await page.locator(`${contactIsland} button[type="submit"]`).click();
        expect(new URL(page.url()).pathname).toBe('/contact/');
        expect(
          await field(page, contactIsland, 'lastName').evaluate(
            (input) => (input as HTMLInputElement).validity.valueMissing,
          ),
        ).toBe(true);
      },
      { javaScriptEnabled: false },
    );
  });
});

/** A weekday (Monday to Friday) at least two days ahead in Oslo, as YYYY-MM-DD. */
function weekdayAhead(): string {
  const day = new Date(Date.now() + 2 * 86_400_000);
  const weekday = (date: Date) =>
    new Intl.DateTimeFormat('en-GB', { weekday: 'short', timeZone: 'Europe/Oslo' }).format(date);
  while (['Sat', 'Sun'].includes(weekday(day))) day.setTime(day.getTime() + 86_400_000);
  return new Intl.DateTimeFormat('en-CA', {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    timeZone: 'Europe/Oslo',
  }).format(day);
}

describe('the booking form of the starter (--booking)', () => {
  it('offers the free slots; one picked and booked: sending, then booked with the calendar file; the booking is stored', async () => {
    await visit('/book/', async (page) => {
      await page.locator(`${bookingIsland} input[name="start"]`).first().waitFor();
      expect(await page.locator(`${bookingIsland} .site-form-zone`).textContent()).toMatch(/^Times are in /);

      // Sent without a time and a name: both are marked.
      await page.getByRole('button', { name: booking.submit }).click();
      await page.locator(`${bookingIsland} .site-form-error`).first().waitFor();
      expect(await page.locator(`${bookingIsland} .site-form-slot-group .site-form-error`).textContent()).toBe(
        booking.chooseSlot,
      );
      expect(await field(page, bookingIsland, 'firstName').getAttribute('aria-invalid')).toBe('true');

      const radio = page.locator(`${bookingIsland} input[name="start"]`).first();
      await radio.check();
      const start = (await radio.getAttribute('value'))!;
      await fill(page, bookingIsland, {
        firstName: 'Kari',
        lastName: 'Nordmann',
        email: 'kari.booking@example.com',
        note: 'About the starter',
      });
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/booking', async (route) => {
        await released;
        await route.continue();
      });
      await page.getByRole('button', { name: booking.submit }).click();
      await page.waitForFunction(
        (selector) => document.querySelector<HTMLButtonElement>(`${selector} button[type="submit"]`)?.disabled === true,
        bookingIsland,
      );
      expect(await page.locator(`${bookingIsland} button[type="submit"]`).textContent()).toBe(booking.sending);
      expect(await status(page, bookingIsland).textContent()).toBe(booking.sendingText);
      release();

      await page.locator(`${bookingIsland} .site-form-message-success`).waitFor();
      const region = status(page, bookingIsland);
      expect(await region.textContent()).toContain(booking.bookedTitle);
      // The starter mails nothing (no notifications: in its config), so the page promises no e-mail.
      expect(await region.textContent()).not.toContain('kari.booking@example.com');
      expect(await region.textContent()).toContain('Add the meeting to your calendar');
      await expectFocused(region);
      const calendar = page.getByRole('link', { name: booking.calendar });
      const ics = await page.request.get(new URL((await calendar.getAttribute('href'))!, page.url()).href);
      expect(ics.status()).toBe(200);
      expect(await ics.text()).toContain(
        `DTSTART:${new Date(start).toISOString().replace(/[-:]/g, '').replace('.000', '')}`,
      );

      const stored = (await storedBookings()).filter((row) => row.email === 'kari.booking@example.com');
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatchObject({
        start,
        firstName: 'Kari',
        lastName: 'Nordmann',
        note: 'About the starter',
        locale: 'en',
        page: '/book/',
      });
    });
  });

  it('a slot taken a moment earlier (409): says so, offers the next free ones, and one is chosen with a click', async () => {
    await visit(
      '/book/',
      async (page) => {
        await page.locator(`${bookingIsland} input[name="start"]`).first().waitFor();
        const [first, second] = await page
          .locator(`${bookingIsland} input[name="start"]`)
          .evaluateAll((inputs) => inputs.slice(0, 2).map((input) => (input as HTMLInputElement).value));
        await page.route('**/api/booking', (route) =>
          route.fulfill({
            status: 409,
            contentType: 'application/json',
            body: JSON.stringify({ error: 'slot_taken', next: [{ start: second, end: second }] }),
          }),
        );
        await page.locator(`${bookingIsland} input[value="${first}"]`).check();
        await fill(page, bookingIsland, { firstName: 'Kari', lastName: 'Nordmann', email: 'kari.taken@example.com' });
        await page.getByRole('button', { name: booking.submit }).click();
        await page.locator(`${bookingIsland} .site-form-next-slot`).waitFor();
        const region = status(page, bookingIsland);
        expect(await region.textContent()).toContain(booking.takenTitle);
        await expectFocused(region);
        await page.locator(`${bookingIsland} .site-form-next-slot`).click();
        expect(await page.locator(`${bookingIsland} input[value="${second}"]`).isChecked()).toBe(true);
        expect(await page.locator(`${bookingIsland} .site-form-next-slot`).count()).toBe(0);
      },
      { expected: /status of 409/ },
    );
  });

  it('books without script: a date and a time, posted plainly, landing on the booked page', async () => {
    const date = weekdayAhead();
    await visit(
      '/book/',
      async (page) => {
        expect(await page.locator(`${bookingIsland} form`).getAttribute('action')).toBe('/api/booking');
        await page.locator(`${bookingIsland} [name="date"]`).fill(date);
        await page.locator(`${bookingIsland} [name="time"]`).selectOption('14:00');
        await fill(page, bookingIsland, { firstName: 'Ola', lastName: 'Nordmann', email: 'ola.booking@example.com' });
        await Promise.all([
          page.waitForURL('**/book/booked/'),
          page.locator(`${bookingIsland} button[type="submit"]`).click(),
        ]);
        expect(await page.locator('h1').textContent()).toBe('Your meeting is booked');
      },
      { javaScriptEnabled: false },
    );
    const stored = (await storedBookings()).filter((row) => row.email === 'ola.booking@example.com');
    expect(stored).toHaveLength(1);
    expect(stored[0]!.start).toMatch(new RegExp(`^${date}T14:00:00[+-]\\d\\d:\\d\\d$`));
  });

  it('axe finds nothing on the contact and booking pages, in both languages: as loaded, with field errors, and sent', async () => {
    for (const path of ['/contact/', '/no/contact/', '/book/', '/no/book/']) {
      const island = path.endsWith('/book/') ? bookingIsland : contactIsland;
      await visit(
        path,
        async (page) => {
          if (island === bookingIsland) await page.locator(`${bookingIsland} input[name="start"]`).first().waitFor();
          else await hydrated(page, contactIsland);
          expect(await axeViolations(page), path).toEqual([]);
          await page.locator(`${island} button[type="submit"]`).click();
          await page.locator(`${island} .site-form-error`).first().waitFor();
          expect(await axeViolations(page), `${path} with errors`).toEqual([]);
        },
        { axe: true },
      );
    }
    await visit(
      '/contact/',
      async (page) => {
        await hydrated(page, contactIsland);
        await page.route('**/api/contact', (route) =>
          route.fulfill({ status: 201, contentType: 'application/json', body: '{"ok":true}' }),
        );
        await fill(page, contactIsland, {
          firstName: 'Kari',
          lastName: 'Nordmann',
          email: 'kari@example.com',
          message: 'Axe.',
        });
        await page.locator(`${contactIsland} button[type="submit"]`).click();
        await page.locator(`${contactIsland} .site-form-message-success`).waitFor();
        expect(await axeViolations(page), 'sent').toEqual([]);
      },
      { axe: true },
    );
  });
});
