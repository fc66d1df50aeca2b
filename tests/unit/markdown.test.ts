import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load';
import {
  checkMarkdownLimits,
  markdownLimitError,
  renderMarkdown,
  renderMarkdownDocument,
} from '../../src/content/markdown';
import { repoRoot } from '../helpers/paths';

const limits = { maxBytes: 256 * 1024, maxNesting: 32, maxParagraphMarks: 1000 };

describe('the Markdown pipeline', () => {
  it('drops javascript:, data: and vbscript: URLs and keeps web, mail, phone and local links', async () => {
    const html = await renderMarkdown(
      '[a](javascript:alert(1)) ![b](data:text/html,hi) [c](VBScript:x) [d](https://a.example) [e](mailto:a@b.example) [f](tel:+4712345678) [g](/blog/) [h](#top)',
    );
    expect(html).not.toMatch(/javascript:|data:|vbscript:/i);
    for (const href of ['https://a.example', 'mailto:a@b.example', 'tel:+4712345678', '/blog/', '#top'])
      expect(html).toContain(`href="${href}"`);
    expect(html).toContain('<a href="https://a.example" rel="noopener">d</a>');
  });

  it('keeps heading ids as links to them expect, and code languages', async () => {
    const html = await renderMarkdown('## Why repair wins\n\n```js\nx()\n```\n');
    expect(html).toContain('<h2 id="why-repair-wins">Why repair wins</h2>');
    expect(html).toContain('<code class="language-js">');
  });

  it("gives a document's HTML at one byte a character when its characters allow it, as a page that includes it then is", async () => {
    // V8's serializer writes a one-byte string as \`"\`, a two-byte one as \`c\` (after a padding byte when needed).
    const oneByte = (text: string) => serialize(text)[2] === 0x22;
    const html = (outcome: Awaited<ReturnType<typeof renderMarkdownDocument>>) =>
      'html' in outcome ? outcome.html : '';
    // rehype-sanitize's heading made hast-util-to-html's output two-byte, though every character is ASCII.
    const ascii = html(
      await renderMarkdownDocument(
        '# Repair\n\nFix it, [then wear it](https://a.example). Café, naïve: Latin-1 fits too.',
      ),
    );
    expect(ascii).toContain('<h1 id="repair">Repair</h1>');
    expect(oneByte(ascii)).toBe(true);
    // An arrow is beyond Latin-1: two bytes a character, as it must be.
    expect(oneByte(html(await renderMarkdownDocument('# Repair → reuse')))).toBe(false);
  });

  it('turns a parser crash into an error instead of throwing', async () => {
    // Nesting past the limit never reaches the parser in a build; called directly, the failure is data.
    const outcome = await renderMarkdownDocument('>'.repeat(5_000));
    expect('error' in outcome ? outcome.error : 'rendered').toMatch(/nested too deeply|rendered/);
  });
});

describe('checkMarkdownLimits', () => {
  it('accepts ordinary documents, code fences included', () => {
    expect(
      checkMarkdownLimits(
        '# Title\n\n> a quote\n> > nested\n\n- a\n  - b\n    - c\n\n```\n' + '    '.repeat(60) + '- not a list\n```\n',
        limits,
      ),
    ).toBeUndefined();
  });

  it('names the line where quotes and lists nest too deep', () => {
    expect(checkMarkdownLimits(`intro\n\n${'>'.repeat(2000)} x\n`, limits)).toMatchObject({
      line: 3,
      message: expect.stringContaining('nested 2000 deep'),
    });
    const list = Array.from({ length: 40 }, (_, i) => `${'  '.repeat(i)}- item`).join('\n');
    expect(checkMarkdownLimits(list, limits)).toMatchObject({ line: 33 });
  });

  it('refuses a document over the size limit and a paragraph of unclosed brackets', () => {
    expect(checkMarkdownLimits('x'.repeat(300 * 1024), limits)?.message).toMatch(
      /307,200 bytes of Markdown, more than the 262,144 allowed \(markdown\.maxBytes\)/,
    );
    expect(checkMarkdownLimits(`text\n\n${'['.repeat(20_000)}x`, limits)).toMatchObject({
      line: 3,
      column: 1001,
      message: expect.stringContaining('(markdown.maxParagraphMarks)'),
    });
    // Brackets do not add up across paragraphs.
    expect(checkMarkdownLimits(Array(100).fill('[a [b [c').join('\n\n'), limits)).toBeUndefined();
  });

  it('refuses a paragraph of more link and emphasis marks than markdown.maxParagraphMarks, at the mark past it', () => {
    // 250 KB of link destinations left open: 15-25 s in micromark, each `[a](` two marks.
    expect(checkMarkdownLimits('[a]('.repeat(64_000), limits)).toEqual({
      line: 1,
      column: 2001,
      message:
        'this paragraph has more than the 1,000 link and emphasis marks ([ ] * _ ~) allowed (markdown.maxParagraphMarks)',
    });
    for (const shape of ['[a](<', '![a](', '[a]', '*a', 'a* ', '~a', '_a_ ', '[^a] ']) {
      expect(checkMarkdownLimits(`Intro.\n\n${shape.repeat(64_000 / shape.length)}`, limits), shape).toMatchObject({
        line: 3,
        message: expect.stringContaining('(markdown.maxParagraphMarks)'),
      });
    }
    // Over several lines of one paragraph, and in what looks like a fence (inside an HTML block it is not one).
    expect(checkMarkdownLimits(Array(1000).fill('a [b](').join('\n'), limits)).toMatchObject({ line: 501, column: 3 });
    expect(checkMarkdownLimits(`<!--\n\`\`\`\n-->\n${'[a]('.repeat(600)}\n`, limits)).toMatchObject({ line: 4 });
    // Only a line of spaces and tabs ends a paragraph; one of no-break spaces does not.
    expect(checkMarkdownLimits(`${'[a]('.repeat(400)}\n\u00a0\n${'[a]('.repeat(400)}`, limits)).toMatchObject({
      line: 3,
    });
    expect(checkMarkdownLimits(`${'[a]('.repeat(400)}\n \t\n${'[a]('.repeat(400)}`, limits)).toBeUndefined();
    expect(checkMarkdownLimits('[a](b) *c* _d_ ~e~ '.repeat(125), limits)).toBeUndefined();
    expect(
      checkMarkdownLimits(Array(100).fill('[a](b) *c* _d_ ~e~ '.repeat(100)).join('\n\n'), limits),
    ).toBeUndefined();
  });

  it('positions the error in the file as the build reports it', () => {
    const error = markdownLimitError(`Intro.\n\ntext ${'[a]('.repeat(1000)}`, 8, 'content/blog/links/en.md', limits);
    expect(error).toMatchObject({ code: 'MARKDOWN_LIMIT', file: 'content/blog/links/en.md', line: 10, column: 2006 });
  });

  it("leaves the site's content and the test fixtures alone, with the default limits", async () => {
    const config = await loadConfig(join(repoRoot, 'site.config.yaml'));
    expect(config.markdown.maxParagraphMarks).toBe(1000);
    const files = ['content', 'tests/fixtures'].flatMap((dir) =>
      readdirSync(join(repoRoot, dir), { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.md'))
        .map((file) => join(dir, file)),
    );
    expect(files.length).toBeGreaterThan(20);
    for (const file of files)
      expect(checkMarkdownLimits(readFileSync(join(repoRoot, file), 'utf8'), config.markdown), file).toBeUndefined();
  });
});
