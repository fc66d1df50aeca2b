/**
 * The copy follows its glossary: content/glossary.<locale>.yaml lists, per term, the forms the copy
 * of that locale must not use (`avoid`), optionally only under some folders (`only`). This lint
 * reads every content file of the locale (messages, page copy, blog posts) and fails on any of
 * them, naming file, line, the form found and the term to use instead.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { repoRoot } from '../helpers/paths';

interface Term {
  use: string;
  note: string;
  avoid?: string[];
  only?: string[];
}

interface Rule {
  use: string;
  pattern: RegExp;
  source: string;
  only?: string[];
}

interface Finding {
  file: string;
  line: number;
  found: string;
  use: string;
}

const contentRoot = join(repoRoot, 'content');

/** The rules of a glossary file: one whole-word, case-insensitive pattern per avoided form. */
function readRules(locale: string): Rule[] {
  const glossary = parse(readFileSync(join(contentRoot, `glossary.${locale}.yaml`), 'utf8')) as { terms: Term[] };
  return glossary.terms.flatMap((term) =>
    (term.avoid ?? []).map((source) => ({
      use: term.use,
      source,
      only: term.only,
      pattern: new RegExp(`(?<![\\p{L}\\p{N}])(?:${source})(?![\\p{L}\\p{N}])`, 'giu'),
    })),
  );
}

/** Content files of one locale: `<locale>.yaml` and `<locale>.md` anywhere under content/, as paths relative to it. */
function localeFiles(locale: string, dir = contentRoot): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return localeFiles(locale, path);
      return entry.name === `${locale}.yaml` || entry.name === `${locale}.md`
        ? [relative(contentRoot, path).split('\\').join('/')]
        : [];
    })
    .sort();
}

/** Keys whose values are identifiers, not copy (`- id: bulk-orders`, `feature: online-orders`, `category: saas`). */
const identifierKeys = /^\s*(?:- )?(?:id|feature|category|date|updated|image):\s/;

/**
 * A line with what is not copy blanked out: a YAML key (`free:`, `- email:`), identifiers,
 * `{placeholders}` and Markdown code spans (the names of stored values, `site-booking`).
 */
function copyOf(line: string): string {
  const blank = (part: string) => ' '.repeat(part.length);
  if (identifierKeys.test(line)) return blank(line);
  return line
    .replace(/^(\s*(?:- )?)([A-Za-z0-9_.-]+:)(?=\s|$)/, (_, indent: string, key: string) => indent + blank(key))
    .replace(/\{[^{}\s]+\}/g, blank)
    .replace(/`[^`]+`/g, blank);
}

/** Every avoided form in `text` (the file `file`, relative to content/). */
export function lintText(file: string, text: string, rules: readonly Rule[]): Finding[] {
  const findings: Finding[] = [];
  const lines = text.split('\n').map(copyOf);
  for (const rule of rules) {
    if (rule.only && !rule.only.some((folder) => file.startsWith(folder))) continue;
    lines.forEach((line, index) => {
      for (const match of line.matchAll(rule.pattern))
        findings.push({ file, line: index + 1, found: match[0], use: rule.use });
    });
  }
  return findings;
}

const format = (finding: Finding) =>
  `content/${finding.file}:${finding.line}  "${finding.found}"  (use: ${finding.use})`;

describe.each(['no', 'en'])('the %s copy follows its glossary (content/glossary.<locale>.yaml)', (locale) => {
  const rules = readRules(locale);

  it('has rules and files to check', () => {
    expect(rules.length).toBeGreaterThan(5);
    expect(localeFiles(locale)).toContain(`messages/${locale}.yaml`);
  });

  it('uses none of the forms the glossary avoids', () => {
    const findings = localeFiles(locale).flatMap((file) =>
      lintText(file, readFileSync(join(contentRoot, file), 'utf8'), rules),
    );
    expect(findings.map(format)).toEqual([]);
  });
});

describe('the glossary lint', () => {
  const rules = readRules('no');
  const found = (file: string, text: string) => lintText(file, text, rules).map((finding) => finding.found);

  it('finds the forms the issue names, in any case', () => {
    expect(found('messages/no.yaml', 'Vennligst prøv igjen.')).toEqual(['Vennligst']);
    expect(found('messages/no.yaml', 'tagline: for arbeidsklærselskaper.')).toEqual(['arbeidsklærselskaper']);
    expect(found('messages/no.yaml', 'Oops! Siden finnes ikke')).toEqual(['Oops']);
    expect(found('blog/x/no.md', 'Send bulkbestillinger og velg en større plan.')).toEqual([
      'plan',
      'bulkbestillinger',
    ]);
    expect(found('pages/hub/no.yaml', 'Se hvordan det passer i din butikk')).toEqual(['butikk', 'din butikk']);
    expect(found('pages/hub/book-meeting/no.yaml', 'Man–fre 9:00–17:00 CET')).toEqual(['9:00', '17:00', 'CET']);
    expect(found('pages/hub/no.yaml', 'Tilleggspakken «100 tickets»')).toEqual(['tickets']);
  });

  it('finds the forms of the native reading of issue 33', () => {
    expect(found('messages/no.yaml', 'submit: Book møtet')).toEqual(['Book']);
    expect(found('messages/no.yaml', 'Vi fikk ikke booket møtet; Nettbooking er nede; bookingen din')).toEqual([
      'booket',
      'bookingen',
      'Nettbooking',
    ]);
    expect(found('pages/ourstory/no.yaml', 'Hvert manuelle steg vi fjerner')).toEqual(['Hvert manuelle']);
    expect(found('messages/no.yaml', 'Sjekk ordre per måned og minutter per ordre.')).toEqual(['ordre per måned']);
    expect(found('messages/no.yaml', 'Med disse tallene ville dere spart mer')).toEqual(['dere']);
    expect(found('pages/contact/no.yaml', 'man.–fre. kl. 09.00–17.00 CET; 10:30')).toEqual(['10:30', 'CET']);
    expect(found('pages/landing/no.yaml', 'text: moteavfall kastes hvert år.')).toEqual(['moteavfall']);
    expect(found('pages/shop/no.yaml', 'Et reparert plagg beholder en kunde.')).toEqual(['beholder en']);
    expect(
      found('pages/shop/no.yaml', 'Kreditnotaer følger automatisk. Fakturaer følger reparasjonen automatisk.'),
    ).toEqual(['følger automatisk', 'følger reparasjonen automatisk']);
    expect(found('pages/ourstory/no.yaml', 'heading: Én plattform, tre sider')).toEqual(['tre sider']);
    expect(found('blog/x/no.md', 'få fikset jakka de valgte')).toEqual(['jakka']);
    expect(found('pages/workwear/no.yaml', 'title: CO2-besparelser')).toEqual(['CO2']);
  });

  it('finds the English forms of issue 33', () => {
    const english = readRules('en');
    const foundEn = (file: string, text: string) => lintText(file, text, english).map((finding) => finding.found);
    expect(foundEn('pages/ourstory/en.yaml', 'figure: 92 million tons')).toEqual(['tons']);
    expect(foundEn('blog/x/en.md', '## Cost control and CO2 savings')).toEqual(['CO2']);
    expect(foundEn('blog/x/en.md', '92 million tonnes; CO₂ savings; buttons')).toEqual([]);
  });

  it('finds the forms of the copy review of 29 November 2026 (shared/reviews/copy-2026-11-29.md)', () => {
    expect(found('pages/landing/no.yaml', 'eyebrow: Programvare for reparasjonsøkonomien')).toEqual([
      'reparasjonsøkonomien',
    ]);
    expect(found('messages/no.yaml', 'tagline: Reparasjonsstyring for verksteder')).toEqual(['Reparasjonsstyring']);
    expect(found('pages/landing/no.yaml', 'cta: Utforsk Hub')).toEqual(['Utforsk']);
    expect(found('pages/shop/no.yaml', 'Teamet ser status på alle saker med ett blikk.')).toEqual(['med ett blikk']);
    expect(found('pages/workwear/no.yaml', 'på tvers av team og lokasjoner, fra én lokasjon')).toEqual([
      'lokasjoner',
      'lokasjon',
    ]);
    expect(found('pages/shop/no.yaml', 'Fakturaer og kreditnotaer lages av seg selv.')).toEqual(['lages av seg selv']);
    expect(found('pages/hub/pricing/no.yaml', 'Start med Gratis. Alt i Gratis, og i tillegg; også Gratis')).toEqual([
      'med Gratis',
      'i Gratis',
      'også Gratis',
    ]);
    expect(found('pages/terms/no.md', 'Gratis-abonnementet kan sies opp')).toEqual(['Gratis-abonnementet']);
    expect(found('pages/shop/ourstory/no.yaml', 'De to sidene møtes sjelden')).toEqual(['to sidene']);
    expect(found('pages/hub/no.yaml', 'hjelper deg å registrere ordrer')).toEqual(['hjelper deg å']);
    expect(found('pages/hub/product/no.yaml', 'når hun eller han kommer tilbake')).toEqual(['hun eller han']);
    expect(found('pages/hub/pricing/no.yaml', 'reparasjoner fra merkevarer og forhandlere')).toEqual(['merkevarer']);
    expect(found('blog/x/no.md', 'title: "SMS-oppdateringer som kundene setter pris på"')).toEqual([
      'SMS-oppdateringer',
    ]);
    expect(found('blog/x/no.md', '## Døren åpnes. Den ble bygget i fjor, bygget rundt hverdagen')).toEqual([
      'Døren',
      'ble bygget',
      'bygget rundt',
    ]);
    expect(found('messages/no.yaml', 'loading: Laster...; sending: Sender…')).toEqual(['Laster...', 'Sender…']);
    expect(found('blog/x/no.md', 'den som står i disken; mindre dobbeltføring; ærlig med kunden')).toEqual([
      'i disken',
      'dobbeltføring',
      'ærlig med',
    ]);
    expect(found('blog/x/no.md', 'tråd som matcher; legging opp; goodwill-gest; rull deretter ut')).toEqual([
      'matcher',
      'legging opp',
      'goodwill',
      'rull deretter ut',
    ]);
    expect(found('pages/ourstory/no.yaml', 'et norsk SaaS-selskap')).toEqual(['SaaS-selskap']);
  });

  it('finds the English forms of the copy review of 29 November 2026', () => {
    const english = readRules('en');
    const foundEn = (file: string, text: string) => lintText(file, text, english).map((finding) => finding.found);
    expect(foundEn('pages/landing/en.yaml', 'text: of fashion waste is thrown away')).toEqual(['fashion waste']);
    expect(foundEn('pages/hub/pricing/en.yaml', "heading: The '100 tickets' add-on, 100 extra tickets")).toEqual([
      '100 tickets',
      'extra tickets',
    ]);
    expect(foundEn('messages/en.yaml', 'title: Oops! Page not found')).toEqual(['Oops']);
    expect(foundEn('pages/contact/en.yaml', 'Monday to Friday, 9:00–17:00 CET (CEST in summer)')).toEqual([
      'CET',
      'CEST',
    ]);
    expect(foundEn('pages/hub/ourstory/en.yaml', 'a patch or a seam taken in')).toEqual(['seam taken in']);
    expect(foundEn('pages/hub/launch-campaign/en.yaml', 'heading: Start on Free today; every plan, Free too')).toEqual([
      'Start on Free',
      'Free too',
    ]);
    expect(foundEn('messages/en.yaml', 'loading: Loading...')).toEqual(['Loading...']);
    expect(
      foundEn(
        'pages/hub/pricing/en.yaml',
        'Start on the Free plan; the ‘100 orders’ add-on; textile waste; paper tickets; take in a dress; Loading…; 9:00–17:00 Norwegian time',
      ),
    ).toEqual([]);
  });

  it('reads copy only: not YAML keys, {placeholders} or `code`', () => {
    expect(found('pages/hub/pricing/no.yaml', '  free:\n    tagline: Alt i {plan}, og i tillegg')).toEqual([]);
    expect(found('pages/privacy/no.md', 'setter nettstedet én informasjonskapsel, `site-booking`.')).toEqual([]);
    expect(found('pages/privacy/no.md', 'ved booking av møter')).toEqual(['booking']);
  });

  it('leaves correct forms and other audiences alone', () => {
    expect(
      found('pages/hub/no.yaml', 'Arbeidsklærne holdes i bruk; vi planlegger; verkstedet ditt; kl. 09.00–17.00'),
    ).toEqual([]);
    expect(found('pages/shop/no.yaml', 'For butikker og motemerker')).toEqual([]);
    expect(
      found(
        'pages/ourstory/no.yaml',
        'Hvert manuelt steg; ordrer per måned; Bestill møtet; kl. 10.30 norsk tid; tekstilavfall; jakken; CO₂-besparelser; hverdagen deres',
      ),
    ).toEqual([]);
    expect(
      found(
        'pages/hub/pricing/no.yaml',
        'Start med gratisabonnementet; fra Gratis til Professional; Programvare for reparasjon av klær; Se Mendwise Hub; samlet; arbeidssteder; lages automatisk; de to partene; hjelper deg med å; motemerker; SMS-varsler; døra; bygd inn; Laster …; bak disken; en bygning, bygget',
      ),
    ).toEqual([]);
  });
});
