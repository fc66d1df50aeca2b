/** Byte-preserving edits of site.config.yaml: only the lines of the changed values differ. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { ConfigEditError, editConfigText } from '../../src/admin/config-edit';
import { repoRoot } from '../helpers/paths';

const config = readFileSync(join(repoRoot, 'site.config.yaml'), 'utf8');

/** The lines that differ between two texts of the same number of lines, as [before, after]. */
function changedLines(before: string, after: string): [string, string][] {
  const [a, b] = [before.split('\n'), after.split('\n')];
  expect(b.length).toBe(a.length);
  return a.flatMap((line, index) => (line === b[index] ? [] : [[line, b[index]!] as [string, string]]));
}

describe('editConfigText', () => {
  it('changes two values on the real config: exactly those two lines differ, comments and flow maps kept', () => {
    const edited = editConfigText(config, [
      { path: ['plans', 1, 'limits', 'ordersPerMonth'], value: 75 },
      { path: ['company', 'address', 'city'], value: 'Bergen' },
    ]);
    expect(changedLines(config, edited)).toEqual([
      ['    limits: { ordersPerMonth: 50 }', '    limits: { ordersPerMonth: 75 }'],
      [
        '  address: { street: Eksempelgata 1, postalCode: "0150", city: Oslo, country: "NO" }',
        '  address: { street: Eksempelgata 1, postalCode: "0150", city: Bergen, country: "NO" }',
      ],
    ]);
    expect(edited).toContain('# Placeholder company facts: replace before going live.');
  });

  it('puts a map of scalars (a price) in place of a scalar or a flow map, on the same line, and a scalar in place of a block map', () => {
    const priced = editConfigText(config, [
      { path: ['plans', 2, 'price'], value: { amount: 49.5, currency: 'USD', period: 'month' } },
    ]);
    expect(changedLines(config, priced)).toEqual([
      ['    price: on-request', '    price: { amount: 49.5, currency: USD, period: month }'],
    ]);
    expect(editConfigText(priced, [{ path: ['plans', 2, 'price'], value: 'on-request' }])).toBe(config);
    expect(
      changedLines(config, editConfigText(config, [{ path: ['plans', 0, 'price'], value: 'on-request' }])),
    ).toEqual([['    price: { amount: 0, currency: EUR, period: month }', '    price: on-request']]);
    expect(
      editConfigText('price:\n  amount: 1\n  currency: EUR\nnext: 1\n', [{ path: ['price'], value: 'on-request' }]),
    ).toBe('price: on-request\nnext: 1\n');
  });

  it('keeps a quoted value quoted, and quotes a plain one that would read as another type', () => {
    const text = 'a: "0150"\nb: plain # note\nc: 1\n';
    expect(editConfigText(text, [{ path: ['a'], value: '0151' }])).toBe('a: "0151"\nb: plain # note\nc: 1\n');
    expect(editConfigText(text, [{ path: ['b'], value: 'true' }])).toBe('a: "0150"\nb: "true" # note\nc: 1\n');
    expect(editConfigText(text, [{ path: ['c'], value: 'on-request' }])).toBe(
      'a: "0150"\nb: plain # note\nc: on-request\n',
    );
  });

  it("adds a missing key on a line of its own at the map's indentation (or inside a flow map), and removes one with its line", () => {
    const added = editConfigText(config, [{ path: ['booking', 'url'], value: 'https://cal.example/mendwise' }]);
    expect(added).toContain(
      'booking:\n  minutes: 30\n  timeZone: Europe/Oslo\n  days: 21\n  url: https://cal.example/mendwise\n',
    );
    expect((parse(added) as { booking: { url: string } }).booking.url).toBe('https://cal.example/mendwise');
    expect(editConfigText('x: { a: 1 }\n', [{ path: ['x', 'b'], value: 2 }])).toBe('x: { a: 1, b: 2 }\n');
    expect(editConfigText('x: {}\n', [{ path: ['x', 'b'], value: 2 }])).toBe('x: { b: 2 }\n');
    expect(editConfigText('x:\n  a: 1 # one\n  b: 2\ny: 3\n', [{ path: ['x', 'a'], value: null }])).toBe(
      'x:\n  b: 2\ny: 3\n',
    );
    expect(
      editConfigText('plans:\n  - id: plus\n    highlighted: true\n', [{ path: ['plans', 0, 'users'], value: 5 }]),
    ).toBe('plans:\n  - id: plus\n    highlighted: true\n    users: 5\n');
  });

  it('adds to and takes out of a flow or block list, keeping the rest of the line', () => {
    const flow = 'taxonomy: { field: category, terms: [circularity, saas, retail], path: category }\n';
    expect(editConfigText(flow, [{ path: ['taxonomy', 'terms'], append: 'repairs' }])).toBe(
      'taxonomy: { field: category, terms: [circularity, saas, retail, repairs], path: category }\n',
    );
    expect(editConfigText(flow, [{ path: ['taxonomy', 'terms'], remove: 'saas' }])).toBe(
      'taxonomy: { field: category, terms: [circularity, retail], path: category }\n',
    );
    expect(editConfigText(flow, [{ path: ['taxonomy', 'terms'], remove: 'circularity' }])).toBe(
      'taxonomy: { field: category, terms: [saas, retail], path: category }\n',
    );
    expect(editConfigText('terms: []\n', [{ path: ['terms'], append: 'a' }])).toBe('terms: [a]\n');
    const block = 'terms:\n  - a # first\n  - b\nnext: 1\n';
    expect(editConfigText(block, [{ path: ['terms'], append: 'c' }])).toBe(
      'terms:\n  - a # first\n  - b\n  - c\nnext: 1\n',
    );
    expect(editConfigText(block, [{ path: ['terms'], remove: 'b' }])).toBe('terms:\n  - a # first\nnext: 1\n');
  });

  // The schema, not the editor, refuses a value of the wrong type (settings-api.ts checks the result as `site check` does).
  it('refuses a key whose parent is missing', () => {
    expect(() => editConfigText(config, [{ path: ['nowhere', 'deeper'], value: 1 }])).toThrow(ConfigEditError);
  });

  it('adds a list of entries at the end of the file when missing, appends to a block or flow one, and takes one out by index', () => {
    const added = editConfigText(config, [
      { path: ['redirects'], appendEntry: { from: '/no/blog/gammel', to: '/no/blog/ny' } },
    ]);
    expect(added).toBe(`${config}redirects:\n  - from: /no/blog/gammel\n    to: /no/blog/ny\n`);
    const two = editConfigText(added, [{ path: ['redirects'], appendEntry: { from: '/a, b', to: '/c', status: 302 } }]);
    expect(two.slice(config.length)).toBe(
      'redirects:\n  - from: /no/blog/gammel\n    to: /no/blog/ny\n  - from: /a, b\n    to: /c\n    status: 302\n',
    );
    expect(editConfigText(two, [{ path: ['redirects'], removeEntry: 0 }]).slice(config.length)).toBe(
      'redirects:\n  - from: /a, b\n    to: /c\n    status: 302\n',
    );
    // The last one gone, the key keeps an empty list (the schema reads no null there).
    expect(editConfigText(added, [{ path: ['redirects'], removeEntry: 0 }]).slice(config.length)).toBe(
      'redirects: []\n',
    );
    const flow = 'redirects: [{ from: /a, to: /b }]\nx: 1\n';
    expect(editConfigText(flow, [{ path: ['redirects'], appendEntry: { from: '/c', to: '/d' } }])).toBe(
      'redirects: [{ from: /a, to: /b }, { from: /c, to: /d }]\nx: 1\n',
    );
    expect(editConfigText(flow, [{ path: ['redirects'], removeEntry: 0 }])).toBe('redirects: []\nx: 1\n');
  });

  // Issue 46: the YAML editor's block scalars (a page's paragraph, `text: |`): the value replaced up
  // to its last line, the next key kept on its own line, a text of several lines indented under its key.
  it('replaces a block scalar under a nested key with a line or a paragraph, keeping the next key', () => {
    const text = 'hero:\n  text: |\n    First paragraph.\n\n    Second.\n  heading: Kept\nother: 1\n';
    for (const value of ['One line', '---', 'New first.\n\nNew second.']) {
      const edited = editConfigText(text, [{ path: ['hero', 'text'], value }]);
      expect(parse(edited), JSON.stringify(value)).toEqual({ hero: { text: value, heading: 'Kept' }, other: 1 });
    }
    expect(editConfigText(text, [{ path: ['hero', 'text'], value: 'One line' }])).toBe(
      'hero:\n  text: One line\n  heading: Kept\nother: 1\n',
    );
    expect(
      parse(editConfigText('hero:\n  heading: One\n', [{ path: ['hero', 'heading'], value: 'Two\nlines' }])),
    ).toEqual({ hero: { heading: 'Two\nlines' } });
  });
});
