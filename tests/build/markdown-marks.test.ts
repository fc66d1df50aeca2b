/**
 * The build refuses a paragraph of more link and emphasis marks than `markdown.maxParagraphMarks`
 * before parsing it (micromark's time grows with their square: 250 KB of open link destinations
 * took 15-25 s), with the file, line and column of the mark past the limit.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../src/build';
import { collectSiteErrors } from '../../src/errors';
import { createTempSite, type TempSite } from '../helpers/fixture-site';
import { fixturesRoot } from '../helpers/paths';

describe('a paragraph of link destinations left open', () => {
  let site: TempSite;
  beforeAll(async () => {
    site = await createTempSite({ posts: join(fixturesRoot, 'blog-posts') });
  });
  afterAll(() => site.cleanup());

  it('is refused before it is parsed, at the line and column of the mark past the limit', async () => {
    await mkdir(join(site.dir, 'content', 'blog', 'open-links'), { recursive: true });
    const front =
      '---\ntitle: Open links\ndescription: A post.\ndate: 2026-02-01\ncategory: saas\nauthor: Test\n---\n\n';
    await writeFile(
      join(site.dir, 'content', 'blog', 'open-links', 'en.md'),
      `${front}Fine so far.\n\nSee ${'[a]('.repeat(64_000)}\n`,
    );
    const started = performance.now();
    const thrown = await buildSite({ config: site.config, cache: false }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(performance.now() - started).toBeLessThan(10_000);
    const errors = collectSiteErrors(thrown);
    expect(errors?.map(({ code, file, line, column, message }) => ({ code, file, line, column, message }))).toEqual([
      {
        code: 'MARKDOWN_LIMIT',
        file: expect.stringMatching(/content\/blog\/open-links\/en\.md$/),
        line: 11,
        column: 2005,
        message:
          'this paragraph has more than the 1,000 link and emphasis marks ([ ] * _ ~) allowed (markdown.maxParagraphMarks)',
      },
    ]);
  });
});
