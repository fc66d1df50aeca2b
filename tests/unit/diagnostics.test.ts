import { describe, expect, it } from 'vitest';
import { createDiagnostics } from '../../src/diagnostics';
import { SiteError, SiteErrors } from '../../src/errors';
import { createStageMemo } from '../../src/pipeline/stage';

describe('the diagnostics collector', () => {
  it('records each severity, and only errors count as errors', () => {
    const diagnostics = createDiagnostics();
    diagnostics.info({ code: 'PUBLIC_SKIPPED', message: 'a dot-file', file: 'public/.env' });
    diagnostics.warn({ code: 'ENCODING', message: 'not UTF-8', file: 'content/a.yaml' });
    expect(diagnostics.hasErrors).toBe(false);
    diagnostics.error({ code: 'CONTENT_INVALID', message: 'bad', file: 'content/b.yaml', line: 3, field: 'title' });
    expect(diagnostics.hasErrors).toBe(true);
    expect(diagnostics.list().map((problem) => [problem.severity, problem.code])).toEqual([
      ['warning', 'ENCODING'],
      ['error', 'CONTENT_INVALID'],
      ['info', 'PUBLIC_SKIPPED'],
    ]);
    expect(diagnostics.of('warning').map((problem) => problem.file)).toEqual(['content/a.yaml']);
    expect(diagnostics.of('error')[0]!.format()).toBe(
      'content/b.yaml:3  title  bad  (Compare the file with the fields the page template expects.)',
    );
  });

  it('drops repeats and sorts by file, line and column', () => {
    const diagnostics = createDiagnostics();
    for (const line of [9, 2, 9])
      diagnostics.error({ code: 'YAML_SYNTAX', message: 'bad indentation', file: 'z.yaml', line });
    diagnostics.error({ code: 'YAML_SYNTAX', message: 'bad indentation', file: 'a.yaml', line: 5 });
    expect(diagnostics.list().map((problem) => `${problem.file}:${problem.line}`)).toEqual([
      'a.yaml:5',
      'z.yaml:2',
      'z.yaml:9',
    ]);
  });

  it('fail records the error and throws it', () => {
    const diagnostics = createDiagnostics();
    expect(() => diagnostics.fail({ code: 'CONFIG_INVALID', message: 'stop', file: 'site.config.yaml' })).toThrow(
      SiteError,
    );
    expect(diagnostics.of('error').map((problem) => problem.message)).toEqual(['stop']);
  });

  it('a child shares the records and fills in its file', () => {
    const diagnostics = createDiagnostics();
    const child = diagnostics.child({ file: 'content/pages/home/en.yaml' });
    child.warn({ code: 'ENCODING', message: 'not UTF-8' });
    child.error({ code: 'CONTENT_INVALID', message: 'elsewhere', file: 'content/pages/home/no.yaml' });
    expect(diagnostics.list().map((problem) => problem.file)).toEqual([
      'content/pages/home/en.yaml',
      'content/pages/home/no.yaml',
    ]);
    expect(diagnostics.hasErrors).toBe(true);
  });

  it('throwIfErrors throws one error as itself, several together, and never for warnings', () => {
    const diagnostics = createDiagnostics();
    diagnostics.warn({ code: 'ENCODING', message: 'w' });
    expect(() => diagnostics.throwIfErrors()).not.toThrow();
    diagnostics.error({ code: 'CONTENT_INVALID', message: 'a' });
    expect(() => diagnostics.throwIfErrors()).toThrow(SiteError);
    diagnostics.error({ code: 'CONTENT_INVALID', message: 'b' });
    try {
      diagnostics.throwIfErrors();
      expect.unreachable();
    } catch (error) {
      expect((error as SiteErrors).errors.map((problem) => problem.message)).toEqual(['a', 'b']);
    }
  });
});

describe('the stage memo and diagnostics', () => {
  it('reports the diagnostics of a kept output again in every run that uses it', async () => {
    const memo = createStageMemo();
    let made = 0;
    const make = (diagnostics: ReturnType<typeof createDiagnostics>) => {
      made++;
      diagnostics.warn({ code: 'ENCODING', message: 'not UTF-8', file: 'content/x.md' });
      return 'value';
    };
    const first = memo.begin();
    expect((await first.load('x', 'key', make)).value).toBe('value');
    const second = memo.begin();
    const kept = await second.load('x', 'key', make);
    expect(made).toBe(1);
    expect(kept.diagnostics.map((problem) => problem.file)).toEqual(['content/x.md']);
    expect(second.diagnostics.of('warning').map((problem) => problem.message)).toEqual(['not UTF-8']);
  });

  it('keeps thrown SiteErrors as the diagnostics of an output that could not be made', async () => {
    const memo = createStageMemo();
    const run = memo.begin();
    const loaded = await run.load('y', 'key', (diagnostics) => {
      diagnostics.warn({ code: 'ENCODING', message: 'first' });
      throw new SiteError({ code: 'OUTPUT_COLLISION', message: 'two pages', file: 'site.config.yaml' });
    });
    expect(loaded.value).toBeUndefined();
    expect(loaded.diagnostics.map((problem) => problem.code).sort()).toEqual(['ENCODING', 'OUTPUT_COLLISION']);
    expect(run.diagnostics.hasErrors).toBe(true);
    const again = memo.begin();
    await again.load('y', 'key', () => 'never made');
    expect(again.diagnostics.of('error').map((problem) => problem.code)).toEqual(['OUTPUT_COLLISION']);
  });
});
