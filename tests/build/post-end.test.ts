/**
 * A blog post ends in an action (issue 33): its audience's call to action in its language, two
 * posts to read next in the same language (its category first), and who wrote it.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { builtSite, repoRoot } from '../helpers/paths';

const read = (path: string) => readFile(join(builtSite, path), 'utf8');
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
type End = Record<string, { heading: string; text: string; action: string }> & { related: string; writtenBy: string };
const endCopy = async (locale: string) =>
  (parse(await readFile(join(repoRoot, 'content', 'messages', `${locale}.yaml`), 'utf8')) as { blog: { end: End } })
    .blog.end;
const front = async (slug: string, locale: string) =>
  parse((await readFile(join(repoRoot, 'content', 'blog', slug, `${locale}.md`), 'utf8')).split('---')[1]!) as Record<
    string,
    string
  >;

/** The end block of a built post: its call to action (heading, button), the related links and the author. */
async function postEnd(path: string) {
  const html = await read(path);
  const start = html.indexOf('<div class="post-end">');
  expect(start, `${path} has no end block`).toBeGreaterThan(0);
  const block = html.slice(start, html.indexOf('</p></div>', start));
  const cta =
    /<section class="post-cta[^"]*"[^>]*><h2[^>]*>([^<]*)<\/h2><p>[^<]*<\/p><a class="button button-primary" href="([^"]*)">([^<]*)<\/a>/.exec(
      block,
    );
  const related = [...block.matchAll(/<li><span class="chip">([^<]*)<\/span><a href="([^"]*)">/g)].map((match) => ({
    category: match[1],
    href: match[2],
  }));
  const author = text(block.slice(block.indexOf('>', block.indexOf('post-author-card')) + 1));
  return { cta: cta && { heading: cta[1], href: cta[2], action: cta[3] }, related, author };
}

const posts = [
  'a-day-in-a-tailor-shop',
  'designing-a-claim-and-repair-portal',
  'qr-codes-for-workwear-repairs',
  'why-repair-beats-recycling',
];

describe('the end of a blog post', () => {
  it.each([
    // The section decides: a retail post read in the repairers' section speaks to repairers.
    ['hub/blog/designing-a-claim-and-repair-portal/index.html', 'en', 'hub', '/hub/book-meeting/'],
    // Outside a section: the category (retail → shop), the post's own audience (workwear), or everyone.
    ['no/blog/designing-a-claim-and-repair-portal/index.html', 'no', 'shop', '/no/shop/book-meeting/'],
    ['blog/qr-codes-for-workwear-repairs/index.html', 'en', 'workwear', '/workwear/book-meeting/'],
    ['no/blog/why-repair-beats-recycling/index.html', 'no', 'general', '/no/contactus/'],
    ['blog/a-day-in-a-tailor-shop/index.html', 'en', 'hub', '/hub/book-meeting/'],
  ])('%s ends with the %s call to action of its audience (%s), leading to %s', async (path, locale, audience, href) => {
    const copy = (await endCopy(locale))[audience]!;
    const { cta } = await postEnd(path);
    expect(cta).toEqual({ heading: copy.heading, href, action: copy.action });
  });

  it.each(
    posts.flatMap((slug) => [
      [slug, 'en', ''],
      [slug, 'no', 'no/'],
    ]),
  )(
    '%s (%s) links two other posts in its language, of its category first, in its section',
    async (slug, locale, prefix) => {
      const { related } = await postEnd(`${prefix}shop/blog/${slug}/index.html`);
      expect(related).toHaveLength(2);
      const own = await front(slug, locale);
      const categories = parse(await readFile(join(repoRoot, 'content', 'messages', `${locale}.yaml`), 'utf8')).blog
        .categories as Record<string, string>;
      for (const { href } of related) {
        expect(href).toMatch(new RegExp(`^/${prefix}shop/blog/[a-z0-9-]+/$`));
        const other = href!.split('/').at(-2)!;
        expect(other).not.toBe(slug);
        // Written in the page's language, not a fallback.
        expect((await front(other, locale)).title).toBeTruthy();
      }
      // The first is of the same category (each category has a second post in both languages).
      expect(related[0]!.category).toBe(categories[own.category!]);
    },
  );

  it.each([
    ['en', ''],
    ['no', 'no/'],
  ])('names the author and role in %s', async (locale, prefix) => {
    const own = await front('sms-updates-that-customers-love', locale);
    const { author } = await postEnd(`${prefix}blog/sms-updates-that-customers-love/index.html`);
    expect(author).toBe(`${(await endCopy(locale)).writtenBy} ${own.author} ${own.authorRole}`);
  });
});
