/**
 * The sanitiser's schema and `markdown.sanitize` (issue 45, item 6): the site's additions merged
 * into GitHub's schema (a class allowed beside the footnotes' one, not hidden by it), attribute
 * names as HTML or hast writes them, URL attributes never without protocols, and the pipeline's
 * order: heading ids before the site's rehype plugins, sanitising after them.
 */
import { join } from 'node:path';
import { defaultSchema } from 'rehype-sanitize';
import { describe, expect, it } from 'vitest';
import { sanitizeExtensionSchema } from '../../src/config/sanitize';
import { resolvePlugin, type PluginRef } from '../../src/config/plugin-resolve';
import { renderMarkdown } from '../../src/content/markdown';
import { createSanitizeSchema, hastAttributeName } from '../../src/content/sanitize-schema';
import { fixturesRoot, repoRoot } from '../helpers/paths';

const extension = (input: unknown) => sanitizeExtensionSchema.parse(input);

describe('hast attribute names', () => {
  it("takes hast's names as they are and HTML's spellings of them", () => {
    expect(
      [
        'className',
        'class',
        'ariaHidden',
        'aria-hidden',
        'aria-labelledby',
        'aria-describedby',
        'data-callout-type',
        'tabindex',
        'tabIndex',
        'for',
        'title',
      ].map(hastAttributeName),
    ).toEqual([
      'className',
      'className',
      'ariaHidden',
      'ariaHidden',
      'ariaLabelledBy',
      'ariaDescribedBy',
      'dataCalloutType',
      'tabIndex',
      'tabIndex',
      'htmlFor',
      'title',
    ]);
  });
});

describe('the extended schema', () => {
  it("without an extension: GitHub's, with heading ids unprefixed and tel: links", () => {
    const schema = createSanitizeSchema(defaultSchema);
    expect(schema.clobberPrefix).toBe('');
    expect(schema.protocols!.href).toEqual([...defaultSchema.protocols!.href!, 'tel']);
    expect(schema.attributes).toBe(defaultSchema.attributes);
  });

  it('merges a class into the one GitHub allows on links, adds tags, attributes and protocols, and gives a URL attribute protocols', () => {
    const schema = createSanitizeSchema(
      defaultSchema,
      extension({
        tagNames: ['math', 'a'],
        attributes: { a: [['class', 'anchor'], 'aria-hidden'], math: ['xmlns', 'display'], svg: ['xLinkHref'] },
        protocols: { href: ['ftp'] },
      }),
    );
    expect(schema.tagNames!.filter((tag) => tag === 'math' || tag === 'a')).toEqual(['a', 'math']);
    expect(schema.attributes!.a).toContainEqual(['className', 'data-footnote-backref', 'anchor']);
    expect(
      schema.attributes!.a!.filter((entry) => (typeof entry === 'string' ? entry : entry[0]) === 'className'),
    ).toHaveLength(1);
    expect(schema.attributes!.a).toContain('ariaHidden');
    expect(schema.protocols!.href).toEqual([...defaultSchema.protocols!.href!, 'tel', 'ftp']);
    // Else `<svg><a xlink:href="javascript:…">` would pass.
    expect(schema.protocols!.xLinkHref).toEqual(schema.protocols!.href);
    // GitHub's own schema is left as it was.
    expect(defaultSchema.attributes!.a).not.toContainEqual(['className', 'data-footnote-backref', 'anchor']);
  });

  it('a bare name allows every value of an attribute GitHub allows some values of', () => {
    const schema = createSanitizeSchema(defaultSchema, extension({ attributes: { li: ['className'] } }));
    expect(schema.attributes!.li).toEqual(['className']);
  });
});

describe('the pipeline with rehype-autolink-headings', () => {
  const plugin = (options: Record<string, unknown>): PluginRef => {
    const ref = resolvePlugin(['rehype-autolink-headings', options], repoRoot, 'markdown.rehypePlugins[0]');
    if (!('url' in ref)) throw new Error(ref.message);
    return ref;
  };
  const options = {
    behavior: 'append',
    properties: { className: ['anchor'], ariaLabel: 'Link to this section' },
    content: {
      type: 'element',
      tagName: 'span',
      properties: { className: ['visually-hidden'] },
      children: [{ type: 'text', value: '#' }],
    },
  };

  it("finds the headings' ids, and keeps what the extension allows of its link", async () => {
    const html = await renderMarkdown('## 3 steps\n', {
      remark: [],
      rehype: [plugin(options)],
      sanitize: extension({ attributes: { a: [['className', 'anchor']], span: [['className', 'visually-hidden']] } }),
    });
    expect(html).toBe(
      '<h2 id="section-3-steps">3 steps<a class="anchor" aria-label="Link to this section" href="#section-3-steps"><span class="visually-hidden">#</span></a></h2>',
    );
    const plain = await renderMarkdown('## 3 steps\n', { remark: [], rehype: [plugin(options)] });
    expect(plain).toBe(
      '<h2 id="section-3-steps">3 steps<a aria-label="Link to this section" href="#section-3-steps"><span>#</span></a></h2>',
    );
  });

  it('sanitises what a plugin makes with the extended schema: no script, handler or style', async () => {
    const inject = resolvePlugin(
      './rehype-inject.js',
      join(fixturesRoot, 'autolink-headings', 'plugins'),
      'markdown.rehypePlugins[0]',
    ) as PluginRef;
    const html = await renderMarkdown('## Hi\n', {
      remark: [],
      rehype: [inject],
      sanitize: extension({ tagNames: ['span'], attributes: { '*': ['className', 'title'] } }),
    });
    expect(html).toBe('<h2 id="hi">Hi<a href="/" class="anchor">x</a></h2>');
  });
});
