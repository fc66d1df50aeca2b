/**
 * The benchmark's synthetic corpus and the sites built from it: the same posts for `site` (the
 * fixture in bench/fixture and the real site), Eleventy, Hugo and Astro. Pure text generation, seeded,
 * so every run and every generator sees exactly the same input.
 */

/** One synthetic post. */
export interface SyntheticPost {
  slug: string;
  title: string;
  description: string;
  /** ISO date. */
  date: string;
  category: string;
  author: string;
  /** Markdown body (about 6 KB). */
  body: string;
}

/** Options of `createCorpus`. */
export interface CorpusOptions {
  /** Categories to pick from (those of the site's config). */
  categories: readonly string[];
  /** Seed of the pseudo-random generator; the same seed gives the same corpus. */
  seed?: number;
  /** Approximate size of each body in characters. */
  bodySize?: number;
}

const vocabulary = (
  'repair order customer workshop tailor zipper seam jacket trouser hem button lining fabric wool cotton denim leather stitch ' +
  'thread needle machine counter ticket status message pickup delivery quote price estimate invoice warranty claim retailer ' +
  'repairer workwear uniform fleet garment sleeve collar pocket patch reinforce replace adjust measure fitting alteration ' +
  'schedule capacity queue backlog minute hour week month season spring autumn winter summer brand store chain network ' +
  'partner courier parcel label barcode scan photo damage assessment approval deadline reminder notification update report ' +
  'dashboard export spreadsheet paper binder shelf drawer rack hanger bag box circular waste landfill recycling resale ' +
  'lifetime value loyalty trust review rating quality standard routine checklist training apprentice master craft skill ' +
  'team owner manager clerk assistant volunteer local city town region country market margin revenue cost saving growth'
).split(' ');

const languages = ['ts', 'js', 'yaml', 'json', 'sh'];

/** A small, fast, seeded pseudo-random generator (mulberry32). */
function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Generates `count` posts; the same arguments always give the same posts. */
export function createCorpus(count: number, options: CorpusOptions): SyntheticPost[] {
  const random = createRandom(options.seed ?? 1);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const words = (min: number, max: number) =>
    Array.from({ length: min + Math.floor(random() * (max - min + 1)) }, () => pick(vocabulary));
  const sentence = (min = 8, max = 16) => {
    const list = words(min, max);
    list[0] = list[0]!.charAt(0).toUpperCase() + list[0]!.slice(1);
    return `${list.join(' ')}.`;
  };
  const phrase = (min: number, max: number) => {
    const text = words(min, max).join(' ');
    return text.charAt(0).toUpperCase() + text.slice(1);
  };
  const paragraph = () => {
    const parts: string[] = [];
    for (let i = 0; i < 4 + Math.floor(random() * 3); i++) {
      let text = sentence();
      const roll = random();
      if (roll < 0.2) text = text.replace(/^(\S+ \S+)/, '**$1**');
      else if (roll < 0.4) text = text.replace(/ (\S+) /, ' *$1* ');
      else if (roll < 0.55) text = text.replace(/ (\S+) /, ' `$1()` ');
      else if (roll < 0.7) text = text.replace(/ (\S+) /, ` [$1](https://example.org/${pick(vocabulary)}) `);
      parts.push(text);
    }
    return parts.join(' ');
  };
  const codeBlock = () => {
    const language = pick(languages);
    const lines = Array.from(
      { length: 6 + Math.floor(random() * 5) },
      (_, index) =>
        `${index % 3 === 0 ? '' : '  '}const ${pick(vocabulary)}${index} = ${JSON.stringify(pick(vocabulary))}; // ${phrase(2, 5)}`,
    );
    return ['```' + language, ...lines, '```'].join('\n');
  };
  const table = () => {
    const header = `| ${phrase(1, 2)} | ${phrase(1, 2)} | ${phrase(1, 2)} | ${phrase(1, 2)} |`;
    const rows = Array.from(
      { length: 5 },
      () => `| ${phrase(1, 3)} | ${Math.floor(random() * 1000)} | ${phrase(1, 2)} | ${(random() * 100).toFixed(1)} % |`,
    );
    return [header, '| --- | ---: | --- | ---: |', ...rows].join('\n');
  };
  const list = (ordered: boolean) =>
    Array.from(
      { length: 4 + Math.floor(random() * 3) },
      (_, index) => `${ordered ? `${index + 1}.` : '-'} ${phrase(4, 10)}`,
    ).join('\n');
  const size = options.bodySize ?? 6000;

  const posts: SyntheticPost[] = [];
  const start = Date.UTC(2015, 0, 1);
  for (let index = 0; index < count; index++) {
    const blocks = [
      paragraph(),
      `## ${phrase(2, 5)}`,
      paragraph(),
      list(false),
      `## ${phrase(2, 5)}`,
      `> ${sentence()} ${sentence()}`,
      paragraph(),
      codeBlock(),
      `## ${phrase(2, 5)}`,
      table(),
      list(true),
      `### ${phrase(2, 4)}`,
    ];
    let length = blocks.reduce((sum, block) => sum + block.length + 2, 0);
    while (length < size) {
      const block = paragraph();
      blocks.push(block);
      length += block.length + 2;
    }
    const day = (index * 7919) % 3650;
    posts.push({
      slug: `post-${String(index + 1).padStart(5, '0')}`,
      title: phrase(3, 7),
      description: sentence(10, 18),
      date: new Date(start + day * 86_400_000).toISOString().slice(0, 10),
      category: pick(options.categories),
      author: `${pick(vocabulary)} ${pick(vocabulary)}`.replace(/\b\w/g, (char) => char.toUpperCase()),
      body: `${blocks.join('\n\n')}\n`,
    });
  }
  return posts;
}

/** A YAML scalar that is always read back as the same string. */
function yamlString(value: string): string {
  return JSON.stringify(value);
}

/** The post as a Markdown file with YAML front matter (the same text for every generator). */
export function formatPost(post: SyntheticPost, extra: Record<string, string> = {}): string {
  const fields = {
    title: post.title,
    description: post.description,
    date: post.date,
    category: post.category,
    author: post.author,
    ...extra,
  };
  const lines = Object.entries(fields).map(([key, value]) => `${key}: ${key === 'date' ? value : yamlString(value)}`);
  return `---\n${lines.join('\n')}\n---\n${post.body}`;
}

/** Files of a generated project: path relative to its folder → text. */
export type ProjectFiles = Map<string, string>;

/** The fixture site's content: content/blog/<slug>/en.md. */
export function siteFixtureFiles(posts: readonly SyntheticPost[]): ProjectFiles {
  return new Map(posts.map((post) => [`content/blog/${post.slug}/en.md`, formatPost(post)]));
}

/**
 * The real site's blog: an English and a Norwegian translation of every post, except every tenth
 * post, which is English only (so untranslated fallbacks are exercised).
 */
export function realSiteBlogFiles(
  posts: readonly SyntheticPost[],
  translations: readonly SyntheticPost[],
): ProjectFiles {
  const files: ProjectFiles = new Map();
  posts.forEach((post, index) => {
    files.set(`content/blog/${post.slug}/en.md`, formatPost(post));
    const translation = translations[index];
    if (index % 10 !== 9 && translation)
      files.set(
        `content/blog/${post.slug}/no.md`,
        formatPost({ ...translation, slug: post.slug, date: post.date, category: post.category }),
      );
  });
  return files;
}

const shell = (head: string, body: string) =>
  `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8" /><meta name="viewport" content="width=device-width, initial-scale=1" />${head}<link rel="stylesheet" href="/main.css" /></head><body>${body}</body></html>\n`;

/**
 * The same site for Eleventy 3: one Nunjucks layout, one page per post (posts/<slug>/), an index
 * listing every post newest first. Markdown is not run through a template engine first (ours is
 * not either).
 */
export function eleventyFiles(posts: readonly SyntheticPost[]): ProjectFiles {
  const files: ProjectFiles = new Map();
  files.set(
    'eleventy.config.mjs',
    [
      'export default function (config) {',
      "  config.addCollection('posts', (api) => api.getFilteredByGlob('src/posts/*.md').sort((a, b) => (b.date - a.date) || (a.fileSlug < b.fileSlug ? -1 : 1)));",
      "  return { dir: { input: 'src', includes: '_includes', output: '_site' }, markdownTemplateEngine: false, htmlTemplateEngine: 'njk' };",
      '}',
      '',
    ].join('\n'),
  );
  files.set(
    'src/_includes/layout.njk',
    shell(
      '<title>{{ title }} · Bench</title><meta name="description" content="{{ description }}" /><link rel="canonical" href="https://bench.example{{ page.url }}" />',
      '<header><a href="/">Bench</a></header><main>{% if author %}<article><h1>{{ title }}</h1><p><time datetime="{{ page.date.toISOString().slice(0, 10) }}">{{ page.date.toISOString().slice(0, 10) }}</time> · By {{ author }}</p>{{ content | safe }}</article>{% else %}{{ content | safe }}{% endif %}</main><footer><p>Bench AS</p></footer>',
    ),
  );
  files.set(
    'src/posts/posts.11tydata.mjs',
    "export default { layout: 'layout.njk', permalink: (data) => `posts/${data.page.fileSlug}/index.html` };\n",
  );
  files.set(
    'src/index.njk',
    [
      '---',
      'layout: layout.njk',
      'title: All posts',
      'description: Every post of the synthetic corpus, newest first.',
      '---',
      '<h1>All posts</h1><ul>{% for post in collections.posts %}<li><a href="{{ post.url }}">{{ post.data.title }}</a> <time datetime="{{ post.date.toISOString().slice(0, 10) }}">{{ post.date.toISOString().slice(0, 10) }}</time></li>{% endfor %}</ul>',
      '',
    ].join('\n'),
  );
  for (const post of posts) files.set(`src/posts/${post.slug}.md`, formatPost(post));
  return files;
}

/** The same site for Hugo: baseof + single + home templates, posts under content/posts/. */
export function hugoFiles(posts: readonly SyntheticPost[]): ProjectFiles {
  const files: ProjectFiles = new Map();
  files.set(
    'config.toml',
    [
      'baseURL = "https://bench.example/"',
      'title = "Bench"',
      'disableKinds = ["taxonomy", "term", "section"]',
      // Hugo highlights fenced code by default (Chroma); the others highlight nothing.
      '[markup.highlight]',
      'codeFences = false',
      '',
    ].join('\n'),
  );
  files.set(
    'layouts/_default/baseof.html',
    shell(
      '<title>{{ .Title }} · Bench</title><meta name="description" content="{{ .Description }}" /><link rel="canonical" href="{{ .Permalink }}" />',
      '<header><a href="/">Bench</a></header><main>{{ block "main" . }}{{ end }}</main><footer><p>Bench AS</p></footer>',
    ).trimEnd(),
  );
  files.set(
    'layouts/_default/single.html',
    '{{ define "main" }}<article><h1>{{ .Title }}</h1><p><time datetime="{{ .Date.Format "2006-01-02" }}">{{ .Date.Format "2006-01-02" }}</time> · By {{ .Params.author }}</p>{{ .Content }}</article>{{ end }}',
  );
  files.set(
    'layouts/index.html',
    '{{ define "main" }}<h1>All posts</h1><ul>{{ range (where .Site.RegularPages "Section" "posts").ByDate.Reverse }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a> <time datetime="{{ .Date.Format "2006-01-02" }}">{{ .Date.Format "2006-01-02" }}</time></li>{{ end }}</ul>{{ end }}',
  );
  for (const post of posts) files.set(`content/posts/${post.slug}.md`, formatPost(post));
  return files;
}

/**
 * The same site for Astro 5: a Markdown content collection (glob loader, a zod schema of the front
 * matter), one .astro layout, a page per post (posts/<slug>/) and the index. Astro's Shiki
 * highlighting is off, as the others highlight nothing; its cache lives in `cache/` (not in the
 * shared node_modules), so a run clears it to build cold.
 */
export function astroFiles(posts: readonly SyntheticPost[]): ProjectFiles {
  const files: ProjectFiles = new Map();
  files.set('package.json', '{ "name": "bench-astro", "private": true, "type": "module" }\n');
  files.set(
    'astro.config.mjs',
    [
      "import { defineConfig } from 'astro/config';",
      "export default defineConfig({ site: 'https://bench.example', cacheDir: './cache', markdown: { syntaxHighlight: false } });",
      '',
    ].join('\n'),
  );
  files.set(
    'src/content.config.ts',
    [
      "import { defineCollection, z } from 'astro:content';",
      "import { glob } from 'astro/loaders';",
      'const schema = z.object({ title: z.string(), description: z.string(), date: z.coerce.date(), category: z.string(), author: z.string() });',
      "export const collections = { posts: defineCollection({ loader: glob({ pattern: '*.md', base: './src/posts' }), schema }) };",
      '',
    ].join('\n'),
  );
  files.set(
    'src/layouts/Layout.astro',
    `---\nconst { title, description } = Astro.props;\n---\n${shell(
      '<title>{title} · Bench</title><meta name="description" content={description} /><link rel="canonical" href={new URL(Astro.url.pathname, Astro.site).href} />',
      '<header><a href="/">Bench</a></header><main><slot /></main><footer><p>Bench AS</p></footer>',
    )}`,
  );
  const day = (date: string) =>
    `<time datetime={${date}.toISOString().slice(0, 10)}>{${date}.toISOString().slice(0, 10)}</time>`;
  files.set(
    'src/pages/posts/[slug].astro',
    [
      '---',
      "import { getCollection, render } from 'astro:content';",
      "import Layout from '../../layouts/Layout.astro';",
      'export async function getStaticPaths() {',
      "  return (await getCollection('posts')).map((post) => ({ params: { slug: post.id }, props: { post } }));",
      '}',
      'const { post } = Astro.props;',
      'const { Content } = await render(post);',
      '---',
      `<Layout title={post.data.title} description={post.data.description}><article><h1>{post.data.title}</h1><p>${day('post.data.date')} · By {post.data.author}</p><Content /></article></Layout>`,
      '',
    ].join('\n'),
  );
  files.set(
    'src/pages/index.astro',
    [
      '---',
      "import { getCollection } from 'astro:content';",
      "import Layout from '../layouts/Layout.astro';",
      "const posts = (await getCollection('posts')).sort((a, b) => (b.data.date.getTime() - a.data.date.getTime()) || (a.id < b.id ? -1 : 1));",
      '---',
      `<Layout title="All posts" description="Every post of the synthetic corpus, newest first."><h1>All posts</h1><ul>{posts.map((post) => <li><a href={\`/posts/\${post.id}/\`}>{post.data.title}</a> ${day('post.data.date')}</li>)}</ul></Layout>`,
      '',
    ].join('\n'),
  );
  for (const post of posts) files.set(`src/posts/${post.slug}.md`, formatPost(post));
  return files;
}
