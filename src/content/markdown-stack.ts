/**
 * The unified packages of the Markdown pipeline, in one module. scripts/build-lib.js bundles it,
 * dependencies included, into lib/markdown-stack.js: one file that loads in about 20 ms, where
 * the 150-odd modules of the packages take about 100 ms one by one.
 */
export { unified } from 'unified';
export { default as remarkParse } from 'remark-parse';
export { default as remarkGfm } from 'remark-gfm';
export { default as remarkRehype } from 'remark-rehype';
export { default as rehypeSlug } from 'rehype-slug';
export { default as rehypeSanitize, defaultSchema } from 'rehype-sanitize';
export { default as rehypeStringify } from 'rehype-stringify';
