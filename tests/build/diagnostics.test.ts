/**
 * Diagnostics through the CLI: a template that refuses its copy fails the build naming the copy
 * file, the line and the field; warnings are printed with their place and leave the exit code 0.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/paths';

const run = promisify(execFile);

/** Runs the CLI in the repository; resolves with the exit code and both streams. */
function site(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return run('node', [join(repoRoot, 'bin', 'site.js'), ...args], { cwd: repoRoot }).then(
    (result) => ({ code: 0, ...result }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

describe('a template that raises a diagnostic', () => {
  it('fails with exit 1, naming the copy file, the line and column of the field, the field and the hint', async () => {
    const result = await site('check', '--config', 'tests/fixtures/template-diagnostic/site.config.yaml');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('TEMPLATE_REJECTED  tests/fixtures/template-diagnostic/content/pages/landing/en.yaml:5:12  hero.caption  / (template Landing): the hero has a caption but no image  (Add hero.image, or remove the caption.)');
    expect(result.stderr).toContain('> 5 |   caption: An image caption without an image');
    expect(result.stderr).not.toContain('internal error');
    expect(result.stderr).toMatch(/\n1 error\n$/);
  });
});
