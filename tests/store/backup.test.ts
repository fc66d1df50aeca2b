/**
 * `site db backup <file>` from the command line, where the copy may go: never into a folder that a
 * server publishes (the output folder, public/, a folder holding a built site), where `site serve`
 * or any static host would hand the accounts' e-mails and password hashes to whoever asks, and
 * never into a folder that is not there (a clear error, not an internal one).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempSite, type TempSite } from '../helpers/fixture-site';
import { repoRoot } from '../helpers/paths';

const run = promisify(execFile);
const siteBin = join(repoRoot, 'bin', 'site.js');

describe('site db backup', () => {
  let site: TempSite;
  beforeAll(async () => {
    // The site's own public/ (the fixture's points at the repository's, which a failed refusal would write into).
    site = await createTempSite({ editConfig: (text) => text.replace(/^ {2}public: .*$/m, '  public: public') });
    await mkdir(join(site.dir, 'public'));
  });
  afterAll(async () => {
    await site.cleanup();
  });

  const backup = (file: string) =>
    run(process.execPath, [siteBin, '--config', site.config, 'db', 'backup', file], {
      cwd: site.dir,
      env: { ...process.env, NO_COLOR: '1', DATABASE_URL: '' },
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({
        code: error.code,
        stdout: error.stdout,
        stderr: error.stderr,
      }),
    );

  it('refuses a file in a folder that does not exist with a clear error, not an internal one', async () => {
    const file = join(site.dir, 'no-such-folder', 'backup.db');
    const answer = await backup(file);
    expect(answer.code).toBe(2);
    expect(answer.stderr).not.toContain('internal error');
    expect(answer.stderr).toContain('BACKUP_REFUSED');
    expect(answer.stderr).toContain(`${join(site.dir, 'no-such-folder')} does not exist`);
    expect(answer.stderr).toContain('mkdir');
    expect(existsSync(file)).toBe(false);
  });

  it('refuses the output folder, public/ and any folder holding a built site, and writes elsewhere', async () => {
    await mkdir(join(site.dir, 'dist', 'nested'), { recursive: true });
    await mkdir(join(site.dir, 'www', 'old'), { recursive: true });
    await writeFile(join(site.dir, 'www', 'index.html'), '<!doctype html><title>Another site</title>');
    const refused: [string, string][] = [
      [join(site.dir, 'dist', 'backup.db'), 'the output folder'],
      [join(site.dir, 'dist', 'nested', 'backup.db'), 'the output folder'],
      [join(site.dir, 'public', 'b.db'), 'the public folder'],
      [join(site.dir, 'www', 'old', 'site.db'), 'a web server'],
    ];
    for (const [file, what] of refused) {
      const answer = await backup(file);
      expect(answer.code, `${file}: ${answer.stderr}`).toBe(2);
      expect(answer.stderr).toContain('BACKUP_REFUSED');
      expect(answer.stderr).toContain(file);
      expect(answer.stderr).toContain(what);
      expect(existsSync(file), file).toBe(false);
    }
    await mkdir(join(site.dir, 'backups'));
    const file = join(site.dir, 'backups', 'site.db');
    const written = await backup(file);
    expect(written.code, written.stderr).toBe(0);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });
});
