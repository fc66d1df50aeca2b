/**
 * The settings' changes in words (change-words.ts): each value of site.config.yaml, the messages
 * and the page texts of `admin.copy` that a save or a restore changes, named as the settings screen
 * names it (its copy's `fields:` and parts, a plan by its name: "Basic: price", a declared setting
 * by its declaration's label) and said as the site shows it (a price with the language's currency
 * format and the messages' `pricing.perMonth`: "€49 per month"; on request in the screen's words).
 */
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { sourcesOf } from '../config/sources.js';
import type { ResolvedConfig } from '../config/load.js';
import { parseDocument } from '../yaml-package.js';
import { changesInWords, fill, labelOf, lowerFirst, type ChangeInWords, type ChangeWording } from './change-words.js';
import { copyText, readScreenCopy, valueWords, type ScreenCopy } from './screen-copy.js';
import { groupIn, matchesPattern } from './ui/islands/setting-paths.js';

/** The screen's name of a path of the config, or undefined. */
function configLabel(config: ResolvedConfig, copy: ScreenCopy, data: unknown, path: readonly string[]): string {
  const locale = config.site.defaultLocale;
  const dotted = path.join('.');
  const field = (key: string) => copyText(copy, 'fields', key);
  const part = (key: string, values: Record<string, string> = {}) => {
    const text = copyText(copy, 'settings', key);
    return text && fill(text, values);
  };
  for (const group of config.admin.settings) {
    const screen = groupIn(group, locale);
    const declared = group.fields.findIndex((each) => matchesPattern(each.path, dotted));
    if (declared < 0) continue;
    const star = group.fields[declared]!.path.split('.').indexOf('*');
    const key = star >= 0 ? path[star]! : undefined;
    const name = lowerFirst(screen.fields[declared]!.label);
    if (path[0] === 'plans' && key !== undefined) return `${planName(config, data, key)}: ${name}`;
    const keyName = key === undefined ? undefined : (screen.keys[key] ?? key);
    return `${screen.label}: ${keyName ? `${keyName}, ${name}` : name}`;
  }
  if (path[0] === 'plans' && path.length > 2) {
    const rest = path.slice(2);
    const label =
      rest[0] === 'name' && rest[1]
        ? field('plans.name') && fill(field('plans.name')!, { language: config.locales[rest[1]]?.label ?? rest[1] })
        : field(`plans.${rest.join('.')}`);
    return `${planName(config, data, path[1]!)}: ${lowerFirst(label ?? labelOf(rest.join('.')))}`;
  }
  if (path[0] === 'collections' && path.length === 3)
    return `${part('collections', { collection: path[1]! }) ?? path[1]}: ${lowerFirst(field(`collections.${path[2]}`) ?? labelOf(path[2]!))}`;
  const section = path[0] === 'company' || path[0] === 'booking' || path[0] === 'contact' ? part(path[0]) : undefined;
  const own = field(dotted) ?? labelOf(path.slice(section ? 1 : 0).join('.'));
  return section ? `${section}: ${lowerFirst(own)}` : own;
}

/** A plan's name in the admin's language, from the config text (`data`), by its index. */
function planName(config: ResolvedConfig, data: unknown, index: string): string {
  const plans = (data as { plans?: { name?: Record<string, string>; id?: string }[] } | null)?.plans;
  const plan = plans?.[Number(index)];
  return plan?.name?.[config.site.defaultLocale] ?? plan?.id ?? `#${Number(index) + 1}`;
}

/** The way the settings screen words a change of the config file (`before`, `after`: the file's data). */
export async function settingsWording(
  config: ResolvedConfig,
  copy: ScreenCopy,
  before: unknown,
  after: unknown,
): Promise<ChangeWording> {
  const locale = config.site.defaultLocale;
  const intl = config.locales[locale]?.intl ?? locale;
  const messagesText = await readFile(sourcesOf(config).messages(locale), 'utf8').catch(() => '');
  const messages = (parseDocument(messagesText).toJS() ?? {}) as { pricing?: Record<string, unknown> };
  const message = (key: string) => {
    const text = messages.pricing?.[key];
    return typeof text === 'string' ? text : undefined;
  };
  const isPrice = (path: readonly string[]) => path.length === 3 && path[0] === 'plans' && path[2] === 'price';
  const percents = config.admin.settings.flatMap((group) =>
    group.fields.filter((field) => field.percent).map((field) => field.path),
  );
  return {
    words: valueWords(copy),
    intl,
    isValue: isPrice,
    label: (path) => configLabel(config, copy, after ?? before, path),
    show(path, value) {
      if (percents.some((pattern) => matchesPattern(pattern, path.join('.'))) && typeof value === 'number')
        return new Intl.NumberFormat(intl, { style: 'percent', maximumFractionDigits: 2 }).format(value);
      if (!isPrice(path)) return undefined;
      if (value === 'on-request') return copyText(copy, 'settings', 'onRequest');
      const price = value as { amount?: unknown; currency?: unknown; period?: unknown } | null;
      if (typeof price?.amount !== 'number' || typeof price.currency !== 'string') return undefined;
      const amount = new Intl.NumberFormat(intl, {
        style: 'currency',
        currency: price.currency,
        maximumFractionDigits: 0,
      }).format(price.amount);
      const key = price.period === 'year' ? 'perYear' : 'perMonth';
      const period = message(key) ?? lowerFirst(copyText(copy, 'settings', key) ?? key);
      return `${amount} ${period}`;
    },
  };
}

/** The changes in words of the settings files (by file: the texts before and after), the config's first. */
export async function settingsChangesInWords(
  config: ResolvedConfig,
  configFile: string,
  changed: ReadonlyMap<string, { before: string; after: string }>,
): Promise<ChangeInWords[]> {
  const copy = await readScreenCopy(config, 'admin/settings');
  const words = valueWords(copy);
  const intl = config.locales[config.site.defaultLocale]?.intl ?? config.site.defaultLocale;
  const read = (text: string) => parseDocument(text).toJS() as unknown;
  const changes: ChangeInWords[] = [];
  const files = [...changed.keys()].sort((a, b) => Number(b === configFile) - Number(a === configFile));
  for (const file of files) {
    const { before, after } = changed.get(file)!;
    const [old, now] = [read(before), read(after)];
    if (file === configFile) {
      changes.push(...changesInWords(old, now, await settingsWording(config, copy, old, now)));
      continue;
    }
    // A messages file (a category's names) or a page's texts (admin.copy): named by the file's language and key.
    const locale = config.localeIds.find((id) => file.endsWith(`${id}.yaml`)) ?? '';
    const language = config.locales[locale]?.label ?? locale;
    const copyItem = config.admin.copy.find((entry) => dirname(file) === sourcesOf(config).copy(entry.content));
    const prefix = copyItem
      ? `${copyText(copy, 'settings', 'copy') ?? 'Page texts'}: ${labelOf(copyItem.content)} › `
      : '';
    changes.push(
      ...changesInWords(old, now, {
        words,
        intl,
        label: (path) => `${prefix}${labelOf(path.join('.'))} (${language})`,
      }),
    );
  }
  return changes;
}
