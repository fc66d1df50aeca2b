/**
 * `site init`: the starter in a new folder, in the languages asked for, and never over anything;
 * its contact page with the engine's form (typed-site/islands) and, with `--booking`, its booking
 * page, as `site build` writes them for every target.
 * (tests/package/packed-install.test.ts runs it from the installed package and builds the result.)
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { outputRoot, repoRoot } from '../helpers/paths';
import { linkPackage } from '../helpers/starter-site';

const run = promisify(execFile);
let work: string;

/** Runs the CLI of this checkout in `cwd` (default `work`); resolves with its exit code and output. */
async function site(args: string[], cwd = work): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [join(repoRoot, 'bin', 'site.js'), ...args], { cwd });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** The start tag and the inside of the form of an island in a page. */
function islandForm(html: string, island: string): { open: string; body: string } {
  const from = html.indexOf(`data-island="${island}"`);
  expect(from, island).toBeGreaterThan(-1);
  const match = /(<form\b[^>]*>)([\s\S]*?)<\/form>/.exec(html.slice(from));
  expect(match, island).not.toBeNull();
  return { open: match![1]!, body: match![2]! };
}

/** The fields of a form's HTML (hidden inputs left out): name, id and start tag, in order. */
function controls(body: string): { name: string; id: string; tag: string }[] {
  return [...body.matchAll(/<(?:input|select|textarea)\b[^>]*>/g)]
    .map((match) => match[0])
    .filter((tag) => !/ type="hidden"/.test(tag))
    .map((tag) => ({ name: / name="([^"]*)"/.exec(tag)?.[1] ?? '', id: / id="([^"]*)"/.exec(tag)?.[1] ?? '', tag }));
}

/** The text of the label tied to the element with `id` ("" without one), comments and tags left out. */
function labelFor(body: string, id: string): string {
  const label = new RegExp(`<label\\b[^>]* for="${id}"[^>]*>([\\s\\S]*?)</label>`).exec(body);
  return label
    ? label[1]!
        .replace(/<!--.*?-->|<[^>]+>/g, '')
        .replace(/\s+/g, ' ')
        .trim()
    : '';
}

beforeAll(async () => {
  await mkdir(outputRoot, { recursive: true });
  work = await mkdtemp(join(outputRoot, 'init-'));
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('site init', () => {
  it('writes the starter in the languages asked for, the first the default', async () => {
    const made = await site(['init', 'two', '--locales', 'en,no']);
    expect(made.code).toBe(0);
    expect(made.stdout).toContain('made a site in two');
    const config = parse(await readFile(join(work, 'two', 'site.config.yaml'), 'utf8')) as {
      site: { defaultLocale: string };
      locales: Record<string, { prefix: string; label: string; intl: string }>;
      routes: { path: string | Record<string, string> }[];
    };
    expect(config.site.defaultLocale).toBe('en');
    expect(Object.keys(config.locales)).toEqual(['en', 'no']);
    expect(config.locales.no).toMatchObject({ prefix: '/no', label: 'Norsk', intl: 'no-NO' });
    // The about page shows localized paths: its path per language, /no/om-oss in Norwegian.
    expect(config.routes.map((route) => route.path)).toContainEqual({ en: '/about', no: '/om-oss' });
    for (const file of [
      'content/messages/no.yaml',
      'content/pages/home/no.yaml',
      'content/pages/about/no.md',
      'content/blog/hello-world/no.md',
      'content/pages/contact/no.yaml',
      'content/pages/contact/sent/no.md',
      'content/pages/contact/failed/no.md',
    ]) {
      expect(existsSync(join(work, 'two', file)), file).toBe(true);
    }
    expect(made.stderr).toContain('the copy of no is the English text, to translate');
    // Run from a checkout, the project installs the generator from it: a version range would
    // name a package no registry may hold (npm install: E404).
    const manifest = JSON.parse(await readFile(join(work, 'two', 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(manifest.dependencies['typed-site']).toBe(
      `file:${relative(join(work, 'two'), repoRoot).split(sep).join('/')}`,
    );
    expect(made.stdout).toContain(
      `npm install      (installs typed-site from ${manifest.dependencies['typed-site']}, the folder this ran from)`,
    );
    // Nothing of the staging folder is left beside it.
    expect((await readdir(work)).filter((name) => name.includes('site-init'))).toEqual([]);
  });

  it('refuses a folder that holds anything, or a file, and a language code that is not one (exit 2)', async () => {
    await mkdir(join(work, 'taken'));
    await writeFile(join(work, 'taken', 'notes.txt'), 'mine');
    const taken = await site(['init', 'taken']);
    expect(taken.code).toBe(2);
    expect(taken.stderr).toContain('INIT_NOT_EMPTY');
    expect(await readdir(join(work, 'taken'))).toEqual(['notes.txt']);

    await writeFile(join(work, 'a-file'), 'mine');
    const file = await site(['init', 'a-file']);
    expect(file.code).toBe(2);
    expect(await readFile(join(work, 'a-file'), 'utf8')).toBe('mine');

    const wrong = await site(['init', 'wrong', '--locales', 'english']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('INIT_LOCALE');
    expect(existsSync(join(work, 'wrong'))).toBe(false);
  });

  it("gives the starter a contact page in every language: the engine's form, posting to /api/contact, labelled, and its result pages", async () => {
    const project = join(work, 'two');
    const config = parse(await readFile(join(project, 'site.config.yaml'), 'utf8')) as {
      routes: { path: unknown }[];
      contact: { endpoint: string; results: Record<string, string> };
    };
    expect(config.routes.map((route) => route.path)).toEqual(
      expect.arrayContaining(['/contact', '/contact/sent', '/contact/failed']),
    );
    expect(config.contact).toEqual({
      endpoint: '/api/contact',
      results: { sent: '/contact/sent', failed: '/contact/failed' },
    });
    await linkPackage(project);
    const built = await site(['build', '--no-social-images', '--no-precompress', '--out', 'dist-forms'], project);
    expect(built.code, built.stderr).toBe(0);
    const out = join(work, 'two', 'dist-forms');
    const read = (path: string) => readFile(join(out, path), 'utf8');

    for (const [path, locale, words] of [
      ['contact/index.html', 'en', { submit: 'Send message', firstName: 'First name', required: 'required' }],
      ['no/contact/index.html', 'no', { submit: 'Send melding', firstName: 'Fornavn', required: 'påkrevd' }],
    ] as const) {
      const html = await read(path);
      const form = islandForm(html, 'ContactForm');
      expect(form.open, path).toMatch(/ action="\/api\/contact"/);
      expect(form.open, path).toMatch(/ method="post"/);
      // Every field has a visible label tied to it; the required ones say so to screen readers.
      const fields = controls(form.body);
      expect(
        fields.map((field) => field.name),
        path,
      ).toEqual(['firstName', 'lastName', 'email', 'company', 'subject', 'message', 'website']);
      for (const field of fields) expect(labelFor(form.body, field.id), `${path} ${field.name}`).not.toBe('');
      for (const name of ['firstName', 'lastName', 'email', 'message'])
        expect(fields.find((field) => field.name === name)!.tag, name).toMatch(/ required=""/);
      expect(labelFor(form.body, 'contact-firstName'), path).toBe(`${words.firstName} * (${words.required})`);
      expect(form.body, path).toContain(`<input type="hidden" name="locale" value="${locale}"/>`);
      expect(form.body, path).toMatch(
        new RegExp(`<button type="submit" class="site-form-submit">${words.submit}</button>`),
      );
      expect(form.body, path).not.toMatch(/ style=/);
      // The island's script, and only on the pages with the form.
      expect(html, path).toMatch(/<script type="module" src="\/assets\/ContactForm\.[\w-]+\.js"><\/script>/);
    }
    for (const path of [
      'contact/sent/index.html',
      'contact/failed/index.html',
      'no/contact/sent/index.html',
      'no/contact/failed/index.html',
    ]) {
      expect(await read(path), path).toContain('<meta name="robots" content="noindex');
    }
    expect(await read('index.html')).not.toContain('type="module"');
    const assets = await readdir(join(out, 'assets'));
    expect(assets.some((file) => file.startsWith('ContactForm.'))).toBe(true);
    // No template imports the booking form: it is not bundled.
    expect(assets.some((file) => file.startsWith('BookingForm.'))).toBe(false);

    // Every host: the functions answer /api/contact; GitHub Pages answers no POST, which the build says.
    for (const target of ['netlify', 'cloudflare', 'vercel', 'github-pages']) {
      const hosted = await site(
        ['build', '--target', target, '--no-social-images', '--no-precompress', '--out', `dist-${target}`],
        project,
      );
      expect(hosted.code, `${target}: ${hosted.stderr}`).toBe(0);
      expect(hosted.stderr.includes('GitHub Pages answers no POST'), target).toBe(target === 'github-pages');
    }
    expect(existsSync(join(project, 'dist-netlify', 'netlify', 'functions', 'contact.mjs'))).toBe(true);
    expect(existsSync(join(project, 'dist-vercel', 'functions', 'api', 'contact.func'))).toBe(true);
    expect(await readFile(join(project, 'dist-cloudflare', '_routes.json'), 'utf8')).toContain('/api/contact');
  });

  it("takes the site's words over the form's, and a ContactForm island of the site's own in place of the engine's", async () => {
    const project = join(work, 'two');
    const contact = join(project, 'templates', 'pages', 'Contact.tsx');
    const template = await readFile(contact, 'utf8');
    await writeFile(
      contact,
      template.replace(
        'contactFormProps({ page, site })',
        "contactFormProps({ page, site }, { text: { submit: 'Send it our way', legend: site.t('nav.contact') } })",
      ),
    );
    let built = await site(['build', '--no-social-images', '--no-precompress', '--out', 'dist-words'], project);
    expect(built.code, built.stderr).toBe(0);
    const form = islandForm(
      await readFile(join(project, 'dist-words', 'no', 'contact', 'index.html'), 'utf8'),
      'ContactForm',
    );
    expect(form.body).toContain('<legend class="site-form-legend">Contact</legend>');
    expect(form.body).toContain('>Send it our way</button>');
    // The words not replaced stay the engine's Norwegian.
    expect(labelFor(form.body, 'contact-email')).toBe('E-post * (påkrevd)');

    // The site's own island of that name: no clash, and the page hydrates with it.
    await mkdir(join(project, 'templates', 'islands'));
    await writeFile(
      join(project, 'templates', 'islands', 'ContactForm.tsx'),
      "export default function ContactForm() { return <p>the site's own contact form</p>; }\n",
    );
    built = await site(['build', '--no-social-images', '--no-precompress', '--out', 'dist-own'], project);
    expect(built.code, built.stderr).toBe(0);
    const html = await readFile(join(project, 'dist-own', 'contact', 'index.html'), 'utf8');
    const script = /src="\/(assets\/ContactForm\.[\w-]+\.js)"/.exec(html)![1]!;
    const bundle = await readFile(join(project, 'dist-own', script), 'utf8');
    expect(bundle).toContain("the site's own contact form");
    expect(bundle).not.toContain('site-form-contact');
    await rm(join(project, 'templates', 'islands'), { recursive: true });
    await writeFile(contact, template);
  });

  it('with --booking, adds the booking page and its config; the starter checks and builds for every target', async () => {
    const made = await site(['init', 'meetings', '--booking']);
    expect(made.code, made.stderr).toBe(0);
    const project = join(work, 'meetings');
    for (const file of [
      'templates/pages/Book.tsx',
      'content/pages/book/en.yaml',
      'content/pages/book/booked/en.md',
      'content/pages/book/failed/en.md',
    ]) {
      expect(existsSync(join(project, file)), file).toBe(true);
    }
    const config = parse(await readFile(join(project, 'site.config.yaml'), 'utf8')) as {
      routes: { path: unknown; template: string }[];
      booking: Record<string, unknown>;
      company: { openingHours: unknown };
    };
    expect(
      config.routes
        .filter((route) => route.template !== 'Page' || String(route.path).startsWith('/book'))
        .map((route) => route.path),
    ).toEqual(['/', '/contact', '/book', '/book/booked', '/book/failed', '/blog', '/blog/{slug}']);
    expect(config.booking).toMatchObject({ results: { booked: '/book/booked', failed: '/book/failed' } });
    expect(config.company.openingHours).toBeDefined();
    await linkPackage(project);

    const checked = await site(['check'], project);
    expect(checked.code, checked.stderr).toBe(0);
    expect(checked.stdout).toMatch(/^ok: \d+ pages checked/m);
    const outs: Record<string, string> = {};
    for (const target of ['node', 'netlify', 'cloudflare', 'vercel', 'github-pages']) {
      const built = await site(
        ['build', '--target', target, '--no-social-images', '--no-precompress', '--out', `dist-${target}`],
        project,
      );
      expect(built.code, `${target}: ${built.stderr}`).toBe(0);
      outs[target] = join(project, `dist-${target}`, target === 'vercel' ? 'static' : '');
      if (target === 'github-pages') expect(built.stderr).toContain('GitHub Pages answers no POST');
    }

    const page = await readFile(join(outs.node!, 'book', 'index.html'), 'utf8');
    const form = islandForm(page, 'BookingForm');
    expect(form.open).toMatch(/ action="\/api\/booking"/);
    expect(form.open).toMatch(/ method="post"/);
    const fields = controls(form.body);
    expect(fields.map((field) => field.name)).toEqual([
      'date',
      'time',
      'firstName',
      'lastName',
      'email',
      'company',
      'note',
      'website',
    ]);
    for (const field of fields) expect(labelFor(form.body, field.id), field.name).not.toBe('');
    expect(form.body).toContain('<option value="09:00">09:00</option>');
    expect(page).toMatch(/<script type="module" src="\/assets\/BookingForm\.[\w-]+\.js"><\/script>/);
    expect(await readFile(join(outs.node!, 'book', 'booked', 'index.html'), 'utf8')).toContain(
      'Your meeting is booked',
    );
    // Netlify without output.functions.booking cannot answer the booking: the page offers the contact form, about the meeting.
    const fallback = await readFile(join(outs.netlify!, 'book', 'index.html'), 'utf8');
    expect(islandForm(fallback, 'ContactForm').body).toContain('value="I would like to book a meeting"');
    expect(fallback).not.toContain('data-island="BookingForm"');
    expect(existsSync(join(project, 'dist-netlify', 'netlify', 'functions', 'contact.mjs'))).toBe(true);
  }, 120_000);

  it('takes a folder that holds only .git', async () => {
    await mkdir(join(work, 'repo', '.git'), { recursive: true });
    const made = await site(['init', 'repo']);
    expect(made.code).toBe(0);
    expect((await readdir(join(work, 'repo'))).sort()).toContain('site.config.yaml');
  });
});
