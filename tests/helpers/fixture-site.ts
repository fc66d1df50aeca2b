/**
 * Makes a throw-away copy of the real site in a temp folder, with the real templates and public
 * files, so a test can change its config or content without touching the repository.
 */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { outputRoot, repoRoot } from './paths';

/** A temp site: its folder, its config file, and how to remove it. */
export interface TempSite {
  dir: string;
  config: string;
  cleanup(): Promise<void>;
}

/** Copies config and content; `edit` may rewrite the config text; `posts` replaces content/blog. */
export async function createTempSite(
  options: { editConfig?: (text: string) => string; posts?: string } = {},
): Promise<TempSite> {
  await mkdir(outputRoot, { recursive: true });
  const dir = await mkdtemp(join(outputRoot, 'fixture-'));
  await cp(join(repoRoot, 'content'), join(dir, 'content'), { recursive: true });
  if (options.posts) {
    await rm(join(dir, 'content', 'blog'), { recursive: true, force: true });
    await cp(options.posts, join(dir, 'content', 'blog'), { recursive: true });
  }
  let text = await readFile(join(repoRoot, 'site.config.yaml'), 'utf8');
  text = text.replace(
    /^site:/m,
    `paths:\n  templates: ${JSON.stringify(join(repoRoot, 'templates'))}\n  public: ${JSON.stringify(join(repoRoot, 'public'))}\n\nsite:`,
  );
  if (options.editConfig) text = options.editConfig(text);
  const config = join(dir, 'site.config.yaml');
  await writeFile(config, text);
  // Retries: a server closed just before may still finish a write in the folder (the admin's
  // background reading of the lists at start, which can record the translation baseline).
  return { dir, config, cleanup: () => rm(dir, { recursive: true, force: true, maxRetries: 5 }) };
}
