/**
 * Builds a site into a folder in this process, as `site build` does: the same pipeline, its search
 * index and output stages included.
 */
import { build, silentLogger, type BuildReport } from '../../src/api';

/** Builds the site of `configPath` into `outDir`. */
export async function buildInto(
  configPath: string,
  outDir: string,
  options: { drafts?: boolean } = {},
): Promise<BuildReport> {
  return build({ config: configPath, out: outDir, drafts: options.drafts, logger: silentLogger });
}
