/**
 * The visual mode's markers (src/render/edit-markers.ts): copy texts marked by their dotted keys,
 * names and addresses left alone, and the rendered page's markers turned into `data-edit` on the
 * element holding the text, taken out of attributes, the head and scripts.
 */
import { describe, expect, it } from 'vitest';
import type { Entry } from '../../src/content/collections';
import {
  createEditMarks,
  editAttributes,
  isCopyText,
  markCopy,
  markEntry,
  withoutMarkers,
} from '../../src/render/edit-markers';

describe('edit markers', () => {
  it('marks copy, not names, addresses or dates', () => {
    expect(['Run your shop', 'Pricing', 'Basic: on request', 'hello@example.com'].map(isCopyText)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['sms-updates', '/hub/pricing', 'https://example.com/a', '2026-01-02', '#top', ' '].map(isCopyText)).toEqual(
      [false, false, false, false, false, false],
    );
  });

  it('puts data-edit on the element around each text and takes every marker out', () => {
    const marks = createEditMarks();
    const copy = markCopy(
      marks,
      { title: 'Hub', hero: { heading: 'Run your shop', icon: 'sms' }, items: [{ title: 'Orders' }] },
      'hub',
      'en',
    );
    expect(copy.hero.icon).toBe('sms');
    const html =
      `<!DOCTYPE html><html><head><title>${copy.title}</title>` +
      `<script type="application/ld+json">{"name":"${copy.hero.heading}"}</script></head>` +
      `<body><main><h1 class="x">${copy.hero.heading}</h1><img alt="${copy.items[0]!.title}" src="/a.png"/>` +
      `<ul><li><a href="/b/" title="${copy.title}">${copy.items[0]!.title}<!-- --> and more</a></li></ul></main></body></html>`;
    const result = editAttributes(html, marks);
    expect(result).toBe(
      '<!DOCTYPE html><html><head><title>Hub</title>' +
        '<script type="application/ld+json">{"name":"Run your shop"}</script></head>' +
        '<body><main><h1 data-edit="hub#hero.heading" data-edit-locale="en" data-edit-kind="copy" class="x">Run your shop</h1><img alt="Orders" src="/a.png"/>' +
        '<ul><li><a data-edit="hub#items.0.title" data-edit-locale="en" data-edit-kind="copy" href="/b/" title="Hub">Orders<!-- --> and more</a></li></ul></main></body></html>',
    );
    expect(result).not.toMatch(/[\uE000-\uE0FF]/);
  });

  it("marks an entry's title, description, body and text fields in the translation's language", () => {
    const marks = createEditMarks();
    const entry = {
      collection: 'blog',
      slug: 'mending',
      translations: {
        en: {
          title: 'Mending',
          description: 'Why mend',
          html: '<p>Body</p>',
          locale: 'en',
          fields: { audience: 'hub', subtitle: 'A short story' },
        },
      },
    } as unknown as Entry;
    const marked = markEntry(marks, entry);
    expect(markEntry(marks, entry)).toBe(marked);
    const translation = marked.translations.en!;
    expect(translation.fields.audience).toBe('hub');
    const html = editAttributes(
      `<article><h1>${translation.title}</h1><p>${translation.fields.subtitle}</p><div class="prose">${translation.html}</div></article>`,
      marks,
    );
    expect(html).toBe(
      '<article><h1 data-edit="blog/mending#title" data-edit-locale="en" data-edit-kind="entry">Mending</h1>' +
        '<p data-edit="blog/mending#subtitle" data-edit-locale="en" data-edit-kind="entry">A short story</p>' +
        '<div data-edit="blog/mending#body" data-edit-locale="en" data-edit-kind="entry" class="prose"><p>Body</p></div></article>',
    );
  });
});

describe('withoutMarkers', () => {
  it('takes every marker out of the texts of an object, leaving the rest as it is', () => {
    const marks = createEditMarks();
    const image = new Date(0);
    const copy = markCopy(marks, { title: 'Our story', list: ['A text'], image }, 'story', 'en');
    expect(copy.title).not.toBe('Our story');
    expect(withoutMarkers(copy)).toEqual({ title: 'Our story', list: ['A text'], image });
    expect(withoutMarkers(copy).image).toBe(image);
  });
});
