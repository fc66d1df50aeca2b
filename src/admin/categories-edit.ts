/**
 * The categories of a collection (its taxonomy's terms) as the settings edit them: a term is
 * listed in site.config.yaml (`collections.<c>.taxonomy.terms`) and named per language in the
 * messages (`<labels>.<term>` in content/messages/<locale>.yaml). Renaming edits the messages; a
 * new category is added to both (a name in every language is required); removing one that posts
 * use is refused with the posts named. Pure: texts in, texts and errors out.
 */
import { parseDocument } from '../yaml-package.js';
import type { ResolvedConfig } from '../config/load.js';
import { collectionNamed } from '../config/sources.js';
import type { ConfigChange } from './config-edit.js';

/** A change of the categories: a name (`value` a string) or a removal (`value` null, `locale` undefined). */
export interface CategoryChange {
  collection: string;
  term: string;
  locale?: string;
  value: string | null;
}

/** One category as the settings show it. */
export interface CategoryValues {
  id: string;
  names: Record<string, string>;
  /** The posts (slug and language) whose front matter names it. */
  posts: string[];
}

/** A problem with a category change, at its settings path. */
export interface CategoryError {
  path: string;
  message: string;
}

const termPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The message key path of a term's name: `blog.categories` + term → ["blog", "categories", term]. */
export function labelPath(config: ResolvedConfig, collection: string, term: string): string[] {
  const labels = config.collections[collection]!.taxonomy!.labels ?? `${collection}.terms`;
  return [...labels.split('.'), term];
}

/** The collections with categories. */
export function categorisedCollections(config: ResolvedConfig): string[] {
  return Object.keys(config.collections)
    .filter((name) => config.collections[name]!.taxonomy)
    .sort();
}

/** The value at a path of a messages file's data, or undefined. */
function messageAt(data: unknown, path: readonly string[]): unknown {
  let here = data;
  for (const key of path)
    here = here !== null && typeof here === 'object' ? (here as Record<string, unknown>)[key] : undefined;
  return here;
}

/** The categories of every categorised collection, with their names and the posts that use them. */
export function categoryValues(
  config: ResolvedConfig,
  messages: Readonly<Record<string, string>>,
  usage: ReadonlyMap<string, string[]>,
): Record<string, CategoryValues[]> {
  const data = Object.fromEntries(
    Object.entries(messages).map(([locale, text]) => [locale, parseDocument(text).toJS() as unknown]),
  );
  return Object.fromEntries(
    categorisedCollections(config).map((collection) => [
      collection,
      config.collections[collection]!.taxonomy!.terms.map((id) => ({
        id,
        names: Object.fromEntries(
          config.localeIds.map((locale) => [
            locale,
            String(messageAt(data[locale], labelPath(config, collection, id)) ?? ''),
          ]),
        ),
        posts: usage.get(`${collection}/${id}`) ?? [],
      })),
    ]),
  );
}

/**
 * The edits of category changes: to the config (`config`) and to each locale's messages
 * (`messages`, names set; `removals`, names of removed categories taken out, to be written after
 * the config so that the site builds at every step), or the errors that refuse them.
 */
export function planCategoryChanges(
  config: ResolvedConfig,
  messages: Readonly<Record<string, string>>,
  usage: ReadonlyMap<string, string[]>,
  changes: readonly CategoryChange[],
): {
  config: ConfigChange[];
  messages: Record<string, ConfigChange[]>;
  removals: Record<string, ConfigChange[]>;
  errors: CategoryError[];
} {
  const out = {
    config: [] as ConfigChange[],
    messages: {} as Record<string, ConfigChange[]>,
    removals: {} as Record<string, ConfigChange[]>,
    errors: [] as CategoryError[],
  };
  const data = Object.fromEntries(
    Object.entries(messages).map(([locale, text]) => [locale, parseDocument(text).toJS() as unknown]),
  );
  const added = new Map<string, Set<string>>();
  for (const change of changes) {
    const { collection, term, locale } = change;
    const path = `categories.${collection}.${term}${locale ? `.${locale}` : ''}`;
    const taxonomy = collectionNamed(config, collection)?.taxonomy;
    if (!taxonomy) {
      out.errors.push({ path, message: `${collection} has no categories` });
      continue;
    }
    const termsPath = ['collections', collection, 'taxonomy', 'terms'];
    const exists = taxonomy.terms.includes(term);
    const keyPath = labelPath(config, collection, term);
    if (change.value === null) {
      if (!exists) continue;
      const posts = usage.get(`${collection}/${term}`) ?? [];
      if (posts.length) {
        out.errors.push({
          path,
          message: `"${term}" cannot be removed: ${posts.length === 1 ? 'a post uses' : `${posts.length} posts use`} it (${posts.join(', ')}). Give ${posts.length === 1 ? 'it' : 'them'} another category first.`,
        });
        continue;
      }
      out.config.push({ path: termsPath, remove: term });
      for (const id of config.localeIds)
        if (messageAt(data[id], keyPath) !== undefined) (out.removals[id] ??= []).push({ path: keyPath, value: null });
      continue;
    }
    if (!locale || !config.localeIds.includes(locale)) {
      out.errors.push({ path, message: `name a category per language (${config.localeIds.join(', ')})` });
      continue;
    }
    if (!change.value.trim()) {
      out.errors.push({ path, message: 'give the category a name' });
      continue;
    }
    if (!exists) {
      if (!termPattern.test(term)) {
        out.errors.push({
          path: `categories.${collection}.${term}`,
          message: `"${term}" cannot be a category's id: use lowercase letters, digits and hyphens`,
        });
        continue;
      }
      // A key the templates use for something else ("all", the filter's label) is no category's.
      if (config.localeIds.some((id) => messageAt(data[id], keyPath) !== undefined)) {
        out.errors.push({
          path: `categories.${collection}.${term}`,
          message: `"${term}" cannot be a category's id: the message ${keyPath.join('.')} is used for something else`,
        });
        continue;
      }
      const names = added.get(term) ?? new Set<string>();
      if (!added.has(term)) {
        added.set(term, names);
        out.config.push({ path: termsPath, append: term });
      }
      names.add(locale);
    }
    (out.messages[locale] ??= []).push({ path: keyPath, value: change.value.trim() });
  }
  for (const [term, names] of added) {
    const collection = changes.find((change) => change.term === term)!.collection;
    for (const locale of config.localeIds)
      if (!names.has(locale))
        out.errors.push({
          path: `categories.${collection}.${term}.${locale}`,
          message: `give the new category "${term}" a name in ${config.locales[locale]!.label} too`,
        });
  }
  return out;
}
