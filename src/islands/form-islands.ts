/**
 * The engine's forms as islands (ContactForm and BookingForm of `typed-site/islands`): their
 * client entries are bundled from the package's own sources (src/islands/forms/, shipped as they
 * are), beside the site's islands, for a site whose templates import them, so a site without
 * forms pays nothing. A site island of the same name (templates/islands/ContactForm.tsx) replaces
 * the engine's: the site keeps its own form, and its pages hydrate with it.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { generatorRoot } from '../cache/disk-cache.js';

/** The engine's form islands, by the name their pages mark them with. */
export const formIslandNames: readonly string[] = ['BookingForm', 'ContactForm'];

/** The file a form island is bundled from: `ContactForm` → src/islands/forms/ContactForm.tsx of the generator package. */
export function formIslandFile(name: string): string {
  return join(generatorRoot(), 'src', 'islands', 'forms', `${name}.tsx`);
}

/** The package entry the forms are imported from. */
const entry = 'typed-site/islands';
const importPattern =
  /\b(import|export)\s+(type\s+)?([^;'"`]*?)\s*from\s*['"]typed-site\/islands['"]|\bimport\s*\(\s*['"]typed-site\/islands['"]\s*\)/g;

/**
 * The form islands a module's source takes from `typed-site/islands` (pure): the names of an
 * `import { ContactForm } …` or `export { BookingForm } …` (renamed or not); every form for a
 * namespace import, `export *` or a dynamic import; none for type-only imports.
 */
export function formsImportedBy(source: string): string[] {
  if (!source.includes(entry)) return [];
  const found = new Set<string>();
  for (const match of source.matchAll(importPattern)) {
    const [, , typeOnly, clause] = match;
    if (typeOnly) continue;
    // A dynamic import, a namespace (`* as forms`) or `export *`: any form may be used.
    if (clause === undefined || clause.includes('*')) {
      for (const name of formIslandNames) found.add(name);
      continue;
    }
    const named = /\{([^}]*)\}/.exec(clause)?.[1] ?? '';
    for (const part of named.split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)[0]!
        .trim();
      if (!part.trim().startsWith('type ') && formIslandNames.includes(name)) found.add(name);
    }
  }
  return formIslandNames.filter((name) => found.has(name));
}

/** Script files of a templates folder, relative to it (its stylesheets and anything in node_modules left out). */
async function templateScripts(templatesDir: string): Promise<string[]> {
  try {
    const files = await readdir(templatesDir, { recursive: true });
    return files
      .filter((file) => /\.(?:[cm]?[jt]sx?)$/.test(file) && !/(?:^|[\\/])node_modules[\\/]/.test(file))
      .sort();
  } catch {
    return [];
  }
}

/** The form islands the templates of a site import from `typed-site/islands`, sorted. */
export async function formsImportedIn(templatesDir: string): Promise<string[]> {
  const sources = await Promise.all(
    (await templateScripts(templatesDir)).map((file) => readFile(join(templatesDir, file), 'utf8').catch(() => '')),
  );
  const imported = new Set(sources.flatMap(formsImportedBy));
  return formIslandNames.filter((name) => imported.has(name));
}

/**
 * The engine's form islands to bundle, name → file: those `imported`, less those the site has an
 * island of its own of (`siteIslands`), which replace them rather than clash with them.
 */
export function engineFormIslands(imported: readonly string[], siteIslands: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    imported
      .filter((name) => formIslandNames.includes(name) && !siteIslands.includes(name))
      .map((name) => [name, formIslandFile(name)]),
  );
}
