/** Builds a site into a folder with the real pipeline (no child process). */
import { buildSite, type BuildResult } from '../../src/build';
import { writeSite } from '../../src/emit/write';

/** Builds the site of `configPath` into `outDir`. */
export async function buildInto(configPath: string, outDir: string, options: { drafts?: boolean } = {}): Promise<BuildResult> {
  const result = await buildSite({ config: configPath, drafts: options.drafts });
  await writeSite(outDir, result.files);
  return result;
}
