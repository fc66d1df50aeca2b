/**
 * The cases site (collections-site.ts) with a data collection `team` whose member `ada` has a
 * field of every richer type (select, image, Markdown, list of strings, list of objects, object),
 * and a `lead` of each case study that refers to her (issue 48; tests/fixtures/entry-fields).
 */
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { createCollectionsSite } from './collections-site';
import type { TempSite } from './fixture-site';
import { repoRoot } from './paths';

const fixture = join(repoRoot, 'tests', 'fixtures', 'entry-fields');
const team = `  team:
    data: true
    fields:
      role: { type: select, options: [repair, sales], labels: team.roles }
      photo: { type: image }
      bio: { type: markdown }
      skills: { type: list, of: string }
      links: { type: list, of: { label: { type: string }, url: { type: string } }, required: false }
      address: { type: object, fields: { city: { type: string } } }
`;
const roles: Record<string, string> = {
  en: '\nteam:\n  roles:\n    repair: Repairs\n    sales: Sales\n',
  no: '\nteam:\n  roles:\n    repair: Reparasjon\n    sales: Salg\n',
};

/** The cases site with `team` and a `lead` of each case study. */
export async function createTeamSite(): Promise<TempSite> {
  const site = await createCollectionsSite();
  await cp(join(fixture, 'team'), join(site.dir, 'content', 'team'), { recursive: true });
  await cp(join(fixture, 'CaseStudy.tsx'), join(site.dir, 'templates', 'pages', 'CaseStudy.tsx'));
  const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#336699' } })
    .png()
    .toBuffer();
  await writeFile(join(site.dir, 'content', 'team', 'ada', 'ada.png'), photo);
  for (const [locale, text] of Object.entries(roles)) {
    const file = join(site.dir, 'content', 'messages', `${locale}.yaml`);
    await writeFile(file, (await readFile(file, 'utf8')) + text);
  }
  await editFile(site.config, (text) =>
    text
      .replace(/^collections:\n/m, `collections:\n${team}`)
      .replace(
        /^( {6}clients: \{ type: number \}\n)/m,
        '$1      lead: { type: reference, collection: team, required: false }\n',
      ),
  );
  for (const locale of ['en', 'no'])
    await editFile(caseFile(site, locale), (text) => text.replace(/^sector: /m, 'lead: ada\nsector: '));
  return site;
}

/** The case study bike-shop's file in a locale. */
export const caseFile = (site: TempSite, locale: string) =>
  join(site.dir, 'content', 'cases', 'bike-shop', `${locale}.md`);

async function editFile(file: string, edit: (text: string) => string): Promise<void> {
  await writeFile(file, edit(await readFile(file, 'utf8')));
}
