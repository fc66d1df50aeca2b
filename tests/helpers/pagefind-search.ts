/**
 * Searches a built site's index in Node as the search page's island does (`loadPagefind` of
 * src/islands/SiteSearch.tsx: Pagefind's own script, the parts of the page's language merged):
 * the browser's globals it reads are stood in for, and its requests read the output's files.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadPagefind } from '../../src/islands/SiteSearch';

let loads = 0;

/** The results (URL from the site's root, title, excerpt) of each query on the index in `out` for a page in `language`, in Pagefind's order. */
export async function searchIndex(
  out: string,
  language: string,
  queries: readonly string[],
): Promise<{ url: string; title: string | undefined; excerpt: string }[][]> {
  const globals = globalThis as Record<string, unknown>;
  const saved = Object.fromEntries(['fetch', 'window', 'document', 'location'].map((name) => [name, globals[name]]));
  const page = pathToFileURL(join(out, 'index.html'));
  Object.assign(globals, {
    window: globalThis,
    location: { href: page.href, origin: 'file://' },
    document: { documentElement: { lang: language }, querySelector: () => ({ getAttribute: () => language }) },
    fetch: async (url: string | URL) => new Response(await readFile(fileURLToPath(new URL(String(url), page)))),
  });
  try {
    // A fresh copy of the script each time (its module keeps the index it loaded).
    const script = `${pathToFileURL(join(out, 'pagefind', 'pagefind.js')).href}?load=${++loads}`;
    const pagefind = await loadPagefind(script, language);
    const answers = [];
    for (const query of queries) {
      const found = (await pagefind.search(query))?.results ?? [];
      const data = await Promise.all(found.map((result) => result.data()));
      // Pagefind puts the folder above its script in front of each URL: the output's path here.
      answers.push(data.map(({ url, meta, excerpt }) => ({ url: url.slice(out.length), title: meta.title, excerpt })));
    }
    return answers;
  } finally {
    Object.assign(globals, saved);
  }
}
