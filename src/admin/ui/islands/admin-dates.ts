/**
 * Dates and times on the admin's screens follow the site's conventions, not the browser's or US
 * English: the admin's locale's `intl` tag (`en-GB`, `nb-NO`), which the admin's layout puts on
 * `.admin-ui` as `data-intl`. An `en` site with `intl: en-GB` shows "6 Dec 2026, 14:05", not
 * "Dec 6, 2026, 2:05 PM".
 */

/** The admin's formatting locale, read from the layout (the page's `lang` when a screen has none). */
export function adminIntl(): string | undefined {
  const marked = document.querySelector<HTMLElement>('[data-intl]')?.dataset.intl;
  return marked || document.documentElement.lang || undefined;
}

/** An instant (a save, a version) in the admin's conventions and the reader's time zone; the screens share it. */
export const when = (at: string) =>
  new Intl.DateTimeFormat(adminIntl(), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(at));
