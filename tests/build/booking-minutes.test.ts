/**
 * The length of a meeting is one fact, booking.minutes: built with 45, no page, feed or other
 * file of the site names a 30-minute meeting, in either language, and the pages that name the
 * length say 45 (messages, page copy in YAML and Markdown, blog posts), with slots 45 minutes apart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../src/build';
import { createTempSite, type TempSite } from '../helpers/fixture-site';

/** What said the length of the meeting when it was written into the copy. */
const thirtyMinutes = /\b30(?:-| )minutes?\b|\b30 minutter\b|\b30-minutters\b|\b30 min\b/i;

describe('a site built with booking.minutes: 45', () => {
  let site: TempSite;
  let files: Map<string, string>;

  beforeAll(async () => {
    site = await createTempSite({
      editConfig: (text) => text.replace(/^booking:\n {2}minutes: 30\n/m, 'booking:\n  minutes: 45\n'),
    });
    const result = await buildSite({ config: site.config, socialImages: false, cache: false });
    expect(result.config.booking?.minutes).toBe(45);
    const text = /\.(?:html|json|xml|txt)$/;
    files = new Map(
      [...result.files]
        .filter(([path]) => text.test(path))
        .map(([path, data]) => [path, typeof data === 'string' ? data : Buffer.from(data).toString('utf8')]),
    );
  }, 120_000);

  afterAll(() => site?.cleanup());

  it('names no 30-minute meeting anywhere, and leaves no placeholder unfilled', () => {
    expect(files.size).toBeGreaterThan(100);
    const wrong = [...files]
      .filter(([, text]) => thirtyMinutes.test(text))
      .map(([path, text]) => `${path}: ${thirtyMinutes.exec(text)![0]}`);
    expect(wrong).toEqual([]);
    expect([...files.keys()].filter((path) => files.get(path)!.includes('{minutes}'))).toEqual([]);
  });

  it('says 45 minutes where the copy names the length, in English and Norwegian', () => {
    const page = (path: string) => {
      const html = files.get(path);
      if (html === undefined) throw new Error(`no ${path}`);
      return html;
    };
    // Page copy (YAML): the heading, the description in the head, and a message (the contact form's subject is one).
    expect(page('hub/book-meeting/index.html')).toContain('<h1>Book a 45-minute meeting</h1>');
    expect(page('hub/book-meeting/index.html')).toContain(
      '<meta name="description" content="Book a 45-minute meeting with Mendwise',
    );
    expect(page('no/hub/book-meeting/index.html')).toContain('Bestill et møte på 45 minutter');
    expect(page('shop/pricing/index.html')).toContain('The meeting takes 45 minutes.');
    expect(page('no/shop/pricing/index.html')).toContain('Møtet tar 45 minutter.');
    // Page copy in Markdown, and blog posts (their pages and the feed).
    expect(page('privacy/index.html')).toContain('book a 45-minute meeting');
    expect(page('no/privacy/index.html')).toContain('bestille et møte på 45 minutter');
    expect(page('blog/repair-as-a-retail-service/index.html')).toContain('Book a 45-minute meeting');
    expect(page('no/blog/repair-as-a-retail-service/index.html')).toContain('Bestill et møte på 45 minutter');
    expect(
      [...files].some(([path, text]) => /feed\.json$|rss\.xml$/.test(path) && text.includes('45-minute meeting')),
    ).toBe(true);
    // The form's slots without script: 09:00 to 15:45, 45 minutes apart.
    const times = [...page('hub/book-meeting/index.html').matchAll(/<option value="(\d{2}:\d{2})">/g)].map(
      (match) => match[1],
    );
    expect(times).toEqual(['09:00', '09:45', '10:30', '11:15', '12:00', '12:45', '13:30', '14:15', '15:00', '15:45']);
  });
});
