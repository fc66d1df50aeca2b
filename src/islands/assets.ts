/**
 * Static assets: the stylesheet (templates/styles/main.css, bundled and minified by esbuild, with a
 * content-hashed name) and the files of public/, copied as they are. Symbolic links in public/ are
 * not followed (one could publish any file of the machine) and dot-files are not published (but
 * `.well-known/`), as `site serve` would not serve them either.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { basename, extname, join, relative, resolve } from 'node:path';
import type { Message } from 'esbuild';
import { adminUiFolder } from '../admin-pages.js';
import type { Diagnostics } from '../diagnostics.js';
import { SiteErrors } from '../errors.js';
import { templateSources } from '../config/sources.js';
import { esbuildErrors, type EsbuildStepOptions, type RunEsbuild } from '../esbuild-step.js';
import { isHiddenPath, resolveSiteFile } from '../file-paths.js';
import type { OutputFiles } from '../output-files.js';
import { assetsFolder } from '../url-paths.js';

/** The built assets: their files and the URLs pages link to. */
export interface Assets {
  files: OutputFiles;
  stylesheet: string;
}

/** Content hash used in asset names (first 10 hex digits of SHA-256). */
export function contentHash(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex').slice(0, 10);
}

/**
 * Files the stylesheet's `url()`s name (fonts, images) are published beside it, at
 * /assets/<name>.<hash of the file>.<ext>: a name known from the file alone, so a page can preload
 * a font (`output.preloadFonts`) at the URL the stylesheet gives it, without the assets step. The
 * stylesheet names them by that file name alone (`url(inter-latin-400-normal.<hash>.woff2)`).
 */
export const stylesheetFileTypes = [
  '.woff2',
  '.woff',
  '.ttf',
  '.otf',
  '.svg',
  '.png',
  '.jpg',
  '.jpeg',
  '.webp',
  '.avif',
  '.gif',
] as const;
const stylesheetFileLoaders: Record<string, 'file'> = Object.fromEntries(
  stylesheetFileTypes.map((ext) => [ext, 'file']),
);
/** Where esbuild writes the stylesheet in memory, and the prefix of the URLs it gives the files. */
const stylesheetOutdir = resolve('/', 'site-stylesheet');
const stylesheetPublicPath = '/site-stylesheet-file';

/** The published URL of a file named `name` (with its extension) holding `data`. */
function assetUrl(name: string, data: Uint8Array): string {
  const ext = extname(name);
  return `/${assetsFolder}/${name.slice(0, name.length - ext.length)}.${contentHash(data)}${ext}`;
}

/** The URLs of the config's `output.preloadFonts`, as the stylesheet names them (checked to exist when the config loads). */
export function preloadFontUrls(config: { root: string; output: { preloadFonts: readonly string[] } }): string[] {
  return config.output.preloadFonts.map((font) =>
    assetUrl(basename(font), readFileSync(resolveSiteFile(config.root, font) ?? resolve(config.root, font))),
  );
}

/**
 * Bundles the CSS and collects public/; what is left out of public/ goes to `diagnostics` (a warning
 * for a link, an info for a dot-file). `engine` are the engine's own files, added as they are: the
 * admin's stylesheet while the admin is on, the consent banner's script and styles while the site
 * asks for consent.
 */
export async function buildAssets(
  dirs: { templates: string; public: string },
  diagnostics: Diagnostics,
  options: EsbuildStepOptions = {},
  engine: readonly EngineFile[] = [],
): Promise<Assets> {
  const build = options.run ?? ((await import('esbuild')).build as RunEsbuild);
  const files: OutputFiles = new Map();
  let css: string;
  try {
    const result = await build({
      entryPoints: [templateSources(dirs.templates).stylesheet],
      bundle: true,
      minify: true,
      write: false,
      outdir: stylesheetOutdir,
      entryNames: 'main',
      assetNames: '[name].[hash]',
      publicPath: stylesheetPublicPath,
      loader: stylesheetFileLoaders,
      target: ['chrome110', 'firefox110', 'safari16'],
      logLevel: 'silent',
    });
    css = '';
    const urls = new Map<string, string>();
    for (const file of result.outputFiles) {
      if (file.path.endsWith('.css')) {
        css = file.text;
        continue;
      }
      const url = assetUrl(basename(file.path).replace(/\.[A-Z0-9]+(\.[a-z0-9]+)$/, '$1'), file.contents);
      urls.set(`${stylesheetPublicPath}/${basename(file.path)}`, url);
      files.set(url.slice(1), file.contents);
    }
    // Named relative to the stylesheet, which is published in the same folder: right under any
    // base path (`site build --base /docs` serves both from /docs/assets/) with no rewrite.
    for (const [from, to] of urls) css = css.split(from).join(basename(to));
  } catch (error) {
    const messages = (error as { errors?: Message[] }).errors;
    if (messages?.length) throw new SiteErrors(esbuildErrors(messages, 'ASSET_BUILD'));
    throw error;
  }
  const stylesheet = `/${assetsFolder}/main.${contentHash(css)}.css`;
  files.set(stylesheet.slice(1), css);
  for (const file of engine) files.set(file.url.slice(1), file.text);
  for (const file of await listPublicFiles(dirs.public, diagnostics)) {
    files.set(relative(dirs.public, file).split('\\').join('/'), await readFile(file));
  }
  return { files, stylesheet };
}

/** The regular files under public/, sorted; symbolic links are reported and left out, dot-files left out. */
async function listPublicFiles(dir: string, diagnostics: Diagnostics): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const nested = await Promise.all(
    entries.map((entry) => {
      const path = join(dir, entry.name);
      if (isHiddenPath(entry.name)) {
        diagnostics.info({
          code: 'PUBLIC_SKIPPED',
          message: 'a dot-file is not published (site serve would not serve it either)',
          file: relative(process.cwd(), path),
          hint: 'Rename it without the leading dot to publish it; .well-known/ is published.',
        });
        return [];
      }
      if (entry.isSymbolicLink()) {
        diagnostics.warn({
          code: 'PUBLIC_SKIPPED',
          message: 'a symbolic link is not published: it could lead to any file of this machine',
          file: relative(process.cwd(), path),
        });
        return [];
      }
      if (entry.isDirectory()) return listPublicFiles(path, diagnostics);
      return entry.isFile() ? [path] : [];
    }),
  );
  return nested.flat().sort();
}

/** A file of the engine's own, published as it is under a name made of its text's hash (so the renderer knows the name without a build step). */
export interface EngineFile {
  url: string;
  text: string;
}

/** `/assets/<base>.<hash>.<extension>` for `text`. */
export function engineFile(base: string, extension: string, text: string): EngineFile {
  return { url: `/${assetsFolder}/${base}.${contentHash(text)}.${extension}`, text };
}

let stylesheet: EngineFile | undefined;

/** The admin's stylesheet (src/admin/ui/admin.css), published as it is at /assets/admin.<hash>.css. */
export function adminStylesheet(): EngineFile {
  return (stylesheet ??= engineFile('admin', 'css', readFileSync(join(adminUiFolder(), 'admin.css'), 'utf8')));
}
