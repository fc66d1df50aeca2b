/**
 * Site search in Chromium: each language's search page finds a word of a post in its own
 * language only, by keyboard, with the count in a live region and the excerpt's marks kept as
 * marks; the header's search box leads there (from the menu below 1280 px, a button from 1328 px); the search page's policy
 * allows the index's WebAssembly and nothing else does; without script the page says so; axe
 * finds nothing on a page of results.
 */
import type { BrowserContext, ConsoleMessage, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../helpers/axe';
import { readYaml, startE2e, type E2e } from './support';

let e2e: E2e;

beforeAll(async () => {
  e2e = await startE2e();
});

afterAll(async () => {
  await e2e?.close();
});

type SearchCopy = { search: { label: string; none: string; one: string; many: string; more: string } };

/** Opens `path` in a fresh context and closes it afterwards; fails on any console error or CSP report. */
async function visit(
  path: string,
  body: (page: Page) => Promise<void>,
  options: { width?: number; javaScriptEnabled?: boolean; bypassCSP?: boolean } = {},
) {
  const context: BrowserContext = await e2e.newContext({
    locale: 'en-US',
    viewport: { width: options.width ?? 1280, height: 900 },
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    bypassCSP: options.bypassCSP ?? false,
  });
  const problems: string[] = [];
  try {
    const page = await context.newPage();
    page.on('console', (message: ConsoleMessage) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    await page.goto(e2e.url(path));
    await body(page);
    expect(problems).toEqual([]);
  } finally {
    await context.close();
  }
}

/** Types a query into the search page's box and sends it with Enter; returns the result links' paths. */
async function search(page: Page, label: string, query: string): Promise<string[]> {
  const box = page.getByRole('searchbox', { name: label });
  await box.focus();
  await page.keyboard.type(query);
  await page.keyboard.press('Enter');
  await page.locator('.site-search-status').filter({ hasText: query }).waitFor();
  return page
    .locator('.site-search-results a')
    .evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).pathname));
}

describe('search pages', () => {
  it('finds an English word of a post on /search/, with a marked excerpt, and not on /no/search/', async () => {
    const [en, no] = await Promise.all([
      readYaml<SearchCopy>('content/pages/search/en.yaml'),
      readYaml<SearchCopy>('content/pages/search/no.yaml'),
    ]);
    await visit('/search/', async (page) => {
      expect(await search(page, en.search.label, 'kettle')).toEqual(['/blog/a-day-in-a-tailor-shop/']);
      expect(await page.locator('[role="status"]').textContent()).toBe(en.search.one.replace('{query}', 'kettle'));
      expect(await page.locator('.site-search-results mark').first().textContent()).toMatch(/kettle/i);
      expect(new URL(page.url()).searchParams.get('q')).toBe('kettle');
    });
    await visit('/no/search/', async (page) => {
      expect(await search(page, no.search.label, 'kettle')).toEqual([]);
      expect(await page.locator('[role="status"]').textContent()).toBe(no.search.none.replace('{query}', 'kettle'));
    });
  });

  it('finds a Norwegian word of the post on /no/search/ (from ?q=) and not on /search/', async () => {
    const no = await readYaml<SearchCopy>('content/pages/search/no.yaml');
    await visit('/no/search/?q=dampstrykejernet', async (page) => {
      await page.locator('.site-search-results a').first().waitFor();
      const links = await page
        .locator('.site-search-results a')
        .evaluateAll((found) => found.map((link) => new URL((link as HTMLAnchorElement).href).pathname));
      expect(links).toEqual(['/no/blog/a-day-in-a-tailor-shop/']);
      expect(await page.getByRole('searchbox', { name: no.search.label }).inputValue()).toBe('dampstrykejernet');
    });
    await visit('/search/?q=dampstrykejernet', async (page) => {
      await page.locator('.site-search-status').filter({ hasText: 'dampstrykejernet' }).waitFor();
      expect(await page.locator('.site-search-results a').count()).toBe(0);
    });
  });

  for (const locale of ['en', 'no'] as const) {
    it(`says how many pages match on the ${locale} search page, and every one of them can be reached with "more", labelled with its section`, async () => {
      const [copy, messages, config] = await Promise.all([
        readYaml<SearchCopy>(`content/pages/search/${locale}.yaml`),
        readYaml<{ blog: { title: string } }>(`content/messages/${locale}.yaml`),
        readYaml<{ audiences: Record<string, { label: Record<string, string> }> }>('site.config.yaml'),
      ]);
      const prefix = locale === 'en' ? '' : '/no';
      const query = locale === 'en' ? 'repair' : 'reparasjon';
      const audiences = ['hub', 'shop', 'workwear'].map((id) => config.audiences[id]!.label[locale]!);
      await visit(`${prefix}/search/?q=${query}`, async (page) => {
        const status = page.locator('.site-search-status');
        await status.filter({ hasText: query }).waitFor();
        const count = Number(/\d+/.exec((await status.textContent()) ?? '')?.[0]);
        expect(await status.textContent()).toBe(
          copy.search.many.replace('{count}', String(count)).replace('{query}', query),
        );
        // More than a page of results: the word is on most pages of the site.
        expect(count).toBeGreaterThan(20);
        const links = page.locator('.site-search-results a');
        expect(await links.count()).toBe(20);
        const more = page.getByRole('button', { name: copy.search.more });
        while (await more.isVisible()) {
          const before = await links.count();
          await more.click();
          await expect.poll(() => links.count()).toBeGreaterThan(before);
          // Focus moves to the first result the button added.
          expect(await links.nth(before).evaluate((link) => link === document.activeElement)).toBe(true);
        }
        expect(await links.count()).toBe(count);
        const paths = await links.evaluateAll((found) =>
          found.map((link) => new URL((link as HTMLAnchorElement).href).pathname),
        );
        expect(new Set(paths).size).toBe(count);
        // Each result of an audience's pages or the blog names its section, in the page's language.
        const results = await page.locator('.site-search-results li').evaluateAll((items) =>
          items.map((item) => ({
            path: new URL(item.querySelector('a')!.href).pathname,
            section: item.querySelector('.site-search-section')?.textContent ?? undefined,
          })),
        );
        const expected = (path: string) =>
          path.startsWith(`${prefix}/hub/`)
            ? audiences[0]
            : path.startsWith(`${prefix}/shop/`)
              ? audiences[1]
              : path.startsWith(`${prefix}/workwear/`)
                ? audiences[2]
                : path.startsWith(`${prefix}/blog/`)
                  ? messages.blog.title
                  : undefined;
        for (const result of results) expect(result.section, result.path).toBe(expected(result.path));
        expect(new Set(results.map((result) => result.section))).toEqual(
          new Set([...audiences, messages.blog.title, undefined]),
        );
      });
    });
  }

  it('has nothing axe finds on a page of results (axe is an inline script: the policy is bypassed for it alone)', async () => {
    await visit(
      '/no/search/?q=dampstrykejernet',
      async (page) => {
        await page.locator('.site-search-results a').first().waitFor();
        expect(await axeViolations(page)).toEqual([]);
      },
      { bypassCSP: true },
    );
  });

  it('says without script that search needs it', async () => {
    const en = await readYaml<{ search: { noScript: string } }>('content/pages/search/en.yaml');
    await visit(
      '/search/',
      async (page) => {
        expect(await page.locator('.site-search-no-script').textContent()).toBe(en.search.noScript);
      },
      { javaScriptEnabled: false },
    );
  });
});

describe('header search box', () => {
  it('leads to the search page of the language, with the query', async () => {
    const messages = await readYaml<{ header: { search: string } }>('content/messages/no.yaml');
    await visit(
      '/no/hub/',
      async (page) => {
        await page.locator('[data-menu-toggle]').click();
        const form = page.getByRole('search');
        await form.getByRole('searchbox', { name: messages.header.search }).fill('dampstrykejernet');
        await form.getByRole('searchbox').press('Enter');
        await page.waitForURL(/\/no\/search\/\?q=dampstrykejernet$/);
        await page.locator('.site-search-results a').first().waitFor();
      },
      { width: 375 },
    );
  });

  it('is a search button in the desktop bar that opens the search page', async () => {
    const messages = await readYaml<{ header: { searchSubmit: string } }>('content/messages/en.yaml');
    await visit(
      '/hub/',
      async (page) => {
        await page.getByRole('search').getByRole('button', { name: messages.header.searchSubmit }).click();
        await page.waitForURL(/\/search\/\?q=$/);
      },
      { width: 1440 },
    );
  });

  it('is in the menu on phones', async () => {
    const messages = await readYaml<{ header: { search: string } }>('content/messages/en.yaml');
    await visit(
      '/hub/',
      async (page) => {
        const box = page.getByRole('searchbox', { name: messages.header.search });
        expect(await box.isVisible()).toBe(false);
        await page.locator('[data-menu-toggle]').click();
        expect(await box.isVisible()).toBe(true);
      },
      { width: 375 },
    );
  });
});

describe('content security policy', () => {
  it("allows 'wasm-unsafe-eval' on the search pages alone", async () => {
    const policy = async (path: string) => (await fetch(e2e.url(path))).headers.get('content-security-policy') ?? '';
    for (const path of ['/search/', '/no/search/'])
      expect(await policy(path)).toContain("script-src 'self' 'wasm-unsafe-eval' ");
    for (const path of ['/', '/no/', '/blog/a-day-in-a-tailor-shop/', '/pagefind/pagefind.js'])
      expect(await policy(path)).not.toContain('wasm');
  });
});
