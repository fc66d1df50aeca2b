/**
 * /auth where no admin runs (a static host, or `site serve` without --admin): the landing page's
 * "Admin access" link leads to the sign-in page in the visitor's language, which says in plain
 * words that one cannot sign in here: no commands, no backticks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadMessages, readYaml, startE2e, type E2e } from './support';

let e2e: E2e;

beforeAll(async () => {
  e2e = await startE2e();
});

afterAll(async () => {
  await e2e?.close();
});

describe('/auth on a site without a running admin', () => {
  it.each([
    ['en', '/', '/auth/', 'src/admin/ui/copy/auth/en.yaml'],
    ['no', '/no/', '/no/auth/', 'content/pages/auth/no.yaml'],
  ])(
    'in %s: the landing page links to %s → %s, which explains itself in plain words',
    async (locale, home, auth, copyFile) => {
      const t = await loadMessages(locale);
      const copy = await readYaml<{ heading: string; unavailable: string }>(copyFile);
      const context = await e2e.newContext({
        locale: locale === 'no' ? 'nb-NO' : 'en-GB',
        viewport: { width: 375, height: 800 },
      });
      try {
        const page = await context.newPage();
        await page.goto(e2e.url(home));
        await Promise.all([
          page.waitForURL((url) => url.pathname === auth),
          page.getByRole('link', { name: t('landing.adminAccess') }).click(),
        ]);
        expect(await page.locator('html').getAttribute('lang')).toBe(locale === 'no' ? 'nb' : 'en');
        expect(await page.locator('main h1').textContent()).toBe(copy.heading);
        const status = page.locator('main [role="status"]');
        await status.waitFor();
        expect(await status.textContent()).toBe(copy.unavailable);
        const shown = await page.locator('main').innerText();
        expect(shown).not.toMatch(/`|site dev|site serve|--admin/);
      } finally {
        await context.close();
      }
    },
  );
});
