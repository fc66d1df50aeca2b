/** Builds a site into a folder with the real pipeline (no child process). */
import { buildSite, type BuildResult } from '../../src/build';
import { addSearchIndex } from '../../src/emit/search-index';
import { writeSite } from '../../src/emit/write';

/** Builds the site of `configPath` into `outDir`, with its search index as `site build` adds it. */
export async function buildInto(configPath: string, outDir: string, options: { drafts?: boolean } = {}): Promise<BuildResult> {
  const result = await buildSite({ config: configPath, drafts: options.drafts });
  const { config, pages, files } = result;
  await writeSite(outDir, config.search.enabled ? (await addSearchIndex({ config, pages, files, kept: new Map(), outputFolder: outDir, folder: '' })).files : files);
  return result;
}
