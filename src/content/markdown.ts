/**
 * The Markdown pipeline: remark-parse, GFM, remark-rehype (raw HTML dropped), heading ids,
 * `rel="noopener"` on external links, rehype-stringify. The unified stack is loaded on first use,
 * so a build that needs no Markdown never pays for it.
 */
import type { Root as HastRoot, Element } from 'hast';

type Processor = { process(text: string): Promise<{ toString(): string }> };

let processor: Promise<Processor> | undefined;

async function createProcessor(): Promise<Processor> {
  const [{ unified }, { default: remarkParse }, { default: remarkGfm }, { default: remarkRehype }, { default: rehypeSlug }, { default: rehypeStringify }] =
    await Promise.all([
      import('unified'),
      import('remark-parse'),
      import('remark-gfm'),
      import('remark-rehype'),
      import('rehype-slug'),
      import('rehype-stringify'),
    ]);
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
