/**
 * The starter's and the admin's stylesheets mirror on a right-to-left page (`dir: rtl`, issue 48):
 * they place things with logical properties (margin-inline-end, border-inline-start, text-align:
 * start), never with left or right, which would stay put when the page turns.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/paths';

const physical =
  /(?:^|[\s;{])(?:(?:margin|padding|border)-(?:left|right)(?:-[a-z]+)?|left|right|float|clear)\s*:|text-align\s*:\s*(?:left|right)|border-(?:top|bottom)-(?:left|right)-radius/g;

describe('stylesheets that mirror', () => {
  for (const file of ['starters/default/templates/styles/main.css', 'src/admin/ui/admin.css']) {
    it(`${file} uses no physical left or right`, () => {
      const css = readFileSync(join(repoRoot, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
      const lines = css.split('\n');
      const found = lines.flatMap((line, index) =>
        [...line.matchAll(physical)].map((match) => `${index + 1}: ${match[0].trim()}`),
      );
      expect(found).toEqual([]);
    });
  }
});
