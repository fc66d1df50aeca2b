import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkOutputFolder, outputMarker, outputMarkerText } from '../../src/emit/output-folder';

describe('checkOutputFolder', () => {
  let project: string;
  beforeEach(async () => {
    project = await mkdtemp(join(tmpdir(), 'site-project-'));
    mkdirSync(join(project, 'content'));
  });
  afterEach(() => rm(project, { recursive: true, force: true }));
  const guard = () => ({
    projectRoot: project,
    cwd: project,
    sources: [{ path: join(project, 'content'), what: 'the content folder' }],
  });
  const reason = (out: string) => checkOutputFolder(out, guard())?.message;

  it('refuses the file-system root, the home folder, the project and every folder above it', () => {
    expect(reason('/')).toMatch(/it is the root of the file system/);
    expect(reason(homedir())).toMatch(/it is your home folder/);
    expect(reason(project)).toMatch(/it is the project/);
    expect(reason(join(project, '..'))).toMatch(/it holds the project/);
    expect(checkOutputFolder(project, guard())?.code).toBe('OUTPUT_UNSAFE');
  });

  it('refuses a folder the site reads, or one inside it', () => {
    expect(reason(join(project, 'content'))).toMatch(/it is the content folder/);
    expect(reason(join(project, 'content', 'out'))).toMatch(/it is inside the content folder/);
  });

  it('accepts a new folder, an empty one, and one an earlier build marked', () => {
    expect(checkOutputFolder(join(project, 'dist'), guard())).toBeUndefined();
    mkdirSync(join(project, 'empty'));
    expect(checkOutputFolder(join(project, 'empty'), guard())).toBeUndefined();
    mkdirSync(join(project, 'built'));
    writeFileSync(join(project, 'built', 'index.html'), '<!doctype html>');
    expect(reason(join(project, 'built'))).toMatch(/1 entry that site build did not write/);
    writeFileSync(join(project, 'built', outputMarker), outputMarkerText);
    expect(checkOutputFolder(join(project, 'built'), guard())).toBeUndefined();
  });

  it('does not take any file of that name as the marker', () => {
    mkdirSync(join(project, 'other'));
    writeFileSync(join(project, 'other', outputMarker), 'something else');
    expect(reason(join(project, 'other'))).toMatch(/did not write/);
  });
});
