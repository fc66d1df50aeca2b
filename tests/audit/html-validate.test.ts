import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HtmlValidate } from 'html-validate';
import { describe, expect, it } from 'vitest';
import { builtSite, repoRoot } from '../helpers/paths';
import { readPages } from '../helpers/site-files';

describe('html-validate', () => {
  it('finds zero errors on every built page (recommended preset, React serializer style)', async () => {
    const validator = new HtmlValidate(JSON.parse(readFileSync(join(repoRoot, '.htmlvalidate.json'), 'utf8')));
    const pages = await readPages(builtSite);
    expect(pages.length).toBeGreaterThan(150);
    const problems: string[] = [];
    for (const page of pages) {
      const report = await validator.validateString(page.html, page.file);
      for (const message of report.results.flatMap((result) => result.messages)) {
        problems.push(`${page.file}:${message.line}:${message.column}  ${message.ruleId}  ${message.message}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
