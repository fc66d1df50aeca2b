/**
 * The highlighter's classes and stylesheet: every class a block gets has a rule in the code
 * stylesheet (light and dark), every colour of the default theme reads at WCAG AA against its
 * background, a theme Shiki does not bundle fails the document with a message naming the field, and
 * a build cache keeps the stylesheet for the same themes (a rebuild then loads no Shiki).
 */
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDiskCache } from '../../src/cache/disk-cache';
import { codeStylesheet, defaultHighlight } from '../../src/content/highlight';
import { renderMarkdownDocument, type MarkdownPlugins } from '../../src/content/markdown';

const block =
  '```diff\n- old\n+ new\n```\n\n```yaml\n# A comment\nsite:\n  name: "Mendwise" # here\n  port: 8080\n```\n\n```ts\nexport async function f(a?: string): Promise<number> { return /x/g.test(a ?? "") ? 1 : 0; }\n```\n';
const dual = { theme: 'github-light-default', darkTheme: 'github-dark-default' };
const plugins = (highlight: MarkdownPlugins['highlight']): MarkdownPlugins => ({ remark: [], rehype: [], highlight });

function luminance(hex: string): number {
  const [r, g, b] = [0, 2, 4]
    .map((at) => Number.parseInt(hex.slice(at, at + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
};

describe('code stylesheet', () => {
  it('has a rule for every class of a highlighted block, light and dark', async () => {
    const rendered = await renderMarkdownDocument(block, plugins(dual));
    if ('error' in rendered) throw new Error(rendered.error);
    const classes = new Set(
      [...rendered.html.matchAll(/class="([^"]+)"/g)]
        .flatMap((match) => match[1]!.split(' '))
        .filter((name) => /^(c|d|cb|db)-|^d?f[ibu]$/.test(name)),
    );
    expect([...classes].some((name) => name.startsWith('d-'))).toBe(true);
    const css = await codeStylesheet(dual);
    for (const name of classes) expect(css).toContain(`.shiki .${name}{`);
    expect(css).toMatch(/@media \(prefers-color-scheme: dark\) \{\npre\.shiki\{background:#0d1117;/);
  });

  it('is kept in the build cache for the same themes, and made again for others', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'code-css-'));
    try {
      const cache = openDiskCache('code-stylesheet', dir);
      const made = await codeStylesheet(dual, cache);
      await cache.settled();
      expect(made).toBe(await codeStylesheet(dual));
      const [file] = await readdir(cache.dir);
      // What the cache holds is what a rebuild publishes, without making it again.
      await writeFile(join(cache.dir, file!), '/* kept */');
      expect(await codeStylesheet(dual, cache)).toBe('/* kept */');
      expect(await codeStylesheet({ theme: 'github-light-default' }, cache)).toContain('pre.shiki{background:');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('colours the default theme at WCAG AA against its background', async () => {
    const css = await codeStylesheet(defaultHighlight as Exclude<typeof defaultHighlight, false>);
    const background = /pre\.shiki\{background:#([0-9a-f]{6})/.exec(css)![1]!;
    const colours = [...css.matchAll(/\.c-([0-9a-f]{6})\{/g)].map((match) => match[1]!);
    // The theme's own backgrounds (diff and selection colours) never colour a token.
    const tokens = colours.filter((colour) => luminance(colour) < 0.5);
    expect(tokens.length).toBeGreaterThan(5);
    for (const colour of tokens) expect(contrast(colour, background), colour).toBeGreaterThanOrEqual(4.5);
  });

  it('fails a document when the theme is not one Shiki bundles, naming the field', async () => {
    const rendered = await renderMarkdownDocument(block, plugins({ theme: 'no-such-theme' }));
    expect(rendered).toMatchObject({
      error: expect.stringContaining('"no-such-theme" is not a theme Shiki bundles (markdown.highlight'),
    });
  });
});
