/**
 * A right-to-left language (issue 48): the small engine site with its German locale turned into
 * Arabic (`dir: rtl`) gives exactly that locale's pages `<html dir="rtl">`, and its term pages
 * their own segment (`taxonomy.path: { nb: tema, ar: mawdu }`), paired with the other languages'.
 */
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, type BuildResult } from '../../src/build';
import { outputRoot, repoRoot } from '../helpers/paths';

const fixture = join(repoRoot, 'tests', 'fixtures', 'engine-site');
let dir: string;
let result: BuildResult;
const text = (file: string): string => {
  const data = result.files.get(file);
  if (data === undefined) throw new Error(`no file ${file}`);
  return typeof data === 'string' ? data : Buffer.from(data).toString('utf8');
};
const htmlTag = (file: string) => /<html[^>]*>/.exec(text(file))![0];

beforeAll(async () => {
  await mkdir(outputRoot, { recursive: true });
  dir = await mkdtemp(join(outputRoot, 'rtl-'));
  await cp(fixture, dir, { recursive: true });
  // Every German file becomes an Arabic one.
  for (const entry of await readdir(join(dir, 'content'), { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && /^de\.(md|yaml)$/.test(entry.name))
      await rename(join(entry.parentPath, entry.name), join(entry.parentPath, entry.name.replace(/^de/, 'ar')));
  }
  const config = join(dir, 'site.config.yaml');
  const source = await readFile(config, 'utf8');
  await writeFile(
    config,
    source
      .replace(
        /^ {2}de:\n(?: {4}.*\n)+/m,
        '  ar:\n    label: العربية\n    short: AR\n    prefix: /ar\n    hreflang: ar\n    htmlLang: ar\n    ogLocale: ar_AR\n    intl: ar\n    dir: rtl\n    browserLanguages: [ar]\n',
      )
      .replace('fallback: { de: [en] }', 'fallback: { ar: [en] }')
      .replace('path: tema }', 'path: { nb: tema, ar: mawdu } }'),
  );
  result = await buildSite({ config, cache: false, workers: 0, socialImages: false });
}, 120_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('a right-to-left locale', () => {
  it('gives its pages <html dir="rtl"> and the other languages no dir', () => {
    expect(htmlTag('ar/index.html')).toContain('lang="ar"');
    expect(htmlTag('ar/index.html')).toContain('dir="rtl"');
    expect(htmlTag('ar/aktuelt/index.html')).toContain('dir="rtl"');
    expect(htmlTag('index.html')).not.toContain('dir=');
    expect(htmlTag('en/index.html')).not.toContain('dir=');
  });

  it("puts its term pages under its own segment, the translations of the other languages' (the default's for English)", () => {
    const arabic = text('ar/aktuelt/mawdu/people/index.html');
    expect(arabic).toContain('<link rel="alternate" hreflang="nb" href="https://fixture.example/aktuelt/tema/people/"');
    expect(arabic).toContain(
      '<link rel="alternate" hreflang="en" href="https://fixture.example/en/aktuelt/tema/people/"',
    );
    expect(text('aktuelt/tema/people/index.html')).toContain(
      '<link rel="alternate" hreflang="ar" href="https://fixture.example/ar/aktuelt/mawdu/people/"',
    );
    expect(result.files.has('ar/aktuelt/tema/people/index.html')).toBe(false);
  });
});
