import { describe, expect, it } from 'vitest';
import { checkMarkdownLimits, renderMarkdown, renderMarkdownDocument } from '../../src/content/markdown';

const limits = { maxBytes: 256 * 1024, maxNesting: 32 };

describe('the Markdown pipeline', () => {
  it('drops javascript:, data: and vbscript: URLs and keeps web, mail, phone and local links', async () => {
    const html = await renderMarkdown('[a](javascript:alert(1)) ![b](data:text/html,hi) [c](VBScript:x) [d](https://a.example) [e](mailto:a@b.example) [f](tel:+4712345678) [g](/blog/) [h](#top)');
    expect(html).not.toMatch(/javascript:|data:|vbscript:/i);
    for (const href of ['https://a.example', 'mailto:a@b.example', 'tel:+4712345678', '/blog/', '#top']) expect(html).toContain(`href="${href}"`);
    expect(html).toContain('<a href="https://a.example" rel="noopener">d</a>');
  });

  it('keeps heading ids as links to them expect, and code languages', async () => {
    const html = await renderMarkdown('## Why repair wins\n\n```js\nx()\n```\n');
    expect(html).toContain('<h2 id="why-repair-wins">Why repair wins</h2>');
    expect(html).toContain('<code class="language-js">');
  });

  it('turns a parser crash into an error instead of throwing', async () => {
    // Nesting past the limit never reaches the parser in a build; called directly, the failure is data.
    const outcome = await renderMarkdownDocument('>'.repeat(5_000));
    expect('error' in outcome ? outcome.error : 'rendered').toMatch(/nested too deeply|rendered/);
  });
});

describe('checkMarkdownLimits', () => {
  it('accepts ordinary documents, code fences included', () => {
    expect(checkMarkdownLimits('# Title\n\n> a quote\n> > nested\n\n- a\n  - b\n    - c\n\n```\n' + '    '.repeat(60) + '- not a list\n```\n', limits)).toBeUndefined();
  });

  it('names the line where quotes and lists nest too deep', () => {
    expect(checkMarkdownLimits(`intro\n\n${'>'.repeat(2000)} x\n`, limits)).toMatchObject({ line: 3, message: expect.stringContaining('nested 2000 deep') });
    const list = Array.from({ length: 40 }, (_, i) => `${'  '.repeat(i)}- item`).join('\n');
    expect(checkMarkdownLimits(list, limits)).toMatchObject({ line: 33 });
  });

  it('refuses a document over the size limit and a paragraph of unclosed brackets', () => {
    expect(checkMarkdownLimits('x'.repeat(300 * 1024), limits)?.message).toMatch(/307,200 bytes of Markdown, more than the 262,144 allowed \(markdown\.maxBytes\)/);
    expect(checkMarkdownLimits(`text\n\n${'['.repeat(20_000)}x`, limits)).toMatchObject({ line: 3, message: expect.stringContaining('unclosed') });
    // Brackets do not add up across paragraphs.
    expect(checkMarkdownLimits(Array(100).fill('[a [b [c').join('\n\n'), limits)).toBeUndefined();
  });
});
