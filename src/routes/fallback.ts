/**
 * Which language an entry is shown in on a page of a locale that it is not written in: a pure,
 * typed decision made once, in route expansion, and carried on the page records (a list card
 * and the entry's own page can never disagree).
 */

/** What the decision needs to know about the site. */
export interface FallbackRules {
  /** Locale ids, the default locale first. */
  localeIds: readonly string[];
  /** The collection's own chains: locale → languages to try, in order. */
  chains: Readonly<Record<string, readonly string[]>>;
}

/**
 * The languages to show an entry in on a page of `locale`, best first: the locale itself, the
 * collection's chain for it, then the default locale and the other locales in their order.
 */
export function fallbackChain(locale: string, rules: FallbackRules): string[] {
  return [...new Set([locale, ...(rules.chains[locale] ?? []), ...rules.localeIds])];
}

/** The translation an entry written in `available` is shown in on a page of `locale`. */
export function pickTranslation(
  available: Readonly<Record<string, unknown>>,
  locale: string,
  rules: FallbackRules,
): string | undefined {
  return fallbackChain(locale, rules).find((candidate) => available[candidate] !== undefined);
}
