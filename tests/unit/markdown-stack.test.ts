/**
 * lib/markdown-stack.js, the unified packages as the compile step bundles them (what a site's
 * build loads), parses as the unpatched packages in node_modules do: the compile step applies
 * patches/mdast-util-from-markdown@<version>.patch, which changes how the compiler hands its
 * context to the handlers, not what they build. The corpus: every Markdown file of the repository
 * (the Mendwise posts and pages, the fixtures, the manual), the bench's posts and every construct.
 */
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import * as source from '../../src/content/markdown-stack';
import { createCorpus } from '../../scripts/bench-corpus';
import { repoRoot } from '../helpers/paths';

type Stack = typeof source;

/** Every construct of CommonMark and GFM the parser has a handler for, nested where they nest. */
const everyConstruct = `Setext title
============

Second level
------------

# ATX *emphasis* and **strong** and ***both*** and \`code\`

Text with a [link](https://example.com "title"), a [reference][ref], a [collapsed][] and a
[shortcut] link, an ![image](/a.png "photo") and ![a reference image][ref], <https://auto.example>,
www.literal.example, https://bare.example/path?q=1 and mail@example.com, ~~struck~~ and ~single~,
a footnote[^note], &copy; &#169; &#xA9; entities, a hard break  
and a backslash break\\
then an escape \\* and <span class="raw">inline HTML</span>.

[ref]: https://example.com/ref "Ref title"
[collapsed]: /collapsed
[shortcut]: </with spaces> 'single'

> A quote with a list:
> 1. one
> 2. two
>
> > nested quote

- [ ] task open
- [x] task done
  - nested *item*

    with a second paragraph (a spread list)
* other bullet

3. starts at three
4. four

| Left | Centre | Right | None |
| :--- | :----: | ----: | ---- |
| a \\| pipe | \`b\` | **c** | [d](/d) |
| e |

    indented code
    block

\`\`\`js title="x"
const fenced = true;
\`\`\`

~~~
tilde fence
~~~

***

<div>
HTML block
</div>

[^note]: The footnote, with *emphasis*.

    And an indented paragraph in it.
`;

async function markdownFiles(folder: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory() && entry.name !== 'node_modules' && !entry.name.startsWith('.'))
      found.push(...(await markdownFiles(path)));
    else if (entry.isFile() && entry.name.endsWith('.md')) found.push(path);
  }
  return found;
}

function processorOf(stack: Stack) {
  return stack
    .unified()
    .use(stack.remarkParse)
    .use(stack.remarkGfm)
    .use(stack.remarkRehype, { allowDangerousHtml: true })
    .use(stack.rehypeStringify, { allowDangerousHtml: true });
}

type Parsed = { tree: unknown; html: string };

/** Each document's tree and HTML, as processed by `stack`. */
async function processAll(stack: Stack, documents: readonly string[]): Promise<Parsed[]> {
  const processor = processorOf(stack);
  const parsed: Parsed[] = [];
  for (const text of documents)
    parsed.push({ tree: processor.parse(text), html: String(await processor.process(text)) });
  return parsed;
}

/**
 * The same, by lib/markdown-stack.js in a process of its own: the file as \`site build\` loads it
 * (a module imported by the test runner is the runner's transform of it).
 */
async function processAllBundled(documents: readonly string[]): Promise<Parsed[]> {
  const script = `
    const stack = await import(${JSON.stringify(pathToFileURL(join(repoRoot, 'lib', 'markdown-stack.js')).href)});
    const processAll = ${processAll.toString()};
    const processorOf = ${processorOf.toString()};
    let input = '';
    for await (const chunk of process.stdin) input += chunk;
    process.stdout.write(JSON.stringify(await processAll(stack, JSON.parse(input))));
  `;
  const child = promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
    maxBuffer: 256 * 1024 * 1024,
  });
  child.child.stdin!.end(JSON.stringify(documents));
  return JSON.parse((await child).stdout) as Parsed[];
}

describe('the bundled Markdown stack', () => {
  it('builds the same trees, positions included, and the same HTML as the packages, from every Markdown file of the repository, the bench corpus and every construct', async () => {
    const documents = [
      everyConstruct,
      ...(await Promise.all(
        [
          ...(await markdownFiles(join(repoRoot, 'content'))),
          ...(await markdownFiles(join(repoRoot, 'tests', 'fixtures'))),
          ...(await markdownFiles(join(repoRoot, 'docs'))),
          join(repoRoot, 'README.md'),
        ].map((file) => readFile(file, 'utf8')),
      )),
      ...createCorpus(60, { categories: ['repair', 'retail'], seed: 3 }).map((post) => post.body),
    ];
    expect(documents.length).toBeGreaterThan(100);
    const [mine, theirs] = await Promise.all([processAllBundled(documents), processAll(source, documents)]);
    expect(mine).toHaveLength(documents.length);
    for (const [index, { tree, html }] of theirs.entries()) {
      expect(mine[index]!.tree, `document ${index}`).toEqual(JSON.parse(JSON.stringify(tree)));
      expect(mine[index]!.html, `document ${index}`).toBe(html);
    }
    // The construct document reaches every kind of node the packages make.
    const kinds = new Set<string>();
    const visit = (node: { type: string; children?: unknown[] }) => {
      kinds.add(node.type);
      for (const child of node.children ?? []) visit(child as typeof node);
    };
    visit(mine[0]!.tree as { type: string; children?: unknown[] });
    expect([...kinds].sort()).toEqual([
      'blockquote',
      'break',
      'code',
      'definition',
      'delete',
      'emphasis',
      'footnoteDefinition',
      'footnoteReference',
      'heading',
      'html',
      'image',
      'imageReference',
      'inlineCode',
      'link',
      'linkReference',
      'list',
      'listItem',
      'paragraph',
      'root',
      'strong',
      'table',
      'tableCell',
      'tableRow',
      'text',
      'thematicBreak',
    ]);
  }, 180_000);

  it('hands the handlers one context, as the patch makes it', async () => {
    const text = await readFile(join(repoRoot, 'lib', 'markdown-stack.js'), 'utf8');
    expect(text).toContain('context.sliceSerialize = events[');
  });
});
