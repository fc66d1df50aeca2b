/**
 * The site plugins' `buildEnd` hooks, run after a successful build and before its output is
 * switched into place. They run against a staging folder beside the output holding the whole
 * built site (the files left as they were included): what they write there is taken into the
 * output, and a hook that throws, runs past `build.pluginTimeout` or calls `process.exit` stops
 * the build before the output folder is touched, so the previous site stays as it was, and the
 * staging copy is removed.
 */
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import type { FileStamp } from '../cache/render-state.js';
import type { ResolvedConfig } from '../config/load.js';
import { copyFiles, type OutputFiles } from '../output-files.js';
import type { BuiltPage } from '../config/plugin-api.js';
import { runPluginHook } from '../config/plugin-hooks.js';
import { sitePluginsOf } from '../config/plugins.js';

/** What `runBuildEnd` is given: the build's files as they will be written, and where. */
export interface BuildEndInput {
  config: ResolvedConfig;
  /** The output folder the files go to. */
  outputFolder: string;
  /** The folder of the output the web server serves, relative to it, with a trailing slash ("static/" for vercel), or "". */
  staticFolder: string;
  /** Every output file the build made (placed for the target), by path relative to the output. */
  files: OutputFiles;
  /** Files of the earlier output left as they are. */
  kept: ReadonlyMap<string, FileStamp>;
  pages: BuiltPage[];
  logger: { info(message: string): void; warn(message: string): void };
}

/**
 * Runs the hooks; returns the files and kept files to write (unchanged without a `buildEnd`).
 * Throws a PLUGIN_FAILED naming the plugin and the hook when one throws.
 */
export async function runBuildEnd(
  input: BuildEndInput,
): Promise<{ files: OutputFiles; kept: ReadonlyMap<string, FileStamp> }> {
  const plugins = sitePluginsOf(input.config).filter((entry) => entry.plugin.buildEnd);
  if (!plugins.length) return { files: input.files, kept: input.kept };
  const outDir = resolve(input.outputFolder);
  const staging = join(dirname(outDir), `.${basename(outDir)}.plugins-${randomBytes(4).toString('hex')}`);
  try {
    mkdirSync(join(staging, input.staticFolder), { recursive: true });
    for (const [path, data] of input.files) {
      mkdirSync(dirname(join(staging, path)), { recursive: true });
      writeFileSync(join(staging, path), data);
    }
    for (const path of input.kept.keys()) {
      mkdirSync(dirname(join(staging, path)), { recursive: true });
      copyFileSync(join(outDir, path), join(staging, path));
    }
    for (const entry of plugins) {
      // Within build.pluginTimeout, and with process.exit caught: either ends the build here, and the staging copy goes below.
      await runPluginHook(entry, 'buildEnd()', input.config.build.pluginTimeout, input.config.file, () =>
        entry.plugin.buildEnd!({
          outDir: staging,
          publicDir: join(staging, input.staticFolder),
          pages: input.pages,
          config: input.config,
          logger: input.logger,
          options: entry.ref.options,
        }),
      );
    }
    // What the hooks wrote or changed joins the output; a kept file they changed is written anew.
    const files = copyFiles(input.files);
    const kept = new Map(input.kept);
    for (const path of listFiles(staging)) {
      const bytes = readFileSync(join(staging, path));
      const before = files.get(path) ?? (kept.has(path) ? readFileSync(join(outDir, path)) : undefined);
      if (before !== undefined && Buffer.from(before).equals(bytes)) continue;
      kept.delete(path);
      files.set(path, bytes);
    }
    return { files, kept };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Every file below `dir`, as paths relative to it with forward slashes, in plain string order. */
function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out.push(relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'));
  }
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
