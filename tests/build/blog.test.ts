import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../src/build';
import { collectSiteErrors } from '../../src/errors';
import { buildInto } from '../helpers/build';
import { createTempSite, type TempSite } from '../helpers/fixture-site';
import { fixturesRoot } from '../helpers/paths';

let site: TempSite;
let out: string;
const read = (path: string) => readFile(join(out, path), 'utf8');

beforeAll(async () => {
  site = await createTempSite({
    posts: join(fixturesRoot, 'blog-posts'),
    editConfig: (text) => text.replace('  pageSize: 6', '  pageSize: 2'),
  });
  out = join(site.dir, 'dist');
  await buildInto(site.config, out);
});
afterAll(() => site.cleanup());

describe('blog build (fixture: 4 posts, one untranslated, one draft, page size 2)', () => {
  it('lists posts newest first, paginated, without the draft', async () => {
    const first = await read('blog/index.html');
    expect(first.indexOf('Charlie')).toBeLessThan(first.indexOf('Bravo only in English'));
    expect(first).not.toContain('Alpha in English');
    expect(first).not.toContain('Delta draft');
    expect(first).toContain('href="/blog/page/2/"');
    const second = await read('blog/page/2/index.html');
    expect(second).toContain('Alpha in English');
    await expect(read('blog/delta/index.html')).rejects.toThrow();
  });

  it('includes drafts with --drafts', async () => {
    const result = await buildSite({ config: site.config, drafts: true });
    expect(result.pages.some((page) => page.url === '/blog/delta/')).toBe(true);
  });

  it('says so on an empty category and highlights the active filter', async () => {
    const html = await read('blog/category/circularity/index.html');
    expect(html).toContain('No posts found in this category.');
    expect(html).toMatch(
      /<a class="chip is-active" href="\/blog\/category\/circularity\/" aria-current="page">Circularity<\/a>/,
    );
    expect(await read('no/blog/category/circularity/index.html')).toContain('Ingen innlegg i denne kategorien.');
  });

  it('shows an untranslated post under /no in English with a notice and no no alternate', async () => {
    const html = await read('no/blog/bravo/index.html');
    expect(html).toContain('<html lang="nb"');
    expect(html).toContain('Denne artikkelen finnes foreløpig bare på engelsk.');
    expect(html).toMatch(/<article class="post" lang="en">/);
    expect(html).toContain('<link rel="canonical" href="https://mendwise.example/blog/bravo/" />');
    const english = await read('blog/bravo/index.html');
    expect(english).not.toContain('hreflang="no"');
  });

  it('renders Markdown with GFM, heading ids, safe links and no raw HTML', async () => {
    const html = await read('blog/alpha/index.html');
    expect(html).toContain('<h2 id="a-heading">A heading</h2>');
    expect(html).toContain('<table>');
    expect(html).toContain('<a href="https://example.org/" rel="noopener">link</a>');
    expect(html).not.toContain('<b>raw html</b>');
    expect(html).toContain('1 min');
  });

  it('gives posts article metadata and JSON-LD', async () => {
    const html = await read('blog/charlie/index.html');
    expect(html).toContain('<meta property="og:type" content="article" />');
    expect(html).toContain('<meta property="article:published_time" content="2026-01-12" />');
    expect(html).toContain('<meta property="article:modified_time" content="2026-02-01" />');
    const blocks = [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map((match) =>
      JSON.parse(match[1]!),
    );
    expect(blocks.map((block) => block['@type'])).toEqual(['Organization', 'BreadcrumbList', 'BlogPosting']);
    expect(blocks[2]).toMatchObject({ headline: 'Charlie', datePublished: '2026-01-12', dateModified: '2026-02-01' });
  });

  it('canonicalises audience copies to the generic post and keeps them out of the sitemap', async () => {
    expect(await read('hub/blog/charlie/index.html')).toContain(
      '<link rel="canonical" href="https://mendwise.example/blog/charlie/" />',
    );
    const sitemap = await read('sitemap.xml');
    expect(sitemap).toContain('<loc>https://mendwise.example/blog/charlie/</loc>');
    expect(sitemap).not.toContain('/hub/blog/charlie/');
    expect(sitemap).not.toContain('/no/blog/bravo/');
  });

  it('writes an RSS feed per locale, linked from blog pages', async () => {
    const en = await read('rss.xml');
    expect(en).toContain('<rss version="2.0"');
    expect(en).toContain('<title>Charlie</title>');
    expect(en).toContain('<title>Bravo only in English</title>');
    const no = await read('no/rss.xml');
    expect(no).toContain('<title>Alfa på norsk</title>');
    expect(no).not.toContain('Bravo');
    expect(await read('no/blog/index.html')).toContain('type="application/rss+xml"');
  });

  it('names categories in the language of the feed and dates the feed by its newest post, not the clock', async () => {
    const en = await read('rss.xml');
    expect(en).toContain('<category>Software</category>');
    // Charlie, updated 2026-02-01, is the newest change of the English posts.
    expect(en).toContain('<lastBuildDate>Sun, 01 Feb 2026 00:00:00 GMT</lastBuildDate>');
    const no = await read('no/rss.xml');
    expect(no).toMatch(/<category>[^<]+<\/category>/);
    expect(no).not.toContain('<category>saas</category>');
  });

  it('writes a JSON Feed beside each RSS feed, with the same posts', async () => {
    const feed = JSON.parse(await read('no/feed.json')) as {
      version: string;
      feed_url: string;
      language: string;
      items: { id: string; title: string; date_published: string; tags?: string[]; content_html: string }[];
    };
    expect(feed.version).toBe('https://jsonfeed.org/version/1.1');
    expect(feed.feed_url).toBe('https://mendwise.example/no/feed.json');
    expect(feed.language).toBe('nb');
    expect(feed.items.map((item) => item.title)).toContain('Alfa på norsk');
    expect(feed.items.some((item) => item.title.includes('Bravo'))).toBe(false);
    const alpha = feed.items.find((item) => item.title === 'Alfa på norsk')!;
    expect(alpha).toMatchObject({
      id: 'https://mendwise.example/no/blog/alpha/',
      date_published: '2026-01-10T00:00:00Z',
    });
    expect(alpha.content_html).toContain('Alfa-tekst');
  });

  it('gives post and list pages a lastmod from their posts, and other pages none', async () => {
    const sitemap = await read('sitemap.xml');
    expect(sitemap).toMatch(/<loc>https:\/\/mendwise\.example\/blog\/charlie\/<\/loc><lastmod>2026-02-01<\/lastmod>/);
    expect(sitemap).toMatch(/<loc>https:\/\/mendwise\.example\/blog\/<\/loc><lastmod>2026-02-01<\/lastmod>/);
    expect(sitemap).toMatch(/<loc>https:\/\/mendwise\.example\/hub\/pricing\/<\/loc><xhtml:link/);
  });
});

describe('feeds of a long blog', () => {
  it('list only the newest feedItems entries, in RSS and in the JSON Feed', async () => {
    const temp = await createTempSite({
      posts: join(fixturesRoot, 'blog-posts'),
      editConfig: (text) => text.replace('  pageSize: 6', '  pageSize: 6\n    feedItems: 1'),
    });
    try {
      const out = join(temp.dir, 'dist');
      await buildInto(temp.config, out);
      const rss = await readFile(join(out, 'rss.xml'), 'utf8');
      expect(rss.match(/<item>/g)).toHaveLength(1);
      expect(rss).toContain('/blog/charlie/</link>');
      const json = JSON.parse(await readFile(join(out, 'feed.json'), 'utf8')) as { items: { id: string }[] };
      expect(json.items.map((item) => item.id)).toEqual(['https://mendwise.example/blog/charlie/']);
    } finally {
      await temp.cleanup();
    }
  });
});

describe('front matter errors', () => {
  async function errorsFor(posts: Record<string, string>) {
    const temp = await createTempSite({ posts: join(fixturesRoot, 'blog-posts') });
    try {
      const { writeFile, mkdir } = await import('node:fs/promises');
      for (const [path, text] of Object.entries(posts)) {
        await mkdir(join(temp.dir, 'content', 'blog', path, '..'), { recursive: true });
        await writeFile(join(temp.dir, 'content', 'blog', path), text);
      }
      await buildSite({ config: temp.config });
    } catch (error) {
      return collectSiteErrors(error) ?? [];
    } finally {
      await temp.cleanup();
    }
    return [];
  }

  it('names file, line, column and field of each bad field', async () => {
    const errors = await errorsFor({
      'echo/en.md': '---\ntitle: Echo\ndescription: D\ndate: 2026-02-30\ncategory: gossip\nauthor: A\n---\nBody\n',
    });
    const formatted = errors.map((error) => error.format());
    expect(formatted.some((line) => /echo\/en\.md:4:7  date  .*not a real calendar date/.test(line))).toBe(true);
    expect(
      formatted.some((line) =>
        /echo\/en\.md:5:11  category  must be one of "circularity", "saas", "retail", "repairer-stories"/.test(line),
      ),
    ).toBe(true);
  });

  it('reports a missing title and a post folder without any translation', async () => {
    const errors = await errorsFor({
      'foxtrot/en.md': '---\ndescription: D\ndate: 2026-02-03\ncategory: saas\nauthor: A\n---\nBody\n',
      'golf/notes.txt': 'no translation here',
    });
    expect(
      errors.some((error) => error.field === 'title' && error.file?.endsWith('foxtrot/en.md') && error.line === 2),
    ).toBe(true);
    expect(
      errors.some((error) => error.code === 'ENTRY_INVALID' && error.message.includes('"golf" has no translation')),
    ).toBe(true);
  });
});
