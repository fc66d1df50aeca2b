/**
 * The pure rules of the link check (src/pipeline/links.ts): what counts as existing (pages with or
 * without their slash or index.html, encoded letters, other output files, an alias's ASCII
 * spelling, extra paths such as redirects), which links are the site's own, relative links and
 * fragments, the nearest page or id, and where a link is written.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { checkLinks, existingPaths, idsInHtml, linksInCopy, linksInHtml, locateLink } from '../../src/pipeline/links';

const site = existingPaths({
  pages: [
    { url: '/', file: 'index.html' },
    { url: '/hub/pricing/', file: 'hub/pricing/index.html' },
    { url: '/no/arbeidsklær/', file: 'no/arbeidsklær/index.html' },
    { url: '/blog/a-post/', file: 'blog/a-post/index.html' },
  ],
  aliasOf: (path) =>
    path.startsWith('/no/arbeidsklaer') ? path.replace('/no/arbeidsklaer', '/no/arbeidsklær') : undefined,
  files: ['rss.xml', 'downloads/price-list.pdf'],
  extraPaths: ['/old-pricing'],
});
const ids = new Map([
  ['hub/pricing/index.html', idsInHtml('<section id="faq"><h2 id="plans">Plans</h2></section>')],
  ['blog/a-post/index.html', idsInHtml('<h2 id="intro">Intro</h2>')],
]);
const broken = (hrefs: string[], pageUrl = '/blog/a-post/') =>
  checkLinks(
    hrefs.map((href) => ({ href })),
    pageUrl,
    site,
    (file) => ids.get(file),
  ).map((problem) => [problem.link.href, problem.hint]);

describe('what a link may lead to', () => {
  it('pages in any spelling, other files, alias spellings and extra paths exist; anything else does not', () => {
    expect(
      broken([
        '/',
        '/hub/pricing',
        '/hub/pricing/',
        '/hub/pricing/index.html',
        '/no/arbeidskl%C3%A6r/',
        '/no/arbeidsklaer/',
        '/rss.xml',
        '/downloads/price-list.pdf',
        '/old-pricing/',
        '/hub/pricing/?plan=basic',
      ]),
    ).toEqual([]);
    expect(broken(['/hub/priser/', '/rss.json'])).toEqual([
      ['/hub/priser/', 'The nearest existing page is /hub/pricing/; an alias or a redirect also counts as existing.'],
      ['/rss.json', 'The nearest existing page is /; an alias or a redirect also counts as existing.'],
    ]);
  });

  it('leaves web, mail and phone addresses alone, and resolves relative links against the page', () => {
    expect(
      broken([
        'https://example.com/x',
        'mailto:a@b.example',
        'tel:+4712345678',
        '//cdn.example/x',
        '../../hub/pricing/',
        '../a-post/',
      ]),
    ).toEqual([]);
    expect(broken(['../b-post/'])).toEqual([
      ['../b-post/', 'The nearest existing page is /blog/a-post/; an alias or a redirect also counts as existing.'],
    ]);
  });

  it('checks a fragment against the ids of its page; #top and # always pass; a file that is not a page has none to check', () => {
    expect(broken(['/hub/pricing/#faq', '#intro', '#top', '#', '/rss.xml#x'])).toEqual([]);
    expect(broken(['/hub/pricing/#plan', '#intr'])).toEqual([
      ['/hub/pricing/#plan', 'The nearest id on that page is #plans.'],
      ['#intr', 'The nearest id on that page is #intro.'],
    ]);
  });

  it('names the id a fragment meant by its beginning, a part or a few edits, not the first id of the page (issue 53)', () => {
    const page = { url: '/blog/writing-posts/', file: 'blog/writing-posts/index.html' };
    const docs = existingPaths({ pages: [page], aliasOf: () => undefined, files: [], extraPaths: [] });
    const html = '<main id="main"><h2 id="front-matter">F</h2><h2 id="drafts-and-scheduled-posts">D</h2></main>';
    const hints = (hrefs: string[]) =>
      checkLinks(
        hrefs.map((href) => ({ href })),
        page.url,
        docs,
        () => idsInHtml(html),
      ).map((problem) => [problem.message, problem.hint]);
    expect(hints(['/blog/writing-posts/#draftz', '#scheduled', '#pricing'])).toEqual([
      [
        'the link to /blog/writing-posts/#draftz names #draftz, which is no id of the page /blog/writing-posts/',
        'The nearest id on that page is #drafts-and-scheduled-posts.',
      ],
      [
        'the link to #scheduled names no id of this page',
        'The nearest id on that page is #drafts-and-scheduled-posts.',
      ],
      [
        'the link to #pricing names no id of this page',
        'No id on that page is close to #pricing; its ids include #drafts-and-scheduled-posts, #front-matter, #main.',
      ],
    ]);
  });
});

describe('where links are found and placed', () => {
  it('keeps the links of a page without its HTML: a build keeps the links of every entry it has put in the spill', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    setFlagsFromString('--no-expose-gc');
    gc();
    const before = process.memoryUsage().heapUsed;
    // 40 pages of a megabyte each, each with links long enough for V8 to keep them as views of it.
    const links = Array.from({ length: 40 }, (_, page) =>
      linksInHtml(
        `<a href="/blog/a-post-with-a-long-slug-${page}/">a</a>${'x'.repeat(1 << 20)}<img src="/media/a-long-image-name-${page}.png" srcset="/media/a-long-image-name-${page}-480.webp 480w" /><a id="the-fragment-${page}" href="#the-fragment-${page}">b</a>`,
      ),
    );
    gc();
    expect(links[39]!.map((link) => link.href)).toEqual([
      '/blog/a-post-with-a-long-slug-39/',
      '#the-fragment-39',
      '/media/a-long-image-name-39.png',
      '/media/a-long-image-name-39-480.webp',
    ]);
    // The 40 MB of HTML are gone; the links are a few kilobytes.
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(8 << 20);
  });

  it('reads the hrefs of anchors, with entities decoded, and the links of copy with their fields', () => {
    expect(
      linksInHtml(
        '<p><a href="/a/?x=1&amp;y=2">a</a> <img src="/i.png"> <a class="c" href="#b">b</a> <a data-href="/no/">c</a></p>',
      ),
    ).toEqual([{ href: '/a/?x=1&y=2' }, { href: '#b' }, { href: '/i.png', image: true }]);
    // Images (issue 45): an img's src and srcset, a source's srcset; not a text or an attribute
    // value that looks like one, nor an image marked for its loader (a file beside the Markdown).
    expect(
      linksInHtml(
        '<img alt="a > <img src=/x.png>" src="/a.png" srcset="/a-480.webp 480w, /a-960.webp 960w" /><picture><source type="image/avif" srcset="/b.avif 1x" /></picture> &lt;img src="/t.png"&gt; <!--image 0--><img src="inline.png" alt="&#x22;" /><!--/image-->',
      ),
    ).toEqual([
      { href: '/a.png', image: true },
      { href: '/a-480.webp', image: true },
      { href: '/a-960.webp', image: true },
      { href: '/b.avif', image: true },
    ]);
    expect([...idsInHtml('<h2 id="a">A</h2><div class="x" data-id="b" id="c"></div><li data-id="d"></li>')]).toEqual([
      'a',
      'c',
    ]);
    expect(
      linksInCopy({
        title: 'Prices from 5/month',
        cta: { href: '/hub/pricing/#faq' },
        items: [{ text: 'See [the list](/blog/) or [mail](mailto:a@b.example)' }],
        web: 'https://example.com/',
        html: '<a href="/x/">x</a>',
      }),
    ).toEqual([
      { href: '/hub/pricing/#faq', field: 'cta.href' },
      { href: '/blog/', field: 'items[0].text' },
      { href: 'https://example.com/', field: 'web' },
      { href: '/x/' },
    ]);
  });

  it('places the n-th link to an address at its destination in the text', () => {
    const text = '---\ntitle: T\n---\n\nSee [a](/x/) and\n[again](/x/), [ref][r].\n\n[r]: /y/\n';
    expect(locateLink(text, '/x/', 0)).toEqual({ line: 5, column: 9 });
    expect(locateLink(text, '/x/', 1)).toEqual({ line: 6, column: 9 });
    expect(locateLink(text, '/y/', 0)).toEqual({ line: 8, column: 6 });
    expect(locateLink(text, '/z/', 0)).toBeUndefined();
  });
});
