/**
 * One page of every template kind in both languages loads without console errors or warnings,
 * islands hydrate cleanly, pages without islands load no JavaScript, and the 404 page logs the
 * unknown path and nothing else.
 */
import type { BrowserContext, ConsoleMessage, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2e, type E2e } from './support';

let e2e: E2e;
let context: BrowserContext;

beforeAll(async () => {
  e2e = await startE2e();
  // An English browser: no first-visit redirect, so each visit stays on the page asked for.
  context = await e2e.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
});

afterAll(async () => {
  await context?.close();
  await e2e?.close();
});

const post = 'a-day-in-a-tailor-shop';
/** Every page to visit, with the islands it should hydrate. */
const pages: { path: string; islands?: string[] }[] = [
  { path: '/' },
  { path: '/no/' },
  { path: '/hub/' },
  { path: '/no/hub/' },
  { path: '/hub/product/' },
  { path: '/hub/pricing/', islands: ['RoiCalculator'] },
  { path: '/shop/pricing/' },
  { path: '/hub/book-meeting/', islands: ['BookingForm'] },
  { path: '/contactus/', islands: ['ContactForm'] },
  { path: '/no/contactus/', islands: ['ContactForm'] },
  { path: '/hub/ourstory/' },
  { path: '/hub/launch-campaign/', islands: ['RoiCalculator'] },
  { path: '/no/hub/launch-campaign/', islands: ['RoiCalculator'] },
  { path: '/hub-presentation-english/' },
  { path: '/hub-presentation-no/' },
  { path: '/terms/' },
  { path: '/no/privacy/' },
  // On a host without the admin the admin pages are not marked as served by one: the islands say
  // that the admin runs with site dev or site serve --admin, without asking for a session (no 404).
  { path: '/auth/', islands: ['AdminSignIn'] },
  { path: '/admin/blog/', islands: ['BlogEditor'] },
  { path: '/admin/inbox/', islands: ['AdminInbox'] },
  { path: '/admin/pages/', islands: ['AdminPages'] },
  { path: '/admin/visual/', islands: ['AdminVisual'] },
  { path: '/admin/media/', islands: ['AdminMedia'] },
  { path: '/admin/changes/', islands: ['AdminChanges'] },
  { path: '/admin/settings/', islands: ['AdminSettings'] },
  { path: '/blog/' },
  { path: '/no/blog/' },
  { path: `/blog/${post}/` },
  { path: `/no/blog/${post}/` },
  { path: '/no/arbeidskl%C3%A6r/' },
];

/** What happened while a page loaded. */
interface Visit {
  page: Page;
  status: number | undefined;
  problems: string[];
  warnings: ConsoleMessage[];
  scripts: string[];
  islands: string[];
}

/** Loads `path` in a new tab and records console messages, page errors and JavaScript requests. */
async function visit(path: string): Promise<Visit> {
  const page = await context.newPage();
  const problems: string[] = [];
  const warnings: ConsoleMessage[] = [];
  const scripts: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message);
    if (message.type() === 'error' || message.type() === 'warning')
      problems.push(`console.${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('requestfailed', (request) =>
    problems.push(`request failed: ${request.url()} (${request.failure()?.errorText})`),
  );
  page.on('response', (response) => {
    // Only the document itself may answer with an error status (the 404 page); every file it loads must exist.
    if (response.status() >= 400 && response.request().resourceType() !== 'document')
      problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  page.on('request', (request) => {
    if (request.resourceType() === 'script' || new URL(request.url()).pathname.endsWith('.js'))
      scripts.push(new URL(request.url()).pathname);
  });
  const response = await page.goto(e2e.url(path));
  await page.waitForLoadState('networkidle');
  const islands = await page
    .locator('[data-island]')
    .evaluateAll((roots) => roots.map((root) => root.getAttribute('data-island')!));
  return { page, status: response?.status(), problems, warnings, scripts, islands };
}

describe('every kind of page', () => {
  for (const { path, islands: expected = [] } of pages) {
    it(`${decodeURI(path)} loads without errors or warnings${expected.length ? `, hydrating ${expected.join(', ')}` : ', with no JavaScript'}`, async () => {
      const { page, status, problems, scripts, islands } = await visit(path);
      try {
        expect(status).toBe(200);
        expect(new URL(page.url()).pathname).toBe(path);
        expect(problems).toEqual([]);
        expect(islands).toEqual(expected);
        if (expected.length === 0) {
          expect(scripts, 'a page without islands loads no JavaScript').toEqual([]);
        } else {
          for (const island of expected)
            expect(
              scripts.some((script) => script.startsWith(`/assets/${island}.`)),
              island,
            ).toBe(true);
        }
        if (expected.includes('ContactForm')) {
          // Hydrated: the island has taken over validation from the browser.
          expect(
            await page.evaluate(() => document.querySelector<HTMLFormElement>('form.contact-form')?.noValidate),
          ).toBe(true);
        }
      } finally {
        await page.close();
      }
    });
  }
});

describe('the 404 page', () => {
  for (const path of ['/does-not-exist/', '/no/finnes-ikke/']) {
    it(`${path} logs exactly the unknown-path warning`, async () => {
      const { page, status, problems, warnings, scripts } = await visit(path);
      try {
        expect(status).toBe(404);
        expect(warnings).toHaveLength(1);
        expect(warnings[0]!.args()).toHaveLength(2);
        expect(await warnings[0]!.args()[1]!.jsonValue()).toBe(path);
        expect(warnings[0]!.text()).toContain(path);
        // Besides the warning, only Chromium's own note that the document came with status 404.
        const statusNote =
          'console.error: Failed to load resource: the server responded with a status of 404 (Not Found)';
        expect(problems.filter((problem) => problem !== statusNote)).toEqual([
          `console.warning: ${warnings[0]!.text()}`,
        ]);
        expect(problems.filter((problem) => problem === statusNote).length).toBeLessThanOrEqual(1);
        expect(scripts).toEqual([]);
      } finally {
        await page.close();
      }
    });
  }
});
