/**
 * The engine's forms as islands (src/islands/form-islands.ts): which of them a template imports
 * from typed-site/islands, which are bundled for a site (an island of the site's own of the same
 * name replaces the engine's), and that a replacement is never answered from the build cache with
 * the engine's bundle.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDiskCache } from '../../src/cache/disk-cache';
import { createCachedEsbuild } from '../../src/cache/esbuild-cache';
import { bundleIslands } from '../../src/islands/bundle';
import { engineFormIslands, formIslandFile, formsImportedBy, formsImportedIn } from '../../src/islands/form-islands';

describe('formsImportedBy', () => {
  it('names the forms a module imports or re-exports from typed-site/islands, renamed or not', () => {
    expect(formsImportedBy("import { ContactForm, contactFormProps } from 'typed-site/islands';")).toEqual([
      'ContactForm',
    ]);
    expect(
      formsImportedBy('import { BookingForm as Booking, type BookingFormProps } from "typed-site/islands"'),
    ).toEqual(['BookingForm']);
    expect(
      formsImportedBy(
        "export { ContactForm } from 'typed-site/islands';\nexport { BookingForm } from 'typed-site/islands';",
      ),
    ).toEqual(['BookingForm', 'ContactForm']);
    expect(formsImportedBy("import {\n  ContactForm,\n  BookingForm,\n} from 'typed-site/islands'")).toEqual([
      'BookingForm',
      'ContactForm',
    ]);
  });

  it('takes every form for a namespace import, export * or a dynamic import', () => {
    expect(formsImportedBy("import * as forms from 'typed-site/islands';")).toEqual(['BookingForm', 'ContactForm']);
    expect(formsImportedBy("export * from 'typed-site/islands';")).toEqual(['BookingForm', 'ContactForm']);
    expect(formsImportedBy("const forms = await import('typed-site/islands');")).toEqual([
      'BookingForm',
      'ContactForm',
    ]);
  });

  it('ignores type-only imports, other entries, and the imports before one without semicolons', () => {
    expect(formsImportedBy("import type { ContactFormProps } from 'typed-site/islands';")).toEqual([]);
    expect(formsImportedBy("import { type ContactForm } from 'typed-site/islands';")).toEqual([]);
    expect(
      formsImportedBy(
        "import { Island } from 'typed-site/template';\nimport ContactForm from '../islands/ContactForm';",
      ),
    ).toEqual([]);
    expect(
      formsImportedBy(
        "import type { PageProps } from 'typed-site/template'\nimport * as React from 'react'\nimport { ContactForm } from 'typed-site/islands'",
      ),
    ).toEqual(['ContactForm']);
  });
});

describe('engineFormIslands', () => {
  it("bundles the forms imported, but not one the site has an island of: the site's replaces it", () => {
    expect(engineFormIslands(['BookingForm', 'ContactForm'], ['ContactForm', 'RoiCalculator'])).toEqual({
      BookingForm: formIslandFile('BookingForm'),
    });
    expect(engineFormIslands([], [])).toEqual({});
    expect(formIslandFile('ContactForm')).toMatch(/src[\\/]islands[\\/]forms[\\/]ContactForm\.tsx$/);
  });
});

describe('a site island that replaces an engine form', () => {
  let dir: string;
  const templates = () => join(dir, 'templates');

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'site-form-islands-'));
    await mkdir(join(dir, 'templates', 'pages'), { recursive: true });
    await writeFile(
      join(dir, 'templates', 'pages', 'Contact.tsx'),
      "import { Island } from 'typed-site/template';\nimport { ContactForm } from 'typed-site/islands';\nexport default function Contact() { return null; }\n",
    );
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("is found in the templates, and the cached bundle of the engine's form is not taken for the site's", async () => {
    expect(await formsImportedIn(templates())).toEqual(['ContactForm']);
    const run = createCachedEsbuild({ cache: openDiskCache('esbuild', join(dir, 'cache')), root: dir });
    const contents = async (bundle: Awaited<ReturnType<typeof bundleIslands>>) => {
      const file = bundle.files.get(bundle.entries.ContactForm!.slice(1))!;
      return typeof file === 'string' ? file : new TextDecoder().decode(file);
    };

    const engine = await bundleIslands(templates(), [], 'preact', { run }, engineFormIslands(['ContactForm'], []));
    expect(await contents(engine)).toContain('site-form-contact');

    await mkdir(join(dir, 'templates', 'islands'));
    await writeFile(
      join(dir, 'templates', 'islands', 'ContactForm.tsx'),
      "export default function ContactForm() { return <p>the site's own form</p>; }\n",
    );
    const own = await bundleIslands(
      templates(),
      ['ContactForm'],
      'preact',
      { run },
      engineFormIslands(['ContactForm'], ['ContactForm']),
    );
    expect(run.stats.hits).toBe(0);
    expect(await contents(own)).toContain("the site's own form");
    expect(await contents(own)).not.toContain('site-form-contact');
  });
});
