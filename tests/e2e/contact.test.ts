/** The contact form: validation, sending, success and failure, audience defaults, and without script. */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMessages, startE2e, type E2e } from './support';
import { storedRows } from '../helpers/store';

let e2e: E2e;
const messages: Record<string, (key: string) => string> = {};

beforeAll(async () => {
  [e2e, messages.en, messages.no] = await Promise.all([startE2e(), loadMessages('en'), loadMessages('no')]);
});

afterAll(async () => {
  await e2e?.close();
});

const requiredFields = ['firstName', 'lastName', 'email', 'message'] as const;

/** Runs `body` on `path` in a fresh context and closes the context afterwards. */
async function visit(
  path: string,
  body: (page: Page) => Promise<void>,
  options: { javaScriptEnabled?: boolean; waitForForm?: boolean } = {},
) {
  const context: BrowserContext = await e2e.newContext({
    locale: 'en-US',
    viewport: { width: 1280, height: 900 },
    javaScriptEnabled: options.javaScriptEnabled ?? true,
  });
  try {
    const page = await context.newPage();
    await page.goto(e2e.url(path));
    // Hydrated once the island has taken over validation from the browser.
    if ((options.javaScriptEnabled ?? true) && (options.waitForForm ?? true))
      await page.waitForFunction(
        () => document.querySelector<HTMLFormElement>('form.contact-form')?.noValidate === true,
      );
    await body(page);
  } finally {
    await context.close();
  }
}

const field = (page: Page, name: string) => page.locator(`form.contact-form [name="${name}"]`);
const status = (page: Page) => page.locator('form.contact-form [role="status"]');
const submitButton = (page: Page) => page.locator('form.contact-form button[type="submit"]');
const text = async (page: Page, selector: string) => (await page.locator(selector).textContent()) ?? '';

/** The message shown for a field, found through its aria-describedby. */
async function fieldMessage(page: Page, name: string): Promise<string | undefined> {
  const describedBy = await field(page, name).getAttribute('aria-describedby');
  if (!describedBy) return undefined;
  return (await page.locator(`[id="${describedBy}"]`).textContent()) ?? undefined;
}

/** Values typed into every visible field; `email` may be overridden. */
function sample(locale: string, overrides: Record<string, string> = {}) {
  return {
    firstName: 'Kari',
    lastName: 'Nordmann',
    email: 'kari@example.com',
    company: 'Skredderiet AS',
    subject: `Test from ${locale}`,
    message: `Hello from the ${locale} form.`,
    ...overrides,
  };
}

async function fillForm(page: Page, values: Record<string, string>) {
  for (const [name, value] of Object.entries(values)) await field(page, name).fill(value);
}

async function readSubmissions(): Promise<Record<string, string>[]> {
  return (await storedRows(e2e.dataDir, 'contact_messages')) as Record<string, string>[];
}

const forms = [
  { path: '/contactus/', locale: 'en', type: '' },
  { path: '/no/hub/contactus/', locale: 'no', type: 'repairer' },
];

for (const { path, locale, type } of forms) {
  describe(`${path} (${locale})`, () => {
    const t = (key: string) => messages[locale]!(`contactForm.${key}`);

    it('submitted empty, it names the missing fields and marks each required input', async () => {
      await visit(path, async (page) => {
        await submitButton(page).click();
        await page.locator('form.contact-form .banner').waitFor();
        const banner = await status(page).textContent();
        expect(banner).toContain(t('missingTitle'));
        expect(banner).toContain(t('missingText'));
        for (const name of requiredFields) {
          expect(await field(page, name).getAttribute('aria-invalid'), name).toBe('true');
          expect(await fieldMessage(page, name), name).toBe(t('fieldRequired'));
        }
        for (const name of ['company', 'subject', 'type']) {
          expect(await field(page, name).getAttribute('aria-invalid'), name).toBeNull();
          expect(await field(page, name).getAttribute('aria-describedby'), name).toBeNull();
        }
        // Focus goes to the first field to fix.
        expect(await field(page, 'firstName').evaluate((input) => input === document.activeElement)).toBe(true);
      });
    });

    it('an invalid e-mail address gets its own message, and only that field is marked', async () => {
      await visit(path, async (page) => {
        await fillForm(page, sample(locale, { email: 'kari@' }));
        await submitButton(page).click();
        await page.locator('form.contact-form .field-error').waitFor();
        expect(await field(page, 'email').getAttribute('aria-invalid')).toBe('true');
        expect(await fieldMessage(page, 'email')).toBe(t('invalidEmail'));
        for (const name of ['firstName', 'lastName', 'message'])
          expect(await field(page, name).getAttribute('aria-invalid'), name).toBeNull();
        expect(await page.locator('form.contact-form .field-error').count()).toBe(1);
        // The banner names the field to check, not "missing required fields".
        const banner = (await status(page).textContent()) ?? '';
        expect(banner).toContain(t('checkTitle'));
        expect(banner).toContain(t('checkText').replace('{fields}', t('email')));
        expect(banner).not.toContain(t('missingTitle'));
      });
    });

    it('an error under one field leaves the inputs beside it in line', async () => {
      await visit(path, async (page) => {
        await fillForm(page, sample(locale, { email: 'kari@' }));
        await submitButton(page).click();
        await page.locator('form.contact-form .field-error').waitFor();
        // E-mail and company share a row at this width; so do first and last name.
        for (const [left, right] of [
          ['email', 'company'],
          ['firstName', 'lastName'],
        ] as const) {
          // Both measured in one frame: focusing the field to fix may scroll the page meanwhile.
          const [a, b] = await page.evaluate(
            (names) =>
              names.map(
                (name) =>
                  document
                    .querySelector(`form.contact-form [name="${name}"]`)!
                    .getBoundingClientRect()
                    .toJSON() as DOMRect,
              ),
            [left, right],
          );
          expect(a!.x, `${left} is left of ${right}`).toBeLessThan(b!.x);
          expect(Math.abs(a!.y - b!.y), `${left} and ${right} tops`).toBeLessThan(1);
          expect(Math.abs(a!.height - b!.height), `${left} and ${right} heights`).toBeLessThan(1);
        }
      });
    });

    it('sends: the button shows the sending state, then a thank-you panel replaces the form; the message is stored', async () => {
      await visit(path, async (page) => {
        let release!: () => void;
        const released = new Promise<void>((resolve) => (release = resolve));
        await page.route('**/api/contact', async (route) => {
          await released;
          await route.continue();
        });
        const values = sample(locale);
        await fillForm(page, values);
        await submitButton(page).click();
        await page.waitForFunction(
          () => document.querySelector<HTMLButtonElement>('form.contact-form button[type="submit"]')?.disabled === true,
        );
        expect(await submitButton(page).textContent()).toBe(t('sending'));
        await page.waitForTimeout(500);
        expect(await submitButton(page).isDisabled()).toBe(true);
        expect(await submitButton(page).textContent()).toBe(t('sending'));
        release();

        // A thank-you panel takes the form's place and receives focus.
        const panel = page.locator('.thank-you');
        await panel.waitFor();
        expect(await page.locator('form.contact-form').count()).toBe(0);
        expect(await panel.getAttribute('role')).toBe('status');
        expect(await text(page, '.thank-you h2')).toBe(t('successTitle'));
        expect(await panel.textContent()).toContain(t('successText'));
        expect(await panel.evaluate((element) => element === document.activeElement)).toBe(true);

        // "Send another message" brings back an empty form.
        await page.getByRole('button', { name: t('sendAnother') }).click();
        await submitButton(page).waitFor();
        for (const name of Object.keys(values)) expect(await field(page, name).inputValue(), name).toBe('');
        expect(await field(page, 'type').inputValue()).toBe(type);

        const stored = (await readSubmissions()).filter((entry) => entry.subject === values.subject);
        expect(stored).toHaveLength(1);
        expect(stored[0]).toMatchObject({ ...values, type: type || 'other', locale, page: path });
        expect(Date.parse(stored[0]!.receivedAt!)).not.toBeNaN();
      });
    });

    it('a server failure shows the error message and keeps everything typed', async () => {
      await visit(path, async (page) => {
        await page.route('**/api/contact', (route) =>
          route.fulfill({ status: 500, contentType: 'application/json', body: '{}' }),
        );
        const values = sample(locale, { subject: `Failing ${locale}` });
        await fillForm(page, values);
        await field(page, 'type').selectOption('partner');
        await submitButton(page).click();
        await page.locator('form.contact-form .banner-error').waitFor();
        const banner = await status(page).textContent();
        expect(banner).toContain(t('errorTitle'));
        expect(banner).toContain(t('errorText'));
        for (const [name, value] of Object.entries(values))
          expect(await field(page, name).inputValue(), name).toBe(value);
        expect(await field(page, 'type').inputValue()).toBe('partner');
        expect(await submitButton(page).isDisabled()).toBe(false);
        expect((await readSubmissions()).some((entry) => entry.subject === values.subject)).toBe(false);
      });
    });
  });
}

describe('enquiry type', () => {
  // Each audience's contact page, in both languages, with and without script: its own choice is
  // chosen and named in the page's language; workwear is a choice of its own.
  for (const { path, type, locale } of [
    { path: '/hub/contactus/', type: 'repairer', locale: 'en' },
    { path: '/shop/contactus/', type: 'retailer', locale: 'en' },
    { path: '/workwear/contactus/', type: 'workwear', locale: 'en' },
    { path: '/no/hub/contactus/', type: 'repairer', locale: 'no' },
    { path: '/no/shop/contactus/', type: 'retailer', locale: 'no' },
    { path: '/no/workwear/contactus/', type: 'workwear', locale: 'no' },
  ]) {
    for (const javaScriptEnabled of [true, false]) {
      it(`is preselected "${type}" on ${path} ${javaScriptEnabled ? 'hydrated' : 'without script'}`, async () => {
        await visit(
          path,
          async (page) => {
            expect(await field(page, 'type').inputValue()).toBe(type);
            expect(await text(page, 'form.contact-form [name="type"] option:checked')).toBe(
              messages[locale]!(`contactForm.types.${type}`),
            );
          },
          { javaScriptEnabled },
        );
      });
    }
  }

  it('starts on an empty choice on /contactus/, where no audience decides it, and offers workwear there too', async () => {
    await visit('/contactus/', async (page) => {
      expect(await field(page, 'type').inputValue()).toBe('');
      expect(await text(page, 'form.contact-form [name="type"] option:checked')).toBe(
        messages.en!('contactForm.chooseType'),
      );
      expect(await text(page, 'form.contact-form [name="type"] option[value="workwear"]')).toBe(
        messages.en!('contactForm.types.workwear'),
      );
    });
  });
});

describe('preselected by the link that leads here', () => {
  it('"Ask for a free account" on the Norwegian pricing page opens the form with the Free plan as the subject', async () => {
    await visit(
      '/no/hub/pricing/',
      async (page) => {
        const t = messages.no!;
        await Promise.all([
          page.waitForURL((url) => url.pathname === '/no/hub/contactus/'),
          page.getByRole('link', { name: t('pricing.startFreeContact') }).click(),
        ]);
        await page.waitForFunction(
          () => document.querySelector<HTMLFormElement>('form.contact-form')?.noValidate === true,
        );
        expect(new URL(page.url()).searchParams.get('plan')).toBe('free');
        await expect
          .poll(() => field(page, 'subject').inputValue())
          .toBe(t('contactForm.planSubject').replace('{plan}', 'Gratis'));
        expect(await field(page, 'type').inputValue()).toBe('repairer');
      },
      { waitForForm: false },
    );
  });

  it('?topic=meeting preselects a meeting; an unknown plan preselects nothing', async () => {
    await visit('/shop/contactus/?topic=meeting', async (page) => {
      await expect.poll(() => field(page, 'subject').inputValue()).toBe(messages.en!('contactForm.meetingSubject'));
    });
    await visit('/hub/contactus/?plan=__proto__', async (page) => {
      await page.waitForTimeout(200);
      expect(await field(page, 'subject').inputValue()).toBe('');
    });
  });
});

describe('without JavaScript', () => {
  for (const { path, locale, sent } of [
    { path: '/contactus/', locale: 'en', sent: '/contactus/sent/' },
    { path: '/no/hub/contactus/', locale: 'no', sent: '/no/contactus/sent/' },
  ]) {
    it(`${path} posts the form and lands on ${sent}`, async () => {
      await visit(
        path,
        async (page) => {
          const values = sample(locale, { subject: `No script ${locale}` });
          await fillForm(page, values);
          await Promise.all([page.waitForURL((url) => url.pathname === sent), submitButton(page).click()]);
          expect(await text(page, 'main h1')).toBe(messages[locale]!('contactForm.successTitle'));
          expect(await text(page, 'main [role="status"]')).toContain(messages[locale]!('contactForm.successText'));
          const stored = (await readSubmissions()).filter((entry) => entry.subject === values.subject);
          expect(stored).toHaveLength(1);
          expect(stored[0]).toMatchObject({ ...values, locale, page: path });
        },
        { javaScriptEnabled: false },
      );
    });
  }
});
