/**
 * The admin speaks the site's default language: the real site built with Norwegian as its default
 * locale, and without its own admin copy (content/pages/admin, content/pages/auth), gets every
 * admin screen and the sign-in page in the engine's Norwegian copy, with no English left over.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../src/build';
import { createTempSite, type TempSite } from '../helpers/fixture-site';

/** Norwegian as the default locale: it takes the empty prefix, English moves under /en. */
const norwegianFirst = (text: string) =>
  text
    .replace(/^ {2}defaultLocale: en$/m, '  defaultLocale: "no"')
    .replace(/^ {4}prefix: ""$/m, '    prefix: /en')
    .replace(/^ {4}prefix: \/no$/m, '    prefix: ""');

/** Per screen: strings of its Norwegian copy the built page shows, and English ones it must not. */
const screens: Record<string, { norwegian: string[]; english: string[] }> = {
  'admin/blog/index.html': {
    norwegian: [
      '<h1>Innhold</h1>',
      'Henter innholdsredigeringen …',
      'Hopp til hovedinnholdet',
      'Gjenopprett denne versjonen',
      'Forhåndsvis',
    ],
    english: ['Content administration', 'Restore this version', 'Preview', 'Skip to main content'],
  },
  'admin/pages/index.html': {
    norwegian: ['<h1>Sidetekster</h1>', 'Lagre tekstene', 'Tilbake til nettstedet'],
    english: ['Page texts', 'Save texts', 'Back to the website'],
  },
  'admin/visual/index.html': {
    norwegian: ['<h1>Rediger på siden</h1>', 'Redigering på siden krever JavaScript'],
    english: ['Edit on the page', 'Editing on the page needs JavaScript'],
  },
  'admin/settings/index.html': {
    norwegian: [
      '<h1>Innstillinger for nettstedet</h1>',
      'Lønnsomhetskalkulator',
      'Ordrer per måned',
      'Organisasjonsnummer',
    ],
    english: ['Site settings', 'ROI calculator', 'Orders per month', 'Organisation number'],
  },
  'admin/inbox/index.html': {
    norwegian: ['<h1>Innboks</h1>', 'Møteforespørsel', 'Merk som behandlet'],
    english: ['<h1>Inbox</h1>', 'Meeting request', 'Mark handled'],
  },
  'admin/changes/index.html': {
    norwegian: ['<h1>Endringer</h1>', 'Vis eldre endringer', 'Opprettet et innlegg'],
    english: ['<h1>Changes</h1>', 'Show older changes', 'Created a post'],
  },
  'admin/media/index.html': {
    norwegian: ['<h1>Bildebibliotek</h1>', 'Fokuspunkt', 'Alternativ tekst'],
    english: ['Media library', 'Focal point', 'Sign out'],
  },
  'auth/index.html': {
    norwegian: ['<h1>Logg inn</h1>', 'E-postadresse', 'Passord', 'Innlogging for administratorer'],
    english: ['Administrator sign-in', 'Password', 'E-mail address', 'Sign in'],
  },
};

describe('a site whose default locale is Norwegian', () => {
  let site: TempSite;
  let files: Map<string, string>;

  beforeAll(async () => {
    site = await createTempSite({ editConfig: norwegianFirst });
    // The engine's copy, not the Mendwise site's own wording of some screens.
    await rm(join(site.dir, 'content', 'pages', 'admin'), { recursive: true, force: true });
    await rm(join(site.dir, 'content', 'pages', 'auth'), { recursive: true, force: true });
    const result = await buildSite({ config: site.config, socialImages: false, cache: false });
    expect(result.config.site.defaultLocale).toBe('no');
    files = new Map(
      [...result.files]
        .filter(([path]) => /^(?:admin|auth)\/.*\.html$/.test(path))
        .map(([path, data]) => [path, typeof data === 'string' ? data : Buffer.from(data).toString('utf8')]),
    );
  }, 120_000);

  afterAll(() => site?.cleanup());

  for (const [path, { norwegian, english }] of Object.entries(screens)) {
    it(`builds /${path.replace(/index\.html$/, '')} in Norwegian, without English copy`, () => {
      const html = files.get(path);
      if (html === undefined) throw new Error(`no ${path} among ${[...files.keys()].join(', ')}`);
      // The Norwegian locale's htmlLang in site.config.yaml is nb (bokmål).
      expect(html).toMatch(/<html lang="nb"/);
      for (const text of norwegian) expect(html, text).toContain(text);
      for (const text of english) expect(html, text).not.toContain(text);
    });
  }
});
