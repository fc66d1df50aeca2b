/** The built-in meeting booking in a real browser against `site serve`: book, double-book, no script, no server. */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMessages, normalizeSpaces, readYaml, startE2e, type E2e } from './support';
import { storedRows } from '../helpers/store';

let e2e: E2e;
const messages: Record<string, (key: string) => string> = {};

beforeAll(async () => {
  [e2e, messages.en, messages.no] = await Promise.all([startE2e(), loadMessages('en'), loadMessages('no')]);
});

afterAll(async () => {
  await e2e?.close();
});

const island = '[data-island="BookingForm"]';
const field = (page: Page, name: string) => page.locator(`${island} [name="${name}"]`);

async function newPage(
  options: { timezoneId?: string; javaScriptEnabled?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await e2e.newContext({
    locale: 'en-GB',
    viewport: { width: 1280, height: 900 },
    timezoneId: options.timezoneId ?? 'Europe/Oslo',
    javaScriptEnabled: options.javaScriptEnabled ?? true,
  });
  return { context, page: await context.newPage() };
}

/** Opens a book-meeting page and waits until the slot picker shows free slots. */
async function openPicker(page: Page, path: string) {
  await page.goto(e2e.url(path));
  await scrollToForm(page);
  await page.locator(`${island} input[name="start"]`).first().waitFor();
}

/** Follows the hero's button to the form: the island asks for slots only once the form is near the screen. */
async function scrollToForm(page: Page) {
  await page.locator(`${island} form`).waitFor();
  await page.evaluate(() => document.querySelector('#booking')!.scrollIntoView());
}

async function fillVisitor(page: Page, email: string) {
  await field(page, 'firstName').fill('Kari');
  await field(page, 'lastName').fill('Nordmann');
  await field(page, 'email').fill(email);
  await field(page, 'company').fill('Skredderiet AS');
  await field(page, 'note').fill('Om ordrer og SMS');
}

/** Chooses the first slot of the second day offered, by its label; returns its ISO start. */
async function chooseSlot(page: Page): Promise<string> {
  const day = page.locator('#booking-day');
  const days = await day
    .locator('option')
    .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
  await day.selectOption(days[1] ?? days[0]!);
  const radio = page.locator(`${island} input[name="start"]`).first();
  await radio.check();
  return (await radio.getAttribute('value'))!;
}

async function storedBookings(): Promise<Record<string, string>[]> {
  return (await storedRows(e2e.dataDir, 'bookings')) as Record<string, string>[];
}

describe('booking a meeting', () => {
  it("shows Oslo times with the visitor's own beside them, books one end to end, and offers the calendar file", async () => {
    const t = messages.no!;
    const { context, page } = await newPage({ timezoneId: 'America/New_York' });
    try {
      await openPicker(page, '/no/hub/book-meeting/');
      const start = await chooseSlot(page);
      // The visitor's zone by its name in the page's language on the day shown, never its IANA id.
      const zone = new Intl.DateTimeFormat('nb-NO', { timeZone: 'America/New_York', timeZoneName: 'long' })
        .formatToParts(new Date(start))
        .find((part) => part.type === 'timeZoneName')!.value;
      const zones = normalizeSpaces((await page.locator(`${island} .slot-zones`).textContent()) ?? '');
      expect(zones).toContain(normalizeSpaces(t('booking.yourZone').replace('{zone}', zone)));
      expect(zones).not.toContain('America/New_York');
      // The first slot of a day is 09.00 in Oslo (written the Norwegian way, not "09:00"), and 03.00
      // (or 04.00 around the DST changes) in New York.
      const label = page.locator(`${island} label.slot.is-selected`);
      expect(await label.locator('.slot-time').textContent()).toBe('09.00');
      const local = new Intl.DateTimeFormat('nb-NO', {
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
        timeZone: 'America/New_York',
      })
        .format(new Date(start))
        .replace(':', '.');
      expect(await label.locator('.slot-local').textContent()).toBe(t('booking.yourTime').replace('{time}', local));

      await fillVisitor(page, 'kari.booking@example.no');
      await page.locator(`${island} button[type="submit"]`).click();
      const panel = page.locator(`${island} .thank-you`);
      await panel.waitFor();
      expect(await panel.locator('h2').textContent()).toBe(t('booking.bookedTitle'));
      expect(await panel.textContent()).toContain('kari.booking@example.no');
      expect(await panel.textContent()).toMatch(/ kl\. 09\.00 norsk tid\. /);
      expect(await panel.evaluate((element) => element === document.activeElement)).toBe(true);

      const stored = (await storedBookings()).filter((booking) => booking.email === 'kari.booking@example.no');
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatchObject({
        start,
        firstName: 'Kari',
        lastName: 'Nordmann',
        company: 'Skredderiet AS',
        note: 'Om ordrer og SMS',
        locale: 'no',
      });

      const link = panel.getByRole('link', { name: t('booking.calendar') });
      const ics = await page.request.get(new URL((await link.getAttribute('href'))!, page.url()).href);
      expect(ics.status()).toBe(200);
      expect(ics.headers()['content-type']).toBe('text/calendar; charset=utf-8');
      const utc = new Date(start).toISOString().replace(/[-:]/g, '').replace('.000', '');
      expect(await ics.text()).toContain(`DTSTART:${utc}`);

      // The booked slot is no longer offered.
      await openPicker(page, '/no/hub/book-meeting/');
      expect(await page.locator(`${island} input[name="start"][value="${start}"]`).count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('refuses a slot someone else booked a moment earlier (409) and offers the next free ones', async () => {
    const t = messages.en!;
    const first = await newPage();
    const second = await newPage();
    try {
      await Promise.all([
        openPicker(first.page, '/shop/book-meeting/'),
        openPicker(second.page, '/shop/book-meeting/'),
      ]);
      const start = await chooseSlot(first.page);
      expect(await chooseSlot(second.page)).toBe(start);
      await fillVisitor(first.page, 'first@example.com');
      await fillVisitor(second.page, 'second@example.com');
      await first.page.locator(`${island} button[type="submit"]`).click();
      await first.page.locator(`${island} .thank-you`).waitFor();

      const refused = second.page.waitForResponse(
        (response) => response.url().endsWith('/api/booking') && response.request().method() === 'POST',
      );
      await second.page.locator(`${island} button[type="submit"]`).click();
      expect((await refused).status()).toBe(409);
      const banner = second.page.locator(`${island} .banner-error`);
      await banner.waitFor();
      expect(await banner.textContent()).toContain(t('booking.takenTitle'));
      const next = banner.locator('.next-slots button');
      expect(await next.count()).toBeGreaterThan(0);
      expect(await second.page.locator(`${island} input[name="start"][value="${start}"]`).count()).toBe(0);

      // Choosing one of the next slots and sending again books it.
      await next.first().click();
      const chosen = await second.page.locator(`${island} input[name="start"]:checked`).getAttribute('value');
      expect(chosen).not.toBe(start);
      await second.page.locator(`${island} button[type="submit"]`).click();
      await second.page.locator(`${island} .thank-you`).waitFor();
      const stored = await storedBookings();
      expect(stored.filter((booking) => booking.start === start).map((booking) => booking.email)).toEqual([
        'first@example.com',
      ]);
      expect(stored.filter((booking) => booking.start === chosen).map((booking) => booking.email)).toEqual([
        'second@example.com',
      ]);
    } finally {
      await Promise.all([first.context.close(), second.context.close()]);
    }
  });

  it('names the time zones as they are on the day shown: summer time in July, standard time in January', async () => {
    const t = messages.en!;
    // A fixed clock and the free times of a day in each season (the server's are of the real weeks ahead).
    for (const [now, day, oslo, london] of [
      ['2027-07-01T08:00:00Z', '2027-07-05', 'Central European Summer Time', 'British Summer Time'],
      ['2027-01-04T08:00:00Z', '2027-01-11', 'Central European Standard Time', 'Greenwich Mean Time'],
    ] as const) {
      const { context, page } = await newPage({ timezoneId: 'Europe/London' });
      try {
        await page.clock.install({ time: new Date(now) });
        const offset = day.includes('-07-') ? '+02:00' : '+01:00';
        const slots = ['09:00', '09:30'].map((time) => ({
          start: new Date(`${day}T${time}:00${offset}`).toISOString(),
          end: new Date(new Date(`${day}T${time}:00${offset}`).getTime() + 30 * 60_000).toISOString(),
        }));
        await page.route('**/api/booking/slots*', (route) =>
          route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ slots }) }),
        );
        await openPicker(page, '/hub/book-meeting/');
        const zones = normalizeSpaces((await page.locator(`${island} .slot-zones`).textContent()) ?? '');
        expect(zones).toBe(
          normalizeSpaces(
            `${t('booking.timesIn').replace('{zone}', oslo)} ${t('booking.yourZone').replace('{zone}', london)}`,
          ),
        );
        expect(zones).not.toMatch(/Europe\//);
        // The opening hours name the zone's winter and summer abbreviations, derived, not "CET" all year.
        expect(await page.locator('.meeting-hours').textContent()).toMatch(/ CET\/CEST$/);
      } finally {
        await context.close();
      }
    }
  });

  it('writes the next free times on their buttons as the page\'s language does ("… kl. 10.00")', async () => {
    const t = messages.no!;
    const { context, page } = await newPage();
    try {
      await openPicker(page, '/no/hub/book-meeting/');
      const start = await chooseSlot(page);
      const next = { start: new Date(Date.parse(start) + 3_600_000).toISOString(), end: '' };
      await page.route('**/api/booking', (route) =>
        route.fulfill({ status: 409, contentType: 'application/json', body: JSON.stringify({ next: [next] }) }),
      );
      await fillVisitor(page, 'kari.next@example.no');
      await page.locator(`${island} button[type="submit"]`).click();
      const button = page.locator(`${island} .next-slots button`);
      await button.first().waitFor();
      const day = new Intl.DateTimeFormat('nb-NO', {
        weekday: 'long',
        day: 'numeric',
        month: 'long',
        timeZone: 'Europe/Oslo',
      }).format(new Date(next.start));
      // Written the Norwegian way: "10.00", not "10:00".
      const clock = new Intl.DateTimeFormat('nb-NO', {
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
        timeZone: 'Europe/Oslo',
      })
        .format(new Date(next.start))
        .replace(':', '.');
      expect(clock).toMatch(/^\d\d\.\d\d$/);
      expect(normalizeSpaces((await button.first().textContent()) ?? '')).toBe(
        normalizeSpaces(t('booking.slot').replace('{day}', day).replace('{time}', clock)),
      );
    } finally {
      await context.close();
    }
  });

  it('asks for the slots only once the form comes near the screen', async () => {
    const { context, page } = await newPage();
    try {
      await page.setViewportSize({ width: 375, height: 700 });
      const asked: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/api/booking/slots')) asked.push(request.url());
      });
      await page.goto(e2e.url('/hub/book-meeting/'));
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(300);
      expect(asked).toEqual([]);
      const { bookCta } = await readYaml<{ bookCta: string }>('content/pages/hub/book-meeting/en.yaml');
      await page.getByRole('link', { name: bookCta }).first().click();
      await page.locator(`${island} input[name="start"]`).first().waitFor();
      expect(asked).toHaveLength(1);
    } finally {
      await context.close();
    }
  });

  it('keeps a form sent before its slots arrive on the page, says why, and takes the visitor to the times once they are in', async () => {
    const t = messages.no!;
    const { context, page } = await newPage();
    try {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/booking/slots*', async (route) => {
        await held;
        await route.continue();
      });
      const posts: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST') posts.push(request.url());
      });
      const asked = page.waitForRequest((request) => request.url().includes('/api/booking/slots'));
      await page.goto(e2e.url('/no/hub/book-meeting/'));
      await scrollToForm(page);
      await asked;
      const submit = page.locator(`${island} button[type="submit"]`);
      // Still without slots, the browser checks the fields itself: an empty form is not sent.
      expect(await page.locator(`${island} form`).evaluate((form) => (form as HTMLFormElement).noValidate)).toBe(false);
      await submit.click();
      expect(
        await field(page, 'firstName').evaluate((input) => (input as HTMLInputElement).validity.valueMissing),
      ).toBe(true);
      // Filled in, date and time too: the form waits for the slots and says so in its status.
      await fillVisitor(page, 'early@example.no');
      await field(page, 'date').fill(new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10));
      await submit.click();
      const status = page.locator(`${island} .form-status[role="status"]`);
      await status.locator('.banner-info').waitFor();
      expect(normalizeSpaces((await status.textContent()) ?? '')).toContain(normalizeSpaces(t('booking.waitForSlots')));
      expect(posts).toEqual([]);
      expect(new URL(page.url()).pathname).toBe('/no/hub/book-meeting/');

      release();
      await page.locator(`${island} input[name="start"]`).first().waitFor();
      await expect.poll(() => status.locator('.banner-info').count()).toBe(0);
      expect(await field(page, 'email').inputValue()).toBe('early@example.no');
      // The visitor is taken to the times; what was typed stays. (No booking is sent here: the
      // server allows 5 a minute per client, and the other tests of this file use them.)
      // Focus moves once the times are drawn (an effect after that render), so wait for it.
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('booking-day');
      expect(posts).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('asks for a time when none is chosen', async () => {
    const { context, page } = await newPage();
    try {
      await openPicker(page, '/hub/book-meeting/');
      await fillVisitor(page, 'no-slot@example.com');
      await page.locator(`${island} button[type="submit"]`).click();
      await page.locator(`${island} .slots .field-error`).waitFor();
      expect(await page.locator(`${island} .slots .field-error`).textContent()).toBe(
        messages.en!('booking.chooseSlot'),
      );
    } finally {
      await context.close();
    }
  });

  it('works without JavaScript: a date and a time post to the server, which confirms on a localized page with the calendar file', async () => {
    const t = messages.no!;
    const { context, page } = await newPage({ javaScriptEnabled: false });
    try {
      await page.goto(e2e.url('/no/workwear/book-meeting/'));
      // A weekday three weeks from now at 14:00 Oslo time: inside the bookable window.
      const date = new Date(Date.now() + 14 * 86_400_000);
      while (date.getUTCDay() === 0 || date.getUTCDay() === 6) date.setUTCDate(date.getUTCDate() + 1);
      await field(page, 'date').fill(date.toISOString().slice(0, 10));
      await field(page, 'time').selectOption('14:00');
      await fillVisitor(page, 'noscript@example.no');
      await Promise.all([
        page.waitForURL((url) => url.pathname === '/no/book-meeting/booked/'),
        page.locator(`${island} button[type="submit"]`).click(),
      ]);
      expect(await page.locator('main h1').textContent()).toBe(t('booking.bookedTitle'));
      const href = await page.getByRole('link', { name: t('booking.calendar') }).getAttribute('href');
      const ics = await page.request.get(new URL(href!, page.url()).href);
      expect(ics.status()).toBe(200);
      expect(await ics.text()).toContain('SUMMARY:');
      const stored = (await storedBookings()).filter((booking) => booking.email === 'noscript@example.no');
      expect(stored).toHaveLength(1);
      expect(stored[0]!.start).toMatch(new RegExp(`^${date.toISOString().slice(0, 10)}T14:00:00\\+0[12]:00$`));
    } finally {
      await context.close();
    }
  });

  it('without JavaScript, a time not offered lands on the failed page, which says why and has the times again', async () => {
    const t = messages.en!;
    const { context, page } = await newPage({ javaScriptEnabled: false });
    try {
      await page.goto(e2e.url('/shop/book-meeting/'));
      // A Saturday a week or two ahead: no time is offered then (refused before the rate limit counts it).
      const date = new Date(Date.now() + 7 * 86_400_000);
      while (date.getUTCDay() !== 6) date.setUTCDate(date.getUTCDate() + 1);
      await field(page, 'date').fill(date.toISOString().slice(0, 10));
      await field(page, 'time').selectOption('10:00');
      await fillVisitor(page, 'saturday@example.com');
      await Promise.all([
        page.waitForURL((url) => url.pathname === '/book-meeting/failed/' && url.hash === '#failed-time'),
        page.locator(`${island} button[type="submit"]`).click(),
      ]);
      expect(await page.locator('main h1').textContent()).toBe(t('booking.failedTitle'));
      // The reason the server named, not the general text, and none of the others.
      expect(await page.locator('#failed-time').isVisible()).toBe(true);
      expect(await page.locator('#failed-time').textContent()).toBe(t('booking.failedTime'));
      expect(await page.locator('.failed-general').isVisible()).toBe(false);
      for (const other of ['taken', 'fields', 'busy'])
        expect(await page.locator(`#failed-${other}`).isVisible(), other).toBe(false);
      // The times again, on this page: a link to them and the form without script.
      expect(await page.getByRole('link', { name: t('booking.chooseAgain') }).getAttribute('href')).toBe('#booking');
      expect(await field(page, 'date').isVisible()).toBe(true);
      expect(await field(page, 'time').isVisible()).toBe(true);
      expect((await storedBookings()).filter((booking) => booking.email === 'saturday@example.com')).toEqual([]);
      // Without a reason (the page opened by itself), the general text.
      await page.goto(e2e.url('/book-meeting/failed/'));
      expect(await page.locator('.failed-general').textContent()).toBe(t('booking.failedText'));
      expect(await page.locator('.failed-general').isVisible()).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('falls back to the contact form, with the meeting as its subject, where no booking server answers', async () => {
    const t = messages.en!;
    const { context, page } = await newPage();
    try {
      await page.route('**/api/booking/slots*', (route) =>
        route.fulfill({ status: 404, contentType: 'text/html', body: '<h1>Not found</h1>' }),
      );
      await page.goto(e2e.url('/hub/book-meeting/'));
      await scrollToForm(page);
      await page.locator(`${island} form.contact-form [name="subject"]`).waitFor();
      expect(await page.locator(`${island} .banner-info`).textContent()).toContain(t('booking.unavailableTitle'));
      expect(await page.locator(`${island} form.contact-form [name="subject"]`).inputValue()).toBe(
        t('contactForm.meetingSubject'),
      );
      expect(await page.locator(`${island} form.contact-form`).getAttribute('action')).toBe('/api/contact');
    } finally {
      await context.close();
    }
  });
});
