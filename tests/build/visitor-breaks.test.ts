/**
 * The visitor's small breaks of issue 51, as built: the workwear choice of the contact form, the
 * opening hours' zone, the language label of an untranslated blog card, the search page's
 * sections and "more" button, and the opaque sticky header.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { builtSite, repoRoot } from '../helpers/paths';

const read = (path: string) => readFile(join(builtSite, path), 'utf8');
const yaml = async <T>(path: string) => parse(await readFile(join(repoRoot, path), 'utf8')) as T;
type Messages = { contactForm: { types: Record<string, string> }; blog: { untranslatedLabel: string } };

describe('the contact form\'s "I am a"', () => {
  for (const { page, locale, chosen } of [
    { page: 'workwear/contactus/index.html', locale: 'en', chosen: 'workwear' },
    { page: 'no/workwear/contactus/index.html', locale: 'no', chosen: 'workwear' },
    { page: 'shop/contactus/index.html', locale: 'en', chosen: 'retailer' },
    { page: 'no/hub/contactus/index.html', locale: 'no', chosen: 'repairer' },
    { page: 'contactus/index.html', locale: 'en', chosen: undefined },
  ]) {
    it(`offers workwear on ${page}, with ${chosen ?? 'nothing'} chosen in the HTML (no script needed)`, async () => {
      const [html, messages] = await Promise.all([read(page), yaml<Messages>(`content/messages/${locale}.yaml`)]);
      expect(html).toContain(
        `<option value="workwear"${chosen === 'workwear' ? ' selected=""' : ''}>${messages.contactForm.types.workwear}</option>`,
      );
      const selected = [...html.matchAll(/<option value="([^"]*)" selected="">/g)].map((match) => match[1]);
      // Where no audience decides, the empty "Choose one" is chosen.
      expect(selected).toEqual([chosen ?? '']);
    });
  }
});

describe('opening hours', () => {
  it('name the zone of winter and of summer in English, and "norsk tid" in Norwegian, never CET alone', async () => {
    const [en, no] = await Promise.all([read('hub/book-meeting/index.html'), read('no/hub/book-meeting/index.html')]);
    expect(en).toContain('<p class="meeting-hours">Mon–Fri 9:00–17:00 CET/CEST</p>');
    expect(no).toContain('<p class="meeting-hours">Man.–fre. kl. 09.00–17.00 norsk tid</p>');
    expect(await read('contactus/index.html')).toContain('<dd>Mon–Fri 9:00–17:00 CET/CEST</dd>');
  });
});

describe('blog cards', () => {
  it("label a post shown in another language, in the page's language, with the card in the post's", async () => {
    const [html, messages] = await Promise.all([
      read('no/blog/index.html'),
      yaml<Messages>('content/messages/no.yaml'),
    ]);
    const cards = html.split('<article class="post-card"').slice(1);
    const untranslated = cards.filter((card) => card.startsWith(' lang="en"'));
    expect(untranslated.length).toBeGreaterThan(0);
    for (const card of untranslated) {
      expect(card).toContain('<p class="post-meta" lang="nb">');
      expect(card).toContain(`<span class="chip chip-language">${messages.blog.untranslatedLabel}</span>`);
    }
    for (const card of cards.filter((card) => !card.startsWith(' lang='))) expect(card).not.toContain('chip-language');
  });
});

describe('search page', () => {
  it('gives the island the sections (audiences and the blog, in the page\'s language) and the "more" button\'s words', async () => {
    const html = await read('no/search/index.html');
    const copy = await yaml<{ search: { more: string } }>('content/pages/search/no.yaml');
    for (const section of [
      { path: '/no/hub/', label: 'Reparatører' },
      { path: '/no/shop/', label: 'Forhandlere' },
      { path: '/no/workwear/', label: 'Arbeidsklær' },
      { path: '/no/blog/', label: 'Blogg' },
    ])
      expect(html).toContain(JSON.stringify(section));
    expect(html).toContain(`"more":${JSON.stringify(copy.search.more)}`);
  });
});

describe('sticky header', () => {
  it('is opaque, so no text shows through it once the page scrolls under it', async () => {
    const css = (await readdir(join(builtSite, 'assets'))).find((file) => /^main\.[\w-]+\.css$/.test(file))!;
    const rule = /\.site-header\{[^}]*\}/.exec(await read(join('assets', css)))![0];
    expect(rule).toMatch(/background:(#fff|#ffffff|var\(--colour-surface\))[;}]/);
  });
});
