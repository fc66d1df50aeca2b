/**
 * The site's words for what the server writes outside its pages, per locale: the notification
 * mails (the engine's copy, notify-copy.ts, with the messages `notifications.<key>` over it) and
 * the calendar file (`booking.calendarSummary`, `booking.calendarDescription`, else the site's name).
 * Read from the messages at the moment they are needed: they may have changed since the config did.
 */
import type { ResolvedConfig } from '../config/load.js';
import { copyValuesOf, loadMessages, lookupMessage, type MessageTree } from '../content/messages.js';
import { createDiagnostics } from '../diagnostics.js';
import { notifyTextKeys, notifyTextOf, type NotifyText } from './notify-copy.js';

/** A calendar file's words. */
export interface CalendarWords {
  summary: string;
  description: string;
}

/** The site's words in each locale. */
export interface SiteWords {
  notify(locale: string): NotifyText;
  calendar(locale: string): CalendarWords;
}

/** Reads the site's messages once and answers its words in any locale (a locale it lacks reads the default's). */
export async function loadSiteWords(config: ResolvedConfig): Promise<SiteWords> {
  // The build has checked the messages; a problem here leaves the engine's words.
  const messages = await loadMessages(config, createDiagnostics()).catch(() => ({}) as Record<string, MessageTree>);
  const tree = (locale: string) => messages[locale] ?? messages[config.site.defaultLocale] ?? {};
  const values = { ...copyValuesOf(config), company: config.site.name };
  return {
    notify(locale) {
      const own: Partial<NotifyText> = {};
      for (const key of notifyTextKeys) {
        const words = lookupMessage(tree(locale), `notifications.${key}`);
        if (words !== undefined) own[key] = words;
      }
      return notifyTextOf(config.locales[locale]?.intl ?? locale, own);
    },
    calendar(locale) {
      const message = (key: string) => lookupMessage(tree(locale), key, values) ?? config.site.name;
      return { summary: message('booking.calendarSummary'), description: message('booking.calendarDescription') };
    },
  };
}
