/**
 * Dotted setting paths with `*` for any one key ("plans.*.limits.users" holds "plans.1.limits.users"),
 * and the texts a site declares for its settings (one for every language, or one per language).
 * Pure, so the settings API (which paths it lets an admin change) and the settings screen (which
 * field shows what) read a declaration alike.
 */
import type { ScreenText } from '../../../config/settings-schema';

/** Whether a dotted path is one of those a pattern stands for (`*` for exactly one part). */
export function matchesPattern(pattern: string, path: string): boolean {
  const expected = pattern.split('.');
  const parts = path.split('.');
  return expected.length === parts.length && expected.every((part, index) => part === '*' || part === parts[index]);
}

/** A declared text in a language: its own, else the first the site gave. */
export function textIn(text: ScreenText | undefined, locale: string): string | undefined {
  if (text === undefined || typeof text === 'string') return text;
  return text[locale] ?? Object.values(text)[0];
}
