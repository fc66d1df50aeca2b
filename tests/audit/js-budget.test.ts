import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script without types
import { defaultBudget, measureJavaScript } from '../../scripts/js-budget.js';
import { builtSite } from '../helpers/paths';

interface Row {
  page: string;
  files: string[];
  gzip: number;
  inline: number;
}

describe('JavaScript budget', () => {
  const rows: Row[] = measureJavaScript(builtSite);

  it('keeps every page under 20 KB of gzip JavaScript', () => {
    const over = rows.filter((row) => row.gzip > defaultBudget).map((row) => `${row.page}: ${row.gzip} bytes`);
    expect(over).toEqual([]);
  });

  it('loads JavaScript only on pages with islands, and only their islands', () => {
    const withJs = rows.filter((row) => row.files.length > 0).map((row) => row.page);
    expect(withJs.length).toBeGreaterThan(0);
    for (const page of withJs)
      expect(page, page).toMatch(
        /contactus\/$|launch-campaign\/$|\/hub\/pricing\/$|book-meeting\/(failed\/)?$|arbeidskl|^(\/no)?\/search\/$|^(?:\/no)?\/auth\/$|^\/admin\/(blog|media|pages|visual|inbox|changes|settings)\/$/,
      );
    // The admin's islands load on the admin pages only.
    const admin = rows
      .filter((row) =>
        row.files.some((file) =>
          /AdminSignIn|BlogEditor|AdminMedia|AdminPages|AdminVisual|AdminInbox|AdminChanges|AdminSettings/.test(file),
        ),
      )
      .map((row) => row.page)
      .sort();
    expect(admin).toEqual([
      '/admin/blog/',
      '/admin/changes/',
      '/admin/inbox/',
      '/admin/media/',
      '/admin/pages/',
      '/admin/settings/',
      '/admin/visual/',
      '/auth/',
      '/no/auth/',
    ]);
    const pagesOf = (island: string) =>
      rows.filter((row) => row.files.some((file) => file.includes(`/${island}.`))).map((row) => row.page);
    // The search island (which loads Pagefind's script itself, on demand) on the search pages only.
    expect(pagesOf('SiteSearch')).toEqual(['/no/search/', '/search/']);
    expect(pagesOf('AdminInbox')).toEqual(['/admin/inbox/']);
    expect(pagesOf('AdminChanges')).toEqual(['/admin/changes/']);
    expect(pagesOf('AdminPages')).toEqual(['/admin/pages/']);
    expect(pagesOf('AdminVisual')).toEqual(['/admin/visual/']);
    expect(pagesOf('AdminMedia')).toEqual(['/admin/media/']);
    expect(pagesOf('AdminSettings')).toEqual(['/admin/settings/']);
    const contact = rows.find((row) => row.page === '/contactus/')!;
    expect(contact.files.some((file) => file.includes('RoiCalculator'))).toBe(false);
    // The booking loads the contact form only where no booking server answers (a chunk imported on demand).
    const booking = rows.find((row) => row.page === '/hub/book-meeting/')!;
    expect(booking.files.some((file) => file.includes('BookingForm'))).toBe(true);
    expect(booking.files.some((file) => file.includes('ContactForm'))).toBe(false);
    expect(rows.find((row) => row.page === '/hub/')!.files).toEqual([]);
  });

  // The language script (language, and the last audience for the greyed navigation) and the mobile
  // menu's (focus trap, Escape, tap outside): about 1.65 KB (under 0.9 KB gzip) on every page, no
  // file to fetch.
  it('keeps the inline scripts of every page under 1.75 KB', () => {
    expect(Math.max(...rows.map((row) => row.inline))).toBeLessThan(1792);
  });
});
