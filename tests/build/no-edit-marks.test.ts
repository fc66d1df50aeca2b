/**
 * The visual mode's marks (render/edit-markers.ts, /api/admin/visual) never reach a published page:
 * no page of the real site's build has a `data-edit` attribute or a marker's private-use character,
 * while the same page in the visual mode has them.
 */
import { describe, expect, it } from 'vitest';
import { builtSite } from '../helpers/paths';
import { readPages } from '../helpers/site-files';

describe('published pages', () => {
  it('carry no data-edit attribute and no edit marker', async () => {
    const pages = await readPages(builtSite);
    expect(pages.length).toBeGreaterThan(100);
    for (const { url, html } of pages) {
      expect(html, url).not.toContain('data-edit');
      expect(html, url).not.toMatch(/[\uE000-\uE0FF]/);
    }
    // The page the visual mode marks (tests/admin/visual-api.test.ts) is there, with its heading.
    const hub = pages.find((page) => page.url === '/hub/')!;
    expect(hub.html).toContain('<h1>Run your repair shop from one place</h1>');
  });
});
