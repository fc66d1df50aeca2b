/**
 * A temp copy of the site whose templates and public files are copies too, so a test can edit
 * them. It lives under tests/.output, inside the repository, so the templates resolve
 * `typed-site/template` (the package's own name) and their packages from the repository.
 */
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTempSite, type TempSite } from './fixture-site';
import { repoRoot } from './paths';

/** Copies config, content, templates and public/ into a fresh temp site. */
export async function createEditableSite(): Promise<TempSite> {
  const site = await createTempSite();
  await makeEditable(site);
  return site;
}

/** Gives a temp site copies of the templates and public files, and points its config at them. */
export async function makeEditable(site: TempSite): Promise<void> {
  await cp(join(repoRoot, 'templates'), join(site.dir, 'templates'), { recursive: true });
  await cp(join(repoRoot, 'public'), join(site.dir, 'public'), { recursive: true });
  const text = await readFile(site.config, 'utf8');
  await writeFile(
    site.config,
    text
      .replace(/^ {2}templates: .*$/m, `  templates: ${JSON.stringify(join(site.dir, 'templates'))}`)
      .replace(/^ {2}public: .*$/m, `  public: ${JSON.stringify(join(site.dir, 'public'))}`),
  );
}
