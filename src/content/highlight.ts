/**
 * Code highlighting at build time: fenced code with a language Shiki knows becomes spans with
 * classes, coloured by a stylesheet of its own (codeStylesheet), so a page gets neither a script
 * nor an inline `style=` (the CSP has `style-src 'self'`). Shiki's inline colours are turned into
 * classes that name their value (`c-cf222e`, `d-ff7b72` for the dark theme, `fi` for italic): the
 * class of a colour is the same in every thread and every build, and the stylesheet is made from
 * the themes alone. The highlighter is made once per thread, on the first document with such code,
 * with Shiki's JavaScript regex engine (no WASM), loading only the grammars used.
 */
import type { Element, ElementContent, Root } from 'hast';
import { hashParts, installedVersion, type DiskCache } from '../cache/disk-cache.js';

/** The themes of `markdown.highlight`, or false for no highlighting. */
export type HighlightOptions = { theme: string; darkTheme?: string } | false;

/**
 * The default themes: GitHub's light theme, whose every token colour has a contrast of at least
 * 4.5:1 (WCAG AA) against its background (github-light, the older one, has a 3.6:1 orange).
 */
export const defaultHighlight: HighlightOptions = { theme: 'github-light-default' };

/** The class of a highlighted block, by which the renderer knows a page needs the code stylesheet. */
export const highlightedMark = '<pre class="shiki"';

/** Whether rendered HTML has highlighted code. */
export function hasHighlightedCode(html: string): boolean {
  return html.includes(highlightedMark);
}

type Highlighter = import('shiki/core').HighlighterCore;
let highlighter: Promise<Highlighter> | undefined;

/** This thread's highlighter, made on first use with no grammar or theme yet. */
function highlighterOfThread(): Promise<Highlighter> {
  highlighter ??= (async () => {
    const [{ createHighlighterCore }, { createJavaScriptRegexEngine }] = await Promise.all([import('shiki/core'), import('shiki/engine/javascript')]);
    return createHighlighterCore({ themes: [], langs: [], engine: createJavaScriptRegexEngine() });
  })();
  return highlighter;
}

/** The highlighter with the grammars of `langs` (Shiki's names or aliases it bundles) and the themes loaded. */
async function highlighterWith(langs: readonly string[], options: Exclude<HighlightOptions, false>): Promise<Highlighter> {
  const [core, { bundledLanguages }, { bundledThemes }] = await Promise.all([highlighterOfThread(), import('shiki/langs'), import('shiki/themes')]);
  const themes = themesOf(options).filter((name) => !core.getLoadedThemes().includes(name));
  const unknown = themes.find((name) => !Object.hasOwn(bundledThemes, name));
  if (unknown) throw new Error(`"${unknown}" is not a theme Shiki bundles (markdown.highlight in the config); see https://shiki.style/themes`);
  const grammars = langs.filter((lang) => !core.getLoadedLanguages().includes(lang));
  await core.loadTheme(...themes.map((name) => bundledThemes[name as keyof typeof bundledThemes]));
  await core.loadLanguage(...grammars.map((lang) => bundledLanguages[lang as keyof typeof bundledLanguages]));
  return core;
}

function themesOf(options: Exclude<HighlightOptions, false>): string[] {
  return options.darkTheme ? [options.theme, options.darkTheme] : [options.theme];
}

/** The language of a `<code>` element (`language-x` of a fence's info string), when Shiki bundles its grammar. */
function languageOf(code: Element, known: Record<string, unknown>): string | undefined {
  const classes = code.properties.className;
  const name = Array.isArray(classes) ? classes.map(String).find((name) => name.startsWith('language-'))?.slice('language-'.length).toLowerCase() : undefined;
  return name && Object.hasOwn(known, name) ? name : undefined;
}

/**
 * The rehype plugin: each `<pre><code class="language-x">` whose language Shiki knows is replaced
 * by Shiki's tokens; other code (no language, or one Shiki does not know) stays as it is, plain
 * and escaped. It runs after the sanitiser: the spans and classes are its own, the text escaped
 * by the HTML serialiser like any other.
 */
export function rehypeHighlight(options: HighlightOptions) {
  return async (tree: Root) => {
    if (!options) return;
    const blocks: { parent: Root | Element; index: number; code: Element }[] = [];
    const stack: (Root | Element)[] = [tree];
    for (let node = stack.pop(); node; node = stack.pop()) {
      node.children.forEach((child, index) => {
        if (child.type !== 'element') return;
        const code = child.tagName === 'pre' && child.children.length === 1 && child.children[0]!.type === 'element' && child.children[0]!.tagName === 'code' ? child.children[0]! : undefined;
        if (code) blocks.push({ parent: node, index, code });
        else stack.push(child);
      });
    }
    if (!blocks.length) return;
    const { bundledLanguages } = await import('shiki/langs');
    const found = blocks.flatMap((block) => {
      const lang = languageOf(block.code, bundledLanguages);
      return lang ? [{ ...block, lang }] : [];
    });
    if (!found.length) return;
    const core = await highlighterWith([...new Set(found.map((block) => block.lang))], options);
    for (const { parent, index, code, lang } of found) {
      const text = code.children.map((child) => (child.type === 'text' ? child.value : '')).join('').replace(/\n$/, '');
      // No time limit per line: Shiki's default (500 ms) cuts off the first lines tokenized while
      // the grammar's expressions are compiled, and the output would depend on which came first.
      const root = core.codeToHast(text, {
        lang,
        ...(options.darkTheme ? { themes: { light: options.theme, dark: options.darkTheme }, defaultColor: 'light' as const } : { theme: options.theme }),
        tokenizeTimeLimit: 0,
      });
      const pre = root.children[0] as Element;
      // tabindex: the block scrolls sideways, so it takes the keyboard's focus (axe: scrollable-region-focusable).
      pre.properties = { className: ['shiki'], tabIndex: 0 };
      // The code keeps its language class, for the site's CSS as before highlighting.
      const highlighted = pre.children.find((child): child is Element => child.type === 'element' && child.tagName === 'code');
      if (highlighted) highlighted.properties.className = code.properties.className;
      stylesToClasses(pre);
      parent.children[index] = pre;
    }
  };
}

/** The class of one of Shiki's declarations (`color:#CF222E` is `c-cf222e`), or undefined for one it does not make. */
function classOf(property: string, value: string): string | undefined {
  const colour = /^#([0-9a-f]{3,8})$/i.exec(value)?.[1]?.toLowerCase();
  if (property === 'color' && colour) return `c-${colour}`;
  if (property === '--shiki-dark' && colour) return `d-${colour}`;
  // The few scopes with a background of their own (invalid code, a diff's lines).
  if (property === 'background-color' && colour) return `cb-${colour}`;
  if (property === '--shiki-dark-bg' && colour) return `db-${colour}`;
  const font = Object.hasOwn(fontStyles, value) ? fontStyles[value]![0] : undefined;
  if (font && ['font-style', 'font-weight', 'text-decoration'].includes(property)) return `f${font}`;
  if (font && property.startsWith('--shiki-dark-')) return `df${font}`;
  return undefined;
}

/** The font values Shiki writes: their class suffix and the CSS they stand for. */
const fontStyles: Record<string, [string, string]> = {
  italic: ['i', 'font-style:italic'],
  bold: ['b', 'font-weight:bold'],
  underline: ['u', 'text-decoration:underline'],
};

/** Replaces the inline styles of a block's spans by classes. */
function stylesToClasses(pre: Element): void {
  const stack: ElementContent[] = [...pre.children];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.type !== 'element') continue;
    const style = node.properties.style;
    if (typeof style === 'string') {
      const classes = style.split(';').flatMap((declaration) => {
        const colon = declaration.indexOf(':');
        const found = colon > 0 && classOf(declaration.slice(0, colon).trim(), declaration.slice(colon + 1).trim());
        return found ? [found] : [];
      });
      delete node.properties.style;
      const existing = Array.isArray(node.properties.className) ? node.properties.className.map(String) : [];
      if (existing.length || classes.length) node.properties.className = [...existing, ...classes];
    }
    stack.push(...node.children);
  }
}

/**
 * The stylesheet of highlighted code: the block's colours and a rule for every colour of the
 * themes (a token's colour is always one of its theme's), the dark theme's under
 * `prefers-color-scheme: dark`. Made from the themes alone, so it is the same in every thread.
 */
export async function codeStylesheet(options: Exclude<HighlightOptions, false>, cache?: DiskCache): Promise<string> {
  // Kept in the build cache: making it loads Shiki and its themes, most of a rebuild's start-up
  // when nothing else needs them. The key names what decides its bytes, the font classes too.
  const key = hashParts(highlightId(options), JSON.stringify(fontStyles));
  const kept = cache?.readSync(key);
  if (kept) return kept.toString('utf8');
  const stylesheet = await makeCodeStylesheet(options);
  void cache?.write(key, stylesheet);
  return stylesheet;
}

async function makeCodeStylesheet(options: Exclude<HighlightOptions, false>): Promise<string> {
  const core = await highlighterWith([], options);
  const rules = (theme: string, colourPrefix: 'c' | 'd') => {
    const resolved = core.getTheme(theme);
    const palette = (colours: readonly string[]) => [...new Set(colours.map((colour) => colour.toLowerCase().replace(/^#/, '')))].filter((colour) => /^[0-9a-f]{3,8}$/.test(colour)).sort();
    const foregrounds = palette([resolved.fg, ...resolved.settings.flatMap((setting) => setting.settings?.foreground ?? [])]);
    const backgrounds = palette(resolved.settings.flatMap((setting) => setting.settings?.background ?? []));
    return [
      `pre.shiki{background:${resolved.bg};color:${resolved.fg}}`,
      ...foregrounds.map((colour) => `.shiki .${colourPrefix}-${colour}{color:#${colour}}`),
      ...backgrounds.map((colour) => `.shiki .${colourPrefix === 'c' ? 'cb' : 'db'}-${colour}{background-color:#${colour}}`),
      ...Object.values(fontStyles).map(([name, css]) => `.shiki .${colourPrefix === 'c' ? 'f' : 'df'}${name}{${css}}`),
    ];
  };
  const light = rules(options.theme, 'c');
  if (!options.darkTheme) return `${light.join('\n')}\n`;
  const dark = rules(options.darkTheme, 'd');
  return `${light.join('\n')}\n@media (prefers-color-scheme: dark) {\n${dark.join('\n')}\n}\n`;
}

/** What decides highlighted HTML and the code stylesheet: Shiki's version, the themes, and this module's functions. */
export function highlightId(options: HighlightOptions): string {
  return [
    JSON.stringify(options),
    ...['shiki', '@shikijs/core', '@shikijs/langs', '@shikijs/themes', '@shikijs/engine-javascript'].map((name) => `${name}@${installedVersion(name)}`),
    rehypeHighlight.toString(),
    classOf.toString(),
    stylesToClasses.toString(),
    makeCodeStylesheet.toString(),
  ].join('\n');
}

/** The URL of the code stylesheet: named by what makes it, so it is known without making it. */
export function codeStylesheetUrl(options: Exclude<HighlightOptions, false>, assetsFolder: string): string {
  return `/${assetsFolder}/code.${hashParts(highlightId(options)).slice(0, 10)}.css`;
}
