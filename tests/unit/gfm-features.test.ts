/**
 * The Markdown pipeline parses each document with only the GFM extensions its text can trigger
 * (content/gfm-features.ts). The oracle: the same HTML as the full remark-gfm stack, byte for
 * byte, on every example of the CommonMark spec, on GFM examples with and without each trigger,
 * on the site's own posts and pages, and on the benchmark corpus.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gfmFeaturesOf } from '../../src/content/gfm-features';
import { renderMarkdown, renderMarkdownWith } from '../../src/content/markdown';
import { createCorpus } from '../../scripts/bench-corpus';
import { repoRoot } from '../helpers/paths';

const require = createRequire(import.meta.url);

/** Every document's HTML as the build makes it (selected extensions) and with remark-gfm, where they differ. */
async function differences(
  documents: readonly string[],
): Promise<{ markdown: string; selective: string; full: string }[]> {
  const found: { markdown: string; selective: string; full: string }[] = [];
  for (const markdown of documents) {
    const [selective, full] = await Promise.all([renderMarkdown(markdown), renderMarkdownWith(markdown, 'remark-gfm')]);
    if (selective !== full) found.push({ markdown, selective, full });
  }
  return found;
}

const gfmExamples = [
  'Visit www.commonmark.org/help for more.',
  'WWW.EXAMPLE.COM and Www.example.com',
  'http://example.com and https://example.com/path?x=1.',
  'Mail foo@bar.example.com or mailto:foo@bar.b and xmpp:foo@bar.baz/txt',
  '(www.google.com/search?q=Markup+(business))',
  'www.example.com/url_a_b_',
  'a.b-c_d@a.b',
  'an @ alone, and foo@bar',
  'http alone, and www without a dot',
  'Here is a footnote.[^1]\n\n[^1]: The note.',
  '[^unused]: a definition nobody calls',
  'Not a footnote: [^] and [ ^x]',
  '~~strike~~ and ~one~ and ~~~three~~~',
  'a ~ tilde alone',
  '~~~\nfenced with tildes\n~~~',
  '| a | b |\n| - | :-: |\n| 1 | 2 |',
  'a | b\n--|--\n1 | 2',
  '| single |\n| --- |',
  'no pipe table\n---',
  'pipe | in text only',
  '- [ ] todo\n- [x] done\n- [X] also',
  '* [ ]\n* [\t] tab',
  '1. [x] ordered',
  'not a task [ ] in text',
  '- [y] not a task',
  '<div>raw</div> and <script>alert(1)</script>',
  '[link](http://a.example) and <http://b.example>',
  '[ref]\n\n[ref]: www.example.com',
  '`www.example.com` in code, and ~~`x`~~',
  '> www.quote.example\n> - [ ] quoted task',
  '# Heading with www.example.com\n\nText | pipe',
  '\\~escaped\\~ and \\| and \\[^x]',
  'www\\.escaped.example and \\[a](http://not-a-link.example)',
  '[www.in-link-text.example](/x) and [t](https://dest.example) only',
  'ww&#119;.entity.example and foo&#64;bar.example',
  'ww<em>w</em>.split and *www*.example.com',
  '`http://code.example` and <http://autolink.example>',
  '&#x7e;&#x7e;entity&#x7e;&#x7e; and &#64; and www&#46;example&#46;com',
];

describe('GFM extensions chosen per document', () => {
  it('finds each trigger, and none in plain text', () => {
    expect(gfmFeaturesOf('Plain text with [a link](/x) and *emphasis*.')).toEqual([]);
    expect(gfmFeaturesOf('see www.example.com')).toEqual(['autolinkLiteral']);
    expect(gfmFeaturesOf('a@b.c ~x~ | [^1] - [ ] t')).toEqual([
      'autolinkLiteral',
      'footnote',
      'strikethrough',
      'table',
      'taskListItem',
    ]);
  });

  it('gives the HTML of the full GFM stack on every CommonMark spec example', async () => {
    const spec = require('commonmark-spec') as { tests: { markdown: string }[] };
    expect(spec.tests.length).toBeGreaterThan(600);
    expect(await differences(spec.tests.map((test) => test.markdown))).toEqual([]);
  });

  it('gives the HTML of the full GFM stack on GFM examples with and without each trigger', async () => {
    expect(await differences(gfmExamples)).toEqual([]);
    // And the examples do exercise the extensions: the full stack makes a table, a footnote, a link from a literal.
    const html = await Promise.all(gfmExamples.map((markdown) => renderMarkdownWith(markdown, 'remark-gfm')));
    for (const made of [
      '<table>',
      'data-footnote-ref',
      '<del>',
      'type="checkbox"',
      'href="http://www.commonmark.org/help"',
    ])
      expect(
        html.some((text) => text.includes(made)),
        made,
      ).toBe(true);
  });

  it('gives the HTML of the full GFM stack on the site posts and on the benchmark corpus', async () => {
    const blog = join(repoRoot, 'content', 'blog');
    const posts = readdirSync(blog).flatMap((slug) =>
      readdirSync(join(blog, slug)).map((file) => readFileSync(join(blog, slug, file), 'utf8')),
    );
    const corpus = createCorpus(60, { categories: ['a', 'b'] }).map((post) => post.body);
    expect(posts.length + corpus.length).toBeGreaterThan(70);
    expect(await differences([...posts, ...corpus])).toEqual([]);
  });
});
