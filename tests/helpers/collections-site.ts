/**
 * An editable copy of the site with a second collection beside the blog: `cases` (case studies),
 * with a number, a boolean, an optional date, a string labelled in the config and a taxonomy (an enum of sectors, named in the
 * messages), an entry route at /cases/{slug} (/no/kunder/{slug}) and one entry, bike-shop, whose
 * Norwegian translation has its own slug (sykkelbutikken).
 */
import { appendFile, cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeEditable } from './editable-site';
import { createTempSite, type TempSite } from './fixture-site';
import { repoRoot } from './paths';

const fixture = join(repoRoot, 'tests', 'fixtures', 'collections');

const collection = `  cases:
    fields:
      clients: { type: number }
      featured: { type: boolean, required: false }
      since: { type: date, required: false }
      partner: { type: string, required: false, label: Partner organisation }
    taxonomy: { field: sector, terms: [retail, hospitality], path: sector, labels: cases.sectors }
`;

const messages: Record<string, string> = {
  en: '\ncases:\n  title: Case studies\n  sectors:\n    retail: Retail\n    hospitality: Hotels and restaurants\n',
  no: '\ncases:\n  title: Kundehistorier\n  sectors:\n    retail: Butikk\n    hospitality: Hotell og restaurant\n',
};

/** The site with `cases` next to `blog`. */
export async function createCollectionsSite(): Promise<TempSite> {
  const site = await createTempSite();
  await addCasesCollection(site);
  return site;
}

/** Adds `cases` to a temp site, with templates of its own (the case study's template among them). */
export async function addCasesCollection(site: TempSite): Promise<void> {
  await makeEditable(site);
  await cp(join(fixture, 'CaseStudy.tsx'), join(site.dir, 'templates', 'pages', 'CaseStudy.tsx'));
  await cp(join(fixture, 'cases'), join(site.dir, 'content', 'cases'), { recursive: true });
  for (const [locale, text] of Object.entries(messages))
    await appendFile(join(site.dir, 'content', 'messages', `${locale}.yaml`), text);
  const text = await readFile(site.config, 'utf8');
  await writeFile(
    site.config,
    text
      .replace(/^collections:\n/m, `collections:\n${collection}`)
      .replace(
        /^( {2}- \{ path: "\/blog\/\{slug\}", template: BlogPost, entry: blog \}\n)/m,
        `$1  - { path: "/cases/{slug}", template: CaseStudy, entry: cases, paths: { "no": "/kunder/{slug}" } }\n`,
      ),
  );
}
