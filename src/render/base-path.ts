/**
 * A site published under a path (`site.base`, e.g. GitHub Pages' "/<repo>"): templates, Markdown
 * and islands write root-relative URLs as if the site were at the domain's root ("/hub/"), and the
 * finished HTML gets the base in front of each (Eleventy's HTML base plugin does the same). What is
 * rewritten, in real tags only (text and raw script never are): `href`, `src`, `action`,
 * `formaction`, `poster`, every URL of `srcset`, and every JSON string that is a root-relative
 * path inside an island's props (`<script type="application/json" data-island-props>`), which is
 * how an island gets its endpoints and links. Absolute URLs, "//host" and "#fragment" stay as
 * they are. Pure; with an empty base the HTML is returned untouched.
 */

/** The single-valued URL attributes. */
const urlAttributes = new Set(['href', 'src', 'action', 'formaction', 'poster']);

/**
 * One start tag with its attributes (quoted values may hold ">"), or an island's props script
 * with its JSON text. Comments and other raw text cannot match: "<" in text is always "&lt;".
 */
const tagPattern =
  /<script type="application\/json" data-island-props="[^"]*">([^<]*)<\/script>|<[a-zA-Z][^\s/>]*(?:\s+[^\s"'=<>`/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*\s*\/?>/g;
const attributePattern = /(\s)([^\s"'=<>`/]+)(\s*=\s*)("([^"]*)"|'([^']*)')/g;

/** Whether a URL is root-relative: "/x", not "//host/x". */
function isRootRelative(url: string): boolean {
  return url.startsWith('/') && !url.startsWith('//');
}

/** A URL with the base in front when it is root-relative ("/" → "/base/"). */
export function withBaseUrl(url: string, base: string): string {
  return base && isRootRelative(url) ? base + url : url;
}

/** A srcset ("a.webp 480w, b.webp 960w") with the base in front of each root-relative URL. */
function withBaseSrcset(srcset: string, base: string): string {
  return srcset.replace(
    /(^|,)(\s*)(\S+)/g,
    (_whole, comma: string, space: string, url: string) => comma + space + withBaseUrl(url, base),
  );
}

/** The HTML (a page or a fragment of one) with the base in front of every root-relative URL it links to or loads. */
export function withBase(html: string, base: string): string {
  if (!base) return html;
  return html.replace(tagPattern, (tag: string, json: string | undefined) => {
    if (json !== undefined) {
      const rewritten = json.replace(/"((?:[^"\\]|\\.)*)"(\s*[:]?)/g, (whole, value: string, colon: string) =>
        colon.trim() === ':' || !isRootRelative(value) ? whole : `"${base}${value}"${colon}`,
      );
      return tag.replace(json, () => rewritten);
    }
    return tag.replace(
      attributePattern,
      (
        whole,
        space: string,
        name: string,
        equals: string,
        _quoted: string,
        double: string | undefined,
        single: string | undefined,
      ) => {
        const lower = name.toLowerCase();
        const value = double ?? single ?? '';
        let next: string;
        if (urlAttributes.has(lower)) next = withBaseUrl(value, base);
        else if (lower === 'srcset') next = withBaseSrcset(value, base);
        else return whole;
        const quote = double !== undefined ? '"' : "'";
        return `${space}${name}${equals}${quote}${next}${quote}`;
      },
    );
  });
}
