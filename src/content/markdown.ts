/**
 * The Markdown pipeline: remark-parse, GFM (only the extensions a document's text can trigger, see
 * gfm-features.ts), the site's remark plugins, remark-rehype (raw HTML dropped), heading ids, the
 * site's rehype plugins (which so find the ids: rehype-autolink-headings links them), a sanitiser
 * (GitHub's schema with the site's `markdown.sanitize` additions, sanitize-schema.ts: no
 * `javascript:`, `data:` or `vbscript:` URLs, no event handlers, whatever a plugin made),
 * code highlighting (highlight.ts), `rel="noopener"` on external links, rehype-stringify. The unified stack is loaded on first use,
 * so a build that needs no Markdown (every document comes from the cache) never pays for it.
 * Input is bounded before it is parsed (checkMarkdownLimits), since micromark's time grows with
 * the square of nesting depth and of the link and emphasis marks in one paragraph.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Root as HastRoot, Element } from 'hast';
import { generatorRoot, installedVersion, isSourceCheckout } from '../cache/disk-cache.js';
import { SiteError } from '../errors.js';
import { pluginsIdentity, type PluginRef } from '../config/plugin-resolve.js';
import { defaultHighlight, highlightId, rehypeHighlight, type HighlightOptions } from './highlight.js';
import { gfmFeatures, gfmFeaturesOf, gfmTriggers, type GfmFeature } from './gfm-features.js';
import { isEmptySanitizeExtension, type SanitizeExtension } from '../config/sanitize.js';
import { createSanitizeSchema, hastAttributeName } from './sanitize-schema.js';
import { componentTag, directiveTrigger, isImageFileValue, markerJson, rehypeComponentMarkers, remarkComponents, slotTag, type ComponentUse } from './directives.js';

/**
 * The remark and rehype plugins of the config (`markdown.remarkPlugins`, `markdown.rehypePlugins`),
 * found: plain data, so they cross to the worker threads, which import them where they render.
 */
export interface MarkdownPlugins {
  remark: readonly PluginRef[];
  rehype: readonly PluginRef[];
  /** Code highlighting (`markdown.highlight`), set only when it is not the default. */
  highlight?: HighlightOptions;
  /** What the site adds to the sanitiser's allow-list (`markdown.sanitize`), set only when it adds something. */
  sanitize?: SanitizeExtension;
}

/** No plugins: the pipeline as it is built in. */
export const noMarkdownPlugins: MarkdownPlugins = { remark: [], rehype: [] };

/** Whether any plugin is configured. */
export function hasMarkdownPlugins(plugins: MarkdownPlugins | undefined): plugins is MarkdownPlugins {
  return Boolean(plugins && (plugins.remark.length || plugins.rehype.length || plugins.highlight !== undefined || plugins.sanitize !== undefined));
}

/** The identity of the plugins for cache keys ("" for none, so keys without plugins stay as they were). */
export function markdownPluginsId(plugins: MarkdownPlugins | undefined): string {
  if (!hasMarkdownPlugins(plugins)) return '';
  const highlight = plugins.highlight === undefined ? '' : `\nhighlight ${JSON.stringify(plugins.highlight)}`;
  // The allow-list decides what of a document survives: another one renders every document again.
  const sanitize = plugins.sanitize === undefined ? '' : `\nsanitize ${JSON.stringify(plugins.sanitize)}`;
  return `remark ${pluginsIdentity(plugins.remark)}\nrehype ${pluginsIdentity(plugins.rehype)}${highlight}${sanitize}`;
}

/** The Markdown plugins of a config. */
export function markdownPluginsOf(config: { extensions: Omit<MarkdownPlugins, 'highlight' | 'sanitize'>; markdown: { highlight: HighlightOptions; sanitize?: SanitizeExtension } }): MarkdownPlugins {
  const { highlight, sanitize } = config.markdown;
  const custom = JSON.stringify(highlight) !== JSON.stringify(defaultHighlight);
  return { remark: config.extensions.remark, rehype: config.extensions.rehype, ...(custom ? { highlight } : {}), ...(isEmptySanitizeExtension(sanitize) ? {} : { sanitize }) };
}

/** The error a loader records for a document the pipeline failed on: the parser's, or a plugin's naming it and its config field. */
export function markdownFailure(failed: FailedMarkdown, file: string, line: number): { code: 'MARKDOWN_FAILED' | 'PLUGIN_FAILED'; message: string; file: string; line: number; field?: string } {
  if (!failed.plugin) return { code: 'MARKDOWN_FAILED', message: failed.error, file, line };
  const { specifier, field } = failed.plugin;
  return { code: 'PLUGIN_FAILED', message: `Markdown plugin "${specifier}" (${field} in the config) failed on this document: ${failed.error}`, file, line, field };
}

/** A configured plugin threw while a document went through it (or while it was set up). */
export class MarkdownPluginError extends Error {
  constructor(readonly plugin: PluginRef, cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

type Processor = {
  parse(text: string): MdastNode;
  /** `file`: the document's text, which the steps read positions in (rehypeLocalImages). */
  run(tree: MdastNode, file?: string): Promise<MdastNode>;
  stringify(tree: MdastNode): string;
};
/** What of an mdast tree the autolink check reads (and of the hast tree, its local images). */
type MdastNode = { type: string; value?: string; children?: MdastNode[]; data?: { localImages?: LocalImageRef[]; components?: ComponentUse[] } };
type MarkdownStack = typeof import('./markdown-stack.js');

/** The processors made so far, by the GFM extensions they parse with. */
const processors = new Map<string, Promise<Processor>>();

/** The bundled stack (see markdown-stack.ts) when there is one as new as the installed packages. */
function bundledStack(): string | undefined {
  if (fileURLToPath(import.meta.url).endsWith('.ts')) return undefined;
  const root = generatorRoot();
  const file = join(root, 'lib', 'markdown-stack.js');
  // An installed package ships the stack it was published with, built from the versions it pins.
  if (!isSourceCheckout()) return existsSync(file) ? file : undefined;
  try {
    return statSync(file).mtimeMs >= statSync(join(root, 'node_modules', '.package-lock.json')).mtimeMs ? file : undefined;
  } catch {
    return undefined;
  }
}

async function loadStack(): Promise<MarkdownStack> {
  const bundle = bundledStack();
  if (bundle) {
    try {
      return (await import(pathToFileURL(bundle).href)) as MarkdownStack;
    } catch {
      // Fall back to the packages themselves.
    }
  }
  return import('./markdown-stack.js');
}

/** GFM as remark-gfm adds it, with only the extensions of `features` (in remark-gfm's order). */
function remarkGfmSubset(stack: MarkdownStack, features: readonly GfmFeature[]) {
  const syntax = { autolinkLiteral: stack.gfmAutolinkLiteral, footnote: stack.gfmFootnote, strikethrough: stack.gfmStrikethrough, table: stack.gfmTable, taskListItem: stack.gfmTaskListItem };
  const tree = {
    autolinkLiteral: stack.gfmAutolinkLiteralFromMarkdown,
    footnote: stack.gfmFootnoteFromMarkdown,
    strikethrough: stack.gfmStrikethroughFromMarkdown,
    table: stack.gfmTableFromMarkdown,
    taskListItem: stack.gfmTaskListItemFromMarkdown,
  };
  return function (this: { data(): Record<string, unknown[] | undefined> }) {
    if (!features.length) return;
    const data = this.data();
    (data.micromarkExtensions ??= []).push(stack.combineExtensions(features.map((feature) => syntax[feature]())));
    (data.fromMarkdownExtensions ??= []).push(features.map((feature) => tree[feature]()));
  };
}

/**
 * The processor with the GFM extensions of `gfm`, or with remark-gfm itself (the reference the
 * tests compare with), and the configured plugins; with `directives`, the directive syntax of
 * remark-directive and the components' steps (directives.ts), only for a document whose text has
 * a trigger of it (`directiveTrigger`), so every other document is parsed as it was.
 */
async function createProcessor(gfm: readonly GfmFeature[] | 'remark-gfm', plugins: MarkdownPlugins = noMarkdownPlugins, directives = false): Promise<Processor> {
  const stack = await loadStack();
  const { unified, remarkParse, remarkGfm, remarkDirective, remarkRehype, rehypeSlug, rehypeSanitize, defaultSchema, rehypeStringify } = stack;
  const schema = createSanitizeSchema(defaultSchema, plugins.sanitize);
  if (directives) {
    // The components' own elements, which rehypeComponentMarkers turns into comments after the sanitiser.
    schema.tagNames = [...(schema.tagNames ?? []), componentTag, slotTag];
    schema.attributes = { ...schema.attributes, [componentTag]: ['dataComponent'], [slotTag]: ['dataSlot'] };
  }
  const [remarkPlugins, rehypePlugins] = await Promise.all([importPlugins(plugins.remark), importPlugins(plugins.rehype)]);
  // Typed loosely: the configured plugins' types are not known here.
  type Chain = { use(plugin: unknown, options?: unknown): Chain; freeze(): unknown };
  let chain = unified()
    .use(remarkParse)
    .use(gfm === 'remark-gfm' ? remarkGfm : (remarkGfmSubset(stack, gfm) as unknown as typeof remarkGfm)) as unknown as Chain;
  if (directives) chain = chain.use(remarkDirective);
  // The configured plugins work on the trees the built-in steps make, and their output is
  // sanitised like the rest: a plugin cannot bring in a script either. The headings have their
  // ids (as the page will have them) before the rehype plugins run, so a plugin that links or
  // lists them finds them.
  for (const [attacher, options] of remarkPlugins) chain = chain.use(attacher, options);
  // After the site's remark plugins, which may handle directives of their own first.
  if (directives) chain = chain.use(remarkComponents);
  chain = chain.use(remarkRehype).use(rehypeSlug).use(rehypeSectionIds);
  for (const [attacher, options] of rehypePlugins) chain = chain.use(attacher, options);
  chain = chain
    .use(rehypeSanitize, schema)
    .use(rehypeHighlight, plugins.highlight ?? defaultHighlight)
    .use(rehypeExternalLinks)
    .use(rehypeLocalImages);
  if (directives) chain = chain.use(rehypeComponentMarkers);
  return chain.use(rehypeStringify, { closeSelfClosing: true }).freeze() as unknown as Processor;
}

type Attacher = (this: unknown, ...args: unknown[]) => unknown;
type Transformer = (this: unknown, tree: unknown, file: unknown, next?: (error?: unknown, ...rest: unknown[]) => void) => unknown;

/** Imports the plugins, each wrapped so that what it throws names it. */
async function importPlugins(refs: readonly PluginRef[]): Promise<[Attacher, Record<string, unknown>][]> {
  return Promise.all(refs.map(async (ref): Promise<[Attacher, Record<string, unknown>]> => {
    const exported = ((await import(ref.url)) as { default?: unknown }).default;
    if (typeof exported !== 'function') throw new MarkdownPluginError(ref, new Error('its default export is not a function'));
    return [guardedAttacher(exported as Attacher, ref), ref.options];
  }));
}

/**
 * A plugin whose errors are MarkdownPluginErrors naming it: those of its attacher and of its
 * transformer, whether that is synchronous, returns a promise, or calls back.
 */
function guardedAttacher(attacher: Attacher, ref: PluginRef): Attacher {
  return function (this: unknown, ...args: unknown[]) {
    let transformer: unknown;
    try {
      transformer = attacher.apply(this, args);
    } catch (error) {
      throw new MarkdownPluginError(ref, error);
    }
    if (typeof transformer !== 'function') return transformer;
    const run = transformer as Transformer;
    // Three parameters: unified calls it back-style, and it calls `next` however `run` finishes.
    return function (this: unknown, tree: unknown, file: unknown, next: (error?: unknown, ...rest: unknown[]) => void) {
      const fail = (error: unknown) => next(new MarkdownPluginError(ref, error));
      try {
        if (run.length >= 3) {
          run.call(this, tree, file, (error?: unknown, ...rest: unknown[]) => (error ? fail(error) : next(undefined, ...rest)));
          return;
        }
        const result = run.call(this, tree, file);
        if (result instanceof Error) fail(result);
        else if (result && typeof (result as Promise<unknown>).then === 'function') (result as Promise<unknown>).then((value) => next(undefined, value), fail);
        else next(undefined, result);
      } catch (error) {
        fail(error);
      }
    };
  };
}

/**
 * Adds rel="noopener" to links that leave the site; gives ids that start with a digit a letter
 * first (those a rehype plugin made too: the headings' have it already, rehypeSectionIds); drops
 * the class attributes the sanitiser emptied.
 */
function rehypeExternalLinks() {
  return (tree: HastRoot) => {
    // A stack, not recursion: a deeply nested document must not overflow the call stack here.
    const stack: (HastRoot | Element)[] = [tree];
    for (let node = stack.pop(); node; node = stack.pop()) {
      for (const child of node.children) {
        if (child.type !== 'element') continue;
        const { href, id } = child.properties;
        if (child.tagName === 'a' && typeof href === 'string' && /^https?:\/\//.test(href)) child.properties.rel = ['noopener'];
        if (typeof id === 'string' && /^\d/.test(id)) child.properties.id = `section-${id}`;
        // The sanitiser keeps a class attribute whose every class it refused, empty: `class=""`.
        if (Array.isArray(child.properties.className) && child.properties.className.length === 0) delete child.properties.className;
        stack.push(child);
      }
    }
  };
}

/**
 * Gives the ids rehype-slug made that start with a digit a letter first (`section-2024-review`),
 * before the rehype plugins run: a link a plugin makes to a heading names the id it keeps.
 */
function rehypeSectionIds() {
  return (tree: HastRoot) => {
    const stack: (HastRoot | Element)[] = [tree];
    for (let node = stack.pop(); node; node = stack.pop()) {
      for (const child of node.children) {
        if (child.type !== 'element') continue;
        const { id } = child.properties;
        if (typeof id === 'string' && /^\d/.test(id) && /^h[1-6]$/.test(child.tagName)) child.properties.id = `section-${id}`;
        stack.push(child);
      }
    }
  };
}

/**
 * An image of a document whose `src` is a path beside it (`![A square](square.png)`), found after
 * the sanitiser: its `<img>` is left in the HTML between the comments `<!--image N-->` and
 * `<!--/image-->` (N its index here), which the loader replaces with the published picture
 * (content/markdown-images.ts). Comments cannot come from the document or a plugin (the sanitiser
 * drops them), so every marker is this step's.
 */
export interface LocalImageRef {
  /** The `src` as the HTML has it (remark-rehype's normalised URL). */
  src: string;
  alt: string;
  title?: string;
  /** Where the path is written (the image's start when it cannot be found), 1-based, in the lines and columns of the Markdown given to the pipeline. */
  line: number;
  column: number;
}

/** Whether an image's `src` is a path beside the document: no scheme, not a site path ("/…", "//host"), not a fragment or query alone. */
export function isLocalImageSrc(src: string): boolean {
  return src !== '' && !/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(src) && !/^[/#?\\]/.test(src);
}

/** Marks the images whose `src` is a path beside the document (see LocalImageRef), and lists them in the root's data. */
function rehypeLocalImages() {
  return (tree: HastRoot, file: { value?: unknown }) => {
    const text = typeof file.value === 'string' ? file.value : '';
    // In document order (a stack, children pushed last first), then marked: an image may be a
    // child of a link, a table cell, a footnote.
    const found: [Element, HastRoot | Element][] = [];
    const stack: [HastRoot | Element, (HastRoot | Element)?][] = [[tree]];
    for (let entry = stack.pop(); entry; entry = stack.pop()) {
      const [node, parent] = entry;
      if (parent && node.type === 'element' && node.tagName === 'img' && typeof node.properties.src === 'string' && isLocalImageSrc(node.properties.src)) found.push([node, parent]);
      for (let index = node.children.length - 1; index >= 0; index--) {
        const child = node.children[index]!;
        if (child.type === 'element') stack.push([child, node]);
      }
    }
    const images = found.map(([image, parent], index): LocalImageRef => {
      const { src, alt, title } = image.properties as { src: string; alt?: unknown; title?: unknown };
      parent.children.splice(parent.children.indexOf(image), 1, { type: 'comment', value: `image ${index}` }, image, { type: 'comment', value: '/image' });
      return { src, alt: typeof alt === 'string' ? alt : '', ...(typeof title === 'string' ? { title } : {}), ...placeOfPath(text, image, src) };
    });
    if (images.length) tree.data = { ...tree.data, localImages: images } as HastRoot['data'];
  };
}

/** Where an image's path is written in `text`: the last place within the image's own span that spells it (the destination follows the alt text), else the image's start. */
function placeOfPath(text: string, image: Element, src: string): { line: number; column: number } {
  const start = image.position?.start;
  const end = image.position?.end;
  if (!start) return { line: 1, column: 1 };
  if (start.offset !== undefined && end?.offset !== undefined) {
    const span = text.slice(start.offset, end.offset);
    let decoded = src;
    try {
      decoded = decodeURI(src);
    } catch {
      // Written as it is.
    }
    const at = Math.max(span.lastIndexOf(src), span.lastIndexOf(decoded));
    if (at !== -1) {
      const before = text.slice(0, start.offset + at);
      return { line: before.split('\n').length, column: start.offset + at - before.lastIndexOf('\n') };
    }
  }
  return { line: start.line, column: start.column };
}

/** Renders Markdown to HTML, through the configured plugins. The same input always gives the same output. */
export async function renderMarkdown(markdown: string, plugins: MarkdownPlugins = noMarkdownPlugins): Promise<string> {
  return (await renderMarkdownTree(markdown, plugins)).html;
}

/** What a document's HTML comes with: its local images (rehypeLocalImages) and its components (directives.ts). */
type TreeOutput = { html: string; images?: LocalImageRef[]; components?: ComponentUse[] };

/** Renders Markdown to HTML with its local images (rehypeLocalImages) and components. */
async function renderMarkdownTree(markdown: string, plugins: MarkdownPlugins): Promise<TreeOutput> {
  const features = gfmFeaturesOf(markdown);
  const directives = directiveTrigger.test(markdown);
  if (!features.includes('autolinkLiteral')) return renderTreeWith(await processorFor(features, plugins, directives), markdown);
  // The text names a trigger of autolink literals, but often only in a link's destination: parse
  // without them, and parse again with them only when the text of the document has a trigger.
  const without = features.filter((feature) => feature !== 'autolinkLiteral');
  const processor = await processorFor(without, plugins, directives);
  const tree = processor.parse(markdown);
  if (gfmTriggers.autolinkLiteral.test(textOf(tree))) return renderTreeWith(await processorFor(features, plugins, directives), markdown);
  return stringifyTree(processor, await processor.run(tree, markdown));
}

/** Renders Markdown with the GFM extensions of `gfm`, or with remark-gfm itself (and the directives, when its text has their trigger). */
export async function renderMarkdownWith(markdown: string, gfm: readonly GfmFeature[] | 'remark-gfm', plugins: MarkdownPlugins = noMarkdownPlugins): Promise<string> {
  return (await renderTreeWith(await processorFor(gfm, plugins, directiveTrigger.test(markdown)), markdown)).html;
}

async function renderTreeWith(processor: Processor, markdown: string): Promise<TreeOutput> {
  return stringifyTree(processor, await processor.run(processor.parse(markdown), markdown));
}

function stringifyTree(processor: Processor, tree: MdastNode): TreeOutput {
  const images = tree.data?.localImages;
  const components = tree.data?.components;
  return { html: processor.stringify(tree), ...(images ? { images } : {}), ...(components ? { components } : {}) };
}

function processorFor(gfm: readonly GfmFeature[] | 'remark-gfm', plugins: MarkdownPlugins, directives: boolean): Promise<Processor> {
  // The plugins' URLs (with a local file's hash) and options: an edited plugin gets a processor of its own.
  const withPlugins = hasMarkdownPlugins(plugins) ? `\n${JSON.stringify([...[plugins.remark, plugins.rehype].map((refs) => refs.map((ref) => [ref.url, ref.options])), plugins.highlight ?? null, plugins.sanitize ?? null])}` : '';
  const key = (typeof gfm === 'string' ? gfm : gfm.join(' ')) + (directives ? ' directives' : '') + withPlugins;
  let processor = processors.get(key);
  if (!processor) {
    processors.set(key, (processor = createProcessor(gfm, plugins, directives)));
    // A plugin that failed to load fails every document; the next build tries again.
    processor.catch(() => processors.delete(key));
  }
  return processor;
}

/**
 * The text of every text node of a tree, run together: where autolink literals are found (a
 * literal is never in a link's destination, code or HTML). Running them together can only make a
 * trigger where there is none, which costs a second parse, never a wrong page.
 */
function textOf(tree: MdastNode): string {
  const parts: string[] = [];
  const stack = [tree];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.type === 'text') parts.push(node.value ?? '');
    if (node.children) for (let index = node.children.length - 1; index >= 0; index--) stack.push(node.children[index]!);
  }
  return parts.join('');
}

/** A Markdown document after the pipeline: its HTML, its word count, its local images (marked in the HTML) and its components (their markers in the HTML) when it has any. */
export interface RenderedMarkdown {
  html: string;
  words: number;
  images?: LocalImageRef[];
  components?: ComponentUse[];
}

/** A document the pipeline could not render, and why (plain data: it crosses threads). */
export interface FailedMarkdown {
  error: string;
  /** Set when a configured plugin threw: its name or path as the config gives it, and the config field. */
  plugin?: { specifier: string; field: string };
}

/** Renders a document and counts its words (what the Markdown cache stores); a failure of the parser or of a plugin comes back as data. */
export async function renderMarkdownDocument(markdown: string, plugins: MarkdownPlugins = noMarkdownPlugins): Promise<RenderedMarkdown | FailedMarkdown> {
  try {
    const { html, images, components } = await renderMarkdownTree(markdown, plugins);
    return { html: compactString(html), words: countWords(markdown), ...(images ? { images } : {}), ...(components ? { components } : {}) };
  } catch (error) {
    if (error instanceof MarkdownPluginError) return { error: error.message, plugin: { specifier: error.plugin.specifier, field: error.plugin.field } };
    const message = error instanceof RangeError ? 'it is nested too deeply for the Markdown parser' : `the Markdown parser failed: ${error instanceof Error ? error.message : String(error)}`;
    return { error: message };
  }
}

/**
 * The same text, held at one byte a character when its characters allow it. After
 * rehype-sanitize, hast-util-to-html's output came out as a two-byte string even when every
 * character was ASCII (a heading was enough: V8 builds a string at the width of the strings it
 * is made from), and a page that includes such HTML is two-byte too: the 1,000-post fixture's
 * pages took 19.9 MB of heap for 10.4 MB of text. Read back from UTF-8, V8 makes the string one
 * byte a character whenever it can (about 10 µs for a 6 KB post).
 */
function compactString(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

/** Bounds on a Markdown document, checked before it is parsed (config: `markdown:`). */
export interface MarkdownLimits {
  /** Bytes of Markdown in one document. */
  maxBytes: number;
  /** Block quotes and lists inside one another. */
  maxNesting: number;
  /** Link and emphasis marks (`[ ] * _ ~`) in one paragraph. */
  maxParagraphMarks: number;
}

/**
 * Whether a character is a link or emphasis mark: `[`, `]` (links, images, footnote references)
 * and `*`, `_`, `~` (emphasis, strikethrough). micromark settles each of them, matched or not, by
 * splicing or scanning the event list of the whole paragraph, so a paragraph's time grows with
 * the square of their number. One paragraph of `[a](` (the link destinations left open) × 1,000,
 * 4,000, 16,000 and 64,000 took 19 ms, 57 ms, 2.2 s and 24 s through renderMarkdownDocument on
 * this 2-core machine (one run each); at 64,000, `[a]` took 16.5 s and `*a` 45 s; `[a](<`, `![a](` and `~a` grow
 * alike (20,000 unclosed `[` took 2.3 s), `<a`, `&a`, `` `a `` and line breaks do not. At 1,000 marks a paragraph takes 4 ms
 * (`[a](`, `[a]`, `[[[[`) to 10 ms (`*a`, `~a`), and a 256 KB document made of such paragraphs
 * about 2 s, as long as one of ordinary links; the most in one paragraph of 643 README and
 * CHANGELOG files in node_modules was 268, of the site's content 28.
 */
function isMark(char: number): boolean {
  return char === 91 || char === 93 || char === 42 || char === 95 || char === 126;
}

/** Every mark `isMark` counts. */
const markPattern = /[[\]*_~]/g;

/** A blank line as CommonMark has it (spaces and tabs only): the end of every paragraph. */
const blankLine = /^[ \t]*\r?$/;

/**
 * The first way a document goes past the limits, with the line (1-based, in `text`) and column
 * where it does; undefined when it is within them. One pass over the text; nesting is not
 * counted in fenced code.
 */
export function checkMarkdownLimits(text: string, limits: MarkdownLimits): { message: string; line: number; column?: number } | undefined {
  const bytes = Buffer.byteLength(text);
  if (bytes > limits.maxBytes) {
    return { message: `the document has ${bytes.toLocaleString('en')} bytes of Markdown, more than the ${limits.maxBytes.toLocaleString('en')} allowed (markdown.maxBytes)`, line: 1 };
  }
  let fence: string | undefined;
  let marks = 0;
  let lineNumber = 0;
  // No paragraph has more marks than the whole document: within the limit (nearly always), they
  // are not counted line by line, which took most of a rebuild's check of 1,000 posts (35 ms).
  const countMarks = text.length - text.replace(markPattern, '').length > limits.maxParagraphMarks;
  for (const line of text.split('\n')) {
    lineNumber++;
    // Marks are counted in code as well: where this scan sees a fence, micromark may not (a fence
    // line inside an HTML block), and a paragraph skipped here would escape the limit.
    if (blankLine.test(line)) marks = 0;
    for (let at = 0; countMarks && at < line.length; at++) {
      if (isMark(line.charCodeAt(at)) && ++marks > limits.maxParagraphMarks) {
        return { message: `this paragraph has more than the ${limits.maxParagraphMarks.toLocaleString('en')} link and emphasis marks ([ ] * _ ~) allowed (markdown.maxParagraphMarks)`, line: lineNumber, column: at + 1 };
      }
    }
    const fenceMark = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== undefined) {
      if (fenceMark && fenceMark[0] === fence[0] && fenceMark.length >= fence.length) fence = undefined;
      continue;
    }
    if (fenceMark) {
      fence = fenceMark;
      continue;
    }
    let index = 0;
    let quotes = 0;
    for (;;) {
      let probe = index;
      while (line[probe] === ' ' || line[probe] === '\t') probe++;
      if (line[probe] !== '>') break;
      quotes++;
      index = probe + 1;
    }
    const indentStart = index;
    let columns = 0;
    for (; line[index] === ' ' || line[index] === '\t'; index++) columns += line[index] === '\t' ? 4 - (columns % 4) : 1;
    // A list item needs at least two more columns per level, so this never undercounts.
    const lists = /^([-*+]|\d{1,9}[.)])(\s|$)/.test(line.slice(index)) ? Math.floor(columns / 2) + 1 : 0;
    if (quotes + lists > limits.maxNesting) {
      return { message: `quotes and lists are nested ${quotes + lists} deep here, more than the ${limits.maxNesting} allowed (markdown.maxNesting)`, line: lineNumber, column: indentStart + 1 };
    }
  }
  return undefined;
}

/** The limits check of a Markdown body that starts on line `bodyLine` of `file`, as the error a loader reports. */
export function markdownLimitError(body: string, bodyLine: number, file: string, limits: MarkdownLimits): SiteError | undefined {
  const found = checkMarkdownLimits(body, limits);
  return found && new SiteError({ code: 'MARKDOWN_LIMIT', message: found.message, file, line: bodyLine + found.line - 1, column: found.column });
}

/** Raise when the pipeline changes its output in a way its code and package versions do not show. */
const pipelineRevision = 5;
/** The packages whose versions decide the HTML the pipeline makes. */
const pipelinePackages = ['unified', 'remark-parse', 'remark-gfm', 'remark-rehype', 'rehype-slug', 'rehype-sanitize', 'hast-util-sanitize', 'rehype-stringify', 'micromark', 'micromark-extension-gfm', 'remark-directive', 'micromark-extension-directive', 'mdast-util-directive', ...gfmFeatures.map((feature) => `micromark-extension-gfm-${feature.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`), 'mdast-util-from-markdown', 'mdast-util-to-hast', 'hast-util-to-html'];
let pipelineId: string | undefined;

/**
 * Identifies the pipeline for the Markdown cache: a revision, the source of the functions that
 * shape the output, and the installed versions of the unified packages (read from their
 * package.json files, without loading them). Any change gives new cache keys.
 */
export function markdownPipelineId(): string {
  pipelineId ??= [
    `revision ${pipelineRevision}`,
    createProcessor.toString(),
    guardedAttacher.toString(),
    remarkGfmSubset.toString(),
    gfmFeaturesOf.toString(),
    renderMarkdown.toString(),
    renderMarkdownTree.toString(),
    rehypeLocalImages.toString(),
    placeOfPath.toString(),
    isLocalImageSrc.toString(),
    textOf.toString(),
    JSON.stringify(Object.entries(gfmTriggers).map(([feature, trigger]) => [feature, trigger.source, trigger.flags])),
    rehypeExternalLinks.toString(),
    rehypeSectionIds.toString(),
    remarkComponents.toString(),
    rehypeComponentMarkers.toString(),
    isImageFileValue.toString(),
    markerJson.toString(),
    directiveTrigger.source,
    createSanitizeSchema.toString(),
    hastAttributeName.toString(),
    countWords.toString(),
    highlightId(defaultHighlight),
    ...pipelinePackages.map((name) => `${name}@${installedVersion(name)}`),
  ].join('\n');
  return pipelineId;
}


/** Counts the words of Markdown text, ignoring syntax characters. */
export function countWords(markdown: string): number {
  const words = markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/[#>*_`|~\-[\]()!]+/g, ' ')
    .split(/\s+/)
    .filter((word) => /[\p{L}\p{N}]/u.test(word));
  return words.length;
}

/** Reading time in whole minutes: words / words-per-minute, at least 1. */
export function readingMinutes(words: number, wordsPerMinute: number): number {
  return Math.max(1, Math.round(words / wordsPerMinute));
}
