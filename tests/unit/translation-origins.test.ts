/** Where a translation came from in git's log (src/admin/translation-origins.ts): pure parts. */
import { describe, expect, it } from 'vitest';
import { blobOf, originInLog, parseGitLog } from '../../src/admin/translation-origins';

const zero = '0'.repeat(40);
const [a1, a2, b1] = ['a'.repeat(40), 'c'.repeat(40), 'b'.repeat(40)];
// Newest first, as `git log --raw --no-abbrev --format=%x00%H%x09%cI` writes it.
const log = [
  `\0${'3'.repeat(40)}\t2026-03-01T10:00:00+01:00\n\n:100644 100644 ${a1} ${a2} M\tcontent/en.yaml\n`,
  `\0${'2'.repeat(40)}\t2026-02-01T10:00:00+01:00\n\n:000000 100644 ${zero} ${b1} A\tcontent/no.yaml\n`,
  `\0${'1'.repeat(40)}\t2026-01-01T10:00:00+01:00\n\n:000000 100644 ${zero} ${a1} A\tcontent/en.yaml\n`,
].join('');

describe('translation origins in git', () => {
  it("finds the source's blob in the translation's last commit: the source's newest commit at or before it", () => {
    const files = parseGitLog(log);
    expect(files.get('content/en.yaml')!.map((commit) => commit.index)).toEqual([0, 2]);
    expect(originInLog(files, 'content/no.yaml', 'content/en.yaml')).toEqual({
      blob: a1,
      at: '2026-02-01T10:00:00+01:00',
    });
    // Unknown when git has no commit of either.
    expect(originInLog(files, 'content/de.yaml', 'content/en.yaml')).toBeUndefined();
    expect(originInLog(files, 'content/no.yaml', 'content/fr.yaml')).toBeUndefined();
  });

  it("names a text by git's blob id", () => {
    // `printf 'hello\n' | git hash-object --stdin`
    expect(blobOf('hello\n')).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
  });
});
