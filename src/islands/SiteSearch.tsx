/**
 * The search of the search page (`search:` of the config), an engine island a site's template
 * renders with `<Island name="SiteSearch" component={SiteSearch} props={…} />` (both from
 * typed-site/template), its copy the site's. Without script it says so; hydrated, it loads the
 * Pagefind index's script from the output (only here, so no other page pays for it), searches the
 * `?q=` of the URL and each query sent from its form, and lists the results: title, excerpt (its
 * `<mark>`s kept, the rest as text) and link. Pagefind reads `<html lang>` and searches the index
 * of the page's language alone. A polite live region says how many were found.
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
  };
}

interface Result {
  url: string;
  title: string;
  excerpt: string;
}

type State =
  { kind: 'idle' } | { kind: 'searching' } | { kind: 'done'; query: string; results: Result[] } | { kind: 'failed' };

/** The largest number of results shown. */
const shown = 20;

interface Pagefind {
  search(
    query: string,
  ): Promise<{ results: { data(): Promise<{ url: string; excerpt: string; meta: { title?: string } }> }[] } | null>;
}

export default function SiteSearch({ script, text }: SiteSearchProps) {
  // useId gives "_R_…_"; a letter first keeps the id valid for html-validate and CSS selectors.
  const id = `site-search${useId()}`;
  const [query, setQuery] = useState('');
  const [state, setState] = useState<State>({ kind: 'idle' });
  const pagefind = useRef<Promise<Pagefind> | undefined>(undefined);
  const latest = useRef(0);

  async function run(value: string) {
    const asked = ++latest.current;
    if (!value.trim()) return setState({ kind: 'idle' });
    setState({ kind: 'searching' });
    try {
      pagefind.current ??= import(script) as Promise<Pagefind>;
      const found = await (await pagefind.current).search(value);
      const results = await Promise.all(
        (found?.results ?? []).slice(0, shown).map(async (result) => {
          const data = await result.data();
          return { url: data.url, title: data.meta.title ?? data.url, excerpt: data.excerpt };
        }),
      );
      if (asked === latest.current) setState({ kind: 'done', query: value, results });
    } catch {
      if (asked === latest.current) setState({ kind: 'failed' });
    }
  }

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
              state.results.length === 0 ? text.none : state.results.length === 1 ? text.one : text.many,
              state.results.length,
              state.query,
            )
          : '';
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
        <ol className="site-search-results">
          {state.results.map((result) => (
            <li key={result.url}>
              <a href={result.url}>{result.title}</a>
              <p>
                {excerptParts(result.excerpt).map((part, index) =>
                  part.marked ? <mark key={index}>{part.text}</mark> : part.text,
                )}
              </p>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
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
