/**
 * The search of the search page (`search:` of the config), an engine island a site's template
 * renders with `<Island name="SiteSearch" component={SiteSearch} props={…} />` (both from
 * typed-site/template), its copy the site's. Without script it says so; hydrated, it loads the
 * Pagefind index's script from the output (only here, so no other page pays for it), searches the
 * `?q=` of the URL and each query sent from its form, and lists the results: title, excerpt (its
 * `<mark>`s kept, the rest as text), link and, with `sections`, the section the page is in.
 * Pagefind reads `<html lang>` and searches the index of the page's language alone; where the
 * index of that language is in parts (`search.pagesPerPart`, listed in the entry file's `parts`),
 * it merges them into the search first (`mergeIndex`), so a search finds what one index would. A polite live
 * region says how many were found, all of them: the list shows them a page at a time (`pageSize`),
 * and a button below it (`text.more`) adds the next, focus moving to the first one added.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';

/** The copy and the index's address. `{count}` and `{query}` are filled in. */
export interface SiteSearchProps {
  /** The URL of pagefind.js in the output (`searchScriptUrl`; the renderer adds `site.base`). */
  script: string;
  text: {
    label: string;
    submit: string;
    /** Shown until the script runs, and where it cannot. */
    noScript: string;
    searching: string;
    none: string;
    one: string;
    many: string;
    failed: string;
    /** The button that shows the next results (`{count}`: how many it adds); without it every result is listed at once. */
    more?: string;
  };
  /**
   * Where a result's URL path starts with `path` (a folder, base included, such as "/no/hub/"),
   * it is labelled `label`; the longest matching path wins, and a page in none has no label.
   */
  sections?: readonly { path: string; label: string }[];
  /** How many results are shown at once, with `text.more` (20). */
  pageSize?: number;
}

interface Result {
  url: string;
  title: string;
  excerpt: string;
}

/** A result of Pagefind's, whose data is loaded only when it is shown. */
export interface Found {
  data(): Promise<{ url: string; excerpt: string; meta: { title?: string } }>;
}

type State =
  | { kind: 'idle' }
  | { kind: 'searching' }
  | { kind: 'done'; query: string; found: readonly Found[]; results: Result[]; loading: boolean }
  | { kind: 'failed' };

export interface Pagefind {
  search(query: string): Promise<{ results: Found[] } | null>;
  mergeIndex(path: string, options: object): Promise<void>;
}

/**
 * Pagefind's script at `script`, with the further parts of the index of `language` (the page's
 * `<html lang>`) merged into its search: those the index's entry file lists under `parts` by the
 * language's primary subtag (an index in one part lists none).
 */
export async function loadPagefind(script: string, language: string): Promise<Pagefind> {
  const entryUrl = new URL('pagefind-entry.json', new URL(script, location.href));
  const [pagefind, entry] = await Promise.all([
    import(script) as Promise<Pagefind>,
    fetch(entryUrl, { cache: 'no-cache' }).then(
      (response) => response.json() as Promise<{ parts?: Record<string, { path: string }[]> }>,
    ),
  ]);
  await Promise.all(
    (entry.parts?.[language.split('-')[0]!.toLowerCase()] ?? []).map((part) =>
      pagefind.mergeIndex(new URL(part.path, entryUrl).pathname, {}),
    ),
  );
  return pagefind;
}

export default function SiteSearch({ script, text, sections = [], pageSize: size = 20 }: SiteSearchProps) {
  const pageSize = text.more === undefined ? Infinity : size;
  // useId gives "_R_…_"; a letter first keeps the id valid for html-validate and CSS selectors.
  const id = `site-search${useId()}`;
  const [query, setQuery] = useState('');
  const [state, setState] = useState<State>({ kind: 'idle' });
  const pagefind = useRef<Promise<Pagefind> | undefined>(undefined);
  const latest = useRef(0);
  const list = useRef<HTMLOListElement>(null);
  // The index of the first result a "more" added, to move focus to once it is drawn.
  const focusFrom = useRef<number | undefined>(undefined);

  const load = (found: readonly Found[]) =>
    Promise.all(
      found.map(async (result) => {
        const data = await result.data();
        return { url: data.url, title: data.meta.title ?? data.url, excerpt: data.excerpt };
      }),
    );

  async function run(value: string) {
    const asked = ++latest.current;
    if (!value.trim()) return setState({ kind: 'idle' });
    setState({ kind: 'searching' });
    try {
      pagefind.current ??= loadPagefind(script, document.documentElement.lang);
      const found = (await (await pagefind.current).search(value))?.results ?? [];
      const results = await load(found.slice(0, pageSize));
      if (asked === latest.current) setState({ kind: 'done', query: value, found, results, loading: false });
    } catch {
      if (asked === latest.current) setState({ kind: 'failed' });
    }
  }

  async function more() {
    if (state.kind !== 'done' || state.loading) return;
    const asked = latest.current;
    const from = state.results.length;
    setState({ ...state, loading: true });
    try {
      const added = await load(state.found.slice(from, from + pageSize));
      if (asked !== latest.current) return;
      focusFrom.current = from;
      setState({ ...state, results: [...state.results, ...added], loading: false });
    } catch {
      if (asked === latest.current) setState({ kind: 'failed' });
    }
  }

  useEffect(() => {
    if (focusFrom.current === undefined) return;
    list.current?.querySelectorAll('a')[focusFrom.current]?.focus();
    focusFrom.current = undefined;
  }, [state]);

  useEffect(() => {
    const initial = new URLSearchParams(location.search).get('q') ?? '';
    setQuery(initial);
    void run(initial);
  }, []);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const url = new URL(location.href);
    url.searchParams.set('q', query);
    history.replaceState(null, '', url);
    void run(query);
  }

  const status =
    state.kind === 'searching'
      ? text.searching
      : state.kind === 'failed'
        ? text.failed
        : state.kind === 'done'
          ? fill(
              state.found.length === 0 ? text.none : state.found.length === 1 ? text.one : text.many,
              state.found.length,
              state.query,
            )
          : '';
  const left = state.kind === 'done' ? state.found.length - state.results.length : 0;
  return (
    <div className="site-search">
      <form role="search" method="get" onSubmit={submit}>
        <label htmlFor={`${id}-q`}>{text.label}</label>
        <input
          id={`${id}-q`}
          type="search"
          name="q"
          value={query}
          onChange={(event) => setQuery(event.currentTarget.value)}
          autoComplete="off"
        />
        <button type="submit">{text.submit}</button>
      </form>
      {/* In <noscript>, not removed on hydration: nothing below moves when the script starts (layout shift). */}
      <noscript>
        <p className="site-search-no-script">{text.noScript}</p>
      </noscript>
      <p role="status" aria-live="polite" className="site-search-status">
        {status}
      </p>
      {state.kind === 'done' && state.results.length > 0 && (
        <ol className="site-search-results" ref={list}>
          {state.results.map((result) => {
            const section = sectionOf(result.url, sections);
            return (
              <li key={result.url}>
                {section !== undefined && <span className="site-search-section">{section}</span>}
                <a href={result.url}>{result.title}</a>
                <p>
                  {excerptParts(result.excerpt).map((part, index) =>
                    part.marked ? <mark key={index}>{part.text}</mark> : part.text,
                  )}
                </p>
              </li>
            );
          })}
        </ol>
      )}
      {left > 0 && text.more !== undefined && (
        <button
          type="button"
          className="site-search-more"
          onClick={() => void more()}
          aria-disabled={state.kind === 'done' && state.loading ? true : undefined}
        >
          {fill(text.more, Math.min(left, pageSize), '')}
        </button>
      )}
    </div>
  );
}

/** The label of the section a result's URL is in: that of the longest section path it starts with. */
export function sectionOf(url: string, sections: readonly { path: string; label: string }[]): string | undefined {
  const path = new URL(url, 'http://localhost').pathname;
  let best: { path: string; label: string } | undefined;
  for (const section of sections) {
    const folder = section.path.endsWith('/') ? section.path : `${section.path}/`;
    if ((path === section.path || path.startsWith(folder)) && (!best || section.path.length > best.path.length))
      best = section;
  }
  return best?.label;
}

function fill(message: string, count: number, query: string): string {
  return message.replaceAll('{count}', String(count)).replaceAll('{query}', query);
}

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'", apos: "'" };

/**
 * Pagefind's excerpt is HTML: the page's text, escaped, with the matched words in `<mark>`. It is
 * never put into the page as HTML: split at the marks, each piece's entities decoded and rendered
 * as text, so no tag but the marks can come out of it.
 */
export function excerptParts(excerpt: string): { text: string; marked: boolean }[] {
  return excerpt
    .split(/(<mark>[\s\S]*?<\/mark>)/)
    .filter(Boolean)
    .map((piece) => {
      const marked = piece.startsWith('<mark>');
      const inner = marked ? piece.slice('<mark>'.length, -'</mark>'.length) : piece;
      return {
        text: inner
          .replace(/<[^>]*>/g, '')
          .replace(/&(amp|lt|gt|quot|#39|#x27|apos);/g, (_, name: string) => entities[name]!),
        marked,
      };
    });
}
