/**
 * The unified packages of the Markdown pipeline, in one module. scripts/build-lib.js bundles it,
 * dependencies included, into lib/markdown-stack.js: one file that loads in about 20 ms, where
 * the 150-odd modules of the packages take about 100 ms one by one.
 */
export { unified } from 'unified';
export { default as remarkParse } from 'remark-parse';
export { default as remarkGfm } from 'remark-gfm';
// Generic directives (`:::callout`, `::video`, `:badge[…]`): components in Markdown (directives.ts).
export { default as remarkDirective } from 'remark-directive';
export { default as remarkRehype } from 'remark-rehype';
export { default as rehypeSlug } from 'rehype-slug';
export { default as rehypeSanitize, defaultSchema } from 'rehype-sanitize';
export { default as rehypeStringify } from 'rehype-stringify';
// The GFM extensions one by one, so a document is parsed with only those it can use (gfm-features.ts).
export { combineExtensions } from 'micromark-util-combine-extensions';
export { gfmAutolinkLiteral } from 'micromark-extension-gfm-autolink-literal';
export { gfmFootnote } from 'micromark-extension-gfm-footnote';
export { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
export { gfmTable } from 'micromark-extension-gfm-table';
export { gfmTaskListItem } from 'micromark-extension-gfm-task-list-item';
export { gfmAutolinkLiteralFromMarkdown } from 'mdast-util-gfm-autolink-literal';
export { gfmFootnoteFromMarkdown } from 'mdast-util-gfm-footnote';
export { gfmStrikethroughFromMarkdown } from 'mdast-util-gfm-strikethrough';
export { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
export { gfmTaskListItemFromMarkdown } from 'mdast-util-gfm-task-list-item';
