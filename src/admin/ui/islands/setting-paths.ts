/**
 * Dotted setting paths with `*` for any one key ("plans.*.limits.users" holds "plans.1.limits.users"),
 * and the settings a site declares with their texts in the screen's language (a site may give a
 * text once for every language, or once per language). Pure, so the settings API (which paths it
 * lets an admin change) and the settings screen (which field shows what) read a declaration alike.
 */
import type { DeclaredField, DeclaredGroup, ScreenText } from '../../../config/settings-schema';

/** A declared field with its texts in one language, as the screen gets it. */
export type ScreenField = Omit<DeclaredField, 'label' | 'help' | 'problem'> & {
  label: string;
  help?: string;
  problem?: string;
};

/** A declared group with its texts in one language, as the screen gets it. */
export type ScreenGroup = { label: string; help?: string; keys: Record<string, string>; fields: ScreenField[] };

/** Whether a dotted path is one of those a pattern stands for (`*` for exactly one part). */
export function matchesPattern(pattern: string, path: string): boolean {
  const expected = pattern.split('.');
  const parts = path.split('.');
  return expected.length === parts.length && expected.every((part, index) => part === '*' || part === parts[index]);
}

/** A declared text in a language: its own, else the first the site gave. */
function textIn(text: ScreenText, locale: string): string {
  return typeof text === 'string' ? text : (text[locale] ?? Object.values(text)[0]!);
}

/** A declared group with every text in a language (the page sends the screen only its own). */
export function groupIn(group: DeclaredGroup, locale: string): ScreenGroup {
  return {
    label: textIn(group.label, locale),
    ...(group.help ? { help: textIn(group.help, locale) } : {}),
    keys: Object.fromEntries(Object.entries(group.keys).map(([key, text]) => [key, textIn(text, locale)])),
    fields: group.fields.map(({ label, help, problem, ...field }) => ({
      ...field,
      label: textIn(label, locale),
      ...(help ? { help: textIn(help, locale) } : {}),
      ...(problem ? { problem: textIn(problem, locale) } : {}),
    })),
  };
}
