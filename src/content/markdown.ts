/**
 * The Markdown pipeline: remark-parse, GFM, remark-rehype (raw HTML dropped), heading ids,
 * `rel="noopener"` on external links, rehype-stringify. The unified stack is loaded on first use,
 * so a build that needs no Markdown (every document comes from the cache) never pays for it.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Root as HastRoot, Element } from 'hast';
import { generatorRoot, installedVersion } from '../cache/disk-cache.js';

type Processor = { process(text: string): Promise<{ toString(): string }> };
type MarkdownStack = typeof import('./markdown-stack.js');

let processor: Promise<Processor> | undefined;

/** The bundled stack (see markdown-stack.ts) when there is one as new as the installed packages. */
function bundledStack(): string | undefined {
  if (fileURLToPath(import.meta.url).endsWith('.ts')) return undefined;
  const root = generatorRoot();
  const file = join(root, 'lib', 'markdown-stack.js');
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
  const [{ unified }, { default: remarkParse }, { default: remarkGfm }, { default: remarkRehype }, { default: rehypeSlug }, { default: rehypeStringify }] =
    await Promise.all([
      import('unified'),
      import('remark-parse'),
      import('remark-gfm'),
      import('remark-rehype'),
      import('rehype-slug'),
      import('rehype-stringify'),
    ]);
  return { unified, remarkParse, remarkGfm, remarkRehype, rehypeSlug, rehypeStringify };
}

async function createProcessor(): Promise<Processor> {
  const { unified, remarkParse, remarkGfm, remarkRehype, rehypeSlug, rehypeStringify } = await loadStack();
  return unified()
    .use(remarkParse)
    .use(remarkGfm)
    .use(remarkRehype)
    .use(rehypeSlug)
    .use(rehypeExternalLinks)
    .use(rehypeStringify, { closeSelfClosing: true })
    .freeze() as unknown as Processor;
}

/** Adds rel="noopener" to links that leave the site; gives heading ids that start with a digit a letter first. */
function rehypeExternalLinks() {
  return (tree: HastRoot) => {
    const visit = (node: HastRoot | Element) => {
      for (const child of node.children) {
        if (child.type !== 'element') continue;
        const { href, id } = child.properties;
        if (child.tagName === 'a' && typeof href === 'string' && /^https?:\/\//.test(href)) child.properties.rel = ['noopener'];
        if (typeof id === 'string' && /^\d/.test(id)) child.properties.id = `section-${id}`;
        visit(child);
      }
    };
    visit(tree);
  };
}

/** Renders Markdown to HTML. The same input always gives the same output. */
export async function renderMarkdown(markdown: string): Promise<string> {
  processor ??= createProcessor();
  const file = await (await processor).process(markdown);
  return file.toString();
}

/** A Markdown document after the pipeline: its HTML and its word count. */
export interface RenderedMarkdown {
  html: string;
  words: number;
}

/** Renders a document and counts its words (what the Markdown cache stores). */
export async function renderMarkdownDocument(markdown: string): Promise<RenderedMarkdown> {
  return { html: await renderMarkdown(markdown), words: countWords(markdown) };
}

/** Raise when the pipeline changes its output in a way its code and package versions do not show. */
const pipelineRevision = 1;
/** The packages whose versions decide the HTML the pipeline makes. */
const pipelinePackages = ['unified', 'remark-parse', 'remark-gfm', 'remark-rehype', 'rehype-slug', 'rehype-stringify', 'micromark', 'micromark-extension-gfm', 'mdast-util-from-markdown', 'mdast-util-to-hast', 'hast-util-to-html'];
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
    rehypeExternalLinks.toString(),
    countWords.toString(),
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
