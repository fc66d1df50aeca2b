/**
 * The README and the manual under docs/ stay whole and agree with the code: every relative link
 * leads to a file of the repository and every `#anchor` to a heading of its page (GitHub's slugs),
 * every error code of the catalogue has its section in docs/errors.md, and the README's way of
 * starting a site from a tarball names the package as `npm pack` names it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import GithubSlugger from 'github-slugger';
import { toString } from 'mdast-util-to-string';
import { describe, expect, it } from 'vitest';
import { remarkGfm, remarkParse, unified } from '../../src/content/markdown-stack';
import { errorCatalogue } from '../../src/errors';
import { repoRoot } from '../helpers/paths';
import { configReference, referenceEnd, referenceStart } from '../helpers/config-reference';
import { pluginReference, pluginReferenceEnd, pluginReferenceStart } from '../helpers/plugin-reference';
import { stylesheetFileTypes } from '../../src/islands/assets';
import { knownKeysAt } from '../../src/schema-shape';
import { configSchema } from '../../src/config/schema';
import { writeFileSync } from 'node:fs';

interface MdNode {
  type: string;
  url?: string;
  depth?: number;
  position?: { start: { line: number } };
  children?: MdNode[];
}

/** The pages checked: the README, the manual, and the READMEs of src/'s folders and of patches/. */
function pages(): string[] {
  const inFolder = (folder: string) =>
    readdirSync(join(repoRoot, folder))
      .filter((name) => name.endsWith('.md'))
      .map((name) => join(folder, name));
  const srcReadmes = readdirSync(join(repoRoot, 'src'))
    .map((name) => join('src', name, 'README.md'))
    .filter((path) => existsSync(join(repoRoot, path)));
  return ['README.md', ...inFolder('docs'), ...srcReadmes, 'patches/README.md'];
}

function parse(path: string): MdNode {
  return unified()
    .use(remarkParse)
    .use(remarkGfm)
    .parse(readFileSync(join(repoRoot, path), 'utf8')) as MdNode;
}

function visit(node: MdNode, each: (node: MdNode) => void): void {
  each(node);
  for (const child of node.children ?? []) visit(child, each);
}

const anchorsByPage = new Map<string, Set<string>>();

/** The anchors GitHub gives a page's headings (github-slugger, as rehype-slug uses it). */
function anchorsOf(path: string): Set<string> {
  let anchors = anchorsByPage.get(path);
  if (!anchors) {
    const slugger = new GithubSlugger();
    anchors = new Set();
    visit(parse(path), (node) => {
      if (node.type === 'heading') anchors!.add(slugger.slug(toString(node)));
    });
    anchorsByPage.set(path, anchors);
  }
  return anchors;
}

describe('the README and the manual', () => {
  it('keep the README an entry point of at most 400 lines', () => {
    expect(readFileSync(join(repoRoot, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(400);
  });

  it('link only to files that exist and to headings their pages have', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const page of pages()) {
      visit(parse(page), (node) => {
        if ((node.type !== 'link' && node.type !== 'definition') || !node.url) return;
        if (/^[a-z][a-z0-9+.-]*:/i.test(node.url) || node.url.startsWith('//')) return;
        checked += 1;
        const [pathPart = '', anchor] = node.url.split('#') as [string, string | undefined];
        const target =
          pathPart === ''
            ? page
            : relative(
                repoRoot,
                pathPart.startsWith('/')
                  ? join(repoRoot, pathPart)
                  : join(repoRoot, dirname(page), decodeURIComponent(pathPart)),
              );
        const where = `${page}:${node.position?.start.line}  ${node.url}`;
        if (target.startsWith('..') || !existsSync(join(repoRoot, target))) {
          broken.push(`${where}  (no file ${target})`);
          return;
        }
        if (anchor === undefined) return;
        if (!target.endsWith('.md') || statSync(join(repoRoot, target)).isDirectory()) {
          broken.push(`${where}  (an anchor into ${target}, which is not a Markdown page)`);
        } else if (!anchorsOf(target).has(decodeURIComponent(anchor))) {
          broken.push(`${where}  (${target} has no heading #${anchor})`);
        }
      });
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(50);
  });

  it('give every error code of the catalogue its section in docs/errors.md, and no other', () => {
    const doc = readFileSync(join(repoRoot, 'docs', 'errors.md'), 'utf8');
    const documented = [...doc.matchAll(/^### ([A-Z][A-Z0-9_]*)\s*$/gm)].map((match) => match[1]).sort();
    expect(documented).toEqual(Object.keys(errorCatalogue).sort());
    for (const code of documented)
      expect(doc, `the index of docs/errors.md lists ${code}`).toContain(`](#${code!.toLowerCase()})`);
  });

  it("start a site from the tarball as npm pack names it (the packed-install test's commands)", () => {
    const { name, version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
      name: string;
      version: string;
    };
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    expect(readme).toContain(`npx ./${name}-${version}.tgz init my-site`);
    expect(readme).toContain(`installs ${name} from file:../${name}-${version}.tgz`);
    expect(readme).toContain('npx typed-site init my-site');
  });

  it("describe every top-level key of the config in docs/config.md, as the schema does (the section an error's hint names)", () => {
    const path = join(repoRoot, 'docs', 'config.md');
    const doc = readFileSync(path, 'utf8');
    const made = configReference();
    const start = doc.indexOf(referenceStart.slice(0, 20));
    const end = doc.indexOf(referenceEnd);
    const current = start >= 0 && end > start ? doc.slice(start, end + referenceEnd.length) : 'PLACEHOLDER';
    if (process.env.UPDATE_DOCS === '1' && current !== made) writeFileSync(path, doc.replace(current, made));
    else expect(current, 'run UPDATE_DOCS=1 npx vitest run --project unit tests/unit/docs.test.ts').toBe(made);
    for (const key of knownKeysAt(configSchema, [])) expect(anchorsOf('docs/config.md')).toContain(key.toLowerCase());
  });

  it('say what each plugin hook is given as src/config/plugin-api.ts types it, every field described (issue 53: a plugin read ctx.page.locale)', () => {
    const path = join(repoRoot, 'docs', 'plugins.md');
    const doc = readFileSync(path, 'utf8');
    const made = pluginReference();
    const start = doc.indexOf(pluginReferenceStart.slice(0, 20));
    const end = doc.indexOf(pluginReferenceEnd);
    const current = start >= 0 && end > start ? doc.slice(start, end + pluginReferenceEnd.length) : 'PLACEHOLDER';
    if (process.env.UPDATE_DOCS === '1' && current !== made) writeFileSync(path, doc.replace(current, made));
    else expect(current, 'run UPDATE_DOCS=1 npx vitest run --project unit tests/unit/docs.test.ts').toBe(made);
    expect(made.split('\n').filter((line) => line.endsWith('|  |'))).toEqual([]);
    expect(made).toContain('| `ctx.locale` |');
    expect(made).toContain('| `ctx.publicDir` |');
    expect(made).not.toContain('`ctx.page.locale`');
  });

  it('say what the stylesheet does with url(): the fonts and images it publishes, as src/islands/assets.ts lists them', () => {
    const templates = readFileSync(join(repoRoot, 'docs', 'templates.md'), 'utf8').replace(/\s+/g, ' ');
    for (const type of stylesheetFileTypes) expect(templates).toContain(`\`${type}\``);
    expect(templates).toContain('is published beside it at `/assets/<name>.<hash>.<ext>`');
    expect(templates).not.toMatch(/url\(\)` references fail the build/);
  });

  it('send readers to examples the package ships: the starter of site init, not tests/fixtures/', () => {
    const { files } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { files: string[] };
    expect(files).toContain('docs/');
    expect(files).toContain('starters/');
    const shipped = ['README.md', ...readdirSync(join(repoRoot, 'docs')).map((name) => join('docs', name))].filter(
      (path) => !files.includes(`!${path}`),
    );
    for (const path of shipped)
      expect(readFileSync(join(repoRoot, path), 'utf8'), path).not.toContain('tests/fixtures/');
  });
});
