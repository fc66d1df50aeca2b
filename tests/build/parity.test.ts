import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSite } from '../../src/build';
import { collectSiteErrors, type SiteError } from '../../src/errors';
import { createTempSite } from '../helpers/fixture-site';

async function errorsAfter(change: (dir: string) => Promise<void>): Promise<SiteError[]> {
  const site = await createTempSite();
  try {
    await change(site.dir);
    await buildSite({ config: site.config });
    return [];
  } catch (error) {
    return collectSiteErrors(error) ?? [];
  } finally {
    await site.cleanup();
  }
}

describe('content parity between languages', () => {
  it('fails the build and names the file and key missing in one language, once: the template requires it (issue 53)', async () => {
    const errors = await errorsAfter(async (dir) => {
      const file = join(dir, 'content', 'pages', 'hub', 'product', 'no.yaml');
      const text = await readFile(file, 'utf8');
      await writeFile(file, text.replace(/^closing:[\s\S]*$/m, ''));
    });
    expect(errors.map((error) => [error.code, error.field, error.message])).toEqual([
      [
        'CONTENT_INVALID',
        'closing',
        'required field is missing (expected an object with heading, text, primaryCta and secondaryCta)',
      ],
    ]);
    expect(errors[0]!.file).toMatch(/content\/pages\/hub\/product\/no\.yaml$/);
  });

  it('names a page whose copy is missing in one language', async () => {
    const errors = await errorsAfter((dir) => rm(join(dir, 'content', 'pages', 'shop', 'pricing', 'no.yaml')));
    expect(errors.map((error) => error.format()).join('\n')).toMatch(
      /content\/pages\/shop\/pricing\/no\.yaml  .*route "\/shop\/pricing" needs/,
    );
  });

  it('names a UI message missing in one language, with its line', async () => {
    const errors = await errorsAfter(async (dir) => {
      const file = join(dir, 'content', 'messages', 'no.yaml');
      await writeFile(file, (await readFile(file, 'utf8')).replace('  privacy: Personvernerklæring\n', ''));
    });
    const parity = errors.find((error) => error.code === 'CONTENT_PARITY')!;
    expect(parity.format()).toMatch(/content\/messages\/no\.yaml:\d+:\d+  footer  missing key "footer\.privacy"/);
  });

  it('rejects unknown keys in page copy at their line', async () => {
    const errors = await errorsAfter(async (dir) => {
      for (const locale of ['en', 'no']) {
        const file = join(dir, 'content', 'pages', 'landing', `${locale}.yaml`);
        await writeFile(file, `${await readFile(file, 'utf8')}subtitel: oops\n`);
      }
    });
    expect(errors.filter((error) => error.code === 'CONTENT_UNKNOWN_KEY').map((error) => error.field)).toEqual([
      'subtitel',
      'subtitel',
    ]);
  });
});
